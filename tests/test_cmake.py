"""CMake translation: rules from rules/hip/build/cmake.yaml, edits, findings, and a real
CMake configure of a translated project with the HIP language."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import rocm_wrapper
from cudaport.builds.cmake import CMakeSyntaxError, parse, translate_cmake
from cudaport.options import Options


def tr(text: str, **kw) -> tuple[str, list[tuple[str, int]]]:
    r = translate_cmake(text.encode(), kw.pop("options", None), "CMakeLists.txt", **kw)
    return r.output.decode(), [(f.code, f.line) for f in r.findings]


@pytest.mark.parametrize("before, after", [
    ("project(p LANGUAGES CXX CUDA)", "project(p LANGUAGES CXX HIP)"),
    ("project(CUDA CXX CUDA)", "project(CUDA CXX HIP)"),  # the first argument is the name
    ("enable_language(CUDA)", "enable_language(HIP)"),
    ("project(p LANGUAGES CUDA)", "project(p LANGUAGES HIP CXX)"),  # hip's package needs C/CXX
    ("project(p VERSION 1.0 LANGUAGES CUDA C)", "project(p VERSION 1.0 LANGUAGES HIP C)"),
    ("project(p CUDA)", "project(p HIP CXX)"),
    ("find_package(CUDAToolkit 11.4 REQUIRED)", "find_package(hip REQUIRED)"),
    ("set(CMAKE_CUDA_STANDARD 17)", "set(CMAKE_HIP_STANDARD 17)"),
    ('target_link_libraries(t PRIVATE "CUDA::cudart;CUDA::curand")',
     'target_link_libraries(t PRIVATE "hip::host;hip::hiprand")'),
    ("target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CXX,CUDA>:-O3>)",
     "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CXX,HIP>:-O3>)"),
    ("set_source_files_properties(a.cu PROPERTIES LANGUAGE CUDA)",
     "set_source_files_properties(a.cu PROPERTIES LANGUAGE HIP)"),
    ("# project(p LANGUAGES CUDA) in a comment\nmessage([[CUDA::cudart]])",
     "# project(p LANGUAGES CUDA) in a comment\nmessage([[CUDA::cudart]])"),
    ("set(USE_CUDA ON)", "set(USE_CUDA ON)"),  # the project's own names are left alone
], ids=lambda x: x[:40])
def test_rewrites(before, after):
    assert tr(before)[0] == after


def test_library_targets_bring_their_packages_and_variants():
    src = ("find_package(CUDAToolkit REQUIRED)\n"
           "target_link_libraries(t CUDA::cublas CUDA::cusparse)\n")
    out, _ = tr(src)
    assert out == ("find_package(hip REQUIRED)\nfind_package(hipblas REQUIRED)\n"
                   "find_package(hipsparse REQUIRED)\n"
                   "target_link_libraries(t roc::hipblas roc::hipsparse)\n")
    out, _ = tr(src, options=Options(variants=(("blas", "rocblas"),)))
    assert "roc::rocblas" in out and "find_package(rocblas REQUIRED)" in out
    out, found = tr("target_link_libraries(t CUDA::cublas)\n")
    assert found == [("CP304", 1)]


def test_cu_sources_marked_hip_or_renamed():
    src = ("set(SRCS a.cu b.cpp)\nadd_library(l ${SRCS} c.cu)\n"
           'file(GLOB_RECURSE KS "k/*.cu")\n')
    out, _ = tr(src)
    assert out == ("set(SRCS a.cu b.cpp)\nset_source_files_properties(a.cu PROPERTIES LANGUAGE HIP)\n"
                   "add_library(l ${SRCS} c.cu)\n"
                   "set_source_files_properties(c.cu PROPERTIES LANGUAGE HIP)\n"
                   'file(GLOB_RECURSE KS "k/*.cu")\n'
                   "set_source_files_properties(${KS} PROPERTIES LANGUAGE HIP)\n")
    assert tr(out)[0] == out  # idempotent: already marked sources are not marked again
    renamed, _ = tr(src, rename=True)
    assert renamed == ('set(SRCS a.hip b.cpp)\nadd_library(l ${SRCS} c.hip)\n'
                       'file(GLOB_RECURSE KS "k/*.hip")\n')


def test_rename_touches_only_the_files_renamed_in_this_run():
    src = ("add_executable(app a.cu ../vendor/v.cu /opt/x/abs.cu missing.cu\n"
           "  ${CMAKE_CURRENT_SOURCE_DIR}/k/b.cu ${OTHER}/a.cu ../sub/a.cu)\n"
           'file(GLOB KS "k/*.cu")\nfile(GLOB OUT "../vendor/*.cu")\n'
           'file(GLOB_RECURSE DEEP "k/*.cu")\n')
    out, _ = tr(src, rename=True, rel="sub/CMakeLists.txt",
                renamed=frozenset({"sub/a.cu", "sub/k/b.cu", "sub/k/deep/c.cu"}))
    assert out == (
        "add_executable(app a.hip ../vendor/v.cu /opt/x/abs.cu missing.cu\n"
        "  ${CMAKE_CURRENT_SOURCE_DIR}/k/b.hip ${OTHER}/a.cu ../sub/a.hip)\n"
        "set_source_files_properties(../vendor/v.cu /opt/x/abs.cu missing.cu ${OTHER}/a.cu "
        "PROPERTIES LANGUAGE HIP)\n"
        'file(GLOB KS "k/*.hip")\nfile(GLOB OUT "../vendor/*.cu")\n'
        "set_source_files_properties(${OUT} PROPERTIES LANGUAGE HIP)\n"
        'file(GLOB_RECURSE DEEP "k/*.hip")\n')
    again, _ = tr(out, rename=True, rel="sub/CMakeLists.txt",
                  renamed=frozenset({"sub/a.cu", "sub/k/b.cu"}))
    assert again == out  # idempotent


def test_reports_what_it_cannot_migrate():
    src = ("find_package(CUDA)\ncuda_add_executable(x a.cu)\n"
           "set_target_properties(t PROPERTIES CUDA_SEPARABLE_COMPILATION ON)\n"
           "target_link_libraries(t CUDA::nvjpeg CUDA::brand_new)\n"
           'message("${CMAKE_CUDA_SOMETHING_NEW}")\n')
    out, found = tr(src)
    assert found == [("CP301", 1), ("CP301", 2), ("CP302", 3), ("CP301", 4), ("CP303", 4),
                     ("CP303", 5)]
    assert "CUDA_SEPARABLE_COMPILATION" in out and "CUDA::nvjpeg" in out


def test_architectures_are_renamed_and_flagged():
    out, found = tr("set_property(TARGET t PROPERTY CUDA_ARCHITECTURES 80)")
    assert out == "set_property(TARGET t PROPERTY HIP_ARCHITECTURES gfx90a)"
    assert found == [("CP302", 1)]


@pytest.mark.parametrize("before, after", [
    ("set(CMAKE_CUDA_ARCHITECTURES 75 80 86 90a 100f)", "set(CMAKE_HIP_ARCHITECTURES gfx90a)"),
    ('set(CMAKE_CUDA_ARCHITECTURES "70;80-real" CACHE STRING "")',
     'set(CMAKE_HIP_ARCHITECTURES "gfx90a" CACHE STRING "")'),
    ("set_target_properties(t PROPERTIES CUDA_ARCHITECTURES native CUDA_STANDARD 17)",
     "set_target_properties(t PROPERTIES HIP_ARCHITECTURES gfx90a HIP_STANDARD 17)"),
    ("set(CMAKE_CUDA_ARCHITECTURES ${ARCHS})", "set(CMAKE_HIP_ARCHITECTURES ${ARCHS})"),
    ("set(CMAKE_HIP_ARCHITECTURES gfx90a)", "set(CMAKE_HIP_ARCHITECTURES gfx90a)"),
    ("if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)", "if(NOT DEFINED CMAKE_HIP_ARCHITECTURES)"),
])
def test_nvidia_architecture_values_become_the_default_amd_one(before, after):
    """hipcc rejects them ("unsupported HIP gpu architecture: 80"); idempotent."""
    out, _ = tr(before)
    assert out == after
    assert tr(out)[0] == out


def test_unparsable_file_is_left_alone_with_a_finding():
    out, found = tr('project(p LANGUAGES CUDA\nmessage("unterminated')
    assert out.startswith("project(p LANGUAGES CUDA") and found[0][0] == "CP305"
    with pytest.raises(CMakeSyntaxError):
        parse(b"add_library(x")


def test_byte_exact_outside_edits_with_crlf():
    src = b"project(p LANGUAGES CUDA)\r\n\tadd_executable(x a.cu)  # k\r\n"
    out = translate_cmake(src).output
    assert out == (b"project(p LANGUAGES HIP CXX)\r\n\tadd_executable(x a.cu)\r\n"
                   b"\tset_source_files_properties(a.cu PROPERTIES LANGUAGE HIP)  # k\r\n")


CUDA_PROJECT = """cmake_minimum_required(VERSION 3.21)
project(demo LANGUAGES CXX CUDA)
find_package(CUDAToolkit REQUIRED)
set(CMAKE_CUDA_ARCHITECTURES gfx90a)
add_executable(demo main.cu)
set_target_properties(demo PROPERTIES CUDA_STANDARD 17)
target_compile_options(demo PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-O2>)
target_link_libraries(demo PRIVATE CUDA::cudart CUDA::cusparse CUDA::curand)
"""
MAIN = b"""#include <cuda_runtime.h>
__global__ void k(float* x) { x[threadIdx.x] = 1; }
int main() { float* p; cudaMalloc(&p, 64); k<<<1, 16>>>(p); cudaFree(p); }
"""


def _rocm_root(tmp_path: Path) -> Path | None:
    """Debian installs ROCm's CMake packages below /usr/lib/<arch>/cmake, while CMake's HIP
    support looks for <root>/lib/cmake/hip-lang; a folder with one symbolic link gives it
    that layout over the real files."""
    for cfg in Path("/usr/lib").glob("*/cmake/hip-lang/hip-lang-config.cmake"):
        root = tmp_path / "rocm"
        (root / "lib").mkdir(parents=True)
        os.symlink(cfg.parent.parent, root / "lib" / "cmake")
        return root
    return None


@pytest.mark.parametrize("rename", [False, True], ids=["language-hip", "renamed"])
def test_translated_project_configures_with_real_cmake_hip_language(tmp_path: Path, rename):
    """A real `cmake` configure (not a parse check) with the HIP language, clang++-15 and
    Debian's ROCm 5.2 packages. The compiler check is skipped (CMAKE_HIP_COMPILER_FORCED)
    because Debian's device-library layout fails CMake's test compile, not our output."""
    from cudaport.run.driver import plan, run, Request

    cmake, clang = shutil.which("cmake"), shutil.which("clang++-15")
    root = _rocm_root(tmp_path)
    if not (cmake and clang and root and shutil.which("hipcc")):
        pytest.skip("needs cmake, clang++-15 and ROCm's CMake packages (tools/setup-system.sh)")
    src = tmp_path / "src"
    src.mkdir()
    (src / "CMakeLists.txt").write_text(CUDA_PROJECT)
    (src / "main.cu").write_bytes(MAIN)
    out = tmp_path / "out"
    rename_map = {".cu": ".hip"} if rename else {}
    jobs = plan([src], out, rename=rename_map).jobs
    request = Request(Options(), rename=tuple(rename_map.items()),
                      renamed=frozenset({"main.cu"}) if rename else frozenset())
    outcomes = run(jobs, request, workers=1, cache_scope=None)
    codes = sorted(f.code for o in outcomes for f in o.findings)
    assert codes == ["CP302"]  # the architecture values are flagged for review
    text = (out / "CMakeLists.txt").read_text()
    assert "CUDA" not in text.replace("# ", "")
    proc = subprocess.run(
        [cmake, "-S", str(out), "-B", str(tmp_path / "build"), f"-DCMAKE_HIP_COMPILER={clang}",
         f"-DCMAKE_CXX_COMPILER={clang}", "-DCMAKE_HIP_COMPILER_FORCED=ON",
         "-DCMAKE_HIP_COMPILER_ID=Clang", f"-DCMAKE_HIP_COMPILER_ROCM_ROOT={root}",
         "-DCMAKE_HIP_FLAGS=--rocm-path=/usr -nogpulib", "-DCMAKE_PREFIX_PATH=/usr"],
        # TMPDIR: the HIP compiler probe leaves an empty CMakeHIPCompilerId-* folder there
        capture_output=True, text=True,
        env=dict(os.environ, CMAKE_PREFIX_PATH="/usr", TMPDIR=str(tmp_path)))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "Generating done" in proc.stdout
    # CMake really sees the source as HIP: its compile rule uses the HIP compiler flags.
    flags = next((tmp_path / "build").rglob("flags.make")).read_text()
    assert "HIP_FLAGS" in flags and "--offload-arch=gfx90a" in flags


BUILT_PROJECT = """cmake_minimum_required(VERSION 3.21)
project(demo LANGUAGES CXX CUDA)
find_package(CUDAToolkit 12.0 REQUIRED)
set(CMAKE_CUDA_ARCHITECTURES 80 90)
add_executable(demo main.cu)
set_target_properties(demo PROPERTIES CUDA_STANDARD 17)
target_compile_options(demo PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-O2 --use_fast_math>)
target_link_libraries(demo PRIVATE CUDA::cudart CUDA::cublas CUDA::curand)
"""
BUILT_MAIN = b"""#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <curand.h>
__global__ void k(float* x) { x[threadIdx.x] = 1; }
int main() {
  float* p; cudaMalloc(&p, 64 * sizeof(float)); k<<<1, 64>>>(p);
  cublasHandle_t h; cublasCreate(&h); float r; cublasSasum(h, 64, p, 1, &r);
  curandGenerator_t g; curandCreateGenerator(&g, CURAND_RNG_PSEUDO_DEFAULT);
  curandGenerateUniform(g, p, 64); cudaFree(p); return 0;
}
"""


@pytest.mark.slow
def test_translated_project_builds_with_rocm72_cmake(tmp_path: Path):
    """The translation of a CMake project using cuBLAS and cuRAND configures with ROCm
    7.2's CMake support (HIP language, find_package(hip/hipblas/hiprand)) and links, run
    by the project's own CMake in the root tools/setup-rocm.sh 7.2 installs."""
    from cudaport.builds.build import build, rocm72_dir, translate_tree

    root = rocm72_dir()
    if not os.access(root / "cudaport-run", os.X_OK):
        pytest.skip("needs `bash tools/setup-rocm.sh 7.2`")
    src = tmp_path / "src"
    src.mkdir()
    (src / "CMakeLists.txt").write_text(BUILT_PROJECT)
    (src / "main.cu").write_bytes(BUILT_MAIN)
    out = tmp_path / "out"
    translate_tree(src, out, Options(target_version="7.2"))
    rc, output, _, _ = build(out, "cmake", root)
    assert rc == 0, output[-3000:]
    binary = out / "build-hip" / "demo"
    assert binary.read_bytes()[:4] == b"\x7fELF"
    flags = next((out / "build-hip").rglob("flags.make")).read_text()
    assert "--offload-arch=gfx90a" in flags and "-ffast-math" in flags


