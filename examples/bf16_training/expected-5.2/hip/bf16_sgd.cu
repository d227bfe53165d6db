// bfloat16 weights updated by an SGD step computed in float: the usual training-loop
// pattern (as in llm.c), with conversions, packed pairs and bf16 arithmetic.
#include <cstdio>
#include <vector>
#include <hip/hip_runtime.h>
#include <hip/hip_bfloat16.h>
#include <hip/hip_runtime.h>

__global__ void sgd_step(hip_bfloat16* weights, const float* grads, int n, float lr) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const float w = __bfloat162float(weights[i]);
  weights[i] = __float2bfloat16(w - lr * grads[i]);
}

__global__ void axpy_bf16x2(__nv_bfloat162* y, const __nv_bfloat162* x, int n2, float a) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n2) return;
  const __nv_bfloat162 alpha = __bfloat162bfloat162(__float2bfloat16(a));
  y[i] = __hfma2(alpha, x[i], y[i]);
}

__global__ void scale_bf16(hip_bfloat16* v, int n, hip_bfloat16 s) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) v[i] = __hmul(v[i], s);
}

int main() {
  const int n = 1 << 16;
  std::vector<hip_bfloat16> host(n);
  for (int i = 0; i < n; ++i) host[i] = __float2bfloat16(1.0f);
  hip_bfloat16* w;
  float* g;
  hipMalloc(&w, n * sizeof(hip_bfloat16));
  hipMalloc(&g, n * sizeof(float));
  hipMemcpy(w, host.data(), n * sizeof(hip_bfloat16), hipMemcpyHostToDevice);
  hipMemset(g, 0, n * sizeof(float));
  sgd_step<<<(n + 255) / 256, 256>>>(w, g, n, 0.01f);
  axpy_bf16x2<<<(n / 2 + 255) / 256, 256>>>(reinterpret_cast<__nv_bfloat162*>(w),
                                             reinterpret_cast<const __nv_bfloat162*>(w), n / 2, 0.5f);
  scale_bf16<<<(n + 255) / 256, 256>>>(w, n, __float2bfloat16(2.0f));
  hipMemcpy(host.data(), w, n * sizeof(hip_bfloat16), hipMemcpyDeviceToHost);
  std::printf("w[0] = %f\n", __bfloat162float(host[0]));
  hipFree(w);
  hipFree(g);
  return 0;
}
