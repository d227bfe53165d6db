// Estimate pi twice: with the cuRAND host API filling a buffer of uniforms, and with the
// device API (one curandState per thread) drawing inside the kernel.
#include <cstdio>
#include <cuda_runtime.h>
#include <curand.h>
#include <curand_kernel.h>

#define CURAND_CALL(x)                                                          \
  do {                                                                          \
    curandStatus_t s_ = (x);                                                    \
    if (s_ != CURAND_STATUS_SUCCESS) {                                          \
      std::printf("cuRAND error %d at %s:%d\n", static_cast<int>(s_), __FILE__, \
                  __LINE__);                                                    \
      return 1;                                                                 \
    }                                                                           \
  } while (0)

__global__ void count_inside(const float* xy, int pairs, unsigned long long* hits) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < pairs) {
    const float x = xy[2 * i], y = xy[2 * i + 1];
    if (x * x + y * y <= 1.0f) atomicAdd(hits, 1ull);
  }
}

__global__ void setup_states(curandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &states[id]);
}

__global__ void draw_inside(curandState* states, int per_thread, unsigned long long* hits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  curandState local = states[id];
  unsigned long long inside = 0;
  for (int k = 0; k < per_thread; ++k) {
    const float x = curand_uniform(&local);
    const float y = curand_uniform(&local);
    inside += (x * x + y * y <= 1.0f);
  }
  // One normal draw keeps the Box-Muller path exercised.
  if (curand_normal(&local) > 100.0f) inside = 0;
  states[id] = local;
  atomicAdd(hits, inside);
}

int main() {
  const int pairs = 1 << 20;
  float* xy;
  unsigned long long* hits;
  cudaMalloc(&xy, 2 * pairs * sizeof(float));
  cudaMalloc(&hits, sizeof(unsigned long long));

  curandGenerator_t gen;
  CURAND_CALL(curandCreateGenerator(&gen, CURAND_RNG_PSEUDO_DEFAULT));
  CURAND_CALL(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
  CURAND_CALL(curandGenerateUniform(gen, xy, 2 * pairs));
  cudaMemset(hits, 0, sizeof(unsigned long long));
  count_inside<<<(pairs + 255) / 256, 256>>>(xy, pairs, hits);
  unsigned long long host_hits = 0;
  cudaMemcpy(&host_hits, hits, sizeof(host_hits), cudaMemcpyDeviceToHost);
  std::printf("host API:   pi ~ %f\n", 4.0 * host_hits / pairs);
  CURAND_CALL(curandDestroyGenerator(gen));

  const int blocks = 64, threads = 128, per_thread = 1000;
  curandState* states;
  cudaMalloc(&states, blocks * threads * sizeof(curandState));
  setup_states<<<blocks, threads>>>(states, 42ULL);
  cudaMemset(hits, 0, sizeof(unsigned long long));
  draw_inside<<<blocks, threads>>>(states, per_thread, hits);
  cudaMemcpy(&host_hits, hits, sizeof(host_hits), cudaMemcpyDeviceToHost);
  std::printf("device API: pi ~ %f\n",
              4.0 * host_hits / (static_cast<double>(blocks) * threads * per_thread));
  cudaFree(states);
  cudaFree(xy);
  cudaFree(hits);
  return 0;
}