def test_cu_sources_passed_to_a_project_function_are_marked():
    out, _ = tr('add_cublas_example(examples "gemm" cublas_${R}_example.cu)\n'
                'message(STATUS "built x.cu")\n')
    assert out == ('add_cublas_example(examples "gemm" cublas_${R}_example.cu)\n'
                   "set_source_files_properties(cublas_${R}_example.cu PROPERTIES LANGUAGE HIP)\n"
                   'message(STATUS "built x.cu")\n')
    assert tr(out)[0] == out


def test_library_packages_follow_the_toolkit_not_later_packages():
    out, _ = tr("find_package(CUDAToolkit)\nfind_package(NCCL)\n"
                "target_link_libraries(t CUDA::cublas)\n")
    assert out == ("find_package(hip)\nfind_package(hipblas REQUIRED)\nfind_package(rccl)\n"
                   "target_link_libraries(t roc::hipblas)\n")


def test_nvcc_flags_renamed_or_reported():
    out, found = tr('set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} --extended-lambda -use_fast_math")\n'
                    "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-rdc=true;-lineinfo>)\n"
                    "execute_process(COMMAND cmake -G Ninja)\n")
    assert out == ('set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} -ffast-math")\n'
                   "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc;-gline-tables-only>)\n"
                   "execute_process(COMMAND cmake -G Ninja)\n")
    assert found == [("CP306", 1)]  # -G of a cmake command line is no nvcc flag


