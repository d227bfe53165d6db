// Mixed precision: store activations as __half (and __half2 pairs), accumulate in float;
// keep a bfloat16 copy of the weights converted on the host.
#include <cstdio>
#include <vector>
#include <hip/hip_runtime.h>
#include <hip/hip_fp16.h>
#include <hip/hip_bf16.h>
#include <hip/hip_runtime.h>

__global__ void scale_half2(__half2* data, int n2, float scale) {
  const __half2 s = __float2half2_rn(scale);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n2) data[i] = __hmul2(data[i], s);
}

__global__ void dot_half(const __half* a, const __half* b, float* out, int n) {
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    const __half p = __hmul(a[i], b[i]);
    acc += __half2float(p);
  }
  atomicAdd(out, acc);
}

__global__ void relu_half(__half* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  const __half zero = __float2half(0.0f);
  if (i < n && __hlt(x[i], zero)) x[i] = zero;
}

int main() {
  const int n = 1 << 16;
  std::vector<__half> ha(n), hb(n);
  for (int i = 0; i < n; ++i) {
    ha[i] = __float2half(0.5f);
    hb[i] = __float2half(2.0f);
  }
  std::vector<__hip_bfloat16> weights(n);
  for (int i = 0; i < n; ++i) weights[i] = __hip_bfloat16(0.001f * static_cast<float>(i % 100));

  __half *a, *b;
  __hip_bfloat16* w;
  float* dot;
  hipMalloc(&a, n * sizeof(__half));
  hipMalloc(&b, n * sizeof(__half));
  hipMalloc(&w, n * sizeof(__hip_bfloat16));
  hipMalloc(&dot, sizeof(float));
  hipMemcpy(a, ha.data(), n * sizeof(__half), hipMemcpyHostToDevice);
  hipMemcpy(b, hb.data(), n * sizeof(__half), hipMemcpyHostToDevice);
  hipMemcpy(w, weights.data(), n * sizeof(__hip_bfloat16), hipMemcpyHostToDevice);
  hipMemset(dot, 0, sizeof(float));

  scale_half2<<<(n / 2 + 255) / 256, 256>>>(reinterpret_cast<__half2*>(a), n / 2, 2.0f);
  relu_half<<<(n + 255) / 256, 256>>>(b, n);
  dot_half<<<64, 256>>>(a, b, dot, n);
  float result = 0.0f;
  hipMemcpy(&result, dot, sizeof(float), hipMemcpyDeviceToHost);
  std::printf("dot = %.1f (expected %.1f), w[42] = %.4f\n", result, 2.0f * n,
              static_cast<float>(weights[42]));
  hipFree(a);
  hipFree(b);
  hipFree(w);
  hipFree(dot);
  return 0;
}
