// Device matrix helpers and the kernels' declarations.
#ifndef MULTI_FILE_MATRIX_CUH
#define MULTI_FILE_MATRIX_CUH
#include <hip/hip_runtime.h>

struct DeviceMatrix {
  float* data;
  int rows, cols;
  __host__ __device__ float& at(int r, int c) { return data[r * cols + c]; }
  __host__ __device__ float at(int r, int c) const { return data[r * cols + c]; }
};

constexpr int kTile = 16;

__global__ void matmul_tiled(DeviceMatrix a, DeviceMatrix b, DeviceMatrix c);
void launch_matmul(const DeviceMatrix& a, const DeviceMatrix& b, DeviceMatrix& c,
                   hipStream_t stream);

#endif  // MULTI_FILE_MATRIX_CUH