# UoB-HPC/BabelStream src/cuda/model.cmake and rapidsai/cuml's ConfigureCUDA.cmake: each
# of these flags made ROCm 7.2's hipcc stop ("unknown argument"), with no finding.
NVCC_ONLY = """\
set(CMAKE_CUDA_FLAGS ${CMAKE_CUDA_FLAGS} "-forward-unknown-to-host-compiler" "-arch=${CUDA_ARCH}"
  "--extended-lambda" "-DUNROLL_FACTOR=${UNROLL_FACTOR}")
set(FLAGS "-forward-unknown-to-host-compiler -extended-lambda -restrict -O3")
list(APPEND CUML_CUDA_FLAGS --expt-extended-lambda --expt-relaxed-constexpr -Xptxas=-v)
target_compile_options(k PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:-Xptxas -v;--use_fast_math>")
target_compile_options(k PRIVATE -Xptxas -O3 -O2)
target_link_libraries(k PRIVATE CUDA::nvml nvidia-ml)
"""


def test_nvcc_only_flags_are_removed_or_reported():
    out, found = tr(NVCC_ONLY)
    assert out == """\
set(CMAKE_HIP_FLAGS ${CMAKE_HIP_FLAGS} "--offload-arch=gfx90a"
  "-DUNROLL_FACTOR=${UNROLL_FACTOR}")
set(FLAGS "-O3")
list(APPEND CUML_CUDA_FLAGS)
target_compile_options(k PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:-ffast-math>")
target_compile_options(k PRIVATE -O2)
target_link_libraries(k PRIVATE rocm_smi64 rocm_smi64)
"""
    # -arch=... becomes the target's architecture, as in a Makefile (flags.yaml)
    assert found == [("CP304", 1), ("CP306", 1), ("CP306", 2),
                     ("CP306", 3), ("CP306", 3), ("CP306", 3), ("CP306", 4), ("CP306", 4),
                     ("CP306", 4), ("CP306", 5), ("CP306", 6)]
    out, _ = tr("find_package(CUDAToolkit)\n" + NVCC_ONLY.splitlines()[-1])
    assert out.startswith("find_package(hip)\nfind_package(rocm_smi REQUIRED)\n")


