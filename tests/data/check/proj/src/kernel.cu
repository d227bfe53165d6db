// Example project for cudaport check tests: every finding here is on purpose.
#include <cuda_runtime.h>
#include <stdio.h>

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

int run(cudaArray_t array, int n) {
  float* d = nullptr;
  cudaMalloc(&d, n * sizeof(float));
  cudaArray_t plane;
  cudaArrayGetPlane(&plane, array, 0);
  scale<<<(n + 255) / 256, 256>>>(d, 2.0f, n);
  cudaThreadSynchronize();
  cudaArrayGetPlane(&plane, array, 1);  // cudaport: ignore[CP101]
  cudaFree(d);
  return 0;
}
