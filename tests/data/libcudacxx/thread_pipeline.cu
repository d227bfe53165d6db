#include <cuda/pipeline>
// flashinfer's csrc/bgmv_moe/moe_bgmv_impl.cuh, cut down: a two-stage thread pipeline.
template <int N>
__global__ void k(const float* x, float* y, int tiles) {
  __shared__ float tile[2][128 * N];
  auto pipe = cuda::make_pipeline();
  const int off = threadIdx.x * N;
  for (int t = 0; t < 2 && t < tiles; ++t) {
    pipe.producer_acquire();
    cuda::memcpy_async(tile[t] + off, x + t * 128 * N + off,
                       cuda::aligned_size_t<N * sizeof(float)>(N * sizeof(float)), pipe);
    pipe.producer_commit();
  }
  float acc = 0.f;
  for (int t = 0; t < tiles; ++t) {
    pipe.consumer_wait();
    for (int i = 0; i < N; ++i) acc += tile[t % 2][off + i];
    pipe.consumer_release();
    if (t + 2 < tiles) {
      pipe.producer_acquire();
      cuda::memcpy_async(tile[t % 2] + off, x + (t + 2) * 128 * N + off, N * sizeof(float), pipe);
      pipe.producer_commit();
    }
  }
  y[blockIdx.x * 128 + threadIdx.x] = acc;
}
template __global__ void k<4>(const float*, float*, int);
