"""CUDA runtime calls in device code that HIP has on the host only (issue 41, CP228;
cudaport/translate/passes/host_only_runtime.py): CUDA declares cudaGetErrorString,
cudaGetLastError ... for device code too (cuda_device_runtime_api.h); HIP's counterparts
are host functions, so a kernel calling them does not compile. The device body is the
skeleton's (cudaport/symbols/skeleton.py: device_mark)."""

from __future__ import annotations

import pytest
from conftest import compile_object

from cudaport import Options, translate_bytes
from cudaport.symbols.skeleton import Skeleton, device_mark

SRC = b"""#include <cstdio>
#include <cuda_runtime.h>
#define CHECK(x) do { cudaError_t e = (x); if (e) printf("%s\\n", cudaGetErrorString(e)); } while (0)
__global__ void k(int* p) {
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) printf("%s\\n", cudaGetErrorString(e));
  auto f = [](cudaError_t x) { return cudaGetErrorName(x); };
  p[0] = f(e)[0];
}
__device__ int d() { int n = 0; cudaGetDevice(&n); return n; }
__host__ __device__ const char* both(cudaError_t e) { return cudaGetErrorString(e); }
void host(int* p) {
  CHECK(cudaMalloc(&p, 4));
  printf("%s\\n", cudaGetErrorString(cudaGetLastError()));
  auto g = [] __device__ (int x) { return x; };
  (void)g;
}
"""


def test_device_calls_are_reported_and_host_calls_are_not():
    result = translate_bytes(SRC, Options(target_version="7.2"), "k.cu")
    found = [(f.code, f.line, f.identifier, f.severity) for f in result.findings
             if f.code == "CP228"]
    assert found == [("CP228", 5, "cudaGetLastError", "error"),
                     ("CP228", 10, "cudaGetDevice", "error")]
    assert "host function only" in result.findings[0].message
    # the host calls are renamed and not reported
    assert b'printf("%s\\n", hipGetErrorString(hipGetLastError()));' in result.output
    # the error texts in device code (a kernel, a lambda in it, a __host__ __device__
    # function) come from the portable header's table of the host functions' texts
    assert b'printf("%s\\n", cudaport_device_error_string(e));' in result.output
    assert b"return cudaport_device_error_name(x);" in result.output
    assert b"both(hipError_t e) { return cudaport_device_error_string(e); }" in result.output


def test_device_error_texts_are_the_host_functions_texts():
    """The section tools/gen_device_error_strings.py wrote from ROCm 7.2's hipGetErrorString
    and hipGetErrorName: every code HIP names, by number."""
    from cudaport.translate.portable import header_path, load
    from cudaport.rules.compiled import get_compiled

    header = load(header_path(get_compiled(Options()).table.files))
    assert {b"cudaport_device_error_string", b"cudaport_device_error_name"} <= set(header.provides)
    text = header_path(get_compiled(Options()).table.files).read_text()
    assert 'case 1: return "invalid argument";' in text
    assert 'case 1: return "hipErrorInvalidValue";' in text
    assert 'case 2: return "out of memory";' in text


def test_device_mark_reads_the_function_around():
    code = (b"__global__ void k() { int a; [] () { int b; }; }\n"
            b"void h() { [] __device__ () { int c; }; int d; }\n"
            b"__host__ __device__ void both() { int e; }\n")
    sk = Skeleton(code)
    marks = [device_mark(sk, code.index(v)) for v in (b"int a", b"int b", b"int c",
                                                        b"int d", b"int e")]
    assert marks == ["device", "device", "device", None, "both"]



TEXTS = b"""#include <cstdio>
#include <cuda_runtime.h>
__global__ void k(cudaError_t e) { printf("%s %s\\n", cudaGetErrorName(e), cudaGetErrorString(e)); }
__host__ __device__ const char* both(cudaError_t e) { return cudaGetErrorString(e); }
int main() { k<<<1, 1>>>(cudaErrorInvalidValue); printf("%s\\n", cudaGetErrorString(cudaGetLastError())); }
"""


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_the_device_error_texts_compile_to_object_code(tmp_path, version):
    result = translate_bytes(TEXTS, Options(target_version=version), "k.cu")
    assert not [f for f in result.findings if f.severity == "error"]
    path = tmp_path / "k.hip"
    path.write_bytes(result.output)
    compile_object(path, "gfx942", version)


def test_a_device_error_text_after_a_rewritten_launch():
    """The launches pass's edits are plain tuples: replacing the rename at a device call's
    name must read them too (bench/fuzz.py's 30-minute run: an AttributeError)."""
    src = (b"#include <cstdio>\n__global__ void k(int* p);\n"
           b"void h(int* p) { k<<<1, 1>>>(p); }\n"
           b"__global__ void e(cudaError_t x) { printf(\"%s\\n\", cudaGetErrorString(x)); }\n")
    out = translate_bytes(src, Options(launch="hip"), "k.cu").output
    assert b"hipLaunchKernelGGL(k" in out and b"cudaport_device_error_string(x)" in out
