#include <cstdio>
#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>
#include "count.h"

int main() {
  const int n = 1 << 22;
  float *x, *y;
  if (hipMalloc(&x, n * sizeof(float)) != hipSuccess) {
    std::printf("no GPU\n");
    return 0;
  }
  hipMalloc(&y, n * sizeof(float));
  hiprandGenerator_t gen;
  hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_DEFAULT);
  hiprandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  hiprandGenerateUniform(gen, x, n);
  hiprandGenerateUniform(gen, y, n);
  unsigned long long hits = count_inside(x, y, n);
  std::printf("pi ~ %f\n", 4.0 * double(hits) / n);
  hiprandDestroyGenerator(gen);
  hipFree(x);
  hipFree(y);
  return 0;
}
