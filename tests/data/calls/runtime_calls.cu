// Call-level test program for the CUDA runtime with kernel launches.
#include <cuda_runtime.h>
#include <cstdio>

namespace ops {
template <typename T>
__global__ void scale(T *x, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
}  // namespace ops

__constant__ float coeffs[16];
__device__ int counter;

__global__ void add(const float *a, const float *b, float *c, int n) {
  extern __shared__ float tile[];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    tile[threadIdx.x] = a[i] * coeffs[i % 16];
    __syncthreads();
    c[i] = tile[threadIdx.x] + b[i];
    atomicAdd(&counter, 1);
  }
}

int runtime_calls(int n) {
  float *a, *b, *c, *host;
  size_t bytes = n * sizeof(float);
  cudaMalloc(&a, bytes);
  cudaMalloc((void **)&b, bytes);
  cudaMallocManaged(&c, bytes);
  cudaMallocHost((void **)&host, bytes);
  cudaMemset(a, 0, bytes);
  float h[16] = {1.0f};
  cudaMemcpyToSymbol(coeffs, h, sizeof(h));
  int zero = 0;
  cudaMemcpyToSymbolAsync(counter, &zero, sizeof(int), 0, cudaMemcpyHostToDevice, 0);
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop, cudaEventDisableTiming);
  cudaEventRecord(start, stream);
  dim3 block(256), grid((n + 255) / 256);
  add<<<grid, block, 256 * sizeof(float), stream>>>(a, b, c, n);
  ops::scale<float><<<grid, block>>>(c, 2.0f, n);
  ::ops::scale<<<grid, block, 0, stream>>>(a, 0.5f, n);
  cudaError_t err = cudaGetLastError();
  if (err != cudaSuccess) printf("%s\n", cudaGetErrorString(err));
  cudaEventRecord(stop, stream);
  cudaEventSynchronize(stop);
  float ms = 0;
  cudaEventElapsedTime(&ms, start, stop);
  cudaMemcpyAsync(host, c, bytes, cudaMemcpyDeviceToHost, stream);
  cudaStreamSynchronize(stream);
  int count = 0;
  cudaMemcpyFromSymbol(&count, counter, sizeof(int));
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, add);
  cudaFuncSetAttribute(add, cudaFuncAttributeMaxDynamicSharedMemorySize, 1024);
  int blocks = 0;
  cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, add, 256, 0);
  cudaDeviceProp prop;
  cudaGetDeviceProperties(&prop, 0);
  cudaPointerAttributes pattr;
  cudaPointerGetAttributes(&pattr, a);
  void *args[] = {&a, &b, &c, &n};
  cudaLaunchKernel((const void *)add, grid, block, args, 0, stream);
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  add<<<grid, block, 0, stream>>>(a, b, c, n);
  cudaStreamEndCapture(stream, &graph);
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, stream);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  cudaStreamDestroy(stream);
  cudaFreeHost(host);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  return cudaDeviceSynchronize() == cudaSuccess ? (int)ms + count + blocks : -1;
}
