// A kernel template instantiated for several types, launched through a project macro that
// hides the launch syntax (and checks for launch errors), as many code bases do.
#include <cstdio>
#include <type_traits>
#include <hip/hip_runtime.h>

#define LAUNCH_KERNEL(kernel, grid, block, smem, stream, ...)                 \
  do {                                                                        \
    hipLaunchKernelGGL(kernel, dim3((grid)), dim3((block)), (smem), (stream), __VA_ARGS__);               \
    hipError_t launch_err = hipGetLastError();                              \
    if (launch_err != hipSuccess)                                            \
      printf("launch of %s failed: %s\n", #kernel, hipGetErrorString(launch_err)); \
  } while (0)

// A second style: the macro names the kernel template itself.
#define LAUNCH_AXPY(T, ITEMS, n, stream, ...) \
  hipLaunchKernelGGL(HIP_KERNEL_NAME(axpy<T, ITEMS>), dim3(((n) + 255) / 256), dim3(256), 0, stream, __VA_ARGS__)

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
void run(int n, hipStream_t stream) {
  T *x, *y;
  hipMalloc(&x, n * sizeof(T));
  hipMalloc(&y, n * sizeof(T));
  hipMemsetAsync(x, 0, n * sizeof(T), stream);
  hipMemsetAsync(y, 0, n * sizeof(T), stream);
  constexpr int kItems = sizeof(T) == 8 ? 2 : 4;
  const dim3 block(128);
  const dim3 grid((n + block.x * kItems - 1) / (block.x * kItems));
  LAUNCH_KERNEL((axpy<T, kItems>), grid, block, 0, stream, T(2), x, y, n);
  LAUNCH_AXPY(T, 1, n, stream, T(-1), x, y, n);
  // The same kernel launched directly, with an explicit instantiation.
  hipLaunchKernelGGL(HIP_KERNEL_NAME(axpy<T, 1>), dim3((n + 255) / 256), dim3(256), 0, stream, T(1), x, y, n);
  hipStreamSynchronize(stream);
  hipFree(x);
  hipFree(y);
}

int main() {
  hipStream_t stream;
  hipStreamCreate(&stream);
  run<float>(1 << 20, stream);
  run<double>(1 << 20, stream);
  run<int>(1000, stream);
  hipStreamDestroy(stream);
  std::puts("axpy done");
  return 0;
}
