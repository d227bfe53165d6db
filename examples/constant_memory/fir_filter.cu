// FIR filter whose taps live in __constant__ memory, uploaded with cudaMemcpyToSymbol and
// read back with cudaMemcpyFromSymbol to check the upload.
#include <cstdio>
#include <cstring>
#include <vector>
#include <cuda_runtime.h>

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
  cudaMemcpyToSymbol(c_taps, taps.data(), kTaps * sizeof(float));
  cudaMemcpyToSymbol(c_length, &n, sizeof(int), 0, cudaMemcpyHostToDevice);

  float check[kTaps];
  cudaMemcpyFromSymbol(check, c_taps, sizeof(check));
  if (std::memcmp(check, taps.data(), sizeof(check)) != 0) {
    std::puts("constant upload mismatch");
    return 1;
  }
  void* taps_address = nullptr;
  size_t taps_size = 0;
  cudaGetSymbolAddress(&taps_address, c_taps);
  cudaGetSymbolSize(&taps_size, c_taps);

  float *x, *y;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMemset(x, 0, n * sizeof(float));
  fir<<<(n + 255) / 256, 256>>>(x, y);
  cudaDeviceSynchronize();
  std::printf("taps at %p (%zu bytes)\n", taps_address, taps_size);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
