#include <cuda/barrier>
__global__ void k(float* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  __shared__ float tile[256];
  if (threadIdx.x == 0) {
    init(&bar, blockDim.x * blockDim.y * blockDim.z);
  }
  __syncthreads();
  tile[threadIdx.x] = out[threadIdx.x];
  bar.arrive_and_wait();
  out[threadIdx.x] = tile[255 - threadIdx.x];
  bar.arrive_and_wait();
}
__global__ void partial(float* out) {
  __shared__ cuda::barrier<cuda::thread_scope_block> b2;
  if (threadIdx.x == 0) init(&b2, blockDim.x);
  __syncthreads();
  b2.arrive_and_wait();
}
