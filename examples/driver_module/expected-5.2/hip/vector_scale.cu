// The kernel module_launch.cpp loads; built separately (nvcc -cubin, or hipcc
// --genco for HIP). extern "C" keeps the name unmangled for cuModuleGetFunction.
#include <hip/hip_runtime.h>
extern "C" __global__ void vector_scale(float* data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}
