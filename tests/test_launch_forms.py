"""`--launch hip` on the launch forms real code writes: template kernels whose arguments
are deduced, and launches inside macro bodies whose kernel or configuration are macro
parameters. Each translation is pinned, re-translated (idempotent) and compiled with
ROCm 6.4 and HIP 5.2 (both define ``hipLaunchKernelGGL(k, ...)`` as a macro that launches
``(k)<<<...>>>(...)``, so deduction works as in CUDA; ``HIP_KERNEL_NAME`` only protects
the commas of explicit template arguments)."""

from __future__ import annotations

import pytest

from cudaport import Options, translate_bytes
from conftest import compile_hip, tr

HEAD = """#include <cuda_runtime.h>
template <typename T>
__global__ void scale(T* x, T a, int n) { if (threadIdx.x < n) x[threadIdx.x] *= a; }
template <typename T, int B>
__global__ void fill(T* x, T v) { x[threadIdx.x + B * blockIdx.x] = v; }
namespace ns { template <typename T> __global__ void add(T* x, T v) { x[threadIdx.x] += v; } }
__global__ void kern(float* x) { x[threadIdx.x] = 1; }
"""

# (CUDA, expected with --launch hip)
DEDUCED = [
    ("scale<<<(n + 255) / 256, 256>>>(f, 2.0f, n);",
     "hipLaunchKernelGGL(scale, dim3((n + 255) / 256), dim3(256), 0, 0, f, 2.0f, n);"),
    ("scale<<<1, 64, 0, s>>>(d, 3.0, n);",
     "hipLaunchKernelGGL(scale, dim3(1), dim3(64), 0, s, d, 3.0, n);"),
    ("ns::add<<<1, 32>>>(d, 1.0);",
     "hipLaunchKernelGGL(ns::add, dim3(1), dim3(32), 0, 0, d, 1.0);"),
    ("fill<float, 64><<<1, 64>>>(f, 1.0f);",
     "hipLaunchKernelGGL(HIP_KERNEL_NAME(fill<float, 64>), dim3(1), dim3(64), 0, 0, f, 1.0f);"),
]

MACROS = """#define LAUNCH(k, g, b, ...) k<<<g, b>>>(__VA_ARGS__)
#define LAUNCH_S(k, g, b, s, ...) k<<<g, b, 0, s>>>(__VA_ARGS__)
#define CALL_KERN(x) kern<<<1, 32>>>(x)
"""
MACROS_HIP = """#define LAUNCH(k, g, b, ...) hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, 0, __VA_ARGS__)
#define LAUNCH_S(k, g, b, s, ...) hipLaunchKernelGGL(k, dim3(g), dim3(b), 0, s, __VA_ARGS__)
#define CALL_KERN(x) hipLaunchKernelGGL(kern, dim3(1), dim3(32), 0, 0, x)
"""
MACRO_USES = """  LAUNCH(kern, 1, 32, f);
  LAUNCH(scale, 1, 32, f, 2.0f, n);
  LAUNCH((fill<float, 64>), dim3(2, 2), 64, f, 1.0f);
  LAUNCH_S(ns::add, 1, 32, s, d, 1.0);
  CALL_KERN(f);
"""


def program(body: str, macros: str = "") -> str:
    return (HEAD + macros + "void run(float* f, double* d, int n, cudaStream_t s) {\n"
            + body + "}\n")


def test_deduced_template_launches_name_the_template():
    out = tr(program("".join(f"  {cuda}\n" for cuda, _ in DEDUCED)), launch="hip")
    for _, hip in DEDUCED:
        assert f"  {hip}\n" in out
    assert tr(out, launch="hip") == out


def test_launches_in_macro_bodies_are_rewritten_in_the_body():
    src = program(MACRO_USES, MACROS)
    result = translate_bytes(src.encode(), Options(launch="hip"))
    out = result.output.decode()
    assert MACROS_HIP in out and MACRO_USES in out  # uses stay as written
    assert not [f for f in result.findings if f.code == "CP109"]
    assert tr(out, launch="hip") == out


def test_configuration_in_one_macro_stays_a_launch_with_a_reason():
    src = program("  CALL_CFG(f);\n", "#define CFG 1, 32\n#define CALL_CFG(x) kern<<<CFG>>>(x)\n")
    result = translate_bytes(src.encode(), Options(launch="hip"))
    assert b"#define CALL_CFG(x) kern<<<CFG>>>(x)\n" in result.output
    [finding] = [f for f in result.findings if f.code == "CP109"]
    assert "<<<CFG>>> is one expression" in finding.message


@pytest.mark.slow
@pytest.mark.parametrize("toolchain", ["rocm", "system"])
@pytest.mark.parametrize("launch", ["hip", "cuda"])
def test_launch_forms_compile(tmp_path, toolchain, launch):
    body = "".join(f"  {cuda}\n" for cuda, _ in DEDUCED) + MACRO_USES + "  CALL_CFG(f);\n"
    macros = MACROS + "#define CFG 1, 32\n#define CALL_CFG(x) kern<<<CFG>>>(x)\n"
    options = {"target_version": "5.2"} if toolchain == "system" else {}
    path = tmp_path / "launches.hip"
    path.write_text(tr(program(body, macros), launch=launch, **options))
    compile_hip(path, toolchain)
