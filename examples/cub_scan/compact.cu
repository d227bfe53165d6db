// Stream compaction with CUB device-wide primitives: an exclusive scan of flags, then
// DeviceSelect::Flagged, each called twice (size query, then run). hipCUB is not packaged
// by Debian, so the tests check the translated text.
#include <cstdio>
#include <vector>
#include <cub/cub.cuh>
#include <cuda_runtime.h>

int main() {
  const int n = 1000;
  std::vector<int> values(n), flags(n);
  for (int i = 0; i < n; ++i) {
    values[i] = i;
    flags[i] = (i % 3 == 0);
  }
  int *d_values, *d_flags, *d_offsets, *d_out, *d_count;
  cudaMalloc(&d_values, n * sizeof(int));
  cudaMalloc(&d_flags, n * sizeof(int));
  cudaMalloc(&d_offsets, n * sizeof(int));
  cudaMalloc(&d_out, n * sizeof(int));
  cudaMalloc(&d_count, sizeof(int));
  cudaMemcpy(d_values, values.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(d_flags, flags.data(), n * sizeof(int), cudaMemcpyHostToDevice);

  void* temp = nullptr;
  size_t temp_bytes = 0;
  cub::DeviceScan::ExclusiveSum(temp, temp_bytes, d_flags, d_offsets, n);
  cudaMalloc(&temp, temp_bytes);
  cub::DeviceScan::ExclusiveSum(temp, temp_bytes, d_flags, d_offsets, n);
  cudaFree(temp);

  temp = nullptr;
  temp_bytes = 0;
  cub::DeviceSelect::Flagged(temp, temp_bytes, d_values, d_flags, d_out, d_count, n);
  cudaMalloc(&temp, temp_bytes);
  cub::DeviceSelect::Flagged(temp, temp_bytes, d_values, d_flags, d_out, d_count, n);

  int count = 0;
  cudaMemcpy(&count, d_count, sizeof(int), cudaMemcpyDeviceToHost);
  std::printf("kept %d of %d\n", count, n);
  cudaFree(temp);
  cudaFree(d_values);
  cudaFree(d_flags);
  cudaFree(d_offsets);
  cudaFree(d_out);
  cudaFree(d_count);
  return 0;
}
