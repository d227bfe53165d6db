// Sum of a large array: grid-stride loads, warp-shuffle reduction, one shared-memory slot
// per warp, and a second pass over the per-block partial sums.
#include <cstdio>
#include <cstdlib>
#include <numeric>
#include <vector>
#include <hip/hip_runtime.h>

#define CUDA_CHECK(expr)                                                      \
  do {                                                                        \
    hipError_t status_ = (expr);                                             \
    if (status_ != hipSuccess) {                                             \
      fprintf(stderr, "%s failed at %s:%d: %s\n", #expr, __FILE__, __LINE__,  \
              hipGetErrorString(status_));                                   \
      exit(1);                                                                \
    }                                                                         \
  } while (0)

constexpr int kBlock = 256;
constexpr unsigned kFullMask = 0xffffffffu;

__inline__ __device__ float warp_reduce_sum(float v) {
  for (int offset = 16; offset > 0; offset /= 2)
    v += __shfl_down_sync(__activemask(), v, offset);
  return v;
}

__inline__ __device__ float block_reduce_sum(float v) {
  __shared__ float per_warp[kBlock / 32];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  v = warp_reduce_sum(v);
  if (lane == 0) per_warp[warp] = v;
  __syncthreads();
  v = (threadIdx.x < blockDim.x / 32) ? per_warp[lane] : 0.0f;
  if (warp == 0) v = warp_reduce_sum(v);
  return v;
}

__global__ void reduce_sum(const float* __restrict__ in, float* __restrict__ out, int n) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    acc += in[i];
  acc = block_reduce_sum(acc);
  if (threadIdx.x == 0) out[blockIdx.x] = acc;
}

int main() {
  const int n = 1 << 22;
  std::vector<float> host(n);
  for (int i = 0; i < n; ++i) host[i] = static_cast<float>(i % 7) * 0.5f;

  int device = 0, sms = 0;
  CUDA_CHECK(hipGetDevice(&device));
  CUDA_CHECK(hipDeviceGetAttribute(&sms, hipDeviceAttributeMultiprocessorCount, device));
  const int blocks = 4 * sms;

  float *d_in = nullptr, *d_partial = nullptr, *d_total = nullptr;
  CUDA_CHECK(hipMalloc(&d_in, n * sizeof(float)));
  CUDA_CHECK(hipMalloc(&d_partial, blocks * sizeof(float)));
  CUDA_CHECK(hipMalloc(&d_total, sizeof(float)));
  CUDA_CHECK(hipMemcpy(d_in, host.data(), n * sizeof(float), hipMemcpyHostToDevice));

  reduce_sum<<<blocks, kBlock>>>(d_in, d_partial, n);
  CUDA_CHECK(hipGetLastError());
  reduce_sum<<<1, kBlock>>>(d_partial, d_total, blocks);
  CUDA_CHECK(hipGetLastError());

  float total = 0.0f;
  CUDA_CHECK(hipMemcpy(&total, d_total, sizeof(float), hipMemcpyDeviceToHost));
  const double expected = std::accumulate(host.begin(), host.end(), 0.0);
  printf("sum = %.1f (expected %.1f)\n", total, expected);

  CUDA_CHECK(hipFree(d_in));
  CUDA_CHECK(hipFree(d_partial));
  CUDA_CHECK(hipFree(d_total));
  return 0;
}
