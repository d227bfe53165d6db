#include <cuda_pipeline.h>
__global__ void k(const float4* g, float* out) {
  __shared__ float4 tile[64];
  cudaGridDependencySynchronize();
  __pipeline_memcpy_async(&tile[threadIdx.x], &g[threadIdx.x], sizeof(float4));
  __pipeline_memcpy_async(&tile[threadIdx.x + 32], &g[threadIdx.x + 32], 16, 8);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x].x + tile[threadIdx.x + 32].w;
  cudaTriggerProgrammaticLaunchCompletion();
}
