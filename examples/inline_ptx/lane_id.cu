// Warp-level helpers written with inline PTX, as older CUDA code often does. AMD GPUs
// cannot assemble PTX: cudaport rewrites the statements that have a HIP meaning (the lane
// id, the global timer) and reports the one that has none (a profiler event) on its line,
// where `cudaport verify` fails by design (CP503).
#include <cstdio>
#include <cuda_runtime.h>

__device__ __forceinline__ unsigned lane_id() {
  unsigned id;
  asm volatile("mov.u32 %0, %%laneid;" : "=r"(id));
  return id;
}

__device__ __forceinline__ unsigned long long global_timer() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
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
  cudaMalloc(&lanes, 64 * sizeof(unsigned));
  cudaMalloc(&stamps, 64 * sizeof(unsigned long long));
  record_lanes<<<1, 64>>>(lanes, stamps);
  unsigned host[64];
  cudaMemcpy(host, lanes, sizeof(host), cudaMemcpyDeviceToHost);
  std::printf("lane of thread 40: %u\n", host[40]);
  cudaFree(lanes);
  cudaFree(stamps);
  return 0;
}
