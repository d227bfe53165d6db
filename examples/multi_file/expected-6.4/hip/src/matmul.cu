// Tiled matrix multiply; the kernel is declared in matrix.cuh and launched from here.
#ifndef HIP_ENABLE_WARP_SYNC_BUILTINS
#define HIP_ENABLE_WARP_SYNC_BUILTINS
#endif
#include <hip/hip_runtime.h>
#include "check.h"
#include "matrix.cuh"

__global__ void matmul_tiled(DeviceMatrix a, DeviceMatrix b, DeviceMatrix c) {
  __shared__ float ta[kTile][kTile];
  __shared__ float tb[kTile][kTile];
  const int row = blockIdx.y * kTile + threadIdx.y;
  const int col = blockIdx.x * kTile + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < (a.cols + kTile - 1) / kTile; ++t) {
    const int ac = t * kTile + threadIdx.x, br = t * kTile + threadIdx.y;
    ta[threadIdx.y][threadIdx.x] = (row < a.rows && ac < a.cols) ? a.at(row, ac) : 0.0f;
    tb[threadIdx.y][threadIdx.x] = (br < b.rows && col < b.cols) ? b.at(br, col) : 0.0f;
    __syncthreads();
    for (int k = 0; k < kTile; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  if (row < c.rows && col < c.cols) c.at(row, col) = acc;
}

void launch_matmul(const DeviceMatrix& a, const DeviceMatrix& b, DeviceMatrix& c,
                   hipStream_t stream) {
  dim3 block(kTile, kTile);
  dim3 grid((c.cols + kTile - 1) / kTile, (c.rows + kTile - 1) / kTile);
  matmul_tiled<<<grid, block, 0, stream>>>(a, b, c);
  CHECK_CUDA(hipGetLastError());
}
