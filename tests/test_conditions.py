"""Which #if branch a build for the target takes (cudaport/preprocessor/conditions.py,
cudaport/preprocessor/platform_branches.py): -D switches, CUDA's version macros, retired platform
macros and __NVCC__ in a file with HIP branches of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from conftest import compile_object
from cudaport import Options, translate_bytes
from cudaport.preprocessor.conditions import Known, evaluate

KNOWN = Known(defined=((b"GGML_USE_HIP", 1), (b"__HIPCC__", 1)),
              undefined=frozenset({b"CUDART_VERSION", b"__NVCC__"}))


@pytest.mark.parametrize("cond, outcome", [
    (b"!defined(GGML_USE_HIP) && __CUDA_ARCH__ >= GGML_CUDA_CC_AMPERE", False),
    (b"CUDART_VERSION >= 12080", False),
    (b"CUDART_VERSION < 11020", True),
    (b"CUDART_VERSION >= 11010 || defined(GGML_USE_MUSA)", None),
    (b"defined __HIPCC__ && !defined __NVCC__", True),
    (b"(defined(CUDART_VERSION) && CUDART_VERSION < X) || defined(GGML_USE_HIP) || \\\n y", True),
    (b"FOO(1, 2) || 0x10 == 16", True),
    (b"X ? 1 : 1", True),
    (b"'a' == 97", None),  # not understood: unknown, never a guess
    (b"", None),
])
def test_conditions_are_decided_only_by_what_is_known(cond, outcome):
    assert evaluate(cond, KNOWN) is outcome


def run(src: str, *defines: str, version: str = "7.2"):
    return translate_bytes(src.encode(), Options(target_version=version, defines=defines,
                                                 insert_main_header=False), "k.cu")


def findings(result, code: str) -> list[tuple[int, str]]:
    return [(f.line, f.identifier) for f in result.findings if f.code == code]


GGML = """\
#if !defined(GGML_USE_HIP) && __CUDA_ARCH__ >= 800
__device__ void load(int* a, unsigned p) {
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.b16 {%0, %1}, [%2];" : "=r"(a[0]), "=r"(a[1]) : "r"(p));
}
#endif
#if !defined(GGML_USE_HIP) && (CUBLAS_VER_MAJOR > 11 || CUBLAS_VER_MINOR >= 2)
int workspace = 1;
#endif
"""


def test_the_projects_own_hip_switch_is_honoured_with_d():
    # ggml: `cudaport check -D GGML_USE_HIP` still blocked on __reduce_add_sync and
    # CUBLAS_VER_MAJOR, which a build with the switch never compiles
    # (without it too: hipcc defines no __CUDA_ARCH__, so `... && __CUDA_ARCH__ >= 800` is
    # false; where the project defines __CUDA_ARCH__ itself, its value is not known)
    assert not findings(run(GGML), "CP210")
    ported = run("#define __CUDA_ARCH__ 1300\n" + GGML)
    assert [line for line, _ in findings(ported, "CP210")] == [4]
    given = run(GGML, "GGML_USE_HIP")
    assert not [f for f in given.findings if f.severity == "error"], given.findings
    assert not findings(given, "CP215")  # decided by the switch: nothing to say


NCCL_GATES = """\
#include <nccl.h>
#if NCCL_VERSION_CODE >= NCCL_VERSION(2,28,0)
#include "nccl_device.h"
__device__ void sync(Barrier bar) { bar.sync(ncclCoopCta(), cuda::memory_order_acquire); }
#endif
#if NCCL_VERSION_CODE >= NCCL_VERSION(2,7,0)
__device__ void order() { (void)cuda::memory_order_release; }
#endif
"""


def test_rccls_version_macros_decide_nccl_gates():
    # nccl-tests: `#if NCCL_VERSION_CODE >= NCCL_VERSION(2,28,0)` guards NCCL's device API,
    # which ROCm 7.2's RCCL (NCCL 2.27.7, rccl/rccl.h) lacks: never compiled for HIP 7.2, so
    # its libcu++ orders block nothing there; the 2.7 gate is true and still reports
    facts = Known(defined=((b"NCCL_VERSION_CODE", 22707),), functions=((
        b"NCCL_VERSION", (b"X", b"Y", b"Z"),
        b"(((X) <= 2 && (Y) <= 8) ? (X) * 1000 + (Y) * 100 + (Z) : (X) * 10000 + (Y) * 100 + (Z))"),))
    assert evaluate(b"NCCL_VERSION_CODE >= NCCL_VERSION(2,28,0)", facts) is False
    assert evaluate(b"NCCL_VERSION_CODE >= NCCL_VERSION(2, (7), 0)", facts) is True
    assert evaluate(b"NCCL_VERSION(2,3) > 0", facts) is None  # (not its parameters)
    assert evaluate(b"NCCL_VERSION_CODE >= NCCL_VERSION(2,28,0)", KNOWN) is None
    on72 = run(NCCL_GATES)
    assert [line for line, _ in findings(on72, "CP110")] == [7]
    assert on72.output.count(b"NCCL_VERSION_CODE >= NCCL_VERSION(") == 2  # (left as written)
    # another ROCm line: RCCL's version there is not known, both gates stand
    assert [line for line, _ in findings(run(NCCL_GATES, version="6.4"), "CP110")] == [4, 7]


VERSIONS = """\
#include <cuda_runtime.h>
#if CUDART_VERSION >= 12000
cudaGraphExecUpdateResultInfo info;
#else
cudaGraphExecUpdateResult result;
#endif
#if CUDA_VERSION >= 12080
#include <cuda_fp4.h>
#endif
#if __CUDACC_VER_MAJOR__ < 11
#error "CUDA 11 or later"
#endif
int v = CUDA_VERSION + __CUDACC_VER_MAJOR__;
#ifdef GGML_USE_HIP
int hip_build;
#endif
"""


def test_version_macros_are_left_in_conditions_and_named_in_code():
    # one policy for the three (README "Version gates"): hipcc defines none of them, so
    # conditions read 0; CUDART_VERSION was HIP_VERSION (every `>= 12080` true), CUDA_VERSION
    # an error, __CUDACC_VER_MAJOR__ a warning. (A file with HIP branches of its own, as
    # ggml's: its HIP build relies on the oldest branch)
    r = run(VERSIONS)
    out = r.text
    assert "#if CUDART_VERSION >= 12000\n" in out and "#if CUDA_VERSION >= 12080\n" in out
    assert "#if __CUDACC_VER_MAJOR__ < 11\n" in out
    assert "int v = HIP_VERSION + HIP_VERSION_MAJOR;" in out
    assert "hipGraphExecUpdateResult result;" in out
    assert not [f for f in r.findings if f.code == "CP101"]
    said = {f.line: f.message for f in r.findings if f.code == "CP215"}
    assert set(said) == {2, 7, 10}
    assert "false there: line 3 is not compiled for HIP" in said[2]
    assert "true there: line 11 is compiled for HIP" in said[10]
    # the #error the target takes is in the output; the branches it skips report nothing
    assert not [f for f in r.findings if f.line in (3, 8)]


@pytest.mark.slow  # compiles
def test_the_branch_hip_takes_compiles_with_rocm_7_2(tmp_path):
    src = VERSIONS.replace('#error "CUDA 11 or later"\n', "")
    out = tmp_path / "k.hip"
    out.write_bytes(translate_bytes(src.encode(), Options(target_version="7.2"), "k.cu").output)
    compile_object(out, "gfx942", "7.2")


MINIBUDE = """\
#include <thrust/for_each.h>
void run(int n, float* out) {
  thrust::for_each(thrust::counting_iterator<int>(0), thrust::counting_iterator<int>(n),
      [=] __device__
#ifndef __NVCC__
      __host__
#endif
      (int i) { out[i] = i; });
}
#ifdef __NVCC__
  #define IMPL_FN__(fn) cuda##fn
