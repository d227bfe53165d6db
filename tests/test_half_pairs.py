"""A project class with constructors from both __half2 and __half, built from one number
(marian's halfx2: common/types.h, functional/operators.h:634): nvcc calls the __half
constructor, hipcc finds HIP's __half2 viable too (ambiguous). The number is made a
__half, the call nvcc makes (CP176)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cudaport import Options, translate_bytes
from conftest import ROOT, compile_object

CLASS = ("#include <cuda_fp16.h>\n"
         "struct halfx2 {\n  __half2 h2_;\n  __device__ halfx2() {}\n"
         "  __device__ halfx2(const __half2& h2) : h2_(h2) {}\n"
         "  __device__ halfx2(const __half& h) : h2_(h, h) {}\n"
         "  __device__ halfx2(const __half& a, const __half& b) : h2_(a, b) {}\n};\n")
USES = ("__device__ halfx2 f(halfx2 x, float v) {\n"
        "  const halfx2 one(1.f);\n  halfx2 zero(0.f, 0.f);\n  halfx2 t{2};\n"
        "  halfx2 w(v);\n  halfx2 c(x);\n  halfx2 u(unknown_);\n"
        "  return halfx2(1.f);\n}\n")


def translate(src: str):
    result = translate_bytes(src.encode(), Options(target_version="7.2"), "k.cu")
    return result.output.decode(), [f for f in result.findings if f.code == "CP176"]


def test_a_number_is_made_a_half_as_nvcc_does_and_a_second_pass_agrees():
    out, found = translate(CLASS + USES)
    assert "const halfx2 one(__half(1.f));" in out
    assert "halfx2 t{__half(2)};" in out
    assert "return halfx2(__half(1.f));" in out
    assert "halfx2 w(__half(v));" in out  # (v is declared a float)
    assert "halfx2 zero(0.f, 0.f);" in out and "halfx2 c(x);" in out  # (a halfx2: copied)
    assert "halfx2 u(unknown_);" in out  # (a type the text does not give: left)
    assert [(f.line, f.severity) for f in found] == [(10, "info"), (12, "info"), (13, "info"),
                                                     (16, "info")]
    again = translate_bytes(out.encode(), Options(target_version="7.2"), "k.cu")
    assert again.output.decode() == out


@pytest.mark.parametrize("variant", [
    CLASS.replace("__device__ halfx2(const __half& h)", "explicit __device__ halfx2(const __half& h)"),
    CLASS.replace("  __device__ halfx2(const __half2& h2) : h2_(h2) {}\n", ""),
    CLASS.replace("  __device__ halfx2(const __half& h) : h2_(h, h) {}\n", ""),
])
def test_a_class_without_both_converting_constructors_is_left_alone(variant):
    out, found = translate(variant + USES)
    assert out.count("__half(") == 0 and not found


def test_the_class_declared_in_another_file_of_the_run(tmp_path):
    (tmp_path / "common").mkdir()
    (tmp_path / "ops").mkdir()
    (tmp_path / "common" / "types.h").write_text("#pragma once\n" + CLASS)
    (tmp_path / "ops" / "ops.cu").write_text(
        '#include "../common/types.h"\n__device__ halfx2 two() { const halfx2 t(2.f); return t; }\n')
    out = tmp_path / "out"
    proc = subprocess.run([sys.executable, "-m", "cudaport", "translate", str(tmp_path / "common"),
                           str(tmp_path / "ops"), "--out-dir", str(out), "--fail-on", "never"],
                          cwd=ROOT, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    translated = next(out.rglob("ops.cu")).read_text()
    assert "const halfx2 t(__half(2.f));" in translated
    assert "CP176" in proc.stdout + proc.stderr


@pytest.mark.slow
def test_the_translation_compiles_to_object_code(tmp_path):
    out, _ = translate(CLASS + USES.replace("  halfx2 u(unknown_);\n", ""))
    path = tmp_path / "k.hip"
    path.write_text(out)
    compile_object(path, "gfx90a")
