// Every CUDA runtime call form whose HIP 6.4 spelling takes other arguments
// (rules/hip/calls.yaml), as CUDA 13 declares it; tests/test_rules_compile.py
// translates and compiles it. Lines marked HIP 6 use APIs HIP 5.2 lacks.
#include <cuda_runtime.h>
#include <cuda.h>

__device__ int counter;
__constant__ float table[4];

__global__ void scale(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= table[i % 4];
}

struct Payload { int value; };

int main() {
  float* x = nullptr;
  int n = 4;
  void* args[] = {&x, &n};
  scale<<<1, 4>>>(x, n);
  cudaLaunchCooperativeKernel(scale, dim3(1), dim3(4), args);
  cudaLaunchCooperativeKernel(scale, dim3(1), dim3(4), args, 0);
  cudaGraph_t g;
  cudaGraphExec_t exec;
  cudaGraphCreate(&g, 0);
  cudaGraphInstantiate(&exec, g);
  cudaGraphInstantiateWithFlags(&exec, g);
  cudaArray_t array;
  cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
  cudaMalloc3DArray(&array, &desc, make_cudaExtent(4, 4, 4));
  cudaArray_t other;
  cudaMalloc3DArray(&other, &desc, make_cudaExtent(4, 4, 4), 0);
  cudaMemcpy2DArrayToArray(other, 0, 0, array, 0, 0, 16, 4);  // HIP 6
  cudaExternalSemaphore_t sem{};
  cudaExternalSemaphoreSignalParams sp{};
  cudaExternalSemaphoreWaitParams wp{};
  cudaSignalExternalSemaphoresAsync(&sem, &sp, 1);
  cudaWaitExternalSemaphoresAsync(&sem, &wp, 1);
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaStreamCaptureStatus status;
  unsigned long long id;
  cudaGraph_t captured;
  const cudaGraphNode_t* deps;
  const cudaGraphEdgeData* edges;  // HIP 6
  size_t count;
  cudaStreamGetCaptureInfo(s, &status);
  cudaStreamGetCaptureInfo(s, &status, &id);
  cudaStreamGetCaptureInfo(s, &status, &id, &captured);
  cudaStreamGetCaptureInfo(s, &status, &id, &captured, &deps);
  cudaStreamGetCaptureInfo(s, &status, &id, &captured, &deps, nullptr);
  cudaStreamGetCaptureInfo(s, &status, &id, &captured, &deps, &edges, &count);  // HIP 6
  cudaGraphNode_t node, node2;
  float host[4] = {1, 2, 3, 4};
  int value = 0;
  const void* symbol = &counter;
  cudaGraphAddMemcpyNodeToSymbol(&node, g, nullptr, 0, table, host, sizeof(host), 0,
                                 cudaMemcpyHostToDevice);
  cudaGraphAddMemcpyNodeToSymbol(&node, g, nullptr, 0, counter, &value, sizeof(int), 0,
                                 cudaMemcpyHostToDevice);
  cudaGraphAddMemcpyNodeFromSymbol(&node2, g, nullptr, 0, &value, symbol, sizeof(int), 0,
                                   cudaMemcpyDeviceToHost);
  cudaGraphMemcpyNodeSetParamsToSymbol(node, counter, &value, sizeof(int), 0,
                                       cudaMemcpyHostToDevice);
  cudaGraphMemcpyNodeSetParamsFromSymbol(node2, &value, counter, sizeof(int), 0,
                                         cudaMemcpyDeviceToHost);
  cudaGraphExecMemcpyNodeSetParamsToSymbol(exec, node, table, host, sizeof(host), 0,
                                           cudaMemcpyHostToDevice);
  cudaGraphExecMemcpyNodeSetParamsFromSymbol(exec, node2, &value, counter, sizeof(int), 0,
                                             cudaMemcpyDeviceToHost);
  const cudaMemcpy3DParms copy = {};
  cudaGraphExecMemcpyNodeSetParams(exec, node, &copy);
  cudaGraphAddDependencies(g, &node, &node2, nullptr, 1);
  cudaGraphRemoveDependencies(g, &node, &node2, nullptr, 1);
  cudaGraphNode_t from[2], to[2];
  size_t edgesCount = 2;
  cudaGraphGetEdges(g, from, to, nullptr, &edgesCount);
  cudaGraphNodeGetDependencies(node2, from, nullptr, &edgesCount);
  cudaGraphNodeGetDependentNodes(node, to, nullptr, &edgesCount);
  cudaGraphNodeParams params = {};  // HIP 6
  params.type = cudaGraphNodeTypeEmpty;  // HIP 6
  cudaGraphAddNode(&node, g, nullptr, nullptr, 0, &params);  // HIP 6
  cudaStreamUpdateCaptureDependencies(s, &node, nullptr, 1, 0);
  void* fn = nullptr;
  cudaDriverEntryPointQueryResult found;  // HIP 6
  cudaGetDriverEntryPoint("cuInit", &fn, 0);  // HIP 6
  cudaGetDriverEntryPoint("cuInit", &fn, 0, &found);  // HIP 6
  cudaMemLocation device = {cudaMemLocationTypeDevice, 0};
  cudaMemAdvise(x, 16, cudaMemAdviseSetReadMostly, device);
  cudaMemPrefetchAsync(x, 16, device, 0);
  cudaMemPrefetchAsync(x, 16, device, 0, s);
  cudaMemPrefetchAsync(x, 16, {cudaMemLocationTypeDevice, 0}, 0, s);
  cudaUserObject_t object;  // HIP 6
  cudaUserObjectCreate(&object, new Payload{1}, 1, cudaUserObjectNoDestructorSync);  // HIP 6
  return 0;
}
