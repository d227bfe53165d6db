"""`cudaport verify`: position mapping, compile_commands.json flags, and the real HIP
compiler's verdict reported on the CUDA lines (no stub compiler anywhere)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from cudaport import Options, translate_bytes
from cudaport.project.compile_db import CompileDbError, load, preprocessor_flags
from cudaport.source.linemap import PositionMap
from cudaport.translate.ptx import inline_ptx
from cudaport.run.verify import ROCM_WRAPPER, Compiler, find_compiler, hip_version, rocm_dir
from conftest import EXAMPLES, ROOT

COMPILER = find_compiler()
SYSTEM = find_compiler(toolchain="system")  # the host's HIP (Debian 12: 5.2)
ROCM = find_compiler(toolchain="rocm")  # the folder tools/setup-rocm.sh installs
_hip = pytest.mark.skipif(
    COMPILER is None and os.environ.get("CUDAPORT_SKIP_HIP") == "1",
    reason="no HIP compiler and CUDAPORT_SKIP_HIP=1")
_system_hip = pytest.mark.skipif(
    SYSTEM is None and os.environ.get("CUDAPORT_SKIP_HIP") == "1",
    reason="no system HIP compiler and CUDAPORT_SKIP_HIP=1")
_rocm = pytest.mark.skipif(
    ROCM is None and os.environ.get("CUDAPORT_SKIP_HIP") == "1",
    reason="no ROCm toolchain (tools/setup-rocm.sh) and CUDAPORT_SKIP_HIP=1")


def needs_hip(test):
    """Runs the HIP compiler: slow."""
    return pytest.mark.slow(_hip(test))


def needs_system_hip(test):
    return pytest.mark.slow(_system_hip(test))


def needs_rocm(test):
    return pytest.mark.slow(_rocm(test))


def run(*args: str, cwd: Path | None = None, **env_vars: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), **env_vars)
    return subprocess.run([sys.executable, "-m", "cudaport", "verify", *args], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=300)


# --- mapping translated positions back to the CUDA source ---------------------------------

def test_position_map_skips_an_inserted_include_line():
    src = b"// top\n#include <cstdio>\nvoid f() { cudaDeviceSynchronize(); }\nint x = bad;\n"
    result = translate_bytes(src, Options())
    out = result.output
    assert out.count(b"\n") == src.count(b"\n") + 1  # hip_runtime.h was inserted
    pm = PositionMap(src, result.edits, out)
    out_line = out.splitlines().index(b"int x = bad;") + 1
    assert pm.to_input(out_line, 9) == (4, 9)
    # The inserted line itself maps to the line it was inserted before.
    assert pm.to_input(2, 1) == (2, 1)


def test_position_map_inside_a_replacement_maps_to_its_start_and_after_it_exactly():
    src = b"#include <cuda_runtime.h>\nvoid f() { cudaMemcpyToSymbol(c, h, 4); int y = z; }\n"
    result = translate_bytes(src, Options())
    pm = PositionMap(src, result.edits, result.output)
    line2 = result.output.splitlines()[1]
    assert pm.to_input(2, line2.index(b"hipMemcpy") + 3) == (2, src.splitlines()[1].index(b"cuda") + 1)
    # an inserted wrapper maps to the argument it wraps (the template's edits are per part)
    assert pm.to_input(2, line2.index(b"HIP_SYMBOL") + 1) == (2, src.splitlines()[1].index(b"c,") + 1)
    assert pm.to_input(2, line2.index(b"z;") + 1) == (2, src.splitlines()[1].index(b"z;") + 1)


def test_position_map_of_an_unchanged_file_is_the_identity():
    src = b"int a;\r\nint b;\r\n"
    pm = PositionMap(src, [], src)
    assert pm.to_input(2, 5) == (2, 5)


# --- compile_commands.json -----------------------------------------------------------------

def test_preprocessor_flags_keep_includes_macros_and_standard_only(tmp_path):
    flags = preprocessor_flags(
        ["-Iinc", "-I", "/abs", "-isystem", "third", "-DA=1", "-D", "B", "-UC", "-O3",
         "--std=c++17", "-gencode", "arch=compute_80,code=sm_80", "--expt-extended-lambda",
         "--include-path=more", "-include", "pre.h", "-isystem=/sys/inc", "-o", "x.o", "-c",
         "a.cu"], tmp_path)
    assert flags == [f"-I{tmp_path / 'inc'}", "-I/abs", "-isystem", str(tmp_path / "third"),
                     "-DA=1", "-DB", "-UC", "-std=c++17", f"-I{tmp_path / 'more'}",
                     "-include", str(tmp_path / "pre.h"), "-isystem", "/sys/inc"]


def test_compile_db_reads_command_and_arguments_forms(tmp_path):
    db = [{"directory": str(tmp_path), "file": "a.cu", "command": "nvcc -Iinc -DX -c a.cu"},
          {"directory": str(tmp_path), "file": str(tmp_path / "b.cu"),
           "arguments": ["clang++", "-std=c++20", "b.cu"]}]
    (tmp_path / "compile_commands.json").write_text(json.dumps(db))
    flags = load(tmp_path)
    assert flags[str(tmp_path / "a.cu")] == [f"-I{tmp_path / 'inc'}", "-DX"]
    assert flags[str(tmp_path / "b.cu")] == ["-std=c++20"]


def test_compile_db_errors_name_the_file_and_line(tmp_path):
    bad = tmp_path / "compile_commands.json"
    bad.write_text('[\n{"file": "a.cu",\n')
    with pytest.raises(CompileDbError, match=r"compile_commands.json:3: not valid JSON"):
        load(bad)
    with pytest.raises(CompileDbError, match="no such file"):
        load(tmp_path / "missing")


# --- inline PTX ------------------------------------------------------------------------------

def test_inline_ptx_found_in_code_only():
    src = (b'// asm("mov.u32 %0, %%laneid;")\n'
           b'const char* s = "asm(\\"mov.u32\\")";\n'
           b'__device__ int f() { int r; asm volatile ("mov.u32 %0, %%laneid;" : "=r"(r)); return r; }\n'
           b'void host() { __asm__ __volatile__("nop"); }\n'
           b'__device__ void g() { asm("{\\n\\t.reg .pred p;\\n\\t"\n "setp.ne.b32 p, %0, 0;\\n}" :: "r"(1)); }\n')
    lines = [src.count(b"\n", 0, offset) + 1 for offset in inline_ptx(src)]
    assert lines == [3, 5]


# --- the command, with the real compiler ---------------------------------------------------

BROKEN = """// A kernel file with one error the HIP compiler must see.
#include <cstdio>

