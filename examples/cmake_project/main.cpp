#include <cstdio>
#include <cuda_runtime.h>
#include <curand.h>
#include "count.h"

int main() {
  const int n = 1 << 22;
  float *x, *y;
  if (cudaMalloc(&x, n * sizeof(float)) != cudaSuccess) {
    std::printf("no GPU\n");
    return 0;
  }
  cudaMalloc(&y, n * sizeof(float));
  curandGenerator_t gen;
  curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT);
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  curandGenerateUniform(gen, x, n);
  curandGenerateUniform(gen, y, n);
  unsigned long long hits = count_inside(x, y, n);
  std::printf("pi ~ %f\n", 4.0 * double(hits) / n);
  curandDestroyGenerator(gen);
  cudaFree(x);
  cudaFree(y);
  return 0;
}
