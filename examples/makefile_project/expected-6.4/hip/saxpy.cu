#ifndef HIP_ENABLE_WARP_SYNC_BUILTINS
#define HIP_ENABLE_WARP_SYNC_BUILTINS
#endif
#include <hip/hip_runtime.h>
#include "saxpy.h"

__global__ void saxpy_kernel(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" int saxpy_gpu(int n, float a, const float* x, float* y) {
  float *dx, *dy;
  size_t bytes = n * sizeof(float);
  if (hipMalloc(&dx, bytes) != hipSuccess || hipMalloc(&dy, bytes) != hipSuccess) return 1;
  hipMemcpy(dx, x, bytes, hipMemcpyHostToDevice);
  hipMemcpy(dy, y, bytes, hipMemcpyHostToDevice);
  saxpy_kernel<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  hipError_t err = hipGetLastError();
  hipMemcpy(y, dy, bytes, hipMemcpyDeviceToHost);
  hipFree(dx);
  hipFree(dy);
  return err != hipSuccess;
}
