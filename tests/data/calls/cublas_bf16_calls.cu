// cuBLAS with bfloat16 data (hipBLAS declares its own hipblasBfloat16 type).
#include <cublas_v2.h>
#include <cuda_bf16.h>

int blas_bf16_calls(cublasHandle_t handle, int n, __nv_bfloat16 *x, __nv_bfloat16 *y,
                    __nv_bfloat16 *C, float *Cf) {
  const float alpha = 1.0f, beta = 0.0f;
  cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, x, CUDA_R_16BF, n, y, CUDA_R_16BF,
               n, &beta, Cf, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, x, CUDA_R_16BF, n, y, CUDA_R_16BF,
               n, &beta, C, CUDA_R_16BF, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
  return 0;
}
