// Byte histogram with per-block privatized bins in static shared memory, merged with
// global atomics; plus a few integer and float intrinsics that image code relies on.
#include <cstdint>
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>

#define NUM_BINS 256

__device__ float atomic_max_float(float* address, float value) {
  // Classic CAS loop: CUDA has no atomicMax for float.
  int* as_int = reinterpret_cast<int*>(address);
  int old = *as_int, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= value) break;
    old = atomicCAS(as_int, assumed, __float_as_int(value));
  } while (assumed != old);
  return __int_as_float(old);
}

__global__ void histogram(const uint8_t* __restrict__ data, size_t n,
                          unsigned int* __restrict__ bins, unsigned int* __restrict__ stats,
                          float* __restrict__ max_ratio) {
  __shared__ unsigned int local[NUM_BINS];
  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();

  unsigned int set_bits = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(blockDim.x) * gridDim.x) {
    const uint8_t v = __ldg(&data[i]);
    atomicAdd(&local[v], 1u);
    set_bits += __popc(v);
  }
  __syncthreads();

  for (int b = threadIdx.x; b < NUM_BINS; b += blockDim.x) {
    if (local[b]) atomicAdd(&bins[b], local[b]);
  }
  atomicAdd(&stats[0], set_bits);
  atomicMax(&stats[1], 31 - __clz(set_bits | 1));
  atomicMin(&stats[2], __ffs(set_bits));
  atomicExch(&stats[3], blockIdx.x);
  atomic_max_float(max_ratio, __fdividef(static_cast<float>(set_bits), 8.0f * blockDim.x));
}

int main() {
  const size_t n = 1 << 24;
  std::vector<uint8_t> host(n);
  for (size_t i = 0; i < n; ++i) host[i] = static_cast<uint8_t>((i * 2654435761u) >> 24);

  uint8_t* d_data;
  unsigned int *d_bins, *d_stats;
  float* d_ratio;
  cudaMalloc(&d_data, n);
  cudaMalloc(&d_bins, NUM_BINS * sizeof(unsigned int));
  cudaMalloc(&d_stats, 4 * sizeof(unsigned int));
  cudaMalloc(&d_ratio, sizeof(float));
  cudaMemcpy(d_data, host.data(), n, cudaMemcpyHostToDevice);
  cudaMemset(d_bins, 0, NUM_BINS * sizeof(unsigned int));
  const unsigned int init_stats[4] = {0, 0, 0xffffffffu, 0};
  cudaMemcpy(d_stats, init_stats, sizeof(init_stats), cudaMemcpyHostToDevice);
  cudaMemset(d_ratio, 0, sizeof(float));

  histogram<<<120, 256>>>(d_data, n, d_bins, d_stats, d_ratio);
  cudaDeviceSynchronize();

  std::vector<unsigned int> bins(NUM_BINS);
  cudaMemcpy(bins.data(), d_bins, NUM_BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost);
  unsigned long long total = 0;
  for (unsigned int b : bins) total += b;
  std::printf("counted %llu of %zu bytes\n", total, n);
  cudaFree(d_data);
  cudaFree(d_bins);
  cudaFree(d_stats);
  cudaFree(d_ratio);
  return total == n ? 0 : 1;
}
