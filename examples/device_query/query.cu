// Device query and launch tuning: properties, versions, peer access and the occupancy
// calculator choosing a block size for a kernel.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void __launch_bounds__(512) saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

int main() {
  int runtime = 0, driver = 0, count = 0;
  cudaRuntimeGetVersion(&runtime);
  cudaDriverGetVersion(&driver);
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::puts("no CUDA device");
    return 0;
  }
  std::printf("runtime %d, driver %d, %d device(s)\n", runtime, driver, count);
  for (int d = 0; d < count; ++d) {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, d);
    std::printf("%d: %s cc %d.%d, %d SMs, warp %d, %zu MB, smem/block %zu, clock %d kHz\n", d,
                prop.name, prop.major, prop.minor, prop.multiProcessorCount, prop.warpSize,
                prop.totalGlobalMem >> 20, prop.sharedMemPerBlock, prop.clockRate);
    for (int p = 0; p < count; ++p) {
      int can = 0;
      if (p != d && cudaDeviceCanAccessPeer(&can, d, p) == cudaSuccess && can)
        std::printf("   peer access %d -> %d\n", d, p);
    }
  }
  cudaSetDevice(0);
  int min_grid = 0, block = 0, active = 0;
  cudaOccupancyMaxPotentialBlockSize(&min_grid, &block, saxpy, 0, 0);
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&active, saxpy, block, 0);
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, saxpy);
  std::printf("saxpy: block %d, %d active blocks/SM, %d registers, max %d threads\n", block,
              active, attr.numRegs, attr.maxThreadsPerBlock);
  size_t free_bytes = 0, total_bytes = 0;
  cudaMemGetInfo(&free_bytes, &total_bytes);
  std::printf("memory: %zu of %zu MB free\n", free_bytes >> 20, total_bytes >> 20);
  cudaDeviceReset();
  return 0;
}
