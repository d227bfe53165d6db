// Warp-level helpers written with inline PTX, as older CUDA code often does. AMD GPUs
// cannot assemble PTX: cudaport rewrites the statements that have a HIP meaning (the lane
// id, the global timer) and reports the one that has none (a profiler event) on its line,
// where `cudaport verify` fails by design (CP503).
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

__device__ __forceinline__ void profiler_mark() {
  asm volatile("pmevent 1;");
}

__global__ void record_lanes(unsigned* lanes, unsigned long long* stamps) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  profiler_mark();
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
