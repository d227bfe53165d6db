"""Argument templates and version fallbacks produce code the real HIP compiler accepts.

Translates a CUDA file that passes kernels and __device__ symbols to every API with an
argument rule (rules/hip/calls.yaml) or a template overload in HIP, with
``--hip-version 5.2`` (Debian's headers), and compiles it with clang++ -x hip.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from cudaport import Options, translate_bytes
from cudaport.run.verify import find_compiler

SOURCE = b"""\
#include <cuda_runtime.h>
#include <cuda_bf16.h>

__constant__ float coeffs[4];
__device__ int counter;

__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= coeffs[i % 4];
}

__global__ void shuffle(int* out) {
  int v = threadIdx.x;
  v += __shfl_down_sync(0xffffffffu, v, 1);
  out[threadIdx.x] = v;
}

int main() {
  float host[4] = {1, 2, 3, 4};
  cudaMemcpyToSymbol(coeffs, host, sizeof(host));
  cudaMemcpyToSymbolAsync(coeffs, host, sizeof(host), 0, cudaMemcpyHostToDevice, 0);
  cudaMemcpyFromSymbol(host, coeffs, sizeof(host));
  cudaMemcpyFromSymbolAsync(host, coeffs, sizeof(host), 0, cudaMemcpyDeviceToHost, 0);
  void* address = nullptr;
  size_t size = 0;
  cudaGetSymbolAddress(&address, counter);
  cudaGetSymbolSize(&size, counter);
  cudaFuncAttributes attributes;
  cudaFuncGetAttributes(&attributes, scale);
  cudaFuncSetAttribute(scale, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);
  cudaFuncSetCacheConfig(scale, cudaFuncCachePreferL1);
  cudaFuncSetSharedMemConfig(scale, cudaSharedMemBankSizeFourByte);
  int blocks = 0, grid = 0, block = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale, 256, 0);
  cudaOccupancyMaxPotentialBlockSize(&grid, &block, scale, 0, 0);
  float* x = nullptr;
  int n = 4;
  void* args[] = {&x, &n};
  cudaLaunchKernel((const void*)scale, dim3(1), dim3(4), args, 0, 0);
  cudaLaunchKernel(scale, dim3(1), dim3(4), args, 0, 0);
  cudaLaunchCooperativeKernel(scale, dim3(1), dim3(4), args, 0, 0);
  __nv_bfloat16 weight = __nv_bfloat16(0.5f);
  (void)weight;
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
"""


@pytest.fixture(scope="module")
def compiler():
    found = find_compiler(toolchain="system")  # the host's HIP 5.2 (clang-15)
    if found is None:
        if os.environ.get("CUDAPORT_SKIP_HIP") == "1":
            pytest.skip("no HIP compiler and CUDAPORT_SKIP_HIP=1")
        pytest.fail("no HIP compiler: run tools/setup-system.sh (clang-15, libamdhip64-dev)")
    return found


def test_templates_and_fallbacks_compile_with_hip_5_2(compiler, tmp_path):
    result = translate_bytes(SOURCE, Options(target_version="5.2"), "apis.cu")
    out = result.output.decode()
    assert "hipMemcpyToSymbol(HIP_SYMBOL(coeffs), host" in out
    assert "hipFuncSetAttribute(reinterpret_cast<const void*>(scale)" in out
    assert "hipFuncSetSharedMemConfig(reinterpret_cast<const void*>(scale)" in out
    assert "hipOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, scale," in out
    assert "__shfl_down(v, 1)" in out and "hip_bfloat16 weight" in out
    assert not [f for f in result.findings if f.code in ("CP101", "CP105", "CP107")]
    path = tmp_path / "apis.hip"
    path.write_bytes(result.output)
    proc = subprocess.run(compiler.command(path), capture_output=True, text=True,
                          env={**os.environ, **dict(compiler.env)})
    assert proc.returncode == 0, proc.stderr[-3000:]


EVENTS = b"""\
#include <cuda_runtime.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
__global__ void stream(const float* x, float* o, const float4* v, float4* w,
                       __nv_bfloat16* b, const __half* h, __half* g) {
  float a = __ldcs(x + threadIdx.x);
  float4 q = __ldcs(&v[threadIdx.x]);
  __stcs(o + threadIdx.x, a * 2);
  __stcs(w, q);
  __stcs(b + 1, (__nv_bfloat16)__ldcs(b));
  __stcs(g, __ldcs(h));
}
int main() {
  cudaEvent_t a, b;
  cudaGraph_t g;
  cudaGraphExec_t exec;
  if (cudaEventCreate(&a) != cudaSuccess) return 1;
  if (cudaEventCreate(&b, cudaEventDisableTiming) != cudaSuccess) return 1;
  if (cudaGraphCreate(&g, 0) != cudaSuccess) return 1;
  if (cudaGraphInstantiate(&exec, g, 0) != cudaSuccess) return 1;
  return 0;
}
"""


@pytest.mark.slow
def test_argument_count_overloads_and_cache_hints_compile_with_rocm_6_4(tmp_path):
    """cudaEventCreate(&e, flags) and cudaGraphInstantiate(&x, g, flags), CUDA's C++ and
    CUDA 12 forms, compile against HIP 6.4 (its hipEventCreate takes one argument,
    hipGraphInstantiate five); so do __ldcs/__stcs on scalar, vector, bf16 and half
    pointers (HIP 6.4 declares __ldcs for __half/__half2 only, __stcs not at all)."""
    rocm = find_compiler(toolchain="rocm")
    if rocm is None:
        if os.environ.get("CUDAPORT_SKIP_HIP") == "1":
            pytest.skip("no ROCm toolchain and CUDAPORT_SKIP_HIP=1")
        pytest.fail("no ROCm toolchain: run tools/setup-rocm.sh")
    result = translate_bytes(EVENTS, Options(), "events.cu")
    out = result.output.decode()
    assert "hipEventCreateWithFlags(&b, hipEventDisableTiming)" in out
    assert "hipGraphInstantiateWithFlags(&exec, g, 0)" in out
    assert "__ldcs" not in out and "__stcs" not in out
    path = tmp_path / "events.hip"
    path.write_bytes(result.output)
    proc = subprocess.run(rocm.command(path, flags=["-std=c++17"]), capture_output=True, text=True,
                          env={**os.environ, **dict(rocm.env)})
    assert proc.returncode == 0, proc.stderr[-3000:]


CALLS = Path(__file__).resolve().parent / "data" / "calls"


def _rocm(version: str | None = None):
    """The ROCm folder of ``version`` (7.2, 6.4), or the newest set up."""
    rocm = find_compiler(toolchain="rocm", rocm=version)
    if rocm is None:
        if os.environ.get("CUDAPORT_SKIP_HIP") == "1":
            pytest.skip("no ROCm toolchain and CUDAPORT_SKIP_HIP=1")
        pytest.fail(f"no ROCm {version or ''} toolchain: run tools/setup-system.sh")
    return rocm


def _compile(compiler, path: Path, translated: bytes) -> None:
    path.write_bytes(translated)
    proc = subprocess.run(compiler.command(path, flags=["-std=c++17"]), capture_output=True,
                          text=True, env={**os.environ, **dict(compiler.env)})
    assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["runtime", "driver", "libraries"])
def test_call_programs_are_valid_cuda(name, tmp_path):
    """The call-level programs are what CUDA 13 accepts (nvcc, when installed)."""
    nvcc = shutil.which("nvcc")
    if nvcc is None:
        pytest.skip("nvcc not installed")
    libs = Path("/tmp/cuda-libs/nvidia/cu13/include")
    if name == "libraries" and not libs.is_dir():
        pytest.skip(f"{libs} (CUDA library headers) not found")
    proc = subprocess.run([nvcc, "-std=c++17", "-x", "cu", f"-I{libs}", "-c",
                           str(CALLS / f"{name}.cu"), "-o", str(tmp_path / "out.o")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
@pytest.mark.parametrize("launch", ["cuda", "hip"])
@pytest.mark.parametrize("name", ["runtime", "driver", "libraries"])
def test_call_templates_compile_with_each_rocm(name, launch, version, tmp_path):
    """Every argument template of calls.yaml (default arguments written out, C++ symbol
    overloads, CUDA 13's cudaMemLocation and edge data, casts HIP needs) compiles with
    each ROCm's hipcc in both launch styles, translated for that version: HIP 6's casts
    and hipBLAS 2's _v2 names for 6.4 only."""
    rocm = _rocm(version)
    result = translate_bytes((CALLS / f"{name}.cu").read_bytes(),
                             Options(launch=launch, target_version=version), f"{name}.cu")
    out = result.output.decode()
    assert not [f for f in result.findings if f.code in ("CP101", "CP105", "CP107")], \
        [f.message for f in result.findings if f.code in ("CP101", "CP105", "CP107")]
    expected = {
        "runtime": ["hipGraphInstantiate(&exec, g, nullptr, nullptr, 0)",
                    "hipStreamGetCaptureInfo_v2(s, &status, &id, &captured, &deps, &count)",
                    "hipGraphAddDependencies(g, &node, &node2, 1)",
                    "hipGetProcAddress(\"cuInit\", &fn, HIP_VERSION_MAJOR * 100",
                    "hipLaunchCooperativeKernel(scale, dim3(1), dim3(4), args, 0, 0)"],
        "driver": ["hipModuleOccupancyMaxPotentialBlockSize(&grid, &block, function, 0, 0)",
                   "hipCtxGetApiVersion(ctx, reinterpret_cast<int*>(&version))"
                   if version == "6.4" else "hipCtxGetApiVersion(ctx, &version)"],
        "libraries": ["hipblasCgetriBatched_v2(h, n, const_cast<hipComplex* const*>(ca)"
                      if version == "6.4" else
                      "hipblasCgetriBatched(h, n, const_cast<hipComplex* const*>(ca)",
                      "hipblasHgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, "
                      "reinterpret_cast<const hipblasHalf*>(&alpha)"],
    }[name]
    for text in expected:
        assert text in out
    if launch == "hip" and name == "runtime":
        assert "hipLaunchKernelGGL(scale" in out
    _compile(rocm, tmp_path / f"{name}.hip", result.output)


@pytest.mark.slow
@pytest.mark.parametrize("launch", ["cuda", "hip"])
@pytest.mark.parametrize("name", ["runtime", "driver"])
def test_call_templates_compile_with_hip_5_2(compiler, name, launch, tmp_path):
    """The same calls, less those HIP 5.2 lacks (marked HIP 6), with --hip-version 5.2
    against Debian's HIP 5.2.3 headers."""
    source = b"\n".join(line for line in (CALLS / f"{name}.cu").read_bytes().splitlines()
                        if not line.endswith(b"// HIP 6")) + b"\n"
    result = translate_bytes(source, Options(target_version="5.2", launch=launch),
                             f"{name}.cu")
    assert not [f for f in result.findings if f.code in ("CP101", "CP105", "CP107")]
    _compile(compiler, tmp_path / f"{name}.hip", result.output)


def test_library_templates_follow_the_variant_and_the_version():
    """A template written for hipBLAS is not applied with --blas rocblas (rocBLAS has its
    own function), and its callee follows --hip-version's generation of the name."""
    source = (CALLS / "libraries.cu").read_bytes()
    rocblas = translate_bytes(source, Options(variants=(("blas", "rocblas"),)), "l.cu")
    assert b"hipblas" not in rocblas.output and b"rocblas_hgemm(h," in rocblas.output
    newest = translate_bytes(source, Options(target_version="7.0"), "l.cu").output
    assert b"hipblasCgetriBatched(h, n, const_cast<hipComplex* const*>(ca)" in newest
    six = translate_bytes(source, Options(target_version="6.4"), "l.cu").output
    assert b"hipblasCgetriBatched_v2(h, n, const_cast<hipComplex* const*>(ca)" in six
    assert translate_bytes(source, Options(), "l.cu").output == newest  # the default, 7.2


CUDA12 = b"""\
#include <cuda_runtime.h>
#include <cuda.h>
int main() {
  float* x = nullptr;
  cudaStream_t s = 0;
  int device = 0;
  cudaMemAdvise(x, 16, cudaMemAdviseSetReadMostly, device);
  cudaMemPrefetchAsync(x, 16, device, s);
  cudaGraph_t g;
  cudaGraphCreate(&g, 0);
  cudaGraphNode_t a, b;
  cudaGraphAddDependencies(g, &a, &b, 1);
  cudaStreamUpdateCaptureDependencies(s, &a, 1, 0);
  cudaStreamCaptureStatus status;
  unsigned long long id;
  cudaStreamGetCaptureInfo(s, &status, &id);
  CUdeviceptr p = 0;
  cuMemAdvise(p, 16, CU_MEM_ADVISE_SET_READ_MOSTLY, device);
  cuMemPrefetchAsync(p, 16, device, s);
  void* fn = nullptr;
  cuGetProcAddress("cuInit", &fn, 11030, 0);
  return 0;
}
"""


@pytest.mark.slow
def test_cuda_12_forms_of_changed_calls_still_compile_with_rocm_6_4(tmp_path):
    """CUDA 12 code (int devices, no edge data, cuGetProcAddress without a status) keeps
    working where CUDA 13 changed the prototype: the templates count arguments."""
    result = translate_bytes(CUDA12, Options(), "old.cu")
    out = result.output.decode()
    assert "hipGraphAddDependencies(g, &a, &b, 1)" in out
    assert "hipStreamUpdateCaptureDependencies(s, &a, 1, 0)" in out
    assert "hipGetProcAddress(\"cuInit\", &fn, 11030, " in out and ", nullptr)" in out
    _compile(_rocm(), tmp_path / "old.hip", result.output)
