// Vector addition with the usual error-check macro.
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <musa_runtime.h>

#define CHECK_CUDA(call)                                                        \
  do {                                                                          \
    musaError_t err_ = (call);                                                  \
    if (err_ != musaSuccess) {                                                  \
      std::fprintf(stderr, "%s:%d: CUDA error %s: %s\n", __FILE__, __LINE__,   \
                   musaGetErrorName(err_), musaGetErrorString(err_));           \
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
  CHECK_CUDA(musaMalloc(&da, bytes));
  CHECK_CUDA(musaMalloc(&db, bytes));
  CHECK_CUDA(musaMalloc(&dc, bytes));
  CHECK_CUDA(musaMemcpy(da, ha.data(), bytes, musaMemcpyHostToDevice));
  CHECK_CUDA(musaMemcpy(db, hb.data(), bytes, musaMemcpyHostToDevice));

  const int threads = 256;
  const int blocks = (n + threads - 1) / threads;
  vector_add<<<blocks, threads>>>(da, db, dc, n);
  CHECK_CUDA(musaGetLastError());
  CHECK_CUDA(musaDeviceSynchronize());

  CHECK_CUDA(musaMemcpy(hc.data(), dc, bytes, musaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    if (hc[i] != 3.0f) {
      std::fprintf(stderr, "mismatch at %d: %f\n", i, hc[i]);
      return 1;
    }
  }
  CHECK_CUDA(musaFree(da));
  CHECK_CUDA(musaFree(db));
  CHECK_CUDA(musaFree(dc));
  std::printf("vector_add: OK\n");
  return 0;
}
