#include <cuda_runtime.h>
#include "saxpy.h"

__global__ void saxpy_kernel(int n, float a, const float* x, float* y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

extern "C" int saxpy_gpu(int n, float a, const float* x, float* y) {
  float *dx, *dy;
  size_t bytes = n * sizeof(float);
  if (cudaMalloc(&dx, bytes) != cudaSuccess || cudaMalloc(&dy, bytes) != cudaSuccess) return 1;
  cudaMemcpy(dx, x, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y, bytes, cudaMemcpyHostToDevice);
  saxpy_kernel<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
  cudaError_t err = cudaGetLastError();
  cudaMemcpy(y, dy, bytes, cudaMemcpyDeviceToHost);
  cudaFree(dx);
  cudaFree(dy);
  return err != cudaSuccess;
}