def test_flags_after_an_options_keyword_of_a_projects_own_function():
    # zjin-lcf/HeCBench src/*-cuda/CMakeLists.txt: its own add_hecbench_benchmark()
    out, found = tr("add_hecbench_benchmark(NAME aidw SOURCES main.cu\n"
                    "    COMPILE_OPTIONS -use_fast_math --expt-relaxed-constexpr -O3)\n"
                    "execute_process(COMMAND cmake -G Ninja)\n")
    assert out == ("add_hecbench_benchmark(NAME aidw SOURCES main.cu\n"
                   "    COMPILE_OPTIONS -ffast-math -O3)\n"
                   # the function's .cu sources are marked, as any command's (not HIP's by
                   # their extension)
                   "set_source_files_properties(main.cu PROPERTIES LANGUAGE HIP)\n"
                   "execute_process(COMMAND cmake -G Ninja)\n")
    assert found == [("CP306", 2)]


@pytest.mark.slow
def test_the_flags_left_compile_with_rocm_7_2(tmp_path: Path):
    wrapper = rocm_wrapper("7.2")
    out, _ = tr('set(CMAKE_CUDA_FLAGS "-forward-unknown-to-host-compiler -extended-lambda '
                '-restrict --expt-relaxed-constexpr -Xptxas -v -lineinfo --use_fast_math -O3")')
    flags = out[out.index('"') + 1:out.rindex('"')].split()
    assert flags == ["-gline-tables-only", "-ffast-math", "-O3"]
    unit = tmp_path / "k.hip"
    unit.write_text("#include <hip/hip_runtime.h>\n"
                    "__global__ void k(float *p) { auto f = [] __device__ (float x) "
                    "{ return x * 2; }; p[0] = f(p[0]); }\n")
    proc = subprocess.run([str(wrapper), "--offload-arch=gfx942", "-std=c++17", *flags, "-c",
                           str(unit), "-o", str(tmp_path / "k.o")], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]


