// CUDA's own cooperative_groups::labeled_partition against the rule cudaport's HIP form
// (rules/hip/ports/cudaport_portable.h, section labeled_partition) computes: the group is
// the parent's lanes with an equal label; thread_rank, the rank among them; meta_group_size,
// the number of distinct labels; meta_group_rank, the rank of the group's lowest lane among
// the groups' lowest lanes. Needs an NVIDIA GPU: nvcc -arch=sm_90 -o lp
// bench/labeled_partition_cuda.cu && ./lp (2026-11-26, NVIDIA H200, CUDA 13: 2000 random
// label sets, some with inactive lanes: 0 mismatching lanes). Exit 1 on a mismatch.
#include <cooperative_groups.h>
#include <cstdio>
#include <cstdlib>
namespace cg = cooperative_groups;
__global__ void k(const int* label, const int* active, unsigned* out) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  const int lane = threadIdx.x;
  if (!active[lane]) return;
  auto parent = cg::coalesced_threads();
  auto g = cg::labeled_partition(parent, label[lane]);
  unsigned all = __activemask();
  unsigned mine = __match_any_sync(all, label[lane]);
  unsigned lowest = mine & (~mine + 1);
  unsigned firsts = __ballot_sync(all, (1u << lane) & lowest);
  unsigned want = __popc(mine & ((1u << lane) - 1)) | (__popc(mine) << 8) |
                  (__popc(firsts & (lowest - 1)) << 16) | (__popc(firsts) << 24);
  unsigned got = g.thread_rank() | (g.num_threads() << 8) | (g.meta_group_rank() << 16) |
                 (g.meta_group_size() << 24);
  out[lane] = got == want ? 0 : 1;
  (void)warp;
}
int main() {
  int *label, *active; unsigned* out; int bad = 0, runs = 2000;
  cudaMallocManaged(&label, 32 * 4); cudaMallocManaged(&active, 32 * 4); cudaMallocManaged(&out, 32 * 4);
  srand(1);
  for (int r = 0; r < runs; ++r) {
    for (int i = 0; i < 32; ++i) { label[i] = rand() % (1 + r % 7) - 3; active[i] = (r % 3) ? 1 : rand() % 2; out[i] = 0; }
    k<<<1, 32>>>(label, active, out); cudaDeviceSynchronize();
    for (int i = 0; i < 32; ++i) bad += out[i];
  }
  printf("labeled_partition: %d runs, %d mismatching lanes (%s)\n", runs, bad, cudaGetErrorString(cudaGetLastError()));
  return bad != 0;
}
