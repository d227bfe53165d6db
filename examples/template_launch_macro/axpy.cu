// A kernel template instantiated for several types, launched through a project macro that
// hides the launch syntax (and checks for launch errors), as many code bases do.
#include <cstdio>
#include <type_traits>
#include <cuda_runtime.h>

#define LAUNCH_KERNEL(kernel, grid, block, smem, stream, ...)                 \
  do {                                                                        \
    kernel<<<(grid), (block), (smem), (stream)>>>(__VA_ARGS__);               \
    cudaError_t launch_err = cudaGetLastError();                              \
    if (launch_err != cudaSuccess)                                            \
      printf("launch of %s failed: %s\n", #kernel, cudaGetErrorString(launch_err)); \
  } while (0)

// A second style: the macro names the kernel template itself.
#define LAUNCH_AXPY(T, ITEMS, n, stream, ...) \
  axpy<T, ITEMS><<<((n) + 255) / 256, 256, 0, stream>>>(__VA_ARGS__)

template <typename T, int ItemsPerThread>
__global__ void axpy(T alpha, const T* x, T* y, int n) {
  static_assert(std::is_arithmetic<T>::value, "axpy needs an arithmetic type");
  const int base = (blockIdx.x * blockDim.x + threadIdx.x) * ItemsPerThread;
#pragma unroll
  for (int k = 0; k < ItemsPerThread; ++k) {
    const int i = base + k;
    if (i < n) y[i] = alpha * x[i] + y[i];
  }
}

template <typename T>
void run(int n, cudaStream_t stream) {
  T *x, *y;
  cudaMalloc(&x, n * sizeof(T));
  cudaMalloc(&y, n * sizeof(T));
  cudaMemsetAsync(x, 0, n * sizeof(T), stream);
  cudaMemsetAsync(y, 0, n * sizeof(T), stream);
  constexpr int kItems = sizeof(T) == 8 ? 2 : 4;
  const dim3 block(128);
  const dim3 grid((n + block.x * kItems - 1) / (block.x * kItems));
  LAUNCH_KERNEL((axpy<T, kItems>), grid, block, 0, stream, T(2), x, y, n);
  LAUNCH_AXPY(T, 1, n, stream, T(-1), x, y, n);
  // The same kernel launched directly, with an explicit instantiation.
  axpy<T, 1><<<dim3((n + 255) / 256), dim3(256), 0, stream>>>(T(1), x, y, n);
  cudaStreamSynchronize(stream);
  cudaFree(x);
  cudaFree(y);
}

int main() {
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  run<float>(1 << 20, stream);
  run<double>(1 << 20, stream);
  run<int>(1000, stream);
  cudaStreamDestroy(stream);
  std::puts("axpy done");
  return 0;
}
