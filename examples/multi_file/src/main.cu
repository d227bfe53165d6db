// Driver of the multi-file example: allocates matrices, calls into matmul.cu.
#include <vector>
#include "check.h"
#include "matrix.cuh"

static DeviceMatrix make_matrix(int rows, int cols, float value) {
  DeviceMatrix m{nullptr, rows, cols};
  CHECK_CUDA(cudaMalloc(&m.data, sizeof(float) * rows * cols));
  std::vector<float> host(static_cast<size_t>(rows) * cols, value);
  CHECK_CUDA(cudaMemcpy(m.data, host.data(), sizeof(float) * host.size(),
                        cudaMemcpyHostToDevice));
  return m;
}

int main() {
  DeviceMatrix a = make_matrix(128, 64, 1.0f);
  DeviceMatrix b = make_matrix(64, 32, 2.0f);
  DeviceMatrix c = make_matrix(128, 32, 0.0f);
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  launch_matmul(a, b, c, stream);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  float corner = 0.0f;
  CHECK_CUDA(cudaMemcpy(&corner, c.data, sizeof(float), cudaMemcpyDeviceToHost));
  std::printf("c[0][0] = %.0f (expected %d)\n", corner, 2 * 64);
  CHECK_CUDA(cudaStreamDestroy(stream));
  for (DeviceMatrix* m : {&a, &b, &c}) CHECK_CUDA(cudaFree(m->data));
  return 0;
}
