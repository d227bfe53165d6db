#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cublas_v2.h>
namespace cg = cooperative_groups;
texture<float, 1> tex;
__global__ void k(float* x) {
  auto b = cg::this_thread_block();
  cg::exclusive_scan(b, x[0]);
  unsigned m = __ballot_sync(0xffffffff, x[0] > 0);
  if (threadIdx.x % 32 == 0) x[1] = m;
  asm("trap;");
}
void h(cublasHandle_t hd) {
  cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
  int n = p.asyncEngineCount + p.mpsEnabled;
  cublasGemmEx(hd, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, 0, 0, CUDA_R_32F, 1, 0, CUDA_R_32F, 1, 0, 0, CUDA_C_32F, 1, CUDA_C_16F, CUBLAS_GEMM_DEFAULT);
  k<<<1, 1>>>(0);
}
