"""A cuBLAS GEMM compute type given as a cudaDataType variable (cudaport/translate/passes/gemm_compute_type.py).

Learn-CUDA's cublasGemmEx.cu declares ``cudaDataType TYPE_A, TYPE_B, TYPE_C;`` and passes
``TYPE_C`` as the compute type, which cuBLAS's C++ compatibility overload converts;
hipblasGemmEx_v2 takes only a hipblasComputeType_t, so the conversion is written out.
"""

from __future__ import annotations

import pytest

from conftest import compile_hip
from cudaport import Options, translate_bytes

GEMM = b"""\
#include <cublas_v2.h>
cublasStatus_t gemm(cublasHandle_t h, const void *A, const void *B, void *C, bool half,
                    cudaDataType computeType) {
  cudaDataType TYPE_A, TYPE_B, TYPE_C;
  TYPE_A = TYPE_B = half ? CUDA_R_16F : CUDA_R_32F;
  TYPE_C = CUDA_R_32F;
  float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &alpha, A, TYPE_A, 8, B, TYPE_B, 8, &beta,
               C, TYPE_C, 8, TYPE_C, CUBLAS_GEMM_DEFAULT);
  cublasComputeType_t modern = CUBLAS_COMPUTE_32F;
  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &alpha, A, TYPE_A, 8, B, TYPE_B, 8, &beta,
               C, TYPE_C, 8, modern, CUBLAS_GEMM_DEFAULT);
  return cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 8, 8, 8, &alpha, A, TYPE_A, 8,
                                    64, B, TYPE_B, 8, 64, &beta, C, TYPE_C, 8, 64, 2,
                                    computeType, CUBLAS_GEMM_DEFAULT);
}
"""
CONVERTED = (b"(TYPE_C == HIP_R_64F || TYPE_C == HIP_C_64F ? HIPBLAS_COMPUTE_64F : "
             b"TYPE_C == HIP_R_16F ? HIPBLAS_COMPUTE_16F : TYPE_C == HIP_R_32I ? "
             b"HIPBLAS_COMPUTE_32I : HIPBLAS_COMPUTE_32F)")


def _translate(**options):
    return translate_bytes(GEMM, Options(**options), "gemm.cu")


def test_data_type_variables_become_compute_types():
    result = _translate()
    out = result.output
    assert b"C, TYPE_C, 8, " + CONVERTED + b", HIPBLAS_GEMM_DEFAULT);" in out
    assert b"C, TYPE_C, 8, modern, HIPBLAS_GEMM_DEFAULT);" in out  # a compute type already
    assert b"(computeType == HIP_R_64F" in out  # a cudaDataType parameter
    notes = [f for f in result.findings if "cudaDataType variable" in f.message]
    assert [f.identifier for f in notes] == ["TYPE_C", "computeType"]
    assert translate_bytes(out, Options(), "gemm.hip").output == out


def test_left_alone_with_rocblas():
    # rocblas_gemm_ex takes other arguments altogether (its CP108 note says so).
    assert CONVERTED not in _translate(variants=(("blas", "rocblas"),)).output


@pytest.mark.slow
def test_converted_call_compiles_with_rocm_6_4(tmp_path):
    path = tmp_path / "gemm.hip"
    path.write_bytes(_translate().output)
    compile_hip(path, "rocm")


LITERALS = b"""\
#include <cublas_v2.h>
cublasStatus_t gemms(cublasHandle_t h, const double* a, double* c, const float* x, float* y) {
  const double one = 1.0;
  const float onef = 1.0f;
  cublasStatus_t s = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &one, a, CUDA_R_64F, 4,
                                  a, CUDA_R_64F, 4, &one, c, CUDA_R_64F, 4, CUDA_R_64F,
                                  CUBLAS_GEMM_DEFAULT);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_T, 4, 4, 4, &onef, x, CUDA_R_32F, 4,
                      x, CUDA_R_32F, 4, &onef, y, CUDA_R_32F, 4, CUDA_R_32F,
                      CUBLAS_GEMM_DEFAULT);
}
"""


def test_data_type_literals_become_the_compute_type_cublas_converts_them_to():
    # apex's fused_dense_cuda.cu and flash-attention pass CUDA_R_32F / CUDA_R_64F
    r = translate_bytes(LITERALS, Options())
    assert b"c, HIP_R_64F, 4, HIPBLAS_COMPUTE_64F,\n" in r.output
    assert b"y, HIP_R_32F, 4, HIPBLAS_COMPUTE_32F,\n" in r.output
    assert [f.identifier for f in r.findings if f.code == "CP108"
            and "as its compute type" in f.message] == ["CUDA_R_64F", "CUDA_R_32F"]
    assert not [f for f in r.findings if f.severity == "error"]
    assert translate_bytes(r.output, Options()).output == r.output
    rejected = translate_bytes(LITERALS.replace(b"4, CUDA_R_32F,\n", b"4, CUDA_C_16F,\n"),
                               Options())
    assert [f.code for f in rejected.findings if f.severity == "error"] == ["CP216"]


@pytest.mark.slow
def test_converted_literals_compile_with_rocm_7_2_and_6_4(tmp_path):
    for version in ("7.2", "6.4"):
        path = tmp_path / f"literals-{version}.hip"
        path.write_bytes(translate_bytes(LITERALS, Options(target_version=version)).output)
        compile_hip(path, f"rocm-{version}")
