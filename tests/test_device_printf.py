"""std::printf in device code (cudaport/translate/passes/device_printf.py): HIP's device printf is
declared in the global namespace only, so a kernel's std::printf becomes ::printf."""

from __future__ import annotations

import pytest

from cudaport import Options, translate_bytes

SRC = b"""\
#include <cstdio>
__global__ void k(int v) {
  if (threadIdx.x == 0) std::printf("v=%d\\n", v);
  ::std::printf("%d\\n", v); std :: printf("x\\n");
}
// std::printf in a comment
void host() { mylib::std::printf("x"); const char* s = "std::printf"; std::printf("%s", s); }
"""


def _translate(src: bytes = SRC, target: str = "hip"):
    return translate_bytes(src, Options(target=target, target_version="7.2") if target == "hip"
                           else Options(target=target), "k.cu")


def test_std_printf_becomes_the_global_printf():
    # nccl-tests' verifiable.cu: "reference to __host__ function 'printf' in __global__
    # function" for std::printf, which CUDA accepts on the device
    out = _translate().output
    assert b'if (threadIdx.x == 0) ::printf("v=%d\\n", v);' in out
    assert b'  ::printf("%d\\n", v); ::printf("x\\n");' in out
    # comments, strings, another namespace's std and host code are left
    assert b"// std::printf in a comment" in out
    assert b'mylib::std::printf("x"); const char* s = "std::printf"; std::printf("%s", s);' in out
    lam = b"auto f = [] __device__ (int i) { std::printf(\"%d\", i); }; std::printf(\"h\");\n"
    out = _translate(b"#include <cstdio>\nvoid g() { " + lam + b"}\n").output
    assert b'{ ::printf("%d", i); }; std::printf("h");' in out
    assert _translate(out).output == out  # (idempotent)


def test_host_only_files_are_left_alone():
    src = b'#include <cstdio>\nint main() { std::printf("x"); }\n'
    assert b'std::printf("x")' in _translate(src).output


@pytest.mark.slow
def test_device_printf_compiles_with_rocm_7_2(tmp_path):
    from conftest import compile_object
    path = tmp_path / "k.hip"
    path.write_bytes(_translate().output.replace(b"mylib::std::printf", b"std::printf"))
    compile_object(path, "gfx942")
