// Error checking shared by every translation unit of the project.
#ifndef MULTI_FILE_CHECK_H
#define MULTI_FILE_CHECK_H

#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

inline void check_cuda(hipError_t status, const char* what, const char* file, int line) {
  if (status != hipSuccess) {
    std::fprintf(stderr, "%s:%d: %s: %s\n", file, line, what, hipGetErrorString(status));
    std::exit(EXIT_FAILURE);
  }
}

#define CHECK_CUDA(call) check_cuda((call), #call, __FILE__, __LINE__)

#endif  // MULTI_FILE_CHECK_H