# Issue 43: one flag table for Makefiles and CMake, edits that keep CMake's syntax, and the
# project's own if(ENABLE_ROCM).

def test_adjacent_removed_flags_share_no_byte():
    # gunrock's CMakeLists.txt and AMReX's AMReXParallelBackends.cmake raised OverlapError
    src = ("set(CUDA_DEBUG_FLAGS\n  --expt-extended-lambda \n  --expt-relaxed-constexpr\n"
           "  --ptxas-options -v\n  --debug # Host debug\n  --device-debug # device\n"
           "  -lineinfo)\n"
           "target_compile_options(amrex PUBLIC $<${_genex}:\n"
           "          --expt-relaxed-constexpr --expt-extended-lambda\n"
           '          "SHELL:-Xcudafe --diag_suppress=esa_on_defaulted_function_ignored"\n'
           "          >\n)\n")
    out, found = tr(src)
    assert out == ("set(CUDA_DEBUG_FLAGS\n  --debug # Host debug\n  -g # device\n"
                   "  -gline-tables-only)\n"
                   "target_compile_options(amrex PUBLIC $<${_genex}:\n          >\n)\n")
    assert [c for c, _ in found] == ["CP306"] * 5 + ["CP311"]
    assert tr(out)[0] == out


@pytest.mark.parametrize("before, after", [
    ('set(CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS} -gencode arch=compute_70,code=sm_70 '
     '-gencode arch=compute_80,code=sm_80 -O3")',
     'set(CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS} --offload-arch=gfx90a -O3")'),
    ("list(APPEND CUDA_NVCC_FLAGS -gencode arch=compute_70,code=sm_70 -arch=sm_80)",
     "list(APPEND CUDA_NVCC_FLAGS --offload-arch=gfx90a)"),
    # a multi-word replacement is one option per list element where options are a list
    ("target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-dc> -dc \"-x;cu\")",
     "target_compile_options(t PRIVATE $<$<COMPILE_LANGUAGE:HIP>:-fgpu-rdc;-c> -fgpu-rdc -c "
     "\"-x;hip\")"),
    ('string(APPEND CMAKE_CUDA_FLAGS " -dc -Xcompiler=-fPIC,-Wall")',
     'string(APPEND CMAKE_HIP_FLAGS " -fgpu-rdc -c -fPIC -Wall")'),
    ('target_compile_options(t PRIVATE "$<$<COMPILE_LANGUAGE:CUDA>:-Xptxas;-v;-O3>")',
     'target_compile_options(t PRIVATE "$<$<COMPILE_LANGUAGE:HIP>:-O3>")'),
    ('target_compile_options(t PRIVATE -Xcompiler=$<IF:$<BOOL:x>,-a,-b> "-Xcompiler=-fPIC,-Wall")',
     'target_compile_options(t PRIVATE $<IF:$<BOOL:x>,-a,-b> "-fPIC;-Wall")'),
], ids=["gencode-string", "list", "list-elements", "string", "genex-list", "host-options"])
def test_flag_contexts_keep_their_separators(before, after):
    out, _ = tr(before)
    assert out == after
    assert tr(out)[0] == out


