// Low-pass filter in the frequency domain with cuFFT: real-to-complex forward transform,
// zero the high frequencies in a kernel, complex-to-real inverse. hipFFT is not packaged by
// Debian, so the tests check the translated text.
#include <cstdio>
#include <vector>
#include <hip/hip_runtime.h>
#include <hipfft/hipfft.h>

__global__ void low_pass(hipfftComplex* spectrum, int bins, int keep, float scale) {
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

  hipfftReal* d_signal;
  hipfftComplex* d_spectrum;
  hipMalloc(&d_signal, n * sizeof(hipfftReal));
  hipMalloc(&d_spectrum, bins * sizeof(hipfftComplex));
  hipMemcpy(d_signal, signal.data(), n * sizeof(float), hipMemcpyHostToDevice);

  hipfftHandle forward, inverse;
  if (hipfftPlan1d(&forward, n, HIPFFT_R2C, 1) != HIPFFT_SUCCESS ||
      hipfftPlan1d(&inverse, n, HIPFFT_C2R, 1) != HIPFFT_SUCCESS) {
    std::puts("plan creation failed");
    return 1;
  }
  hipfftResult r = hipfftExecR2C(forward, d_signal, d_spectrum);
  low_pass<<<(bins + 255) / 256, 256>>>(d_spectrum, bins, 100, 1.0f / n);
  if (r == HIPFFT_SUCCESS) r = hipfftExecC2R(inverse, d_spectrum, d_signal);
  hipMemcpy(signal.data(), d_signal, n * sizeof(float), hipMemcpyDeviceToHost);
  std::printf("status %d, filtered[16] = %f\n", static_cast<int>(r), signal[16]);

  hipfftDestroy(forward);
  hipfftDestroy(inverse);
  hipFree(d_signal);
  hipFree(d_spectrum);
  return 0;
}