#elif defined(__HIP_PLATFORM_HCC__)
  #define IMPL_FN__(fn) hip##fn
#else
  #error Unsupported compiler for Thrust
#endif
"""


def test_nvcc_means_nvcc_in_a_file_with_its_own_hip_branches():
    # miniBUDE's fasten.hpp: `#ifndef __NVCC__` (any compiler but nvcc) became
    # `#ifndef __HIPCC__`, so hipcc dropped __host__, while `#ifdef __NVCC__` stayed
    r = run(MINIBUDE)
    assert r.text.count("__NVCC__") == 2 and "__HIPCC__" not in r.text
    said = {f.line: f.message for f in r.findings if f.code == "CP215"}
    assert "true there: line 6 is compiled for HIP" in said[5]
    # (the #ifdef __NVCC__ before the project's HIP branch is part of its portable chain)
    # elsewhere too __NVCC__ is nvcc itself, which hipcc is not: read as hipcc reads it
    # (undefined), left as written, and CP215 says the branch is not compiled for HIP
    plain = run("#ifdef __NVCC__\n__global__ void k(int* p);\n#endif\n")
    assert plain.text == "#ifdef __NVCC__\n__global__ void k(int* p);\n#endif\n"
    assert [f.identifier for f in plain.findings if f.code == "CP215"] == ["__NVCC__"]


def test_nvcc_or_clang_takes_the_clang_branch():
    # `#if defined(__NVCC__) ... #elif defined(__clang__)`: renamed to __HIPCC__, hipcc
    # took the nvcc branch (nv_diag_suppress pragmas), and `#ifndef __NVCC__` inverted
    src = ("#if defined(__NVCC__)\n#pragma nv_diag_suppress 177\n#elif defined(__clang__)\n"
           "#pragma clang diagnostic ignored \"-Wunused\"\n#endif\n"
           "#ifndef __NVCC__\ninline int host_only() { return 1; }\n#endif\n")
    r = run(src)
    assert r.text == src


def test_retired_platform_macros_are_renamed_from_hip_6():
    # BabelStream's ThrustStream.cu, miniBUDE: __HIP_PLATFORM_HCC__ has not been defined
    # since HIP 6.0, so the project's HIP branch was dead and the #error was compiled
    r = run(MINIBUDE)
    assert "#elif defined(__HIP_PLATFORM_AMD__)\n" in r.text
    assert findings(r, "CP170") == [(12, "__HIP_PLATFORM_HCC__")]
    old = run(MINIBUDE, version="5.2")
    assert "__HIP_PLATFORM_HCC__" in old.text and not findings(old, "CP170")
    again = run(r.text)
    assert again.text == r.text and not findings(again, "CP170")


@pytest.mark.slow  # compiles
def test_the_renamed_hip_branch_is_the_one_rocm_7_2_compiles(tmp_path):
    src = ("#include <cuda_runtime.h>\n#if defined(__HIP_PLATFORM_HCC__)\nint ok = 1;\n#else\n"
           "#error the HIP branch is dead\n#endif\n")
    out = tmp_path / "k.hip"
    out.write_bytes(translate_bytes(src.encode(), Options(target_version="7.2"), "k.cu").output)
    compile_object(out, "gfx942", "7.2")


PDL = """\
#if !defined(GGML_USE_HIP) && \\
    defined(ENABLE_PDL)
