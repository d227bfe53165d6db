// Overlap copies and compute: the input is split into chunks, each chunk goes through its
// own stream (H2D copy, kernel, D2H copy) from pinned host memory, and events time it.
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    const hipError_t e = (call);                                                \
    if (e != hipSuccess) {                                                      \
      std::fprintf(stderr, "CUDA error %d (%s) at %s:%d\n", static_cast<int>(e), \
                   hipGetErrorName(e), __FILE__, __LINE__);                     \
      std::abort();                                                              \
    }                                                                            \
  } while (false)

__global__ void scale_shift(float* data, int n, float scale, float shift) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = fmaf(data[i], scale, shift);
}

int main() {
  constexpr int kStreams = 4;
  constexpr int kChunk = 1 << 20;
  constexpr int kTotal = kStreams * kChunk;

  float* host_in = nullptr;
  float* host_out = nullptr;
  CHECK(hipHostMalloc(reinterpret_cast<void**>(&host_in), kTotal * sizeof(float)));
  CHECK(hipHostAlloc(reinterpret_cast<void**>(&host_out), kTotal * sizeof(float), hipHostMallocDefault));
  for (int i = 0; i < kTotal; ++i) host_in[i] = static_cast<float>(i);

  float* dev = nullptr;
  CHECK(hipMalloc(&dev, kTotal * sizeof(float)));

  hipStream_t streams[kStreams];
  for (auto& s : streams) CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));

  hipEvent_t start, stop, first_done;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  CHECK(hipEventCreateWithFlags(&first_done, hipEventDisableTiming));

  CHECK(hipEventRecord(start, streams[0]));
  for (int s = 0; s < kStreams; ++s) {
    const size_t offset = static_cast<size_t>(s) * kChunk;
    CHECK(hipMemcpyAsync(dev + offset, host_in + offset, kChunk * sizeof(float),
                          hipMemcpyHostToDevice, streams[s]));
    scale_shift<<<(kChunk + 255) / 256, 256, 0, streams[s]>>>(dev + offset, kChunk, 2.0f, 1.0f);
    CHECK(hipGetLastError());
    CHECK(hipMemcpyAsync(host_out + offset, dev + offset, kChunk * sizeof(float),
                          hipMemcpyDeviceToHost, streams[s]));
    if (s == 0) CHECK(hipEventRecord(first_done, streams[0]));
  }
  // The timing stream waits for every other stream before recording `stop`.
  for (int s = 1; s < kStreams; ++s) {
    hipEvent_t done;
    CHECK(hipEventCreateWithFlags(&done, hipEventDisableTiming));
    CHECK(hipEventRecord(done, streams[s]));
    CHECK(hipStreamWaitEvent(streams[0], done, 0));
    CHECK(hipEventDestroy(done));
  }
  CHECK(hipEventRecord(stop, streams[0]));
  CHECK(hipEventSynchronize(stop));
  if (hipEventQuery(first_done) != hipSuccess) std::puts("first chunk still pending?");

  float ms = 0.0f;
  CHECK(hipEventElapsedTime(&ms, start, stop));
  std::printf("%d chunks in %.3f ms; out[12345] = %.1f\n", kStreams, ms, host_out[12345]);

  for (auto& s : streams) {
    CHECK(hipStreamSynchronize(s));
    CHECK(hipStreamDestroy(s));
  }
  CHECK(hipEventDestroy(start));
  CHECK(hipEventDestroy(stop));
  CHECK(hipEventDestroy(first_done));
  CHECK(hipFree(dev));
  CHECK(hipHostFree(host_in));
  CHECK(hipHostFree(host_out));
  return 0;
}
