// Estimate pi twice: with the cuRAND host API filling a buffer of uniforms, and with the
// device API (one curandState per thread) drawing inside the kernel.
#include <cstdio>
#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>
#include <hiprand/hiprand_kernel.h>

#define CURAND_CALL(x)                                                          \
  do {                                                                          \
    hiprandStatus_t s_ = (x);                                                    \
    if (s_ != HIPRAND_STATUS_SUCCESS) {                                          \
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

__global__ void setup_states(hiprandState* states, unsigned long long seed) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  hiprand_init(seed, id, 0, &states[id]);
}

__global__ void draw_inside(hiprandState* states, int per_thread, unsigned long long* hits) {
  int id = blockIdx.x * blockDim.x + threadIdx.x;
  hiprandState local = states[id];
  unsigned long long inside = 0;
  for (int k = 0; k < per_thread; ++k) {
    const float x = hiprand_uniform(&local);
    const float y = hiprand_uniform(&local);
    inside += (x * x + y * y <= 1.0f);
  }
  // One normal draw keeps the Box-Muller path exercised.
  if (hiprand_normal(&local) > 100.0f) inside = 0;
  states[id] = local;
  atomicAdd(hits, inside);
}

int main() {
  const int pairs = 1 << 20;
  float* xy;
  unsigned long long* hits;
  hipMalloc(&xy, 2 * pairs * sizeof(float));
  hipMalloc(&hits, sizeof(unsigned long long));

  hiprandGenerator_t gen;
  CURAND_CALL(hiprandCreateGenerator(&gen, HIPRAND_RNG_PSEUDO_DEFAULT));
  CURAND_CALL(hiprandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
  CURAND_CALL(hiprandGenerateUniform(gen, xy, 2 * pairs));
  hipMemset(hits, 0, sizeof(unsigned long long));
  count_inside<<<(pairs + 255) / 256, 256>>>(xy, pairs, hits);
  unsigned long long host_hits = 0;
  hipMemcpy(&host_hits, hits, sizeof(host_hits), hipMemcpyDeviceToHost);
  std::printf("host API:   pi ~ %f\n", 4.0 * host_hits / pairs);
  CURAND_CALL(hiprandDestroyGenerator(gen));

  const int blocks = 64, threads = 128, per_thread = 1000;
  hiprandState* states;
  hipMalloc(&states, blocks * threads * sizeof(hiprandState));
  setup_states<<<blocks, threads>>>(states, 42ULL);
  hipMemset(hits, 0, sizeof(unsigned long long));
  draw_inside<<<blocks, threads>>>(states, per_thread, hits);
  hipMemcpy(&host_hits, hits, sizeof(host_hits), hipMemcpyDeviceToHost);
  std::printf("device API: pi ~ %f\n",
              4.0 * host_hits / (static_cast<double>(blocks) * threads * per_thread));
  hipFree(states);
  hipFree(xy);
  hipFree(hits);
  return 0;
}
