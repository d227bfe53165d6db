// C = alpha * A * B + beta * C with cuBLAS (column-major), on a stream, plus a batched
// strided GEMM. hipBLAS is not packaged by Debian, so the tests check the translated text.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cublas_v2.h>

#define CUBLAS_CHECK(call)                                                     \
  do {                                                                         \
    cublasStatus_t st_ = (call);                                               \
    if (st_ != CUBLAS_STATUS_SUCCESS) {                                        \
      std::printf("cuBLAS error %d at %s:%d\n", static_cast<int>(st_), __FILE__, __LINE__); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  const int m = 256, n = 128, k = 64, batch = 4;
  std::vector<float> a(m * k, 1.0f), b(k * n, 0.5f), c(m * n, 0.0f);
  float *da, *db, *dc;
  cudaMalloc(&da, sizeof(float) * m * k * batch);
  cudaMalloc(&db, sizeof(float) * k * n * batch);
  cudaMalloc(&dc, sizeof(float) * m * n * batch);
  cudaMemcpy(da, a.data(), sizeof(float) * m * k, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b.data(), sizeof(float) * k * n, cudaMemcpyHostToDevice);

  cublasHandle_t handle;
  cudaStream_t stream;
  CUBLAS_CHECK(cublasCreate(&handle));
  cudaStreamCreate(&stream);
  CUBLAS_CHECK(cublasSetStream(handle, stream));
  CUBLAS_CHECK(cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST));

  const float alpha = 1.0f, beta = 0.0f;
  CUBLAS_CHECK(cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, da, m, db, k,
                           &beta, dc, m));
  CUBLAS_CHECK(cublasSgemmStridedBatched(handle, CUBLAS_OP_N, CUBLAS_OP_T, m, n, k, &alpha,
                                         da, m, static_cast<long long>(m) * k, db, n,
                                         static_cast<long long>(k) * n, &beta, dc, m,
                                         static_cast<long long>(m) * n, batch));
  float norm = 0.0f;
  CUBLAS_CHECK(cublasSnrm2(handle, m * n, dc, 1, &norm));
  cudaStreamSynchronize(stream);
  std::printf("||C|| = %f\n", norm);

  CUBLAS_CHECK(cublasDestroy(handle));
  cudaStreamDestroy(stream);
  cudaFree(da);
  cudaFree(db);
  cudaFree(dc);
  return 0;
}