#define USE_PDL
#endif
void f() {
#ifdef USE_PDL
  cuTensorMapEncodeTiled(0, 0);
#endif
}
"""


def test_a_switch_defined_only_in_dead_branches_is_undefined_there():
    # ggml's common.cuh defines GGML_CUDA_USE_PDL under `#if !defined(GGML_USE_HIP) && ...`
    # and keeps its cudaLaunchKernelEx code under `#if defined(GGML_CUDA_USE_PDL)`
    assert findings(run(PDL), "CP101") == [(7, "cuTensorMapEncodeTiled")]
    assert findings(run(PDL, "GGML_USE_HIP"), "CP101") == []
    # defined elsewhere too, or given with -D: the branch may be compiled
    also = PDL.replace("void f() {", "#define USE_PDL\nvoid f() {")
    assert findings(run(also, "GGML_USE_HIP"), "CP101") == [(8, "cuTensorMapEncodeTiled")]
    assert findings(run(PDL, "GGML_USE_HIP", "USE_PDL"), "CP101") == [(7, "cuTensorMapEncodeTiled")]


DEEPSPEED = """\
#include <cublas_v2.h>
int first() {
#if defined(__HIP_PLATFORM_AMD__) && (TORCH_VERSION_MAJOR < 2)
  return (int)rocblas_gemm_algo_standard;
#elif defined(__HIP_PLATFORM_AMD__)
  return (int)HIPBLAS_GEMM_DEFAULT;
#else
  return (int)CUBLAS_GEMM_ALGO15_TENSOR_OP + (int)CU_TENSOR_MAP_DATA_TYPE_UINT8;
#endif
}
"""


def test_a_branch_true_on_the_target_ends_its_group_after_undecided_ones():
    # DeepSpeed's gemm_test.h: the target takes the first or the second branch, whatever
    # TORCH_VERSION_MAJOR is, so the CUDA #else is never compiled for it (a TMA name
    # there, which HIP has no form of, blocks nothing)
    r = run(DEEPSPEED)
    assert not [f for f in r.findings if f.severity == "error"], r.findings
    undecided = run(DEEPSPEED.replace("#elif defined(__HIP_PLATFORM_AMD__)", "#elif X"))
    assert [f.identifier for f in undecided.findings if f.severity == "error"] == [
        "CU_TENSOR_MAP_DATA_TYPE_UINT8"]


def test_the_portable_branch_names_the_macro_the_compiler_defines_now():
    # CP160 said "built only with __HIP_PLATFORM_HCC__ defined", a macro hipcc has not
    # defined since HIP 6.0; the branch is built with the name it is renamed to (CP170)
    src = ("#ifdef __HIP_PLATFORM_HCC__\nint hip_side;\n#else\nint cuda_side;\n#endif\n"
           "#if defined(__HIP_PLATFORM_NVCC__)\nint nvidia_side;\n#endif\n")
    said = {f.code + str(f.line): f.message for f in run(src).findings}
    assert "built only with __HIP_PLATFORM_AMD__ defined" in said["CP1601"]
    assert "it defines __HIP_PLATFORM_AMD__" in said["CP1701"]
    # (__HIP_PLATFORM_NVIDIA__ is no HIP-on-AMD branch brought back to life)
    assert "dead there" not in said["CP1706"] and "another platform" in said["CP1706"]
    old = {f.code: f.message for f in run(src, version="5.2").findings}
    assert "built only with __HIP_PLATFORM_HCC__ defined" in old["CP160"]


HEADERS = Known(header={b"nvml.h": False, b"rocm_smi/rocm_smi.h": True}.get)


@pytest.mark.parametrize("cond, outcome", [
    (b"__has_include(<nvml.h>)", False),
    (b'__has_include( "nvml.h" ) && X', False),
    (b"!__has_include(<rocm_smi/rocm_smi.h>)", False),
    (b"__has_include_next(<rocm_smi/rocm_smi.h>) || X", True),
    (b"__has_include(<project.h>)", None),  # (neither CUDA's nor the target's: not known)
])
def test_has_include_is_decided_by_the_headers_the_target_has(cond, outcome):
    assert evaluate(cond, HEADERS) is outcome


# llm.c's llmc/mfu.h, in short: a renamed header is renamed in the condition too, so the
# branch that now includes it is compiled; a header the target lacks is not found there
HAS_INCLUDE = """\
#include <cuda_runtime.h>
#if __has_include(<nvml.h>)
#include <nvml.h>
void fan(nvmlDevice_t d, unsigned* s) { nvmlDeviceGetFanSpeed(d, s); }
#else
void fan(int d, unsigned* s) { *s = 0; }
#endif
#if __has_include("cuda_pipeline.h") /* __has_include(<nvml.h>) */
#include "cuda_pipeline.h"
void reg() { cudaDeviceRegisterAsyncNotification(0, 0, 0, 0); }
#elif __has_include(<cooperative_groups/scan.h>) || __has_include(<project.h>)
int maybe;
#endif
"""


def test_has_include_reads_the_header_the_translation_leaves():
    r = run(HAS_INCLUDE)
    assert r.text.splitlines()[1] == "#if __has_include(<rocm_smi/rocm_smi.h>)"
    assert "#include <rocm_smi/rocm_smi.h>" in r.text
    assert '#if __has_include("cuda_pipeline.h") /* __has_include(<nvml.h>) */' in r.text
    # the NVML call HIP lacks is compiled (blocked); the call in the branch the target
    # does not find its header for is not reported, and CP215 says so
    assert findings(r, "CP101") == [(4, "nvmlDevice_t"), (4, "nvmlDeviceGetFanSpeed")]
    said = {f.line: f.message for f in r.findings if f.code == "CP215"}
    assert "HIP has no cuda_pipeline.h" in said[8] and "false there: lines 9-10 are not" in said[8]
    assert "cooperative_groups/scan.h" in said[11] and "depends on the other" in said[11]
    again = run(r.text)
    assert again.text == r.text


@pytest.mark.slow  # compiles
def test_the_branch_has_include_picks_compiles_with_rocm_7_2(tmp_path):
    src = ("#include <cuda_runtime.h>\n#if __has_include(<nvml.h>)\n#include <nvml.h>\n"
           "int init() { return nvmlInit(); }\n#else\n#error nvml.h renamed, its test not\n"
           "#endif\n#if __has_include(<cuda_pipeline.h>)\n#error no HIP has it\n#endif\n")
    out = tmp_path / "k.hip"
    out.write_bytes(translate_bytes(src.encode(), Options(target_version="7.2"), "k.cu").output)
    compile_object(out, "gfx942", "7.2")


def test_version_gates_of_a_file_without_hip_branches_take_cuda_13s_branch():
    # the same gates written for CUDA alone: read as 0 they took CUDA 11's branch and the
    # #error; each whose outcome differs tests __HIP_PLATFORM_AMD__ too, and the branch
    # CUDA 13.0 takes is compiled, with its findings (CUDA 12's update info: the portable
    # header's, with the warning that errorFromNode is NULL)
    # (README "Which #if branch a HIP build takes": the table's decision, CP223, with a
    # comment on the condition; HIP 7.2 has what each branch uses, FP4 included)
    r = run(VERSIONS.replace("#ifdef GGML_USE_HIP\nint hip_build;\n#endif\n", ""))
    comment = " /* cudaport: HIP takes the branch CUDA 13.0 takes, as it has what that uses */\n"
    assert "#if (CUDART_VERSION >= 12000) || defined(__HIP_PLATFORM_AMD__)" + comment in r.text
    assert "#if (CUDA_VERSION >= 12080) || defined(__HIP_PLATFORM_AMD__)" + comment in r.text
    assert "#if (__CUDACC_VER_MAJOR__ < 11) && !defined(__HIP_PLATFORM_AMD__)" + comment in r.text
    said = {f.line: f.message for f in r.findings if f.code == "CP223"}
    assert "takes the branch CUDA takes with CUDA 13.0 (line 3)" in said[2]
    assert "HIP 7.2 has cudaGraphExecUpdateResultInfo" in said[2]
    assert "takes the branch CUDA takes with CUDA 13.0 (no code)" in said[10]
    assert not [f for f in r.findings if f.code == "CP215"]
    assert [f.code for f in r.findings if f.line == 3] == ["CP171"]
    assert not [f for f in r.findings if f.line == 5]  # (the #else HIP no longer takes)
    assert run(r.text).text == r.text


SWITCH_H = """\
#pragma once
#if !defined(GGML_USE_HIP) && __CUDA_ARCH__ >= 750 // Turing
#define MMA_AVAILABLE
#endif
"""

MMA_H = """\
#pragma once
#include "switch.h"
__device__ void load(int* a, unsigned p) {
#ifdef MMA_AVAILABLE
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.b16 {%0, %1}, [%2];" : "=r"(a[0]), "=r"(a[1]) : "r"(p));
#endif
}
"""


def test_a_switch_another_file_defines_only_in_dead_branches_is_undefined_there(tmp_path):
    # ggml: common.cuh defines TURING_MMA_AVAILABLE under `#if !defined(GGML_USE_HIP) &&
    # __CUDA_ARCH__ >= ...`; mma.cuh keeps its ldmatrix/mma.sync PTX under it
    from cudaport.run.check import check_paths

    (tmp_path / "switch.h").write_text(SWITCH_H)
    (tmp_path / "mma.cuh").write_text(MMA_H)

    def errors(*defines):
        report = check_paths([str(tmp_path)], Options(defines=defines))
        return sorted((Path(f.path).name, f.line, f.code) for f in report.findings
                      if f.severity == "error")

    assert errors("GGML_USE_HIP") == []
    # the file alone reads the header it includes, as a run over the folder does (a
    # verdict no longer depends on what else is in the run)
    alone = check_paths([str(tmp_path / "mma.cuh")], Options(defines=("GGML_USE_HIP",)))
    assert [(f.line, f.code) for f in alone.findings if f.severity == "error"] == []
    assert {Path(f.path).name for f in alone.findings} <= {"mma.cuh"}
    # given with -D, or defined where the target compiles it, the branch may be compiled
    assert errors("GGML_USE_HIP", "MMA_AVAILABLE") == [("mma.cuh", 5, "CP210")]
    # without -D too (hipcc defines no __CUDA_ARCH__), unless a file of the run defines
    # __CUDA_ARCH__ itself (ggml's vendors/hip.h: 1300), wherever it is included
    assert errors() == []
    (tmp_path / "hip.h").write_text("#pragma once\n#define __CUDA_ARCH__ 1300\n")
    assert errors() == [("mma.cuh", 5, "CP210")]
    # ... unless it is included only where a build as invoked never goes (ggml's common.cuh
    # includes vendors/hip.h under `#if defined(GGML_USE_HIP)`)
    (tmp_path / "switch.h").write_text(SWITCH_H.replace(
        "#pragma once\n", '#pragma once\n#if defined(GGML_USE_HIP)\n#include "hip.h"\n#endif\n'))
    (tmp_path / "arch.cuh").write_text(MMA_H.replace("#ifdef MMA_AVAILABLE", "#if __CUDA_ARCH__ >= 800"))
    assert errors() == []
    assert errors("GGML_USE_HIP") == [("arch.cuh", 5, "CP210")]
    (tmp_path / "hip.h").unlink()
    (tmp_path / "arch.cuh").unlink()
    (tmp_path / "switch.h").write_text(SWITCH_H)
    (tmp_path / "live.h").write_text("#define MMA_AVAILABLE\n")
    assert errors("GGML_USE_HIP") == [("mma.cuh", 5, "CP210")]


VOLTA_H = """\
#pragma once
#define CC_VOLTA 700
"""

VOLTA_MMA = """\
#include "cc.h"
__device__ void mma(int* d, const int* a, const int* b) {
#if __CUDA_ARCH__ == CC_VOLTA
  asm("mma.sync.aligned.m8n8k4.row.row.f16.f16.f16.f16 {%0, %1, %2, %3}, {%4, %5}, {%6, %7}, {%0, %1, %2, %3};"
      : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3]) : "r"(a[0]), "r"(a[1]), "r"(b[0]), "r"(b[1]));
