// FIR filter whose taps live in __constant__ memory, uploaded with cudaMemcpyToSymbol and
// read back with cudaMemcpyFromSymbol to check the upload.
#include <cstdio>
#include <cstring>
#include <vector>
#include <hip/hip_runtime.h>

constexpr int kTaps = 33;
__constant__ float c_taps[kTaps];
__constant__ int c_length;

__global__ void fir(const float* __restrict__ x, float* __restrict__ y) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= c_length) return;
  float acc = 0.0f;
#pragma unroll
  for (int k = 0; k < kTaps; ++k) {
    const int j = i - k;
    if (j >= 0) acc += c_taps[k] * x[j];
  }
  y[i] = acc;
}

int main() {
  std::vector<float> taps(kTaps, 1.0f / kTaps);
  const int n = 1 << 16;
  hipMemcpyToSymbol(HIP_SYMBOL(c_taps), taps.data(), kTaps * sizeof(float));
  hipMemcpyToSymbol(HIP_SYMBOL(c_length), &n, sizeof(int), 0, hipMemcpyHostToDevice);

  float check[kTaps];
  hipMemcpyFromSymbol(check, HIP_SYMBOL(c_taps), sizeof(check));
  if (std::memcmp(check, taps.data(), sizeof(check)) != 0) {
    std::puts("constant upload mismatch");
    return 1;
  }
  void* taps_address = nullptr;
  size_t taps_size = 0;
  hipGetSymbolAddress(&taps_address, HIP_SYMBOL(c_taps));
  hipGetSymbolSize(&taps_size, HIP_SYMBOL(c_taps));

  float *x, *y;
  hipMalloc(&x, n * sizeof(float));
  hipMalloc(&y, n * sizeof(float));
  hipMemset(x, 0, n * sizeof(float));
  fir<<<(n + 255) / 256, 256>>>(x, y);
  hipDeviceSynchronize();
  std::printf("taps at %p (%zu bytes)\n", taps_address, taps_size);
  hipFree(x);
  hipFree(y);
  return 0;
}
