"""C++ that nvcc accepts and clang's HIP front end does not: a string literal written against
a CUDA qualifier (``extern "C"__global__``) and the ``register`` storage class."""

from __future__ import annotations

import pytest

from cudaport.translate.pipeline import translate_bytes, translate_source

SAXPY = """\
extern "C"__global__
void saxpy(int n, float a, float *x, float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
extern "C"__device__ __forceinline__ float twice(float v) { return 2 * v; }
const char *text = "__global__" "x";
"""


def test_qualifier_after_a_string_literal_gets_a_space():
    out = translate_source(SAXPY).output.decode()
    assert 'extern "C" __global__\nvoid saxpy(' in out
    assert 'extern "C" __device__ __forceinline__ float twice' in out
    assert 'const char *text = "__global__" "x";' in out  # inside literals: untouched
    assert translate_source(out).output.decode() == out


def test_other_suffixes_are_left_alone():
    src = 'auto s = "abc"_sv;\nextern "C" __global__ void k() {}\n'
    out = translate_source(src).output.decode()
    assert '"abc"_sv;' in out and out.count('"C" __global__') == 1


@pytest.mark.slow
@pytest.mark.parametrize("toolchain,version", [("rocm", "6.4"), ("system", "5.2")])
def test_separated_qualifier_compiles(tmp_path, toolchain, version):
    from conftest import compile_hip

    path = tmp_path / "saxpy.hip"
    path.write_bytes(translate_source(SAXPY, target_version=version).output)
    compile_hip(path, toolchain)


REGISTER = """\
#include <cuda.h>
__global__ void k(int *p) {
  register int a = 1; register\tunsigned long long b = 2;
  // register in a comment
  const char *s = "register";
  p[0] = a + (int)b + (s != 0);
}
int vmm(CUdevice d) {
  int ok = 0;
  cuDeviceGetAttribute(&ok, CU_DEVICE_ATTRIBUTE_VIRTUAL_ADDRESS_MANAGEMENT_SUPPORTED, d);
  return ok;
}
"""


def test_register_is_dropped_from_cxx_only():
    out = translate_source(REGISTER).output.decode()
    assert "  int a = 1; unsigned long long b = 2;\n" in out
    assert "// register in a comment" in out and '"register"' in out
    assert "hipDeviceAttributeVirtualMemoryManagementSupported" in out  # deprecated alias
    assert translate_source(out).output.decode() == out
    c_src = b"register int x;\n"
    assert translate_bytes(c_src, path="old.c").output == c_src


@pytest.mark.slow
@pytest.mark.parametrize("toolchain,version", [("rocm", "6.4"), ("system", "5.2")])
def test_register_free_code_compiles(tmp_path, toolchain, version):
    from conftest import compile_hip

    src = REGISTER
    if version == "5.2":  # the attribute arrived in HIP 5.3: reported there, not compiled
        src = src[:src.index("int vmm(")]
    path = tmp_path / "register.hip"
    path.write_bytes(translate_source(src, target_version=version).output)
    compile_hip(path, toolchain)


def test_a_file_that_uses_no_cuda_is_named_not_edited():
    # a host-only header (no CUDA name, launch or qualifier): never edited, even where
    # hipcc's clang would reject a line of it; CP182 names the line for a HIP unit that
    # includes it (issue 42: a file that uses no CUDA is never edited)
    src = (b"using size_type = unsigned long;\n"
           b"inline size_type top() { return size_type{-1}; }\n"
           b"inline int g() { register int x = 1; return x; }\n")
    r = translate_bytes(src, path="h.h")
    assert r.output == src
    assert [(f.line, f.code, f.severity) for f in r.findings] == [
        (2, "CP182", "warning"), (3, "CP182", "warning")]
    # the same lines in a file that uses CUDA are fixed, as in a .cu file
    cuda = b"#include <cuda_runtime.h>\n" + src
    out = translate_bytes(cuda, path="h.h").output
    assert b"size_type(-1)" in out and b"register" not in out
    assert b"register" not in translate_bytes(src, path="k.cu").output
