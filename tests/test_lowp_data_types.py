"""cudaDataType's OCP narrow floats port to hipDataType's (rules/hip/library-types-lowp.yaml):
E4M3/E5M2 from ROCm 6.4, UE8M0 and the MX 6- and 4-bit ones from 7.2; never to FNUZ."""

from __future__ import annotations

import pytest

from cudaport import Options, translate_bytes
from tests.conftest import compile_object

SOURCE = (b"#include <cublasLt.h>\n"
          b"cudaDataType types[] = {CUDA_R_8F_E4M3, CUDA_R_8F_E5M2, CUDA_R_8F_UE8M0,\n"
          b"                        CUDA_R_6F_E2M3, CUDA_R_6F_E3M2, CUDA_R_4F_E2M1};\n")


def test_ocp_types_port_to_the_same_formats():
    r = translate_bytes(SOURCE, Options())
    assert b"hipDataType types[] = {HIP_R_8F_E4M3, HIP_R_8F_E5M2, HIP_R_8F_UE8M0,\n" \
        b"                        HIP_R_6F_E2M3, HIP_R_6F_E3M2, HIP_R_4F_E2M1};" in r.output
    assert not [f for f in r.findings if f.severity == "error"]
    assert b"FNUZ" not in r.output


def test_rocm_6_4_has_only_the_8_bit_ones():
    r = translate_bytes(SOURCE, Options(target_version="6.4"))
    assert b"HIP_R_8F_E4M3, HIP_R_8F_E5M2" in r.output
    assert sorted(f.identifier for f in r.findings if f.code == "CP107") == [
        "CUDA_R_4F_E2M1", "CUDA_R_6F_E2M3", "CUDA_R_6F_E3M2", "CUDA_R_8F_UE8M0"]


def test_rocblas_has_no_8_bit_float():
    r = translate_bytes(b"#include <cublas_v2.h>\nint t = CUDA_R_8F_E4M3;\n",
                        Options(variants=(("blas", "rocblas"),)))
    assert [f.identifier for f in r.findings if f.code == "CP101"] == ["CUDA_R_8F_E4M3"]


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_translation_compiles(tmp_path, version):
    src = SOURCE if version == "7.2" else SOURCE.replace(
        b", CUDA_R_8F_UE8M0,\n                        CUDA_R_6F_E2M3, CUDA_R_6F_E3M2, "
        b"CUDA_R_4F_E2M1", b"")
    r = translate_bytes(src, Options(target_version=version))
    assert not [f for f in r.findings if f.severity == "error"]
    path = tmp_path / "types.hip"
    path.write_bytes(r.output)
    compile_object(path, "gfx942", version)
