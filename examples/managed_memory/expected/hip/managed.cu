// Unified (managed) memory: a __managed__ global, cudaMallocManaged buffers, prefetch hints
// and advice, and host code reading results without explicit copies.
#include <cstdio>
#include <hip/hip_runtime.h>

__managed__ int g_iterations = 0;

struct Particle {
  float x, y, vx, vy;
};

__global__ void step(Particle* p, int n, float dt) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    p[i].x += p[i].vx * dt;
    p[i].y += p[i].vy * dt;
    if (p[i].y < 0.0f) { p[i].y = -p[i].y; p[i].vy = -p[i].vy; }
  }
  if (i == 0) g_iterations += 1;
}

int main() {
  const int n = 100000;
  int device = 0;
  hipGetDevice(&device);
  int concurrent = 0;
  hipDeviceGetAttribute(&concurrent, hipDeviceAttributeConcurrentManagedAccess, device);

  Particle* particles = nullptr;
  if (hipMallocManaged(&particles, n * sizeof(Particle), hipMemAttachGlobal) != hipSuccess) {
    std::fprintf(stderr, "managed memory not supported\n");
    return 1;
  }
  for (int i = 0; i < n; ++i) particles[i] = {0.0f, 1.0f, 1.0f, -2.0f};

  if (concurrent) {
    hipMemAdvise(particles, n * sizeof(Particle), hipMemAdviseSetPreferredLocation, [](auto l) -> int { if constexpr (std::is_integral<decltype(l)>::value) return l; else return l.type == hipMemLocationTypeDevice ? l.id : hipCpuDeviceId; }(device));
    hipMemPrefetchAsync(particles, n * sizeof(Particle), [](auto l) -> int { if constexpr (std::is_integral<decltype(l)>::value) return l; else return l.type == hipMemLocationTypeDevice ? l.id : hipCpuDeviceId; }(device), 0);
  }
  for (int t = 0; t < 10; ++t) step<<<(n + 255) / 256, 256>>>(particles, n, 0.1f);
  if (concurrent) hipMemPrefetchAsync(particles, n * sizeof(Particle), [](auto l) -> int { if constexpr (std::is_integral<decltype(l)>::value) return l; else return l.type == hipMemLocationTypeDevice ? l.id : hipCpuDeviceId; }(hipCpuDeviceId), 0);
  hipDeviceSynchronize();

  std::printf("after %d steps: x=%.2f y=%.2f\n", g_iterations, particles[0].x, particles[0].y);
  hipFree(particles);
  return 0;
}
