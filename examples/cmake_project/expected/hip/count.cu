#include <hip/hip_runtime.h>
#include "count.h"

__global__ void inside_kernel(const float* x, const float* y, int n, unsigned long long* hits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && x[i] * x[i] + y[i] * y[i] <= 1.0f) atomicAdd(hits, 1ULL);
}

unsigned long long count_inside(const float* d_x, const float* d_y, int n) {
  unsigned long long* d_hits;
  unsigned long long hits = 0;
  hipMalloc(&d_hits, sizeof(hits));
  hipMemset(d_hits, 0, sizeof(hits));
  inside_kernel<<<(n + 255) / 256, 256>>>(d_x, d_y, n, d_hits);
  hipMemcpy(&hits, d_hits, sizeof(hits), hipMemcpyDeviceToHost);
  hipFree(d_hits);
  return hits;
}