__global__ void k(float* p) { p[threadIdx.x] = 1.0f; }

int main() {
  float* p = nullptr;
  cudaMalloc(&p, 4);
  k<<<1, 1>>>(p);
  not_declared_anywhere(p);
  cudaFree(p);
}
"""


@needs_hip
def test_compile_error_is_reported_on_the_cuda_line(tmp_path):
    (tmp_path / "broken.cu").write_text(BROKEN)
    proc = run("broken.cu", "--launch", "hip", "--keep-dir", "ws", cwd=tmp_path)
    assert proc.returncode == 1, proc.stderr
    kept = tmp_path / "ws" / str(tmp_path / "broken.cu").lstrip("/")
    assert b"hipLaunchKernelGGL(k, dim3(1), dim3(1), 0, 0, p)" in kept.read_bytes()
    # Line 10 of the CUDA file, although the translation inserted an #include above it.
    assert "broken.cu:10:3: CP501 error: use of undeclared identifier 'not_declared_anywhere'" \
        in proc.stdout
    assert "1 failed" in proc.stderr


@needs_hip
def test_the_snippet_under_a_mapped_location_shows_the_cuda_line(tmp_path):
    # `verify -v` showed "k.cu:4:3: error" over the translated text of line 5 of the .hip
    from cudaport.run.verify import Workspace

    (tmp_path / "k.cu").write_text("#include <cuda_runtime.h>\n\nvoid f() {\n"
                                   "\tcudaFooBar(1); cudaMalloc(0, 0);\n}\n")
    ws = Workspace(tmp_path / "ws", Options(target_version="7.2"))
    target = ws.add(tmp_path / "k.cu", [])
    translated = target.read_text().splitlines()
    line = next(i for i, text in enumerate(translated, 1) if "cudaFooBar" in text)
    col = translated[line - 1].index("hipMalloc") + 1
    output = (f"{target}:{line}:{col}: error: no matching function\n"
              f"{line:>5} | {translated[line - 1]}\n      | \t               ^~~~~~~~~\n"
              f"1 error generated when compiling for gfx942.\n")
    mapped = ws.rewrite(output).splitlines()
    cuda_col = "\tcudaFooBar(1); ".__len__() + 1
    assert mapped[0].endswith(f"k.cu:4:{cuda_col}: error: no matching function")
    assert mapped[1] == "    4 | \tcudaFooBar(1); cudaMalloc(0, 0);"
    assert mapped[2] == "      | \t" + " " * len("cudaFooBar(1); ") + "^"
    assert mapped[3].startswith("1 error generated")


def test_verbose_output_maps_compiler_locations_and_json_report(tmp_path):
    (tmp_path / "broken.cu").write_text(BROKEN)
    proc = run("broken.cu", "-v", "--report", "r.json", cwd=tmp_path)
    assert proc.returncode == 1
    assert "broken.cu:10:3: error:" in proc.stderr
    compiler_lines = [ln for ln in proc.stderr.splitlines() if not ln.startswith("--- ")]
    assert not [ln for ln in compiler_lines if "cudaport-verify-" in ln]  # all mapped back
    report = json.loads((tmp_path / "r.json").read_text())
    (entry,) = report["files"]
    assert entry["ok"] is False and entry["findings"][0]["line"] == 10


@needs_hip
def test_project_headers_are_translated_and_errors_map_into_them(tmp_path):
    project = tmp_path / "proj"
    (project / "include").mkdir(parents=True)
    (project / "src").mkdir()
    (project / "include" / "util.cuh").write_text(
        "#pragma once\n#include <cuda_runtime.h>\n"
        "inline void sync_all() { cudaDeviceSynchronize(); }\n"
        "#ifdef BREAK_IT\ninline int broken() { return missing_symbol; }\n#endif\n")
    (project / "src" / "main.cu").write_text(
        '#include "util.cuh"\n__global__ void k() {}\nint main() { k<<<1, 1>>>(); sync_all(); }\n')
    ok = run("src", "-I", "include", cwd=project)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    assert "1 compiled, 0 failed" in ok.stderr
    bad = run("src/main.cu", "-I", "include", "-D", "BREAK_IT", "-j", "2", cwd=project)
    assert bad.returncode == 1
    assert "include/util.cuh:5:30: CP501 error: use of undeclared identifier 'missing_symbol'" \
        in bad.stdout


@needs_hip
def test_flags_come_from_compile_commands(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "cfg.h").write_text("#define SCALE 2.0f\n")
    (tmp_path / "a.cu").write_text(
        '#include "cfg.h"\n__global__ void k(float* p) { p[0] = SCALE * VALUE; }\n')
    db = [{"directory": str(tmp_path), "file": "a.cu",
           "command": "nvcc -Iinc -DVALUE=3 -O2 -arch=sm_80 -c a.cu -o a.o"}]
    (tmp_path / "db").mkdir()
    (tmp_path / "db" / "compile_commands.json").write_text(json.dumps(db))
    assert run("a.cu", "-p", "db", cwd=tmp_path).returncode == 0
    without = run("a.cu", cwd=tmp_path)
    assert without.returncode == 1 and "CP504" in without.stdout  # cfg.h not found


@needs_system_hip
def test_missing_library_header_names_the_package(tmp_path):
    (tmp_path / "blas.cu").write_text(
        "#include <cublas_v2.h>\nvoid f(cublasHandle_t h) { cublasDestroy(h); }\n")
    proc = run("blas.cu", "--toolchain", "system", cwd=tmp_path)  # Debian 12 has no hipBLAS
    assert proc.returncode == 1
    assert "blas.cu:1:10: CP504 error: 'hipblas/hipblas.h' file not found; needs hipBLAS" in proc.stdout


@needs_hip
def test_already_translated_files_and_an_example_tree(tmp_path):
    hip = EXAMPLES / "vector_add" / "expected" / "hip" / "vector_add.cu"
    assert run(str(hip), "--translated").returncode == 0
    tree = run(str(EXAMPLES / "multi_file" / "src"), "-I",
               str(EXAMPLES / "multi_file" / "include"))
    assert tree.returncode == 0 and "2 compiled, 0 failed" in tree.stderr


def test_without_a_compiler_it_says_what_to_install(tmp_path):
    (tmp_path / "a.cu").write_text("__global__ void k() {}\n")
    proc = run("a.cu", "--compiler", str(tmp_path / "no-such-hipcc"), cwd=tmp_path)
    assert proc.returncode == 2
    assert "not a usable HIP compiler" in proc.stderr
    assert "clang-15 libamdhip64-dev" in proc.stderr and "Traceback" not in proc.stderr


def test_usage_errors_exit_2(tmp_path):
    assert run("missing.cu", cwd=tmp_path).returncode == 2
    (tmp_path / "a.cu").write_text("__global__ void k() {}\n")
    bad_db = run("a.cu", "-p", "nowhere", cwd=tmp_path)
    assert bad_db.returncode == 2 and "nowhere" in bad_db.stderr


def test_hip_version_is_read_from_the_headers(tmp_path):
    (tmp_path / "include" / "hip").mkdir(parents=True)
    (tmp_path / "include" / "hip" / "hip_version.h").write_text(
        "#define HIP_VERSION_MAJOR 6\n#define HIP_VERSION_MINOR 1\n")
    assert hip_version(str(tmp_path)) == "6.1"
    assert hip_version(str(tmp_path / "nowhere")) is None


@needs_system_hip
def test_translation_targets_the_detected_hip_version(tmp_path):
    # Debian's HIP 5.2 lacks __shfl_down_sync: verify translates with its fallback.
    (tmp_path / "warp.cu").write_text(
        "__global__ void k(float* p) { p[0] = __shfl_down_sync(0xffffffffu, p[0], 1); }\n")
    proc = run("warp.cu", "--toolchain", "system", cwd=tmp_path)
    version = tuple(int(x) for x in (SYSTEM.hip_version or "99").split("."))
    if version < (6, 2):
        assert proc.returncode == 0, proc.stdout
        assert f"HIP {SYSTEM.hip_version} detected" in proc.stderr


# --- the ROCm toolchain folder and its wrapper --------------------------------------------

def test_a_missing_rocm_toolchain_is_a_usage_error_that_says_how_to_set_it_up(tmp_path):
    (tmp_path / "a.cu").write_text("__global__ void k() {}\n")
    for proc in (run("a.cu", "--rocm", "none", cwd=tmp_path),
                 run("a.cu", "--toolchain", "rocm", cwd=tmp_path,
                     CUDAPORT_ROCM_DIR=str(tmp_path / "none"))):
        assert proc.returncode == 2
        assert f"no ROCm toolchain in {'none' if '--rocm' in proc.args else tmp_path / 'none'}" \
            in proc.stderr
        assert "tools/setup-system.sh" in proc.stderr and "Traceback" not in proc.stderr
    bad = run("a.cu", cwd=tmp_path, CUDAPORT_HIP_COMPILER=str(tmp_path / "no-hipcc"))
    assert bad.returncode == 2 and "not a usable HIP compiler" in bad.stderr


def test_auto_prefers_the_rocm_folder_and_falls_back_to_the_system(tmp_path, monkeypatch):
    if ROCM is not None:
        assert find_compiler() == ROCM
        assert find_compiler(str(rocm_dir() / ROCM_WRAPPER)) == ROCM
        assert ROCM.hip_version == hip_version(str(rocm_dir() / "usr"))
    monkeypatch.setenv("CUDAPORT_ROCM_DIR", str(tmp_path))  # an empty folder: not set up
    assert find_compiler() == SYSTEM
    assert find_compiler(toolchain="rocm") is None
    with pytest.raises(ValueError):
        find_compiler(toolchain="cuda")


def _mounts() -> list[str]:
    return Path("/proc/self/mountinfo").read_text().splitlines()


@pytest.mark.slow
@needs_rocm
def test_rocm_wrapper_maps_errors_reports_its_version_and_leaves_no_mounts(tmp_path):
    (tmp_path / "broken.cu").write_text(BROKEN)
    before = _mounts()
    proc = run("broken.cu", "--toolchain", "rocm", "--report", "r.json", cwd=tmp_path)
    assert _mounts() == before
    assert proc.returncode == 1, proc.stderr
    assert "broken.cu:10:3: CP501 error: use of undeclared identifier 'not_declared_anywhere'" \
        in proc.stdout
    assert f"with HIP {ROCM.hip_version} (object code), translated for HIP {ROCM.hip_version}" \
        in proc.stderr
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["hip_version"] == report["translated_for"] == ROCM.hip_version
    assert [f["compiled_with"] for f in report["files"]] == [f"HIP {ROCM.hip_version}"]


@pytest.mark.slow
@needs_rocm
def test_rocm_wrapper_compiles_files_below_a_system_folder_the_root_lacks(tmp_path):
    # /var/tmp/... exists on the host only: the wrapper binds that folder at the same path.
    with tempfile.TemporaryDirectory(dir="/var/tmp") as folder:
        (Path(folder) / "inc").mkdir()
        (Path(folder) / "inc" / "scale.h").write_text("#define SCALE 2.0f\n")
        (Path(folder) / "a.cu").write_text(
            '#include "scale.h"\n__global__ void k(float* p) { p[0] = SCALE; }\n')
        proc = run(f"{folder}/a.cu", "--toolchain", "rocm", "-I", f"{folder}/inc", cwd=tmp_path)
        assert proc.returncode == 0, proc.stdout + proc.stderr


@needs_rocm
def test_setup_rocm_returns_at_once_when_the_folder_is_set_up():
    proc = subprocess.run(["bash", str(ROOT / "tools" / "setup-rocm.sh")], capture_output=True,
                          text=True, timeout=60, env=dict(os.environ, CUDAPORT_ROCM_DIR=str(rocm_dir())))
    assert proc.returncode == 0 and "ROCm toolchain ready" in proc.stderr, proc.stderr


def test_compile_db_reads_nvcc_options_files_as_cmake_writes_them(tmp_path):
    (tmp_path / "CMakeFiles").mkdir()
    (tmp_path / "CMakeFiles" / "includes_CUDA.rsp").write_text('-I"/src/Common" -DFROM_RSP\n')
    (tmp_path / "more.rsp").write_text("-Iinc2\n")
    flags = preprocessor_flags(
        ["--options-file", "CMakeFiles/includes_CUDA.rsp", "@more.rsp", "-std=c++17",
         "-x", "cu", "-rdc=true", "-c", "a.cu"], tmp_path)
    assert flags == ["-I/src/Common", "-DFROM_RSP", f"-I{tmp_path / 'inc2'}", "-std=c++17"]


@needs_hip
def test_compile_commands_in_the_build_folder_is_found(tmp_path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "cfg.h").write_text("#define SCALE 2.0f\n")
    (tmp_path / "a.cu").write_text('#include "cfg.h"\n__global__ void k(float* p) { p[0] = SCALE; }\n')
    (tmp_path / "build").mkdir()
    db = [{"directory": str(tmp_path / "build"), "file": "../a.cu",
           "arguments": ["nvcc", "-I../inc", "-c", "../a.cu"]}]
    (tmp_path / "build" / "compile_commands.json").write_text(json.dumps(db))
    proc = run("a.cu", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@needs_hip
def test_outcome_carries_the_translation_of_the_unit_and_its_headers(tmp_path):
    from cudaport.report.verdict import BLOCKED, of_files
    from cudaport.run.verify import verify_paths

    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "lib.cuh").write_text(
        "#pragma once\n#include <cuda/std/atomic>\n"
        "__device__ inline int get(cuda::std::atomic<int>& a) { return a.load(); }\n")
    (tmp_path / "main.cu").write_text('#include "lib.cuh"\n__global__ void k() {}\n')
    (outcome,) = verify_paths([tmp_path / "main.cu"], Options(), COMPILER,
                              lambda _p: [f"-I{tmp_path / 'inc'}"], jobs=1)
    assert not outcome.ok
    shown = [o.shown for o in outcome.translated]
    assert shown[0].endswith("main.cu") and shown[1].endswith("inc/lib.cuh")
    assert any(f.code == "CP110" for f in outcome.translated[1].findings)
    verdicts = of_files((o.shown, o.findings, o.includes) for o in outcome.translated)
    assert verdicts[shown[0]].status == BLOCKED  # blocked through the header it includes


def _bench_verify_real():
    import importlib.util

    spec = importlib.util.spec_from_file_location("verify_real", ROOT / "bench" / "verify_real.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["verify_real"] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_bench_naming_rule_place_name_category_and_nothing_looser():
    from cudaport.findings import Finding

    names_cause = _bench_verify_real().names_cause
    err = lambda msg, path="a.cu", line=7: Finding("CP501", msg, path, line, 3, engine="verify")  # noqa: E731
    atomic = Finding("CP110", "libcu++", "a.cu", 2, 1, identifier="cuda::atomic_ref")
    ptx = Finding("CP210", "inline PTX", "b.cuh", 40, 1)
    # place: the finding is on the error's line of the same file
    assert names_cause(err("expected ';'", "b.cuh", 40), [atomic, ptx]) is ptx
    # name: the message quotes the identifier, or a :: prefix/suffix of it
    assert names_cause(err("no member named 'atomic_ref' in namespace 'cuda'"), [ptx, atomic]) \
        is atomic
    assert names_cause(err("use of undeclared identifier 'cuda'"), [atomic]) is atomic
    trap = Finding("CP101", "unmapped", "c.cuh", 9, 1, identifier="__trap")
    assert names_cause(err("use of undeclared identifier '__trap'"), [trap]) is trap
    # category: rocPRIM's warp-size static_assert is what CP217 predicts
    small = Finding("CP217", "block below 64", "a.cu", 30, 1, identifier="BlockLoad")
    assert names_cause(err('static_assert failed due to requirement ... "BlockSize must be a '
                           'multiple of hardware warpsize"', "/rocm/rocprim/x.hpp", 0),
                       [small]) is small
    # an error (an #error directive, say) is named by a finding on the condition that
    # chose its branch
    tmp = Path(tempfile.mkdtemp())
    (tmp / "d.cuh").write_text("#ifdef USE_ROCM\n#define W 64\n#else\n#if CUDA_VERSION < 8000\n"
                               "#error \"CUDA >= 8.0 is required\"\n#endif\n#endif\n")
    version = Finding("CP101", "unmapped", str(tmp / "d.cuh"), 4, 5, identifier="CUDA_VERSION")
    assert names_cause(err('"CUDA >= 8.0 is required"', str(tmp / "d.cuh"), 5), [version]) \
        is version
    assert names_cause(err("expected ';'", str(tmp / "d.cuh"), 2), [version]) is None
    (tmp / "m.cuh").write_text("#if CUDA_VERSION >= 9000\nreturn 0;\n#else\nh.x = 0;\n#endif\n")
    version = Finding("CP101", "unmapped", str(tmp / "m.cuh"), 1, 5, identifier="CUDA_VERSION")
    assert names_cause(err("no member named 'x' in '__half'", str(tmp / "m.cuh"), 4),
                       [version]) is version
    # a header is matched whole, not by the words of its path
    header = Finding("CP110", "libcu++", "e.cu", 3, 1, identifier="cuda/std/utility")
    assert names_cause(err("'cuda/std/utility' file not found", "f.cuh", 2), [atomic, header]) \
        is header
    assert names_cause(err("'cuda/std/utility' file not found", "f.cuh", 2), [atomic]) is None
    # nothing looser: an error finding elsewhere, or a shared word like 'std', does not name it
    assert names_cause(err("use of undeclared identifier 'foo'"), [atomic, ptx, trap]) is None
    std = Finding("CP110", "libcu++", "a.cu", 2, 1, identifier="cuda::std::atomic")
    assert names_cause(err("no member named 'vector' in namespace 'std'"), [std]) is None


@needs_rocm
def test_warp_sync_macro_reaches_headers_included_by_folder_with_rocm_6_4(tmp_path):
    # faiss includes its own headers as <faiss/gpu/utils/...>: the unit reads the HIP header
    # first, so the macro the header's __shfl_xor_sync needs must be in the unit too.
    (tmp_path / "include" / "proj").mkdir(parents=True)
    (tmp_path / "include" / "proj" / "reduce.cuh").write_text(
        "#pragma once\n#include <cuda_runtime.h>\n"
        "__device__ inline float warp_sum(float v) {\n"
        "  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);\n"
        "  return v;\n}\n")
    (tmp_path / "main.cu").write_text(
        "#include <cuda_runtime.h>\n#include <proj/reduce.cuh>\n"
        "__global__ void k(float* x) { x[0] = warp_sum(x[threadIdx.x]); }\n")
    proc = run("main.cu", "-I", "include", "--toolchain", "rocm", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 compiled, 0 failed" in proc.stderr


# --- C sources ------------------------------------------------------------------------------

# Valid C that C++ rejects (void* to float*), using the CUDA runtime from C as darknet does.
C_UNIT = ('#include <stdlib.h>\n#include <cuda_runtime.h>\n'
          'float* make(int n) {\n  float* host = calloc(n, sizeof(float));\n'
          '  float* dev;\n  cudaMalloc((void**)&dev, n * sizeof(float));\n'
          '  cudaMemcpy(dev, host, n * sizeof(float), cudaMemcpyHostToDevice);\n'
          '  free(host);\n  return dev;\n}\n')


def test_a_host_source_is_compiled_for_the_host():
    hip = Compiler(("hipcc", "-x", "hip", "--offload-arch=gfx90a", "-fsyntax-only"))
    assert hip.for_host("c").argv == ("hipcc", "-x", "c", "-fsyntax-only",
                                      "-D__HIP_PLATFORM_AMD__")
    clang = Compiler(("clang++-15", "-x", "hip", "--offload-arch=gfx90a", "--rocm-path=/opt/r",
                      "--hip-version=5.2.0", "-nogpulib", "-fsyntax-only"), (), "5.2")
    c = clang.for_host("c")
    assert c.argv == ("clang++-15", "-x", "c", "-isystem", "/opt/r/include", "-fsyntax-only",
                      "-D__HIP_PLATFORM_AMD__")
    assert c.hip_version == "5.2"


@pytest.mark.parametrize("toolchain", [
    pytest.param("system", marks=[pytest.mark.slow, _system_hip]),
    pytest.param("rocm", marks=[pytest.mark.slow, _rocm])])
def test_c_that_cxx_rejects_compiles(tmp_path, toolchain):
    (tmp_path / "make.c").write_text(C_UNIT)
    proc = run("make.c", "--toolchain", toolchain, cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 compiled, 0 failed" in proc.stderr


@needs_rocm
def test_c_cannot_read_hiprand_with_rocm_6_4(tmp_path):
    """The fact behind CP169 for hiprand/hiprand.h (cxx_only_headers in the hazards facts):
    CUDA's curand.h compiles as C, ROCm 6.4's replacement does not."""
    (tmp_path / "rand.c").write_text("#include <curand.h>\nint n(void) { return 1; }\n")
    proc = run("rand.c", "--toolchain", "rocm", cwd=tmp_path)
    assert proc.returncode == 1 and "unknown type name '__half'" in proc.stdout


@needs_rocm
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_ptx_in_an_included_header_fails_object_code_but_not_a_syntax_check(tmp_path, version):
    """verify compiles to object code by default, so the assembler sees the inline PTX a
    project header holds (the unit itself has none, so the lexical CP503 cannot see it);
    -fsyntax-only never assembles it."""
    (tmp_path / "fence.cuh").write_text(
        "#pragma once\n__device__ inline void fence() {\n"
        '  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");\n}\n')
    (tmp_path / "k.cu").write_text('#include "fence.cuh"\n__global__ void k() { fence(); }\n')
    proc = run("k.cu", "--rocm", version, cwd=tmp_path)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "fence.cuh:3:" in proc.stdout and "(object code)" in proc.stderr
    assert f"with HIP {version}" in proc.stderr
    quick = run("k.cu", "--rocm", version, "--syntax-only", cwd=tmp_path)
    assert "1 compiled, 0 failed" in quick.stderr and "(syntax only)" in quick.stderr
    # (it compiles, but check's CP210 for the header remains: exit 1, as check says)
    assert quick.returncode == 1 and "fence.cuh:3:3: CP210 error:" in quick.stdout
    assert run("k.cu", "--rocm", version, "--syntax-only", "--fail-on", "never",
               cwd=tmp_path).returncode == 0


def test_ptx_the_target_never_compiles_or_that_was_rewritten_is_no_verify_error():
    # bitsandbytes' gemm_4bit_simt.cu: PTX under `#else` of its own BNB_HIP switch, and an
    # ld.global.ca the translation rewrote (CP230); both were CP503 "failures" of a unit
    # that compiles
    from types import SimpleNamespace

    from cudaport.findings import Finding
    from cudaport.run.verify import _ptx_findings

    src = (b"#if BNB_HIP\nint x;\n#else\n__device__ void f(int* p) { asm(\"trap;\"); }\n#endif\n"
           b"__device__ void g(int* p) { asm(\"trap;\"); }\n"
           b"__device__ void h(int* p) { asm(\"exit;\"); }\n")
    options = Options(target_version="7.2")
    assert [f.line for f in _ptx_findings(src, "k.cu", options)] == [6, 7]
    rewritten = SimpleNamespace(shown="k.cu", findings=[Finding("CP230", "", "k.cu", 6, 29)])
    assert [f.line for f in _ptx_findings(src, "k.cu", options, [rewritten])] == [7]


@needs_rocm
def test_verify_tells_check_s_story_and_a_failed_compile_fails_whatever_fail_on(tmp_path):
    """issue 37: verify exited 0 and printed none of check's errors for a unit check
    calls blocked (here through an include: its chain is printed), and exited 0 with
    --fail-on never when a unit failed to compile."""
    (tmp_path / "cfg.cuh").write_text("#pragma once\n#include <nv/target>\n")
    (tmp_path / "k.cu").write_text('#include "cfg.cuh"\n__global__ void k(int* p) { *p = 1; }\n')
    proc = run("k.cu", "--rocm", "7.2", cwd=tmp_path)
    assert "cfg.cuh:2:11: CP111 error:" in proc.stdout
    assert "blocked: k.cu: includes cfg.cuh, which is blocked: k.cu:1 -> cfg.cuh:2:11 CP111"\
        in proc.stdout
    assert "check: Found 1 finding(s) (1 error" in proc.stderr and "2 blocked" in proc.stderr
    assert proc.returncode == 1, proc.stdout + proc.stderr
    (tmp_path / "bad.cu").write_text("__global__ void k() { undeclared(); }\n")
    never = run("bad.cu", "--rocm", "7.2", "--fail-on", "never", cwd=tmp_path)
    assert "0 compiled, 1 failed" in never.stderr and never.returncode == 1


def test_the_translation_reads_the_macros_the_compile_defines(tmp_path):
    # marian's cudnn_wrappers.cu under `#ifdef CUDNN`, compiled with -DCUDNN: the function
    # HIP lacks is an error of this build, not a latent warning "give -D to check such a
    # build" (verify_real called the unit "ports with warnings"; it fails to compile).
    from cudaport.run.verify import Workspace, defines_of
    assert defines_of(["-Iinc", "-DCUDNN", "-D", "N=2", "-O2", "-DX=a b"]) == ("CUDNN", "N=2", "X=a b")
    unit = tmp_path / "w.cu"
    unit.write_text("#include <cuda_runtime.h>\n#ifdef CUDNN\n#include <cudnn.h>\n"
                    "void b(cudnnHandle_t h) { cudnnPoolingBackward(h, 0, 0, 0, 0, 0, 0, 0, "
                    "0, 0, 0, 0, 0); }\n#endif\n")

    def severity(defines):
        ws = Workspace(tmp_path / f"ws{len(defines)}", Options(target_version="7.2"))
        ws.add(unit, [], None, defines)
        return {f.severity for o in ws.translations(unit) for f in o.findings
                if f.code == "CP101" and "cudnnPoolingBackward" in f.message}

    assert severity(defines_of(["-DCUDNN"])) == {"error"}
    assert severity(()) == {"warning"}


def test_a_header_shared_by_units_with_different_defines_is_judged_per_set(tmp_path):
    # a header two units include, one compiled with -DCUDNN and one without: each unit's
    # verdict reads the header's findings for its own build (the header was translated
    # once, with the first unit's defines, and the second unit inherited its error)
    from cudaport.run.verify import Workspace
    (tmp_path / "w.h").write_text(
        "#include <cuda_runtime.h>\n#ifdef CUDNN\n#include <cudnn.h>\n"
        "inline void b(cudnnHandle_t h) { cudnnPoolingBackward(h, 0, 0, 0, 0, 0, 0, 0, "
        "0, 0, 0, 0, 0); }\n#endif\n")
    with_dnn, plain = tmp_path / "a.cu", tmp_path / "b.cu"
    with_dnn.write_text('#include "w.h"\n')
    plain.write_text('#include "w.h"\n')
    ws = Workspace(tmp_path / "ws", Options(target_version="7.2"))
    ws.add(with_dnn, [], None, ("CUDNN",))
    ws.add(plain, [], None, ())

    def severity(unit):
        return {f.severity for o in ws.translations(unit) for f in o.findings
                if f.code == "CP101" and "cudnnPoolingBackward" in f.message}

    assert severity(with_dnn) == {"error"}
    assert severity(plain) == {"warning"}