@pytest.mark.parametrize("before, after", [
    ('string(REPLACE "-Xptxas -v" "-G" CMAKE_CUDA_FLAGS "${CMAKE_CUDA_FLAGS}")',
     'string(REPLACE "" "-g" CMAKE_HIP_FLAGS "${CMAKE_HIP_FLAGS}")'),
    ('set(FLAGS "--extended-lambda")', 'set(FLAGS "")'),  # set(FLAGS) would unset it
    ("set_target_properties(t PROPERTIES COMPILE_OPTIONS -Xptxas=-v LINKER_LANGUAGE CXX)",
     'set_target_properties(t PROPERTIES COMPILE_OPTIONS "" LINKER_LANGUAGE CXX)'),
    # a regular expression is no option list
    ('string(REGEX REPLACE "-G" "" OUT "${X}")', 'string(REGEX REPLACE "-G" "" OUT "${X}")'),
], ids=["string-replace", "set-one-value", "property-pairs", "regex"])
def test_an_argument_whose_place_counts_stays(before, after):
    assert tr(before)[0] == after


def _outcome(findings) -> str:
    return {"CP306": "removed", "CP311": "dropped", "CP301": "kept", "CP312": "kept",
            "CP302": "review", "CP313": "review"}.get(findings[0].code, "?") if findings \
        else "mapped"


