// Low-pass filter in the frequency domain with cuFFT: real-to-complex forward transform,
// zero the high frequencies in a kernel, complex-to-real inverse. hipFFT is not packaged by
// Debian, so the tests check the translated text.
#include <cstdio>
#include <vector>
#include <cuda_runtime.h>
#include <cufft.h>

__global__ void low_pass(cufftComplex* spectrum, int bins, int keep, float scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= bins) return;
  if (i > keep) {
    spectrum[i].x = 0.0f;
    spectrum[i].y = 0.0f;
  } else {
    spectrum[i].x *= scale;
    spectrum[i].y *= scale;
  }
}

int main() {
  const int n = 4096, bins = n / 2 + 1;
  std::vector<float> signal(n);
  for (int i = 0; i < n; ++i) signal[i] = (i % 64 < 32) ? 1.0f : -1.0f;

  cufftReal* d_signal;
  cufftComplex* d_spectrum;
  cudaMalloc(&d_signal, n * sizeof(cufftReal));
  cudaMalloc(&d_spectrum, bins * sizeof(cufftComplex));
  cudaMemcpy(d_signal, signal.data(), n * sizeof(float), cudaMemcpyHostToDevice);

  cufftHandle forward, inverse;
  if (cufftPlan1d(&forward, n, CUFFT_R2C, 1) != CUFFT_SUCCESS ||
      cufftPlan1d(&inverse, n, CUFFT_C2R, 1) != CUFFT_SUCCESS) {
    std::puts("plan creation failed");
    return 1;
  }
  cufftResult r = cufftExecR2C(forward, d_signal, d_spectrum);
  low_pass<<<(bins + 255) / 256, 256>>>(d_spectrum, bins, 100, 1.0f / n);
  if (r == CUFFT_SUCCESS) r = cufftExecC2R(inverse, d_spectrum, d_signal);
  cudaMemcpy(signal.data(), d_signal, n * sizeof(float), cudaMemcpyDeviceToHost);
  std::printf("status %d, filtered[16] = %f\n", static_cast<int>(r), signal[16]);

  cufftDestroy(forward);
  cufftDestroy(inverse);
  cudaFree(d_signal);
  cudaFree(d_spectrum);
  return 0;
}
