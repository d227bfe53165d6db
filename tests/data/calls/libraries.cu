// cuBLAS and cuSPARSE calls whose hipBLAS / hipSPARSE 6.4 spelling takes other
// arguments (rules/hip/calls.yaml), as the CUDA 13 library headers declare them.
#include <cublas_v2.h>
#include <cusparse.h>
#include <cufft.h>
#include <cuda_fp16.h>

int main() {
  cublasHandle_t h;
  cublasCreate(&h);
  const int n = 2;
  float* fa[1] = {nullptr};
  double* da[1] = {nullptr};
  cuComplex* ca[1] = {nullptr};
  cuDoubleComplex* za[1] = {nullptr};
  const float* cfa[1] = {fa[0]};
  int* pivots = nullptr;
  const int* cpivots = pivots;
  int info[1];
  cublasSgetriBatched(h, n, cfa, n, cpivots, fa, n, info, 1);
  cublasDgetriBatched(h, n, da, n, pivots, da, n, info, 1);
  cublasCgetriBatched(h, n, ca, n, pivots, ca, n, info, 1);
  cublasZgetriBatched(h, n, za, n, pivots, za, n, info, 1);
  cublasSgetrsBatched(h, CUBLAS_OP_N, n, 1, cfa, n, pivots, fa, n, info, 1);
  cublasDgetrsBatched(h, CUBLAS_OP_N, n, 1, da, n, pivots, da, n, info, 1);
  cublasCgetrsBatched(h, CUBLAS_OP_N, n, 1, ca, n, pivots, ca, n, info, 1);
  cublasZgetrsBatched(h, CUBLAS_OP_N, n, 1, za, n, pivots, za, n, info, 1);
  __half alpha = __float2half(1.0f), beta = __float2half(0.0f);
  __half *A = nullptr, *B = nullptr, *C = nullptr;
  cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, A, n, B, n, &beta, C, n);
  const __half* As[1] = {A};
  const __half* Bs[1] = {B};
  __half* Cs[1] = {C};
  cublasHgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, &alpha, As, n, Bs, n, &beta, Cs, n, 1);
  cublasHgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_T, n, n, n, &alpha, A, n, 4, B, n, 4,
                            &beta, C, n, 4, 1);
  cusparseHandle_t sp;
  cusparseCreate(&sp);
  cusparseSpVecDescr_t vx = nullptr;
  cusparseDnVecDescr_t vy = nullptr;
  float result = 0;
  size_t bytes = 0;
  cusparseSpVV_bufferSize(sp, CUSPARSE_OPERATION_NON_TRANSPOSE, vx, vy, &result, CUDA_R_32F,
                          &bytes);
  cufftGetSize(0, nullptr);
  return 0;
}
