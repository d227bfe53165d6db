"""CUDA handle types that are integers where HIP's are pointers (CP179, CP180;
cudaport/translate/passes/integer_handles.py, ``integer_handles`` in target.yaml).

cuda-api-wrappers' types.hpp:687, `return reinterpret_cast<address_t>(device_ptr);` with
`using address_t = CUdeviceptr;` and a `const void*` operand, stopped ROCm 7.2 ("casts
away qualifiers": hipDeviceptr_t is void*) and no finding named it."""

from __future__ import annotations

import pytest

from conftest import compile_object
from cudaport import Options, translate_bytes

# casts that compile with CUDA's integer and not with HIP's void*, made C-style casts
PORTED = b"""#include <cuda.h>
#include <cstdint>
namespace lib { namespace device {
using address_t = CUdeviceptr;
inline address_t address(const void* device_ptr) noexcept
{
\treturn reinterpret_cast<address_t>(device_ptr);
}
inline void* as_pointer(address_t address) noexcept { return reinterpret_cast<void*>(address); }
} }
struct Region { CUdeviceptr start; size_t size; };
CUdeviceptr f(const float* p, unsigned long long u, Region r, CUdeviceptr d) {
  CUdeviceptr a = reinterpret_cast<CUdeviceptr>(p);
  CUdeviceptr b = static_cast<CUdeviceptr>(u);
  CUdeviceptr z = 0;
  size_t n = static_cast<size_t>(d);
  uint64_t m = static_cast<uint64_t>(r.start);
  lib::device::address_t c = lib::device::address(p);
  if (d == 0 || d != z) return a;
  CUdeviceptr* pp = &d;
  (void)pp; (void)n; (void)m; (void)c;
  return b;
}
"""
# uses as a number: each line 4-9 fails with ROCm 7.2 (the slow test compiles each)
NUMBERS = b"""#include <cuda.h>
#include <cstdint>
void g(CUdeviceptr d, size_t off, unsigned long long u) {
  CUdeviceptr e = d + off;
  d += 16;
  bool aligned = (d & 0xff) == 0;
  bool below = d < 4096;
  unsigned long long x = u + d;
  CUdeviceptr k = 0x1000;
  (void)e; (void)aligned; (void)below; (void)x; (void)k;
}
"""


def _tr(src: bytes, version: str = "7.2"):
    return translate_bytes(src, Options(target_version=version), "k.cu")


def test_casts_that_need_an_integer_become_c_style_casts():
    result = _tr(PORTED)
    out = result.output.decode()
    for expected in ("\treturn (address_t)(device_ptr);\n",
                     "hipDeviceptr_t a = (hipDeviceptr_t)(p);",
                     "hipDeviceptr_t b = (hipDeviceptr_t)(u);",
                     "size_t n = (size_t)(d);", "uint64_t m = (uint64_t)(r.start);",
                     "return reinterpret_cast<void*>(address);",  # (compiles: kept)
                     "hipDeviceptr_t z = 0;", "if (d == 0 || d != z) return a;"):
        assert expected in out, expected
    assert [(f.code, f.line, f.severity) for f in result.findings] == [
        ("CP179", 7, "info"), ("CP179", 13, "info"), ("CP179", 14, "info"),
        ("CP179", 16, "info"), ("CP179", 17, "info")]
    assert _tr(result.output).output == result.output  # (idempotent)


def test_uses_as_a_number_are_errors():
    result = _tr(NUMBERS)
    assert [(f.code, f.line, f.severity) for f in result.findings] == [
        ("CP180", line, "error") for line in (4, 5, 6, 7, 8, 9)]
    first = result.findings[0].message
    assert "unsigned long long" in first and "void*" in first and "uintptr_t" in first


@pytest.mark.parametrize("src", [
    # stored, passed, compared with 0 or another handle, its address taken: compiles
    b"#include <cuda.h>\nvoid h(CUdeviceptr d, CUdeviceptr e) { CUdeviceptr z = 0; "
    b"if (d != e && d == 0) z = d; cuMemFree(z); CUdeviceptr* p = &d; (void)p; }\n",
    # a pointer to the type, and a name that is no variable of it
    b"#include <cuda.h>\nvoid h(CUdeviceptr* p, int d) { int q = d + 1; *p = 0; (void)q; }\n",
    # logical operators, member access through another name
    b"#include <cuda.h>\nbool h(CUdeviceptr d, bool b) { return d && b; }\n",
])
def test_what_compiles_with_a_pointer_is_left_alone(src):
    result = _tr(src)
    assert [f.code for f in result.findings if f.code in ("CP179", "CP180")] == []


