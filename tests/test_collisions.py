"""Many-to-one mappings: no duplicate definitions, no self-aliases (cudaport/translate/collisions.py)."""

from __future__ import annotations

import pytest

from cudaport import Options, translate_bytes


def tr(src: str) -> tuple[str, list]:
    result = translate_bytes(src.encode(), Options(insert_main_header=False))
    return result.text, result.findings


@pytest.mark.parametrize("before, after", [
    ("#define CUDA_MEMCPY3D CUDA_MEMCPY3D_v2\nCUDA_MEMCPY3D m;\n", "HIP_MEMCPY3D m;\n"),
    ("typedef CUDA_ARRAY3D_DESCRIPTOR_v2 CUDA_ARRAY3D_DESCRIPTOR;\nint x;\n", "int x;\n"),
    ("using CUDA_ARRAY3D_DESCRIPTOR = CUDA_ARRAY3D_DESCRIPTOR_v2; int x;\n", " int x;\n"),
], ids=["define", "typedef", "using"])
def test_self_aliases_that_translation_creates_are_dropped(before, after):
    out, findings = tr(before)
    assert out == after
    assert [f.code for f in findings] == ["CP165"]
    assert tr(out)[0] == out


def test_self_alias_already_in_the_input_is_left_alone():
    src = "typedef hipStream_t hipStream_t;\n"
    assert tr(src) == (src, [])


SWITCH = """\
const char* name(int e) {
  switch (e) {
    case CUDA_ERROR_ASSERT: return "driver";
    case cudaErrorAssert: return "runtime";
  }
  return "";
}
"""


def test_case_labels_that_would_collide_keep_the_second_one():
    out, findings = tr(SWITCH)
    assert "case hipErrorAssert: return \"driver\";" in out
    assert "case cudaErrorAssert: return \"runtime\";" in out
    (f,) = [f for f in findings if f.code == "CP163"]
    assert f.line == 4 and "line 3" in f.message
    assert tr(out)[0] == out


def test_overloads_and_enumerators_that_would_collide():
    src = ("void put(cublasStatus_t s) {}\nvoid put(hipblasStatus_t s) {}\n"
           "enum E { A = CUDA_ERROR_ASSERT, B = cudaErrorAssert };\n"
           "enum F { CUDA_MEMCPY3D, CUDA_MEMCPY3D_v2 };\n")
    out, findings = tr(src)
    assert "void put(hipblasStatus_t s) {}\nvoid put(hipblasStatus_t s) {}" not in out
    # enumerators the project declares are its own (the symbol model): none renamed, none
    # half-renamed
    assert "enum F { CUDA_MEMCPY3D, CUDA_MEMCPY3D_v2 };" in out
    assert "A = hipErrorAssert, B = hipErrorAssert" in out  # values may repeat
    assert sum(f.code == "CP163" for f in findings) == 1
    assert tr(out)[0] == out


def test_collisions_in_sibling_branches_are_fine():
    src = "#ifdef NEW_DRIVER\nstruct CUDA_MEMCPY3D {};\n#else\nstruct CUDA_MEMCPY3D_v2 {};\n#endif\n"
    out, findings = tr(src)
    assert out.count("struct HIP_MEMCPY3D {};") == 2 and not findings
