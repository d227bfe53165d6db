// C = alpha * A * B + beta * C with cuBLAS (column-major), on a stream, plus a batched
// strided GEMM. hipBLAS is not packaged by Debian, so the tests check the translated text.
#include <cstdio>
#include <vector>
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>

#define CUBLAS_CHECK(call)                                                     \
  do {                                                                         \
    hipblasStatus_t st_ = (call);                                               \
    if (st_ != HIPBLAS_STATUS_SUCCESS) {                                        \
      std::printf("cuBLAS error %d at %s:%d\n", static_cast<int>(st_), __FILE__, __LINE__); \
      return 1;                                                                \
    }                                                                          \
  } while (0)

int main() {
  const int m = 256, n = 128, k = 64, batch = 4;
  std::vector<float> a(m * k, 1.0f), b(k * n, 0.5f), c(m * n, 0.0f);
  float *da, *db, *dc;
  hipMalloc(&da, sizeof(float) * m * k * batch);
  hipMalloc(&db, sizeof(float) * k * n * batch);
  hipMalloc(&dc, sizeof(float) * m * n * batch);
  hipMemcpy(da, a.data(), sizeof(float) * m * k, hipMemcpyHostToDevice);
  hipMemcpy(db, b.data(), sizeof(float) * k * n, hipMemcpyHostToDevice);

  hipblasHandle_t handle;
  hipStream_t stream;
  CUBLAS_CHECK(hipblasCreate(&handle));
  hipStreamCreate(&stream);
  CUBLAS_CHECK(hipblasSetStream(handle, stream));
  CUBLAS_CHECK(hipblasSetPointerMode(handle, HIPBLAS_POINTER_MODE_HOST));

  const float alpha = 1.0f, beta = 0.0f;
  CUBLAS_CHECK(hipblasSgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, m, n, k, &alpha, da, m, db, k,
                           &beta, dc, m));
  CUBLAS_CHECK(hipblasSgemmStridedBatched(handle, HIPBLAS_OP_N, HIPBLAS_OP_T, m, n, k, &alpha,
                                         da, m, static_cast<long long>(m) * k, db, n,
                                         static_cast<long long>(k) * n, &beta, dc, m,
                                         static_cast<long long>(m) * n, batch));
  float norm = 0.0f;
  CUBLAS_CHECK(hipblasSnrm2(handle, m * n, dc, 1, &norm));
  hipStreamSynchronize(stream);
  std::printf("||C|| = %f\n", norm);

  CUBLAS_CHECK(hipblasDestroy(handle));
  hipStreamDestroy(stream);
  hipFree(da);
  hipFree(db);
  hipFree(dc);
  return 0;
}