def test_texture_objects_are_integers_in_cuda_only():
    src = (b"#include <cuda_runtime.h>\n"
           b"void h(cudaTextureObject_t t, unsigned long long v) {\n"
           b"  cudaTextureObject_t u = static_cast<cudaTextureObject_t>(v);\n"
           b"  bool odd = t % 2;\n  (void)u; (void)odd;\n}\n")
    result = _tr(src)
    assert b"hipTextureObject_t u = (hipTextureObject_t)(v);" in result.output
    assert [(f.code, f.line) for f in result.findings] == [("CP179", 3), ("CP180", 4)]


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_the_ported_casts_compile(tmp_path, version):
    path = tmp_path / "casts.hip"
    path.write_bytes(_tr(PORTED, version).output)
    compile_object(path, "gfx90a", version)


@pytest.mark.slow
def test_each_use_named_as_a_number_fails_with_rocm_72(tmp_path):
    """Each line CP180 names fails alone, and the file without them compiles: the
    finding names what stops the compiler, no more."""
    import subprocess

    from conftest import rocm_wrapper

    lines = NUMBERS.split(b"\n")
    named = [f.line for f in _tr(NUMBERS).findings if f.code == "CP180"]

    def compiles(keep: set[int], name: str) -> bool:
        text = b"\n".join(line for i, line in enumerate(lines, 1)
                          if i not in range(4, 10) or i in keep)
        path = tmp_path / f"{name}.hip"
        path.write_bytes(_tr(text).output.replace(b"(void)e; (void)aligned; (void)below; "
                                                  b"(void)x; (void)k;", b""))
        proc = subprocess.run([str(rocm_wrapper("7.2")), "-x", "hip", "--offload-arch=gfx90a",
                               "-c", str(path), "-o", str(path.with_suffix(".o"))],
                              capture_output=True, text=True)
        return proc.returncode == 0

    assert compiles(set(), "none")
    for line in named:
        assert not compiles({line}, f"line{line}"), line


# A name is the type's where the declaration visible at the use says so (issue 42): each
# CP180 here was false before (the name read file-wide), and the unit compiles with ROCm 7.2.
SCOPED = b"""#include <cuda.h>
#include <cstddef>
struct Region { CUdeviceptr start; };
int base = 3;
void copy(CUdeviceptr ptr, size_t n) { cuMemsetD8(ptr, 0, n); }
void release(CUdeviceptr base) { cuMemFree(base); }
int next(int ptr) { return ptr + 1; }
int scale(int n) { int ptr = n * 2; ptr += 4; return (ptr << 1) + base; }
CUdeviceptr first(Region r, int start) { return start > 0 ? r.start : 0; }
void shadowed(CUdeviceptr d) { { int d = 1; d += 2; (void)d; } cuMemFree(d); }
void proto(CUdeviceptr off);
int off = 7;
int shifted() { return off * 2; }
"""


def test_a_name_is_the_type_s_only_where_its_visible_declaration_says_so():
    result = _tr(SCOPED)
    assert [f.code for f in result.findings if f.code == "CP180"] == []


def test_uses_of_the_type_s_declarations_are_still_errors_beside_other_scopes():
    src = (b"#include <cuda.h>\nstruct R { CUdeviceptr start; };\nCUdeviceptr g;\n"
           b"void a(CUdeviceptr d) { CUdeviceptr e = d + 4; cuMemFree(e); }\n"
           b"int b(int d) { return d + 1; }\n"
           b"CUdeviceptr c(R r) { int start = 0; return r.start + 16 + start; }\n"
           b"CUdeviceptr h(int n) { return g + n; }\n"
           b"void k() { CUdeviceptr z = 0x10; (void)z; }\n")
    result = _tr(src)
    assert [(f.code, f.line) for f in result.findings if f.code == "CP180"] == [
        ("CP180", 4), ("CP180", 6), ("CP180", 7), ("CP180", 8)]
    assert all(f.message.startswith(name) for f, name in zip(
        [f for f in result.findings if f.code == "CP180"], ("d ", "start ", "g ", "z ")))


@pytest.mark.slow
def test_the_scoped_uses_compile_with_rocm_72(tmp_path):
    path = tmp_path / "scoped.hip"
    path.write_bytes(_tr(SCOPED).output)
    compile_object(path, "gfx90a", "7.2")
