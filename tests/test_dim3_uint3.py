"""uint3 values made dim3s (issue 41; cudaport/translate/passes/dim3_uint3.py, CP227): CUDA's
dim3 converts from uint3, HIP's (ROCm 6.4 and 7.2) does not."""

from __future__ import annotations

import pytest

from conftest import compile_object
from cudaport import Options, translate_bytes

SRC = b"""#include <cuda_runtime.h>
struct Cfg { dim3 grid; uint3 u; };
__global__ void k(int* p) { p[0] = 1; }
void f(Cfg& c, int n, uint3* us) {
  dim3 g;
  g = make_uint3(n, 2, 3);
  dim3 h = make_uint3(1, 2, 3);
  const dim3 b(make_uint3(4, 1, 1));
  uint3 u = make_uint3(1, 1, 1);
  dim3 w = u;
  dim3 v{u};
  u = make_uint3(3, 3, 3);
  us[0] = make_uint3(3, 3, 3);
  unsigned s = make_uint3(1, 2, 3).x + u.x;
  k<<<g, b>>>(0);
  k<<<h, w>>>(0);
  k<<<v, s>>>(0);
  c.u = make_uint3(2, 2, 2);
}
"""


def _translate(src: bytes, version: str = "7.2"):
    return translate_bytes(src, Options(target_version=version), "k.cu")


def test_uint3_values_stored_in_dim3s_become_dim3s():
    result = _translate(SRC)
    out = result.output.decode()
    for expected in ("  g = dim3(n, 2, 3);", "  dim3 h = dim3(1, 2, 3);",
                     "  const dim3 b(dim3(4, 1, 1));", "  uint3 u = make_uint3(1, 1, 1);",
                     "  dim3 w = dim3(u.x, u.y, u.z);", "  dim3 v{dim3(u.x, u.y, u.z)};",
                     "  u = make_uint3(3, 3, 3);", "  unsigned s = make_uint3(1, 2, 3).x + u.x;"):
        assert expected in out, expected
    # destinations whose type is not read: named, left as written
    assert [(f.code, f.line, f.severity) for f in result.findings] == [
        ("CP227", 13, "warning"), ("CP227", 18, "warning")]
    assert "an array element" in result.findings[0].message
    assert "a member (u)" in result.findings[1].message
    assert _translate(result.output).output == result.output  # (idempotent)


def test_a_dim3_member_is_named():
    result = _translate(b"struct L { dim3 grid; };\nvoid f(L& l) { l.grid = make_uint3(8, 1, 1); }\n")
    assert [f.code for f in result.findings] == ["CP227"]
    assert b"l.grid = make_uint3(8, 1, 1);" in result.output


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_the_translation_compiles_to_object_code(tmp_path, version):
    """Without the line CP227 names for a member (c.u is a uint3 here: it compiles too)."""
    path = tmp_path / "dims.hip"
    path.write_bytes(_translate(SRC, version).output)
    compile_object(path, "gfx942", version)


def test_make_uint3_as_a_launch_configuration_becomes_a_dim3():
    src = (b"__global__ void k(int* p) {}\n"
           b"void h(int* p) { k<<<make_uint3(2, 1, 1), make_uint3(32, 1, 1)>>>(p); }\n")
    out = _translate(src).output
    assert b"dim3(2, 1, 1), dim3(32, 1, 1)" in out


def test_a_uint3_variable_assigned_to_a_dim3_becomes_a_dim3():
    src = (b"void h() {\n  uint3 u = make_uint3(1, 2, 3);\n  dim3 g;\n  g = u;\n"
           b"  uint3 v;\n  v = u;\n}\n")
    out = _translate(src).output
    assert b"  g = dim3(u.x, u.y, u.z);\n" in out
    assert b"  v = u;\n" in out  # (a uint3 destination keeps it)
    assert _translate(out).output == out


# Forms compiled by hand only until now: a make_uint3 launch configuration (becomes a dim3)
# and a uint3 variable assigned to a declared dim3
LAUNCH_FORMS = b"""#include <cuda_runtime.h>
__global__ void k(int* p) { p[threadIdx.x] = 1; }
void h(int* p, unsigned n) {
  dim3 b(32, 1, 1);
  k<<<make_uint3(1, 1, 1), b>>>(p);
  k<<<make_uint3(n, 1, 1), make_uint3(32, 1, 1)>>>(p);
  dim3 g;
  uint3 u = make_uint3(n, 2, 1);
  g = u;
  k<<<g, b>>>(p);
}
"""


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_make_uint3_launches_and_uint3_assignments_compile(tmp_path, version):
    result = _translate(LAUNCH_FORMS, version)
    out = result.output
    assert b"k<<<dim3(1, 1, 1), b>>>(p);" in out
    assert b"k<<<dim3(n, 1, 1), dim3(32, 1, 1)>>>(p);" in out
    assert b"  g = dim3(u.x, u.y, u.z);\n" in out
    assert [f for f in result.findings if f.severity != "info"] == []
    path = tmp_path / "launch_forms.hip"
    path.write_bytes(out)
    compile_object(path, "gfx90a", version)
