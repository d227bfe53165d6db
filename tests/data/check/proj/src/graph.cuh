#pragma once
#include <cuda_runtime.h>

inline void sparse(cudaArray_t a) {
  cudaArraySparseProperties props;
  // cudaport: ignore
  cudaArrayGetSparseProperties(&props, a);
  cudaArrayGetSparseProperties(&props, a);
  cudaFancyNewThing(a);
}
