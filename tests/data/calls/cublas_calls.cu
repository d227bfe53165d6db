// Call-level test program for cuBLAS (translated in every --blas variant by
// tests/test_call_programs.py and compiled with ROCm's hipcc).
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuComplex.h>

int blas_calls(int n, float *A, float *B, float *C, double *dA, double *dB, double *dC,
               cuComplex *cA, cuComplex *cB, cuComplex *cC, cuDoubleComplex *zA,
               __half *hA, __half *hB, __half *hC, cudaStream_t stream) {
  cublasHandle_t handle;
  if (cublasCreate(&handle) != CUBLAS_STATUS_SUCCESS) return 1;
  cublasSetStream(handle, stream);
  cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
  const float alpha = 1.0f, beta = 0.0f;
  const double dalpha = 1.0, dbeta = 0.0;
  cuComplex calpha = make_cuComplex(1.0f, 0.0f), cbeta = make_cuComplex(0.0f, 0.0f);
  __half halpha = __float2half(1.0f), hbeta = __float2half(0.0f);
  float result = 0.0f;
  int idx = 0;

  // Level 1
  cublasSaxpy(handle, n, &alpha, A, 1, B, 1);
  cublasSdot(handle, n, A, 1, B, 1, &result);
  cublasSnrm2(handle, n, A, 1, &result);
  cublasIsamax(handle, n, A, 1, &idx);
  cublasSscal(handle, n, &alpha, A, 1);
  cublasDaxpy(handle, n, &dalpha, dA, 1, dB, 1);
  cublasCaxpy(handle, n, &calpha, cA, 1, cB, 1);
  cublasScnrm2(handle, n, cA, 1, &result);
  // Level 2
  cublasSgemv(handle, CUBLAS_OP_N, n, n, &alpha, A, n, B, 1, &beta, C, 1);
  cublasCgemv(handle, CUBLAS_OP_C, n, n, &calpha, cA, n, cB, 1, &cbeta, cC, 1);
  // Level 3
  cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, A, n, B, n, &beta, C, n);
  cublasDgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &dalpha, dA, n, dB, n, &dbeta, dC, n);
  cublasCgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &calpha, cA, n, cB, n, &cbeta, cC, n);
  cublasHgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &halpha, hA, n, hB, n, &hbeta, hC, n);
  cublasStrsm(handle, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT,
              n, n, &alpha, A, n, B, n);
  cublasSsyrk(handle, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, n, n, &alpha, A, n, &beta, C, n);
  // Batched
  cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, n, (long long)n * n,
                            B, n, (long long)n * n, &beta, C, n, (long long)n * n, 4);
  const float *Aarray[1] = {A};
  const float *Barray[1] = {B};
  float *Carray[1] = {C};
  cublasSgemmBatched(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, Aarray, n, Barray, n, &beta,
                     Carray, n, 1);
  // GemmBatchedEx with the pointer arrays cast to void** (as CUDALibrarySamples pass them)
  void *vA[1] = {A}, *vB[1] = {B}, *vC[1] = {C};
  cublasGemmBatchedEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, (void **)vA, CUDA_R_32F, n,
                      (void **)vB, CUDA_R_32F, n, &beta, (void **)vC, CUDA_R_32F, n, 1,
                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  // GemmEx with half inputs and float compute
  cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, hA, CUDA_R_16F, n, hB, CUDA_R_16F, n,
               &beta, C, CUDA_R_32F, n, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
  cublasGemmStridedBatchedEx(handle, CUBLAS_OP_T, CUBLAS_OP_N, n, n, n, &alpha, hA, CUDA_R_16F, n,
                             (long long)n * n, hB, CUDA_R_16F, n, (long long)n * n, &beta, C,
                             CUDA_R_32F, n, (long long)n * n, 2, CUBLAS_COMPUTE_32F,
                             CUBLAS_GEMM_DEFAULT);
  // Helpers
  cublasSetVector(n, sizeof(float), A, 1, B, 1);
  cublasGetMatrix(n, n, sizeof(float), A, n, B, n);
  (void)zA;
  cublasDestroy(handle);
  return 0;
}
