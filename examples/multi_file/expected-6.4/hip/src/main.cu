// Driver of the multi-file example: allocates matrices, calls into matmul.cu.
#ifndef HIP_ENABLE_WARP_SYNC_BUILTINS
#define HIP_ENABLE_WARP_SYNC_BUILTINS
#endif
#include <hip/hip_runtime.h>
#include <vector>
#include "check.h"
#include "matrix.cuh"

static DeviceMatrix make_matrix(int rows, int cols, float value) {
  DeviceMatrix m{nullptr, rows, cols};
  CHECK_CUDA(hipMalloc(&m.data, sizeof(float) * rows * cols));
  std::vector<float> host(static_cast<size_t>(rows) * cols, value);
  CHECK_CUDA(hipMemcpy(m.data, host.data(), sizeof(float) * host.size(),
                        hipMemcpyHostToDevice));
  return m;
}

int main() {
  DeviceMatrix a = make_matrix(128, 64, 1.0f);
  DeviceMatrix b = make_matrix(64, 32, 2.0f);
  DeviceMatrix c = make_matrix(128, 32, 0.0f);
  hipStream_t stream;
  CHECK_CUDA(hipStreamCreate(&stream));
  launch_matmul(a, b, c, stream);
  CHECK_CUDA(hipStreamSynchronize(stream));
  float corner = 0.0f;
  CHECK_CUDA(hipMemcpy(&corner, c.data, sizeof(float), hipMemcpyDeviceToHost));
  std::printf("c[0][0] = %.0f (expected %d)\n", corner, 2 * 64);
  CHECK_CUDA(hipStreamDestroy(stream));
  for (DeviceMatrix* m : {&a, &b, &c}) CHECK_CUDA(hipFree(m->data));
  return 0;
}