@pytest.mark.parametrize("flag", [
    "-use_fast_math", "--expt-relaxed-constexpr", "-lineinfo", "-G", "-Xptxas -v",
    "-maxrregcount=32", "-ptx", "-arch=sm_80", "-gencode arch=compute_70,code=sm_70", "-dlink",
    "-rdc=true", "-Xcompiler -fPIC", "--default-stream per-thread", "-lnvidia-ml", "-lcublas",
    "-Xcudafe --diag_suppress=1", "-ccbin g++", "--ftz=true", "-std=c++17",
])
def test_a_flag_means_the_same_in_a_makefile_and_in_cmake(flag):
    from cudaport.builds.makefile import translate_makefile

    made = translate_makefile(f"F = -O3 {flag}\n".encode())
    cmade = translate_cmake(f'set(CMAKE_CUDA_FLAGS "-O3 {flag}")\n'.encode())
    make_text = made.output.decode().splitlines()[-1][len("F = "):]
    cmake_text = cmade.output.decode()[len('set(CMAKE_HIP_FLAGS "'):-len('")\n')]
    assert cmake_text == make_text.replace("$(HIP_ARCH)", "gfx90a")
    assert _outcome(made.findings) == _outcome(cmade.findings)


ROCM_SWITCH = """option(ENABLE_ROCM "build for AMD GPUs" OFF)
if(ENABLE_ROCM)
  enable_language(HIP)
  add_definitions(-DUSE_AMD_ROCM)
  add_compile_definitions(ROCM_LEVEL=3)
else()
  find_package(CUDA REQUIRED)
  cuda_add_executable(app a.cu)
  set(CMAKE_CUDA_FLAGS "-ptx")
endif()
if(NOT USE_HIP)
  cuda_add_library(k k.cu)
elseif(FOO)
  cuda_add_library(k2 k.cu)
endif()
add_definitions(-DALWAYS)
if(FOO)
  add_definitions(-DMAYBE)
  cuda_add_library(m m.cu)
endif()
"""


def test_the_projects_own_rocm_switch_decides_what_a_hip_build_runs():
    """Findings in branches the project's own switch keeps from a HIP build (the else() of
    its if(ENABLE_ROCM), if(NOT USE_HIP)) are not problems of the port, as for sources' #if;
    the lines are still translated."""
    out, found = tr(ROCM_SWITCH)
    assert found == [("CP301", 14), ("CP301", 19)]  # only those a HIP build may run
    assert "set(CMAKE_HIP_FLAGS" in out


