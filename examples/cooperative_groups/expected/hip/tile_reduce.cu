// Cooperative groups basics: the thread block as a group, a statically sized tile of it,
// reductions with the tile's shuffle, and group-wide synchronization.
#include <cstdio>
#include <hip/hip_runtime.h>
#include <hip/hip_cooperative_groups.h>
#include <hip/hip_runtime.h>

namespace cg = cooperative_groups;

template <unsigned TileSize>
__device__ int tile_sum(cg::thread_block_tile<TileSize> tile, int value) {
  for (unsigned offset = tile.size() / 2; offset > 0; offset /= 2)
    value += tile.shfl_down(value, offset);
  return value;  // valid in the tile's thread 0
}

__global__ void sum_kernel(const int* in, int* out, int n) {
  cg::thread_block block = cg::this_thread_block();
  __shared__ int partial[32];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;

  cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
  v = tile_sum<16>(tile, v);
  if (tile.thread_rank() == 0) partial[block.thread_rank() / 16] = v;
  block.sync();

  if (block.thread_rank() == 0) {
    int total = 0;
    for (unsigned t = 0; t < block.size() / 16; ++t) total += partial[t];
    atomicAdd(out, total);
  }
  cg::sync(block);
}

int main() {
  const int n = 1 << 16;
  int *in, *out;
  hipMalloc(&in, n * sizeof(int));
  hipMalloc(&out, sizeof(int));
  hipMemset(in, 0, n * sizeof(int));
  hipMemset(out, 0, sizeof(int));
  sum_kernel<<<n / 256, 256>>>(in, out, n);
  int total = -1;
  hipMemcpy(&total, out, sizeof(int), hipMemcpyDeviceToHost);
  std::printf("sum = %d\n", total);
  hipFree(in);
  hipFree(out);
  return 0;
}
