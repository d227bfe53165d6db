"""Output follows --hip-version: header paths, hipBLAS generations, warp-sync intrinsics,
HIP 7's warpSize, and the rule keys that carry those facts (`before`, `lane_mask`,
`needs_macro`, `runtime_value_since`)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cudaport import Options, translate_bytes, translate_source
from cudaport.rules.compiled import get_compiled
from conftest import compile_hip, tr

H6 = {"target_version": "6.4"}  # the warp-sync macro is for HIP 6.2 to 6.4
MACRO = "#ifndef HIP_ENABLE_WARP_SYNC_BUILTINS\n#define HIP_ENABLE_WARP_SYNC_BUILTINS\n#endif\n"


def test_default_version_is_the_newest_the_tables_describe():
    compiled = get_compiled(Options())
    assert compiled.target.version == "7.2.0"
    assert compiled.version == (7, 2)
    assert tr("void f(){ cublasGemmEx(h); }\n") == tr("void f(){ cublasGemmEx(h); }\n",
                                                     target_version="7.2")
    assert tr("void f(){ cublasGemmEx(h); }\n") == "void f(){ hipblasGemmEx(h); }\n"


@pytest.mark.parametrize("version, blas, roc, sparse", [
    ("5.0", "hipblas.h", "rocblas.h", "hipsparse.h"),
    ("5.2", "hipblas/hipblas.h", "rocblas/rocblas.h", "hipsparse/hipsparse.h"),
    ("6.4", "hipblas/hipblas.h", "rocblas/rocblas.h", "hipsparse/hipsparse.h"),
    ("7.0", "hipblas/hipblas.h", "rocblas/rocblas.h", "hipsparse/hipsparse.h"),
])
def test_library_header_paths_follow_the_version(version, blas, roc, sparse):
    src = "#include <cublas_v2.h>\n#include <cusparse.h>\n"
    assert tr(src, target_version=version) == f"#include <{blas}>\n#include <{sparse}>\n"
    out = tr("#include <cublas_v2.h>\n", target_version=version,
             variants=(("blas", "rocblas"),))
    assert out == f"#include <{roc}>\n"


def test_headers_that_never_moved():
    assert tr("#include <nvrtc.h>\n") == "#include <hip/hiprtc.h>\n"  # hip/ in 5.2 and 6.4
    assert tr("#include <cufft.h>\n", target_version="5.2") == "#include <hipfft/hipfft.h>\n"


@pytest.mark.parametrize("version, gemm, caxpy", [
    ("6.0", "hipblasGemmEx_v2", "hipblasCaxpy_v2"),
    ("6.4", "hipblasGemmEx_v2", "hipblasCaxpy_v2"),
    ("7.0", "hipblasGemmEx", "hipblasCaxpy"),
])
def test_hipblas_v2_names_until_hipblas_3(version, gemm, caxpy):
    out = tr("void f(){ cublasGemmEx(h); cublasCaxpy(h); }\n", target_version=version)
    assert out == f"void f(){{ {gemm}(h); {caxpy}(h); }}\n"


def test_hipblas_v2_names_are_unavailable_before_hipblas_2():
    r = translate_source("void f(){ cublasGemmEx(h); }\n", target_version="5.2")
    assert "cublasGemmEx(h)" in r.text and [f.code for f in r.findings] == ["CP107"]


def test_hip52_declares_hip_data_types():
    # HIPIFY dates HIP_R_32F at 5.7; Debian's HIP 5.2 hip/library_types.h declares it.
    assert tr("cudaDataType t = CUDA_R_32F;\n", target_version="5.2") == \
        "hipDataType t = HIP_R_32F;\n"


KERNEL = ("#include <cuda_runtime.h>\n"
          "__global__ void k(float* x, unsigned m) {{ float v = x[0];\n{}\n}}\n")
FULL_MASKS = ["0xffffffff", "0xFFFFFFFFu", "~0u", "uint32_t(-1)", "(unsigned)-1",
              "static_cast<unsigned int>(-1)", "( 0xffffffffU )", "4294967295u"]


@pytest.mark.parametrize("mask", FULL_MASKS)
def test_full_warp_masks_become_the_active_mask(mask):
    src = KERNEL.format(f"  v += __shfl_down_sync({mask}, v, 16);")
    out = tr(src, **H6)
    assert out.startswith(MACRO + "#include <hip/hip_runtime.h>\n")
    assert "v += __shfl_down_sync(__activemask(), v, 16);" in out
    assert tr(out, **H6) == out


def test_full_mask_names_the_file_defines():
    src = ("#define FULL_MASK 0xffffffff\nconstexpr unsigned kAll = 0xffffffffu;\n"
           + KERNEL.format("  v += __shfl_xor_sync(FULL_MASK, v, 1);\n"
                           "  v += __shfl_xor_sync(kAll, v, 2);"))
    out = tr(src)
    assert "__shfl_xor_sync(__activemask(), v, 1)" in out
    assert "__shfl_xor_sync(__activemask(), v, 2)" in out


def test_partial_or_variable_mask_is_cast_and_reported():
    src = KERNEL.format("  v += __shfl_sync(m, v, 0);\n  v += __shfl_sync(0xffff, v, 0);")
    r = translate_source(src)
    assert "__shfl_sync(static_cast<unsigned long long>(m), v, 0)" in r.text
    assert "__shfl_sync(static_cast<unsigned long long>(0xffff), v, 0)" in r.text
    assert [f.code for f in r.findings if f.code == "CP219"] == ["CP219", "CP219"]
    again = translate_source(r.text)
    assert again.text == r.text and not [f for f in again.findings if f.code == "CP219"]


def test_a_projects_own_overload_is_no_call():
    # pytorch_scatter's csrc/cuda/utils.cuh declares an at::Half overload; its parameter
    # list became `__shfl_up_sync(static_cast<unsigned long long>(const warp_mask_t mask),
    # ...)` and every unit including it failed while called clean
    head = ("__device__ __inline__ double __shfl_up_sync(const warp_mask_t mask,\n"
            "                                            const double var,\n"
            "                                            const unsigned int delta)")
    src = (f"typedef unsigned int warp_mask_t;\n{head};\n{head} {{\n"
           "  return __shfl_up_sync(mask, (float)var, delta);\n}\n")
    r = translate_bytes(src.encode(), Options(insert_main_header=False, target_version="7.2"))
    assert r.text.count(head) == 2
    assert "return __shfl_up_sync(static_cast<unsigned long long>(mask)," in r.text
    assert [f.line for f in r.findings if f.code == "CP219"] == [8]
    # a declaration of a function with an argument template keeps its parameters too
    decl = "cudaError_t cudaMemcpyToSymbol(const char* s, const void* p, size_t n);\n"
    assert tr(decl, target_version="7.2", insert_main_header=False) == \
        "hipError_t hipMemcpyToSymbol(const char* s, const void* p, size_t n);\n"


def test_64_bit_masks_are_left_alone():
    src = KERNEL.format("  unsigned long long all = __activemask();\n"
                        "  v += __shfl_sync(all, v, 0) + __shfl_sync(~0ull, v, 1);")
    r = translate_source(src)
    assert "__shfl_sync(all, v, 0) + __shfl_sync(~0ull, v, 1)" in r.text
    assert not [f for f in r.findings if f.code == "CP219"]


def test_macro_inserted_once_before_the_first_include():
    src = ("// header\n#include <cstdio>\n#include <cuda_runtime.h>\n"
           "__device__ float f(float v) { v += __shfl_down_sync(0xffffffff, v, 1);\n"
           "  return __any_sync(0xffffffff, v > 0) ? __ballot_sync(~0u, 1) : v; }\n")
    out = tr(src, **H6)
    assert out.count("#define HIP_ENABLE_WARP_SYNC_BUILTINS") == 1
    assert out.startswith("// header\n" + MACRO + "#include <cstdio>\n")
    assert tr(out, **H6) == out


def test_macro_shares_the_main_header_insertion():
    src = "#pragma once\n__device__ float f(float v) { return __shfl_sync(0xffffffff, v, 0); }\n"
    out = tr(src, **H6)
    assert out.startswith("#pragma once\n" + MACRO + "#include <hip/hip_runtime.h>\n")
    assert tr(out, **H6) == out


def test_no_macro_from_hip_7_and_mask_less_forms_before_6_2():
    src = KERNEL.format("  v += __shfl_down_sync(0xffffffff, v, 16);\n"
                        "  if (__all_sync(0xffffffff, v > 0)) __syncwarp();")
    new = tr(src, target_version="7.0")
    assert "HIP_ENABLE_WARP_SYNC_BUILTINS" not in new
    assert "__shfl_down_sync(__activemask(), v, 16)" in new and "__syncwarp();" in new
    old = translate_source(src, target_version="5.2")
    assert "HIP_ENABLE_WARP_SYNC_BUILTINS" not in old.text
    assert "v += __shfl_down(v, 16);" in old.text
    assert "if (__all(v > 0)) __threadfence_block();" in old.text
    assert {f.code for f in old.findings if f.code.startswith("CP1")} == {"CP108"}
    assert translate_source(old.text, target_version="5.2").text == old.text


def test_syncwarp_needs_hip_7():
    # ROCm 6.4's amd_warp_sync_functions.h has no __syncwarp: the fence fallback applies.
    src = KERNEL.format("  __syncwarp();")
    assert "__threadfence_block();" in tr(src, target_version="6.4")
    assert "__syncwarp();" in tr(src, target_version="7.0")


def test_warpsize_constant_expression_reported_for_hip_7_only():
    src = KERNEL.format("  __shared__ float s[warpSize]; s[0] = v;")
    assert "CP220" in {f.code for f in translate_source(src, target_version="7.0").findings}
    assert "CP220" in {f.code for f in translate_source(src).findings}  # the default, 7.2
    assert "CP220" not in {f.code for f in translate_source(src, target_version="6.4").findings}


def _pack(tmp_path: Path, text: str) -> str:
    path = tmp_path / "user.yaml"
    path.write_text(text)
    return str(path)


def test_version_conditional_template_in_a_user_rule(tmp_path):
    rules = _pack(tmp_path, 'identifiers:\n  acmeCopy: {to: acmeCopy2, before: '
                  '{"7.0.0": {to: acmeCopy1, template: "acmeCopy1($2, $1)"}}}\n')
    src = b"void f(){ acmeCopy(a, b); }\n"
    old = translate_bytes(src, Options(rule_files=(rules,), target_version="6.4")).output
    new = translate_bytes(src, Options(rule_files=(rules,), target_version="7.0")).output
    assert old == b"void f(){ acmeCopy1(b, a); }\n"
    assert new == b"void f(){ acmeCopy2(a, b); }\n"


@pytest.mark.parametrize("body, message", [
    ('acmeX: {to: y, before: {"seven": z}}', "not a version"),
    ('acmeX: {to: y, before: {"7.0": {template: "z($1)"}}}', "missing required key 'to'"),
    ("acmeX: {to: y, lane_mask: 0}", "argument number"),
    ("acmeX: {to: y, needs_macro: {since: \"6.2\"}}", "missing required key 'name'"),
])
def test_version_keys_are_validated(tmp_path, body, message):
    from cudaport.rules.schema import RuleError

    rules = _pack(tmp_path, f"identifiers:\n  {body}\n")
    with pytest.raises(RuleError, match=message):
        get_compiled(Options(rule_files=(rules,)))


WARP_PROGRAM = """#include <cuda_runtime.h>
#include <cstdio>
#define FULL_MASK 0xffffffff
__global__ void k(const float* in, float* out, unsigned sub) {
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(FULL_MASK, v, o);
  v += __shfl_xor_sync(0xffffffffu, v, 1) + __shfl_up_sync(~0u, v, 1);
  v += __shfl_sync(sub, v, 0);
  unsigned long long b = __ballot_sync(0xffffffff, v > 0);
  if (__all_sync(0xffffffff, v > 0) && __any_sync(uint32_t(-1), v < 0)) out[0] = b;
  unsigned long long act = __activemask();
  int pred; out[1] = __match_all_sync(act, 1, &pred) + __match_any_sync(0xffffffff, 2);
  __syncwarp();
}
int main() { k<<<1, 64>>>(nullptr, nullptr, 0xffffu); return cudaDeviceSynchronize(); }
"""


def _compile(cmd: list[str]) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_warp_sync_program_compiles_with_rocm_6_4(tmp_path):
    path = tmp_path / "warp.hip"
    path.write_text(tr(WARP_PROGRAM, target_version="6.4"))
    compile_hip(path, "rocm")


@pytest.mark.slow
def test_warp_sync_program_compiles_with_hip_5_2(tmp_path):
    if shutil.which("clang++-15") is None or not Path("/usr/include/hip/hip_runtime.h").exists():
        pytest.skip("no HIP 5.2 (clang-15, libamdhip64-dev): run tools/setup-system.sh")
    src = "\n".join(line for line in WARP_PROGRAM.splitlines() if "__match_" not in line)
    path = tmp_path / "warp.hip"
    path.write_text(tr(src, target_version="5.2"))
    run = _compile(["clang++-15", "-x", "hip", "--offload-arch=gfx90a", "--rocm-path=/usr",
                    "-nogpulib", "-fsyntax-only", "--hip-version=5.2.0", str(path)])
    assert run.returncode == 0, run.stderr


def test_rules_explain_shows_the_generations():
    from cudaport.rules.describe import explain_header, explain_identifier

    compiled = get_compiled(Options())
    text = "\n".join(explain_identifier(compiled, "cublasGemmEx"))
    assert "hipblasGemmEx (since HIP 6.0.0, hipblasGemmEx_v2 before HIP 7.0.0)" in text
    text = "\n".join(explain_identifier(compiled, "__shfl_down_sync"))
    assert "argument 1 is a warp lane mask" in text and "HIP_ENABLE_WARP_SYNC_BUILTINS" in text
    assert "HIP 7.0.0, not a constant" in "\n".join(explain_identifier(compiled, "warpSize"))
    text = "\n".join(explain_header(compiled, "cusparse.h"))
    assert "hipsparse/hipsparse.h (hipsparse.h before HIP 5.2.0)" in text


def test_full_mask_hazard_says_what_the_translation_did():
    src = KERNEL.format("  v += __shfl_down_sync(0xffffffff, v, 1);\n"
                        "  v += __shfl_down_sync(0xffffffff & m, v, 1);")
    messages = [f.message for f in translate_source(src).findings if f.code == "CP202"]
    assert len(messages) == 2
    assert messages[0].endswith("the translation passes __activemask() instead")
    assert not messages[1].endswith("instead")
    old = [f.message for f in translate_source(src, target_version="5.2").findings
           if f.code == "CP202"]
    assert old and not any(m.endswith("instead") for m in old)


def test_json_report_names_the_version_the_output_is_for():
    import json

    from cudaport.run.kinds import translate_file
    from cudaport.report import json_report
    from cudaport.report.model import collect
    from cudaport.report.totals import compute

    _output, outcome = translate_file(b"void f(){ cudaFree(p); }\n", "source", Options(), "f.cu",
                                      keep_references=True)

    def render(outcomes, options):
        report = collect(outcomes, options, "HIP")
        return json_report.render(report, compute(report))

    assert json.loads(render([outcome], Options()))["options"]["target_version"] == "7.2.0"
    options = Options(target_version="5.2")
    assert json.loads(render([outcome], options))["options"]["target_version"] == "5.2"


def test_macro_for_files_that_include_a_project_header():
    # The project header may use the intrinsics: the macro must precede the HIP header,
    # which this file includes first (llm.c's dev/cuda/*.cu and common.h).
    src = '#include <cuda_runtime.h>\n#include "common.h"\nint main() { return 0; }\n'
    assert tr(src, **H6) == MACRO + '#include <hip/hip_runtime.h>\n#include "common.h"\n' \
        "int main() { return 0; }\n"
    assert tr(tr(src, **H6), **H6) == tr(src, **H6)
    assert "HIP_ENABLE" not in tr(src, target_version="7.0")
    assert "HIP_ENABLE" not in tr(src, target_version="5.2")
    plain = "#include <cuda_runtime.h>\n#include <cstdio>\nint main() { return 0; }\n"
    assert "HIP_ENABLE" not in tr(plain, **H6)
    assert "HIP_ENABLE" not in tr('#include "common.h"\nint x;\n')  # no HIP header here
    # A project that includes its installed headers by folder (faiss: <faiss/gpu/...>): the
    # header's own HIP include comes too late for the macro otherwise.
    angle = src.replace('"common.h"', "<proj/common.cuh>")
    assert tr(angle, **H6).startswith(MACRO + "#include <hip/hip_runtime.h>\n")
    assert tr(tr(angle, **H6), **H6) == tr(angle, **H6)
    system = "#include <cuda_runtime.h>\n#include <sys/time.h>\n#include <thrust/sort.h>\n"
    assert "HIP_ENABLE" not in tr(system, **H6)


def test_macro_for_a_unit_whose_project_headers_bring_the_hip_header():
    """faiss's GpuIndexFlat.cu includes only project headers; the first of them includes
    the HIP runtime, a later one hip_bf16.h: the macro must come before all of them, so
    the unit defines it (a header does not: it cannot know what came first)."""
    src = b"#include <faiss/gpu/GpuResources.h>\n#include <faiss/gpu/utils/Float16.cuh>\n" \
          b"void f() {}\n"
    unit = translate_bytes(src, Options(target_version="6.4"), path="GpuIndexFlat.cu").output
    assert unit == MACRO.encode() + src
    assert translate_bytes(unit, Options(target_version="6.4"), path="GpuIndexFlat.cu").output == unit
    header = translate_bytes(src, Options(target_version="6.4"), path="GpuIndexFlat.cuh").output
    assert header == src
    for version in ("5.2", "7.0"):
        assert translate_bytes(src, Options(target_version=version),
                               path="GpuIndexFlat.cu").output == src


@pytest.mark.parametrize("src", ['#include "cuda.h"\n', '#include "cuda_fp16.h"\n#include "a.h"\n'
                                 "__global__ void k() {}\n"])
def test_quoted_cuda_headers_are_not_project_headers(src):
    once = tr(src)
    assert tr(once) == once


BF16_RAW = """#include <cuda_bf16.h>
__device__ float f(__nv_bfloat16_raw r, __nv_bfloat162_raw q) {
  __nv_bfloat16 b = r;
  __nv_bfloat162 c = q;
  return __bfloat162float(b) + __low2float(c);
}
"""


def test_bfloat16_raw_types_follow_the_hip_version():
    """HIP's bf16 header has the raw structs since ROCm 6.2 (CUTLASS's bfloat16.h uses them)."""
    out = tr(BF16_RAW, target_version="6.4")
    assert "__hip_bfloat16_raw r, __hip_bfloat162_raw q" in out
    result = translate_bytes(BF16_RAW.encode(), Options(target_version="6.1"))
    assert b"__nv_bfloat16_raw" in result.output
    assert {f.code for f in result.findings} == {"CP107"}


@pytest.mark.slow
def test_bfloat16_raw_types_compile_with_rocm_6_4(tmp_path):
    path = tmp_path / "bf16raw.hip"
    path.write_text(tr(BF16_RAW, target_version="6.4"))
    compile_hip(path, "rocm")


# --hip-version: the default stays 7.2, the newest version compiled with a real hipcc; the
# tables describe versions up to 10.1 (target.yaml `newest_described`), and no further.

def test_default_stays_7_2_while_the_tables_describe_10_1():
    compiled = get_compiled(Options())
    assert compiled.target.version == "7.2.0"
    assert compiled.target.newest_described == "10.1.0"
    assert compiled.version == (7, 2)
    assert get_compiled(Options(target_version="10.1")).version == (10, 1)


@pytest.mark.parametrize("version", ["10.2", "11.0", "12"])
def test_versions_newer_than_the_tables_describe_are_refused(version):
    from click.testing import CliRunner
    from cudaport.cli.main import main
    result = CliRunner().invoke(main, ["translate", "-", "--hip-version", version],
                                input="int x;\n")
    assert result.exit_code == 2
    assert (f"--hip-version {version}: the HIP rule tables describe versions up to 10.1 "
            "(default 7.2)") in result.output
    with pytest.raises(ValueError):
        get_compiled(Options(target_version=version))


def test_patch_releases_of_the_newest_version_are_accepted():
    assert get_compiled(Options(target_version="10.1.2")).version == (10, 1, 2)


# ROCm 10.x facts (rules/hip/rocm10.yaml, from ROCm's sources; no toolchain here).

ROCM10_NAMES = [  # CUDA name, HIP name, first ROCm with it (CHANGELOG section)
    ("cudaInitDevice", "hipInitDevice", "10.1"),
    ("cudaInitDeviceFlagsAreValid", "hipInitDeviceFlagsAreValid", "10.1"),
    ("cuDeviceGetLuid", "hipDeviceGetLuid", "10.1"),
    ("cudaMemGetDefaultMemPool", "hipMemGetDefaultMemPool", "10.0"),
    ("cuMemGetDefaultMemPool", "hipMemGetDefaultMemPool", "10.0"),
    ("cudaLibraryGetGlobal", "hipLibraryGetGlobal", "7.14"),
    ("cudaLibraryGetManaged", "hipLibraryGetManaged", "7.14"),
    ("cuLibraryGetGlobal", "hipLibraryGetGlobal", "7.14"),
    ("cuLibraryGetManaged", "hipLibraryGetManaged", "7.14"),
    ("cudaMemDiscardBatchAsync", "hipMemDiscardBatchAsync", "7.14"),
    ("cudaMemDiscardAndPrefetchBatchAsync", "hipMemDiscardAndPrefetchBatchAsync", "7.14"),
    ("cuMemDiscardBatchAsync", "hipDrvMemDiscardBatchAsync", "7.14"),
    ("cuMemDiscardAndPrefetchBatchAsync", "hipDrvMemDiscardAndPrefetchBatchAsync", "7.14"),
    ("CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED",
     "hipDeviceAttributeGPUDirectRDMAWithHipVMMSupported", "7.13"),
    ("cuKernelGetAttribute", "hipKernelGetAttribute", "7.12"),
    ("cuKernelGetParamInfo", "hipKernelGetParamInfo", "7.11"),
]


@pytest.mark.parametrize("cuda, hip, since", ROCM10_NAMES)
def test_rocm10_names_from_their_first_version(cuda, hip, since):
    src = f"void f(){{ use({cuda}); }}\n"
    for version in (since, "10.1"):
        r = translate_source(src, target_version=version)
        assert r.text.endswith(f"void f(){{ use({hip}); }}\n") and not r.findings, version
    r = translate_source(src, target_version="7.2")
    assert r.text.endswith(src)
    assert [(f.code, f.message) for f in r.findings] == [
        ("CP107", f"{cuda}: {hip} needs HIP {since}.0, newer than the selected version")]


CG = ("#include <cooperative_groups.h>\n#include <cooperative_groups/reduce.h>\n"
      "#include <cooperative_groups/scan.h>\n"
      "__global__ void k(int* p) { namespace cg = cooperative_groups;\n"
      "  auto t = cg::tiled_partition<32>(cg::this_thread_block());\n"
      "  p[0] = cg::reduce(t, p[1], cg::plus<int>()); p[2] = cg::inclusive_scan(t, p[3]); }\n")


def test_cooperative_groups_reduce_and_scan_are_hips_own_in_rocm_10():
    r = translate_source(CG, target_version="10.1")
    assert r.text.startswith("#include <hip/hip_runtime.h>\n#include <hip/hip_cooperative_groups.h>\n"
                             "#include <hip/cooperative_groups/hip_reduce.h>\n"
                             "#include <hip/cooperative_groups/hip_scan.h>\n")
    assert "CUDAPORT_COOPERATIVE_GROUPS_REDUCE" not in r.text  # HIP defines cg::plus itself
    assert not r.findings
    # 7.13 has reduce, not scan: the header needs 10.0 (CP107) and so does the call (CP213)
    r = translate_source(CG, target_version="7.13")
    assert "#include <hip/cooperative_groups/hip_reduce.h>\n" in r.text
    assert [f.code for f in r.findings] == ["CP107", "CP213"]
    assert "hip/cooperative_groups/hip_scan.h needs HIP 10.0.0" in r.findings[0].message


def test_cooperative_groups_reduce_is_cudaports_own_before_7_13():
    r = translate_source(CG, target_version="7.2")
    assert "#define CUDAPORT_COOPERATIVE_GROUPS_REDUCE" in r.text
    assert "hip_reduce.h" not in r.text
    assert [f.code for f in r.findings] == ["CP107", "CP213"]


def test_cooperative_groups_barriers_and_block_rank_from_7_12():
    src = ("#include <cooperative_groups.h>\n__global__ void k(int* p) {\n"
           "  auto g = cooperative_groups::this_grid(); p[0] = g.block_rank();\n"
           "  auto t = g.barrier_arrive(); g.barrier_wait(std::move(t)); }\n")
    assert {f.code for f in translate_source(src, target_version="7.2").findings} == {"CP213"}
    assert not translate_source(src, target_version="7.12").findings


def test_mem_advise_keeps_the_device_form_in_rocm_10_1():
    # hipMemAdvise takes a hipMemLocation only from HIP 10.2 (CHANGELOG "HIP 10.2.0"), and
    # hipMemPrefetchAsync keeps `int device`: 10.1's output is 7.2's.
    src = ("void f(float* p, cudaMemLocation l, cudaStream_t s) {\n"
           "  cudaMemAdvise(p, 4, cudaMemAdviseSetReadMostly, l);\n"
           "  cudaMemPrefetchAsync(p, 4, l, 0, s); }\n")
    out = tr(src, target_version="10.1")
    assert out == tr(src, target_version="7.2")
    assert "hipMemAdvise(p, 4, hipMemAdviseSetReadMostly, [](auto l) -> int" in out
    assert "hipMemAdvise_v2" not in out


def test_default_reports_what_rocm_10_added():
    src = "void f(){ cudaInitDevice(0, 0, 0); }\n"
    default = translate_source(src)
    assert default.text == translate_source(src, target_version="7.2").text
    assert "cudaInitDevice(0, 0, 0)" in default.text  # hipInitDevice is 10.1's
    assert [f.code for f in default.findings] == ["CP107"]
    assert tr(src, target_version="10.1.2").endswith("void f(){ hipInitDevice(0, 0, 0); }\n")
