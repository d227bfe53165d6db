// Call-level test program for cuSOLVER (dense): LU, Cholesky, QR, eigenvalues, SVD.
#include <cuda_runtime.h>
#include <cusolverDn.h>

int solver_calls(float *A, double *dA, float *B, float *W, int n, cudaStream_t stream) {
  cusolverDnHandle_t handle;
  if (cusolverDnCreate(&handle) != CUSOLVER_STATUS_SUCCESS) return 1;
  cusolverDnSetStream(handle, stream);
  int lwork = 0, *ipiv, *info;
  float *work;
  double *dwork;
  cudaMalloc(&ipiv, n * sizeof(int));
  cudaMalloc(&info, sizeof(int));
  cusolverDnSgetrf_bufferSize(handle, n, n, A, n, &lwork);
  cudaMalloc(&work, lwork * sizeof(float));
  cusolverDnSgetrf(handle, n, n, A, n, work, ipiv, info);
  cusolverDnSgetrs(handle, CUBLAS_OP_N, n, 1, A, n, ipiv, B, n, info);
  cusolverDnSpotrf_bufferSize(handle, CUBLAS_FILL_MODE_LOWER, n, A, n, &lwork);
  cusolverDnSpotrf(handle, CUBLAS_FILL_MODE_LOWER, n, A, n, work, lwork, info);
  cusolverDnSpotrs(handle, CUBLAS_FILL_MODE_LOWER, n, 1, A, n, B, n, info);
  cusolverDnSgeqrf_bufferSize(handle, n, n, A, n, &lwork);
  cusolverDnSgeqrf(handle, n, n, A, n, W, work, lwork, info);
  cusolverDnSsyevd_bufferSize(handle, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, n, A, n, W,
                              &lwork);
  cusolverDnSsyevd(handle, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_UPPER, n, A, n, W, work, lwork,
                   info);
  cusolverDnDgesvd_bufferSize(handle, n, n, &lwork);
  cudaMalloc(&dwork, lwork * sizeof(double));
  cusolverDnDgesvd(handle, 'A', 'A', n, n, dA, n, dA, dA, n, dA, n, dwork, lwork, nullptr, info);
  cusolverDnDestroy(handle);
  cudaFree(work);
  cudaFree(dwork);
  cudaFree(ipiv);
  cudaFree(info);
  return 0;
}
