// Overlap copies and compute: the input is split into chunks, each chunk goes through its
// own stream (H2D copy, kernel, D2H copy) from pinned host memory, and events time it.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define CHECK(call)                                                              \
  do {                                                                           \
    const cudaError_t e = (call);                                                \
    if (e != cudaSuccess) {                                                      \
      std::fprintf(stderr, "CUDA error %d (%s) at %s:%d\n", static_cast<int>(e), \
                   cudaGetErrorName(e), __FILE__, __LINE__);                     \
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
  CHECK(cudaMallocHost(reinterpret_cast<void**>(&host_in), kTotal * sizeof(float)));
  CHECK(cudaHostAlloc(&host_out, kTotal * sizeof(float), cudaHostAllocDefault));
  for (int i = 0; i < kTotal; ++i) host_in[i] = static_cast<float>(i);

  float* dev = nullptr;
  CHECK(cudaMalloc(&dev, kTotal * sizeof(float)));

  cudaStream_t streams[kStreams];
  for (auto& s : streams) CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  cudaEvent_t start, stop, first_done;
  CHECK(cudaEventCreate(&start));
  CHECK(cudaEventCreate(&stop));
  CHECK(cudaEventCreateWithFlags(&first_done, cudaEventDisableTiming));

  CHECK(cudaEventRecord(start, streams[0]));
  for (int s = 0; s < kStreams; ++s) {
    const size_t offset = static_cast<size_t>(s) * kChunk;
    CHECK(cudaMemcpyAsync(dev + offset, host_in + offset, kChunk * sizeof(float),
                          cudaMemcpyHostToDevice, streams[s]));
    scale_shift<<<(kChunk + 255) / 256, 256, 0, streams[s]>>>(dev + offset, kChunk, 2.0f, 1.0f);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpyAsync(host_out + offset, dev + offset, kChunk * sizeof(float),
                          cudaMemcpyDeviceToHost, streams[s]));
    if (s == 0) CHECK(cudaEventRecord(first_done, streams[0]));
  }
  // The timing stream waits for every other stream before recording `stop`.
  for (int s = 1; s < kStreams; ++s) {
    cudaEvent_t done;
    CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    CHECK(cudaEventRecord(done, streams[s]));
    CHECK(cudaStreamWaitEvent(streams[0], done, 0));
    CHECK(cudaEventDestroy(done));
  }
  CHECK(cudaEventRecord(stop, streams[0]));
  CHECK(cudaEventSynchronize(stop));
  if (cudaEventQuery(first_done) != cudaSuccess) std::puts("first chunk still pending?");

  float ms = 0.0f;
  CHECK(cudaEventElapsedTime(&ms, start, stop));
  std::printf("%d chunks in %.3f ms; out[12345] = %.1f\n", kStreams, ms, host_out[12345]);

  for (auto& s : streams) {
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaStreamDestroy(s));
  }
  CHECK(cudaEventDestroy(start));
  CHECK(cudaEventDestroy(stop));
  CHECK(cudaEventDestroy(first_done));
  CHECK(cudaFree(dev));
  CHECK(cudaFreeHost(host_in));
  CHECK(cudaFreeHost(host_out));
  return 0;
}