#endif
}
"""


def test_a_constant_another_file_defines_is_known_in_the_run(tmp_path):
    # candle's mmq_common.cuh: `#define GGML_CUDA_CC_VOLTA 700` at the top level; mmq_mma.cuh
    # keeps Volta's mma.sync under `#if __CUDA_ARCH__ == GGML_CUDA_CC_VOLTA`, false for HIP
    # (no __CUDA_ARCH__): 13 files were called blocked that compile
    from cudaport.run.check import check_paths

    (tmp_path / "cc.h").write_text(VOLTA_H)
    (tmp_path / "mma.cuh").write_text(VOLTA_MMA)

    def errors():
        report = check_paths([str(tmp_path)], Options())
        return sorted((Path(f.path).name, f.line, f.code) for f in report.findings
                      if f.severity == "error")

    assert errors() == []
    # not known: defined under a condition, with two values, or #undef'd somewhere
    for header in ("#pragma once\n#ifdef BIG\n#define CC_VOLTA 700\n#endif\n",
                   VOLTA_H + "#undef CC_VOLTA\n"):
        (tmp_path / "cc.h").write_text(header)
        assert errors() == [("mma.cuh", 4, "CP210")], header
    (tmp_path / "cc.h").write_text(VOLTA_H)
    (tmp_path / "other.h").write_text("#define CC_VOLTA 0\n")
    assert errors() == [("mma.cuh", 4, "CP210")]
    # an include guard is no condition
    (tmp_path / "other.h").unlink()
    (tmp_path / "cc.h").write_text("#ifndef CC_H\n#define CC_H\n#define CC_VOLTA 700\n#endif\n")
    assert errors() == []


# ggml's top-k.cu: CUB_TOP_K_AVAILABLE is defined under `#ifdef GGML_CUDA_USE_CUB`, itself
# defined only where HIP never goes (common.cuh: `... && CUDART_VERSION >= 11070`)
USE_CUB_H = """\
#pragma once
#if !defined(GGML_USE_HIP) && CUDART_VERSION >= 11070
#define USE_CUB
#endif
"""
TOP_K = """\
#include "use_cub.h"
#ifdef USE_CUB
#  if CCCL_MAJOR_VERSION >= 3
#    define TOP_K_AVAILABLE
#  endif
#endif
void f() {
#ifdef TOP_K_AVAILABLE
  cuTensorMapEncodeTiled(0, 0);
#endif
}
"""


def test_a_switch_defined_only_under_a_dead_switch_is_dead_too(tmp_path):
    from cudaport.run.check import check_paths

    # one file: its own switches, to a fixed point
    alone = USE_CUB_H.replace("#pragma once\n", "") + TOP_K.replace('#include "use_cub.h"\n', "")
    assert findings(run(alone), "CP101") == []
    assert findings(run(alone, "TOP_K_AVAILABLE"), "CP101") == [(11, "cuTensorMapEncodeTiled")]
    # a run of several files: the switch another file defines only where HIP never goes
    (tmp_path / "use_cub.h").write_text(USE_CUB_H)
    (tmp_path / "top-k.cu").write_text(TOP_K.replace('#include "use_cub.h"\n', ""))

    def errors(*defines):
        report = check_paths([str(tmp_path)], Options(defines=defines))
        return [(Path(f.path).name, f.line) for f in report.findings if f.severity == "error"]

    assert errors() == []
    assert errors("USE_CUB") == [("top-k.cu", 8)]  # (CCCL_MAJOR_VERSION: not known)
    (tmp_path / "cub_on.h").write_text("#define USE_CUB\n")
    assert errors() == [("top-k.cu", 8)]


# llm.c's mfu.h sets USE_NVML to 1 or 0 by __has_include and tests its value; ggml compares
# __CUDA_ARCH__ with GGML_CUDA_CC_TURING, a literal the file defines
VALUES = """\
#if __has_include(<cudaEGL.h>)
#define USE_EGL 1
#else
#define USE_EGL 0 // (HIP has none)
#endif
#define CC_AMPERE (800)
#if USE_EGL
void f() { cuTensorMapEncodeTiled(0, 0); }
#endif
#if __CUDA_ARCH__ >= CC_AMPERE
void g() { cuTensorMapEncodeTiled(0, 0); }
#endif
#if LATER
void h() { cuTensorMapEncodeTiled(0, 0); }
#endif
#define LATER 1
#ifdef MAYBE
#define M 1
#endif
#if M || CC_AMPERE < 700
void i() { cuTensorMapEncodeTiled(0, 0); }
#endif
"""


def test_a_literal_the_file_certainly_defines_decides_conditions():
    lines = [line for line, _ in findings(run(VALUES), "CP101")]
    # f and g are never compiled for HIP; h tests LATER before its #define (another header
    # may define it), i a name defined only in an undecided branch: both may be compiled
    assert lines == [14, 21]
    # a -D of the name, or a second #define of another value, leaves it unknown
    assert [line for line, _ in findings(run(VALUES, "USE_EGL=1"), "CP101")] == [8, 14, 21]
    twice = VALUES.replace("#define LATER 1", "#define CC_AMPERE 600")
    assert [line for line, _ in findings(run(twice), "CP101")] == [11, 14, 21]


ARCH = """\
#include <cuda_runtime.h>
#define CC_TURING 750
__device__ void load(int* a, unsigned p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= CC_TURING
  asm volatile("ldmatrix.sync.aligned.m8n8.x2.b16 {%0, %1}, [%2];" : "=r"(a[0]), "=r"(a[1]) : "r"(p));
#elif defined(__CUDA_ARCH_FEAT_SM90_ALL) || __CUDA_ARCH_SPECIFIC__ || __CUDA_ARCH_LIST__
#error "never on HIP"
#else
  a[0] = p;
#endif
}
"""


def test_hip_defines_no_cuda_arch_macro():
    # hipcc defines none of nvcc's architecture macros (host or device pass): in a file
    # without HIP branches of its own the target's facts decide the gate (with the file's
    # own `#define CC_TURING 750`): the sm_75 branch is PTX AMD GPUs lack, so the fallback
    # stands, with a note (CP223) for the whole group
    r = run(ARCH)
    assert not [f for f in r.findings if f.severity == "error"], r.findings
    assert not findings(r, "CP215")
    [(line, message)] = [(f.line, f.message) for f in r.findings if f.code == "CP223"]
    assert line == 4 and "from sm_75 on (line 5) relies on inline PTX" in message
    assert "compiles the branch for GPUs before sm_75 (line 9)" in message
    assert r.text == ARCH.replace("cuda_runtime.h", "hip/hip_runtime.h")  # (nothing to rewrite)
    # a project that defines the macro itself (ggml's vendors/hip.h) gives it its value
    own = run(ARCH.replace("#define CC_TURING 750", "#define CC_TURING 750\n#define __CUDA_ARCH__ 1300"))
    assert [f.code for f in own.findings if f.severity == "error"] == ["CP210"]


@pytest.mark.slow  # compiles
def test_the_branch_without_cuda_arch_compiles_with_rocm_7_2(tmp_path):
    src = ARCH.replace("a[0] = p;", "a[0] = p;\n#ifndef __CUDA_ARCH__\n  a[1] = p;\n#else\n#error no\n#endif")
    out = tmp_path / "k.hip"  # (object code: the host and the device pass)
    out.write_bytes(translate_bytes(src.encode(), Options(target_version="7.2"), "k.cu").output)
    compile_object(out, "gfx942", "7.2")


def test_a_cuda_library_header_hip_lacks_is_absent_there():
    # DeepSpeed's GDS sources include cufile.h; nothing maps it, and ROCm has none
    src = ("#if __has_include(<cufile.h>)\n#include <cufile.h>\nint gds() { return cuFileDriverOpen().err; }\n"
           "#else\nint gds() { return 0; }\n#endif\n#include \"nvshmem.h\"\n")
    r = run(src)
    said = {f.line: (f.code, f.message) for f in r.findings}
    assert said[1][0] == "CP215" and "false there: lines 2-3 are not compiled" in said[1][1]
    assert said[7][0] == "CP106" and 2 not in said and 3 not in said


# ParRes Kernels' prk_cuda.h: the #else of a test on a CUDA macro hipcc does not define
PRK = """\
#ifdef PRK_USE_CUBLAS
void check(int rc) {
#if defined(CUBLAS_VERSION) && (CUBLAS_VERSION >= 110402)
  report(rc);
#else
#error CUBLAS error names missing
#endif
}
#endif
#ifdef USE_ROCM
int hip_side;
#else
#error "a build switch decides this one"
#endif
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 700
#error "Volta or later"
#endif
#error "outside any branch: a header's guard against being compiled at all"
"""


def test_an_error_directive_the_target_reaches_is_an_error():
    # (its Makefile gives -DPRK_USE_CUBLAS to the cuBLAS programs only: without it, a
    # warning for the files that compile the branch)
    r = run(PRK)
    assert findings(r, "CP174") == [(6, "#error")] and not findings(r, "CP173")
    given = run(PRK, "PRK_USE_CUBLAS")
    assert findings(given, "CP173") == [(6, "#error")] and not findings(given, "CP174")
    assert "CUBLAS error names missing" in next(f.message for f in given.findings
                                                if f.code == "CP173")
    assert [f.line for f in given.findings if f.severity == "error"] == [6]
    # the retired platform macro is read as the translation renames it (CP170)
    minibude = ("#ifdef __NVCC__\nint a;\n#elif defined(__HIP_PLATFORM_HCC__)\nint b;\n"
                "#else\n#error Unsupported compiler\n#endif\n")
    assert not findings(run(minibude), "CP173")



# The evaluator parses each condition once (conditions._parsed) and keeps each outcome per
# set of facts; it reads every condition as the parser that read it token by token at
# each query did (the expected outcomes are that parser's, 7b3e751): operands left to
# right, all of them, an error in any (a division by zero, a bad expansion) leaving the
# whole unknown.
PARSED_ONCE = [
    b"1/0 || 1", b"0 && 1/0", b"A ? 1/0 : 1", b"X ? 1 : 1", b"1 % 0 == 0", b"-7 / 2 == -3",
    b"-7 % 2 == -1", b"1 << 70", b"~0 == -1", b"!A", b"+A", b"-B > 0", b"(A)(B)",
    b"defined A && defined(B)", b"defined", b"defined(", b"((1)", b"1)", b"A B", b"1 ? 2",
    b"NCCL_VERSION(2, 28, 0) > A", b"NCCL_VERSION(2, 3) > 0", b"F((1, 2), 3)", b"G(1)",
    b"__has_include(<nvml.h>) || __has_include(\"own.h\")", b"0x10 == 16 && 010 == 8",
    b"A >= 700 ? B : C", b"A == 1 ? 2 : B ? 3 : 4", b"(A || !B) && (C != 0 || D < 5)",
]


@pytest.mark.parametrize("defined, outcomes", [
    ((), "---T-TT-T----------------T---"),
    (((b"A", 1), (b"B", 0)), "---T-TT-TFTF-T------T----TFTT"),
    (((b"A", 700), (b"C", 2)), "---T-TT-TFT---------T----T--T"),
    (((b"B", 3), (b"D", 9), (b"A", 0)), "---T-TT-TTFF-T------T----TFTF"),
])
def test_a_condition_parsed_once_reads_as_each_query_read_it(defined, outcomes):
    facts = Known(defined=defined, undefined=frozenset({b"C", b"D"}),
                  header={b"nvml.h": False}.get,
                  functions=((b"NCCL_VERSION", (b"X", b"Y", b"Z"), b"X * 10000 + Y * 100 + Z"),
                             (b"G", (b"a",), b"G(a) + 1")))
    expected = [{"T": True, "F": False, "-": None}[c] for c in outcomes]
    for _ in range(2):  # (the second time from what the facts keep)
        assert [evaluate(cond, facts) for cond in PARSED_ONCE] == expected


@pytest.mark.parametrize("cond", [b"08", b"A || 09", b"1" + b"0" * 400 + b" / 3 > 1"])
def test_a_number_the_preprocessor_cannot_read_leaves_the_condition_unknown(cond):
    # (`#if 08` stopped the translation with a traceback: no octal number)
    assert evaluate(cond, KNOWN) is None
    result = run("#if " + cond.decode() + "\nint x;\n#endif\n__global__ void k() {}\n")
    assert b"int x;" in result.output


def test_facts_derived_with_more_definitions_read_as_a_new_set():
    import dataclasses

    base = Known(defined=((b"A", 1), (b"B", 2), (b"A", 5)), undefined=frozenset({b"C"}))
    assert evaluate(b"A == 1 && C == 0", base) is True
    before, after = ((b"B", 7), (b"B", 8), (b"E", 1)), ((b"A", 9), (b"F", 3), (b"F", 4))
    derived = base.defining(before, after, undefined=frozenset())
    replaced = dataclasses.replace(base, defined=before + base.defined + after,
                                   undefined=frozenset())
    assert derived == replaced
    for name in (b"A", b"B", b"C", b"E", b"F", b"G"):
        assert derived.value(name) == replaced.value(name), name
        assert derived.is_defined(name) == replaced.is_defined(name), name
    assert set(derived.defined_names) == {b"A", b"B", b"E", b"F"}
    assert evaluate(b"A == 1 && C == 0", derived) is None  # (its own outcomes, not base's)
    assert evaluate(b"B == 7 && F == 3", derived) is True
