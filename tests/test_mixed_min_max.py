"""min/max of an int and an unsigned int (CudaSift's matching.cu:45): CUDA's overload
compares as unsigned int, HIP has none and picks a floating-point pair ("array subscript is
not an integer"). The int argument is made unsigned int, as CUDA's overload does (CP177)."""

from __future__ import annotations

import pytest

from cudaport import Options, translate_bytes
from cudaport.symbols.arithmetic import INT, UNSIGNED, integer_type
from conftest import compile_object

KERNEL = ("struct P { float data[4]; };\n"
          "__global__ void k(P* s1, P* s2, float* out, int numPts1, int numPts2) {\n"
          "  const int tx = threadIdx.x;\n  const int ty = threadIdx.y;\n  unsigned u = 3;\n"
          "  const float* p1 = s1[min(numPts1-1,blockIdx.x*16 + ty)].data;\n"
          "  const float* p2 = s2[max(blockIdx.y*16 + ty, numPts2-1)].data;\n"
          "  int a = min(tx, ty) + max(u, 2u) + min(tx, (int)u);\n"
          "  out[0] = p1[0] + p2[0] + a;\n}\n"
          "void host(int n, unsigned m) { int k = n < m ? n : m; (void)k; }\n")


def translate(src: str):
    result = translate_bytes(src.encode(), Options(target_version="7.2"), "k.cu")
    return result.output.decode(), [f for f in result.findings if f.code == "CP177"]


@pytest.mark.parametrize("expr, expected", [
    ("n-1", INT), ("blockIdx.x*16 + t", UNSIGNED), ("(n + 2) * 3", INT), ("n + 1u", UNSIGNED),
    ("0xffffffff", UNSIGNED), ("u % 4", UNSIGNED), ("n << 1", None), ("f(n)", None),
    ("(int)u", None), ("p.x", None), ("n + 1.f", None), ("q", None), ("n + 1L", None),
])
def test_the_type_the_text_gives(expr, expected):
    code = f"void g(int n, unsigned u, unsigned t) {{ h({expr}); }}".encode()
    a = code.index(b"h(") + 2
    assert integer_type(code, a, a + len(expr)) == expected


def test_the_int_argument_is_made_unsigned_and_a_second_pass_agrees():
    out, found = translate(KERNEL)
    assert "s1[min(static_cast<unsigned int>(numPts1-1),blockIdx.x*16 + ty)]" in out
    assert "s2[max(blockIdx.y*16 + ty, static_cast<unsigned int>(numPts2-1))]" in out
    assert "int a = min(tx, ty) + max(u, 2u) + min(tx, (int)u);" in out  # (one type each)
    assert [(f.line, f.severity) for f in found] == [(6, "info"), (7, "info")]
    again = translate_bytes(out.encode(), Options(target_version="7.2"), "k.cu")
    assert again.output.decode() == out


def test_the_projects_own_min_and_host_code_are_left():
    own = "__device__ int min(int a, unsigned b) { return a; }\n" + KERNEL
    out, found = translate(own)
    assert "min(static_cast" not in out  # (the project's min: its overload may be called)
    assert [f.identifier for f in found] == ["max"]  # (CUDA's max, still)
    host = "#include <algorithm>\nint h(int n, unsigned m) { return std::min(n, (int)m) + min(n, m); }\n"
    out, found = translate(host)
    assert "static_cast" not in out and not found


@pytest.mark.slow
def test_the_translation_compiles_to_object_code(tmp_path):
    out, _ = translate(KERNEL)
    path = tmp_path / "k.hip"
    path.write_text(out)
    compile_object(path, "gfx90a")
