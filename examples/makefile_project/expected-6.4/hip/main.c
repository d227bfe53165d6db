#ifndef HIP_ENABLE_WARP_SYNC_BUILTINS
#define HIP_ENABLE_WARP_SYNC_BUILTINS
#endif
#include <hip/hip_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <hip/hip_runtime_api.h>
#include "saxpy.h"

int main(void) {
  int devices = 0;
  hipError_t err = hipGetDeviceCount(&devices);
  if (err != hipSuccess || devices == 0) {
    printf("no GPU: %s\n", hipGetErrorString(err));
    return 0;
  }
  int n = 1 << 20;
  float* x = malloc(n * sizeof(float));
  float* y = malloc(n * sizeof(float));
  for (int i = 0; i < n; ++i) { x[i] = 1.0f; y[i] = 2.0f; }
  int failed = saxpy_gpu(n, 3.0f, x, y);
  printf("%s: y[0] = %f\n", failed ? "failed" : "ok", y[0]);
  free(x);
  free(y);
  return failed;
}
