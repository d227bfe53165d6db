// Error checking shared by every translation unit of the project.
#ifndef MULTI_FILE_CHECK_H
#define MULTI_FILE_CHECK_H

#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

inline void check_cuda(cudaError_t status, const char* what, const char* file, int line) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, cudaGetErrorString(status));
    std::exit(EXIT_FAILURE);
  }
}

#define CHECK_CUDA(call) check_cuda((call), #call, __FILE__, __LINE__)

#endif  // MULTI_FILE_CHECK_H
