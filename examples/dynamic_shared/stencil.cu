// 1-D stencil with a tile in dynamic shared memory (extern __shared__), sized at launch
// and raised above the default limit with cudaFuncSetAttribute when the device allows it.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define RADIUS 8

template <typename T>
__global__ void stencil_1d(const T* in, T* out, int n) {
  extern __shared__ unsigned char smem_raw[];
  T* tile = reinterpret_cast<T*>(smem_raw);
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const int l = threadIdx.x + RADIUS;
  tile[l] = g < n ? in[g] : T(0);
  if (threadIdx.x < RADIUS) {
    const int left = g - RADIUS, right = g + blockDim.x;
    tile[l - RADIUS] = left >= 0 ? in[left] : T(0);
    tile[l + blockDim.x] = right < n ? in[right] : T(0);
  }
  __syncthreads();
  if (g >= n) return;
  T sum = 0;
  for (int k = -RADIUS; k <= RADIUS; ++k) sum += tile[l + k];
  out[g] = sum;
}

__global__ void copy_with_dynamic_tile(const float* in, float* out, int n) {
  extern __shared__ float buffer[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) buffer[threadIdx.x] = in[i];
  __syncthreads();
  if (i < n) out[i] = buffer[blockDim.x - 1 - threadIdx.x];
}

int main() {
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  const int n = 1 << 20;
  int threads = 1024;
  size_t smem = (threads + 2 * RADIUS) * sizeof(double);
  if (smem > prop.sharedMemPerBlock) {
    if (cudaFuncSetAttribute(stencil_1d<double>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                             static_cast<int>(smem)) != cudaSuccess) {
      threads = 256;
      smem = (threads + 2 * RADIUS) * sizeof(double);
    }
  }
  cudaFuncSetCacheConfig(copy_with_dynamic_tile, cudaFuncCachePreferShared);

  double *in, *out;
  cudaMalloc(&in, n * sizeof(double));
  cudaMalloc(&out, n * sizeof(double));
  std::vector<double> host(n, 1.0);
  cudaMemcpy(in, host.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  stencil_1d<double><<<(n + threads - 1) / threads, threads, smem>>>(in, out, n);
  cudaMemcpy(host.data(), out, n * sizeof(double), cudaMemcpyDeviceToHost);
  std::printf("out[n/2] = %.0f (expected %d)\n", host[n / 2], 2 * RADIUS + 1);

  float *fin, *fout;
  cudaMalloc(&fin, n * sizeof(float));
  cudaMalloc(&fout, n * sizeof(float));
  copy_with_dynamic_tile<<<n / 256, 256, 256 * sizeof(float)>>>(fin, fout, n);
  cudaDeviceSynchronize();
  cudaFree(in);
  cudaFree(out);
  cudaFree(fin);
  cudaFree(fout);
  return 0;
}
