// Call-level test program for cuRAND: host API and device API.
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

__global__ void setup(curandState *states, unsigned long long seed, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  curand_init(seed, i, 0, &states[i]);
  curandState local = states[i];
  float u = curand_uniform(&local);
  float g = curand_normal(&local);
  double d = curand_uniform_double(&local);
  float2 pair = curand_normal2(&local);
  unsigned int bits = curand(&local);
  unsigned int k = curand_poisson(&local, 4.0);
  out[i] = u + g + (float)d + pair.x + (float)(bits & 1) + (float)k;
  states[i] = local;
}

__global__ void philox(curandStatePhilox4_32_10_t *states, float4 *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  curand_init(1234ULL, i, 0, &states[i]);
  out[i] = curand_uniform4(&states[i]);
}

int rand_calls(float *data, double *ddata, unsigned int *idata, size_t n, cudaStream_t stream) {
  curandGenerator_t gen;
  if (curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT) != CURAND_STATUS_SUCCESS) return 1;
  curandSetPseudoRandomGeneratorSeed(gen, 1234ULL);
  curandSetGeneratorOffset(gen, 0ULL);
  curandSetStream(gen, stream);
  curandGenerateUniform(gen, data, n);
  curandGenerateNormal(gen, data, n, 0.0f, 1.0f);
  curandGenerateUniformDouble(gen, ddata, n);
  curandGenerateLogNormal(gen, data, n, 0.0f, 1.0f);
  curandGenerate(gen, idata, n);
  curandGeneratePoisson(gen, idata, n, 2.0);
  curandDestroyGenerator(gen);
  curandGenerator_t host_gen;
  curandCreateGeneratorHost(&host_gen, CURAND_RNG_PSEUDO_PHILOX4_32_10);
  curandDestroyGenerator(host_gen);
  curandGenerator_t qgen;
  curandCreateGenerator(&qgen, CURAND_RNG_QUASI_SOBOL32);
  curandSetQuasiRandomGeneratorDimensions(qgen, 2);
  curandDestroyGenerator(qgen);
  curandState *states;
  cudaMalloc(&states, n * sizeof(curandState));
  setup<<<(unsigned)(n + 255) / 256, 256, 0, stream>>>(states, 42ULL, data, (int)n);
  cudaFree(states);
  return 0;
}
