"""A cuBLAS GEMM compute type given as a cudaDataType variable (cudaport/passes/gemm_compute_type.py).

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
