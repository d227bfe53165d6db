// Vector addition with the usual error-check macro.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <hip/hip_runtime.h>

#define CHECK_CUDA(call)                                                        \
  do {                                                                          \
    hipError_t err_ = (call);                                                  \
    if (err_ != hipSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: CUDA error %s: %s\n", __FILE__, __LINE__,   \
                   hipGetErrorName(err_), hipGetErrorString(err_));           \
      std::exit(EXIT_FAILURE);                                                  \
    }                                                                           \
  } while (0)

__global__ void vector_add(const float* __restrict__ a, const float* __restrict__ b,
                           float* __restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 1 << 20;
  const size_t bytes = n * sizeof(float);
  std::vector<float> ha(n, 1.0f), hb(n, 2.0f), hc(n);

  float *da = nullptr, *db = nullptr, *dc = nullptr;
  CHECK_CUDA(hipMalloc(&da, bytes));
  CHECK_CUDA(hipMalloc(&db, bytes));
  CHECK_CUDA(hipMalloc(&dc, bytes));
  CHECK_CUDA(hipMemcpy(da, ha.data(), bytes, hipMemcpyHostToDevice));
  CHECK_CUDA(hipMemcpy(db, hb.data(), bytes, hipMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  vector_add<<<blocks, threads>>>(da, db, dc, n);
  CHECK_CUDA(hipGetLastError());
  CHECK_CUDA(hipDeviceSynchronize());

  CHECK_CUDA(hipMemcpy(hc.data(), dc, bytes, hipMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    if (hc[i] != 3.0f) {
      std::fprintf(stderr, "mismatch at %d: %f\n", i, hc[i]);
      return 1;
    }
  }
  CHECK_CUDA(hipFree(da));
  CHECK_CUDA(hipFree(db));
  CHECK_CUDA(hipFree(dc));
  std::printf("vector_add: OK\n");
  return 0;
}