def test_macros_a_hip_build_of_the_project_defines():
    from cudaport.builds.cmake import hip_build_defines, project_hip_defines

    assert hip_build_defines(ROCM_SWITCH.encode()) == {
        "USE_AMD_ROCM": "1", "ROCM_LEVEL": "3", "ALWAYS": "1"}
    assert hip_build_defines(b'target_compile_definitions(t PRIVATE A=2 "B;C")\n'
                             b'set(CMAKE_CXX_FLAGS "${CMAKE_CXX_FLAGS} -DD -DE=${X}")\n'
                             b"add_compile_options(-DF)\n") == {
        "A": "2", "B": "1", "C": "1", "D": "1", "F": "1"}
    assert hip_build_defines(b"add_definitions(-DX") == {}  # does not parse
    assert project_hip_defines([]) == {}


def _cuda_version() -> tuple[str, str, str]:
    """(major, minor, build) of the CUDA whose branch a version gate takes: target.yaml's
    cuda_version_values."""
    from cudaport.rules.compiled import get_compiled

    v = get_compiled(Options()).target.extra["cuda_version_values"]
    return (str(v["__CUDACC_VER_MAJOR__"]), str(v["__CUDACC_VER_MINOR__"]),
            str(v["__CUDACC_VER_BUILD__"]))


@pytest.mark.parametrize("before, after", [
    ("if(CUDAToolkit_VERSION VERSION_LESS 11.8)", "if({M}.{m}.{b} VERSION_LESS 11.8)"),
    ("if (${CUDAToolkit_VERSION} VERSION_LESS 11.3)", "if ({M}.{m}.{b} VERSION_LESS 11.3)"),
    ("elseif(CUDAToolkit_VERSION_MAJOR EQUAL 11 AND CUDAToolkit_VERSION_MINOR LESS 8)",
     "elseif({M} EQUAL 11 AND {m} LESS 8)"),
    ('if(_X AND "${CMAKE_CUDA_COMPILER_VERSION}" VERSION_GREATER_EQUAL "13.0")',
     'if(_X AND {M}.{m}.{b} VERSION_GREATER_EQUAL "13.0")'),
    ("if(12 LESS CUDA_VERSION_MAJOR)", "if(12 LESS {M})"),
])
def test_a_gate_on_cudas_version_takes_the_branch_of_cuda_13(before, after):
    """Empty in a HIP build, CUDA's version took the branch of no CUDA (a project's own
    FATAL_ERROR for an old CUDA); as for a gate in a source, the translation takes the
    branch of the CUDA the originals are checked with, and CP302 says so."""
    major, minor, build = _cuda_version()
    out, found = tr(before + "\nendif()\n")
    assert out == after.format(M=major, m=minor, b=build) + "\nendif()\n"
    assert found and all(f == ("CP302", 1) for f in found)
    assert tr(out)[0] == out


@pytest.mark.parametrize("text", [
    'if(NOT "${CUDAToolkit_VERSION_MAJOR}" IN_LIST SUPPORTED)',  # not a comparison
    "if(DEFINED CUDAToolkit_VERSION)",
    'if("CUDAToolkit_VERSION" STREQUAL x)',  # a quoted name is a string
    'message(STATUS "CUDA ${CUDAToolkit_VERSION} VERSION_LESS")',  # not a condition
    "set(V ${CUDAToolkit_VERSION} VERSION_LESS 12)",
])
def test_only_a_comparison_of_cudas_version_in_a_condition_is_answered(text):
    major, minor, build = _cuda_version()
    out, _ = tr(text + "\n")
    assert f"{major}.{minor}" not in out


@pytest.mark.skipif(shutil.which("cmake") is None, reason="needs cmake")
def test_a_version_gate_runs_cudas_branch(tmp_path):
    text = ("find_package(CUDAToolkit QUIET)\n"
            "if(CUDAToolkit_VERSION VERSION_LESS 11.8)\n  message(FATAL_ERROR \"old\")\n"
            "elseif(CUDAToolkit_VERSION_MAJOR GREATER_EQUAL 13)\n  message(STATUS \"new\")\n"
            "endif()\n")
    out, _ = tr(text)
    script = tmp_path / "s.cmake"
    script.write_text(out.replace("find_package(hip QUIET)\n", ""))
    proc = subprocess.run(["cmake", "-P", str(script)], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0 and "new" in proc.stdout + proc.stderr, proc.stderr
