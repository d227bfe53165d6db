// Warp-level helpers written with inline PTX, as older CUDA code often does. AMD GPUs
// cannot assemble PTX: cudaport reports each asm statement on its line (CP503) and
// `cudaport verify` fails here by design.
#include <cstdio>
#include <hip/hip_runtime.h>

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  id = __builtin_bit_cast(__typeof__(id), static_cast<unsigned int>(__lane_id()));
  return id;
}

__device__ __forceinline__ unsigned long long global_timer() {
  unsigned long long t;
  t = __builtin_bit_cast(__typeof__(t), static_cast<unsigned long long>(wall_clock64()));
  return t;
}

__global__ void record_lanes(unsigned* lanes, unsigned long long* stamps) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  lanes[i] = lane_id();
  stamps[i] = global_timer();
}

int main() {
  unsigned* lanes;
  unsigned long long* stamps;
  hipMalloc(&lanes, 64 * sizeof(unsigned));
  hipMalloc(&stamps, 64 * sizeof(unsigned long long));
  record_lanes<<<1, 64>>>(lanes, stamps);
  unsigned host[64];
  hipMemcpy(host, lanes, sizeof(host), hipMemcpyDeviceToHost);
  std::printf("lane of thread 40: %u\n", host[40]);
  hipFree(lanes);
  hipFree(stamps);
  return 0;
}
