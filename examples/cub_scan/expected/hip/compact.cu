// Stream compaction with CUB device-wide primitives: an exclusive scan of flags, then
// DeviceSelect::Flagged, each called twice (size query, then run). hipCUB is not packaged
// by Debian, so the tests check the translated text.
#include <cstdio>
#include <vector>
#include <hipcub/hipcub.hpp>
#include <hip/hip_runtime.h>

int main() {
  const int n = 1000;
  std::vector<int> values(n), flags(n);
  for (int i = 0; i < n; ++i) {
    values[i] = i;
    flags[i] = (i % 3 == 0);
  }
  int *d_values, *d_flags, *d_offsets, *d_out, *d_count;
  hipMalloc(&d_values, n * sizeof(int));
  hipMalloc(&d_flags, n * sizeof(int));
  hipMalloc(&d_offsets, n * sizeof(int));
  hipMalloc(&d_out, n * sizeof(int));
  hipMalloc(&d_count, sizeof(int));
  hipMemcpy(d_values, values.data(), n * sizeof(int), hipMemcpyHostToDevice);
  hipMemcpy(d_flags, flags.data(), n * sizeof(int), hipMemcpyHostToDevice);

  void* temp = nullptr;
  size_t temp_bytes = 0;
  hipcub::DeviceScan::ExclusiveSum(temp, temp_bytes, d_flags, d_offsets, n);
  hipMalloc(&temp, temp_bytes);
  hipcub::DeviceScan::ExclusiveSum(temp, temp_bytes, d_flags, d_offsets, n);
  hipFree(temp);

  temp = nullptr;
  temp_bytes = 0;
  hipcub::DeviceSelect::Flagged(temp, temp_bytes, d_values, d_flags, d_out, d_count, n);
  hipMalloc(&temp, temp_bytes);
  hipcub::DeviceSelect::Flagged(temp, temp_bytes, d_values, d_flags, d_out, d_count, n);

  int count = 0;
  hipMemcpy(&count, d_count, sizeof(int), hipMemcpyDeviceToHost);
  std::printf("kept %d of %d\n", count, n);
  hipFree(temp);
  hipFree(d_values);
  hipFree(d_flags);
  hipFree(d_offsets);
  hipFree(d_out);
  hipFree(d_count);
  return 0;
}
