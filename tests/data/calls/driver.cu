// CUDA driver calls whose HIP 6.4 spelling takes other arguments (rules/hip/calls.yaml),
// as CUDA 13 declares them. Lines marked HIP 6 use APIs HIP 5.2 lacks.
#include <cuda.h>

int main() {
  CUcontext ctx = nullptr;
  unsigned int version = 0;
  cuCtxGetApiVersion(ctx, &version);
  CUdeviceptr dst = 0;
  const float host[4] = {1, 2, 3, 4};
  cuMemcpyHtoD(dst, host, sizeof(host));
  CUstream stream = nullptr;
  cuMemcpyHtoDAsync(dst, host, sizeof(host), stream);
  CUmipmappedArray mipmap;
  const CUDA_ARRAY3D_DESCRIPTOR desc = {};
  cuMipmappedArrayCreate(&mipmap, &desc, 1);
  CUmemLocation location = {CU_MEM_LOCATION_TYPE_DEVICE, 0};
  cuMemAdvise(dst, 16, CU_MEM_ADVISE_SET_READ_MOSTLY, location);
  cuMemPrefetchAsync(dst, 16, location, 0, stream);
  CUfunction function = nullptr;
  int grid = 0, block = 0;
  cuOccupancyMaxPotentialBlockSize(&grid, &block, function, nullptr, 0, 0);
  cuOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, function, nullptr, 0, 0, 0);
  CUgraph graph = nullptr;
  CUgraphNode a = nullptr, b = nullptr;
  cuGraphAddDependencies(graph, &a, &b, nullptr, 1);
  cuGraphRemoveDependencies(graph, &a, &b, nullptr, 1);
  CUgraphNode from[2], to[2];
  size_t edges = 2;
  cuGraphGetEdges(graph, from, to, nullptr, &edges);
  cuGraphNodeGetDependencies(b, from, nullptr, &edges);
  cuGraphNodeGetDependentNodes(a, to, nullptr, &edges);
  CUgraphNodeParams params = {};  // HIP 6
  params.type = CU_GRAPH_NODE_TYPE_EMPTY;  // HIP 6
  cuGraphAddNode(&a, graph, nullptr, nullptr, 0, &params);  // HIP 6
  cuStreamUpdateCaptureDependencies(stream, &a, nullptr, 1, 0);
  CUgraphExec exec;
  cuGraphInstantiate(&exec, graph, 0);
  CUdevice device = 0;
  cuCtxCreate(&ctx, nullptr, 0, device);
  CUtexref tex = nullptr;
  CUaddress_mode am;
  CUfilter_mode fm;
  cuTexRefSetAddressMode(tex, 0, CU_TR_ADDRESS_MODE_CLAMP);
  cuTexRefSetFilterMode(tex, CU_TR_FILTER_MODE_LINEAR);
  cuTexRefSetMipmapFilterMode(tex, CU_TR_FILTER_MODE_POINT);
  cuTexRefGetAddressMode(&am, tex, 0);
  cuTexRefGetFilterMode(&fm, tex);
  cuTexRefGetMipmapFilterMode(&fm, tex);
  return 0;
}
