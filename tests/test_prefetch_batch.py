"""cudaMemPrefetchBatchAsync (CUDA 13), which ROCm 7.2 lacks, becomes the portable header's
cudaport_mem_prefetch_batch_async: one hipMemPrefetchAsync_v2 per range, each to the
location its index range names. rules/hip/ports/runtime.yaml, section prefetch_batch of
rules/hip/ports/cudaport_portable.h."""

from __future__ import annotations


import pytest

from conftest import compile_object, run_portable_host_program
from cudaport import Options, translate_bytes


# gsplat's SphericalHarmonicsCUDA.cu, cut down.
SRC = b"""\
#include <cuda_runtime.h>
#include <vector>
cudaError_t prefetch(std::vector<void*>& ptrs, std::vector<size_t>& sizes, int device_id,
                     cudaStream_t stream) {
  const cudaMemLocation location = {cudaMemLocationTypeDevice, device_id};
  std::vector<cudaMemLocation> locations = {location};
  std::vector<size_t> indices = {0};
  return cudaMemPrefetchBatchAsync(ptrs.data(), sizes.data(), ptrs.size(), locations.data(),
                                   indices.data(), locations.size(), 0, stream);
}
"""


def test_the_batch_becomes_the_portable_function():
    result = translate_bytes(SRC, Options(target_version="7.2"), "p.cu")
    out = result.output.decode()
    assert "return cudaport_mem_prefetch_batch_async(ptrs.data(), sizes.data()" in out
    assert out.count("#ifndef CUDAPORT_PORTABLE_PREFETCH_BATCH") == 1
    assert not [f for f in result.findings if f.severity in ("error", "warning")], result.findings
    old = translate_bytes(SRC, Options(target_version="6.4"), "p.cu")
    assert "cudaMemPrefetchBatchAsync" in [f.identifier for f in old.findings
                                           if f.code == "CP107"]


PROGRAM = b"""
#include <cstdio>
hipError_t hipMemPrefetchAsync_v2(const void* p, size_t n, hipMemLocation l, unsigned int f,
                                  hipStream_t) {
  std::printf("%d:%zu:%d:%d:%u ", (int)(size_t)p, n, (int)l.type, l.id, f);
  return (size_t)p == 99 ? hipErrorInvalidValue : hipSuccess;
}
int main() {
  void* p[5] = {(void*)10, (void*)11, (void*)12, (void*)13, (void*)99};
  size_t n[5] = {1, 2, 3, 4, 5};
  hipMemLocation loc[2] = {{hipMemLocationTypeDevice, 1}, {hipMemLocationTypeHost, 0}};
  size_t two[2] = {0, 3}, bad_first[1] = {1}, unordered[2] = {0, 0}, beyond[2] = {0, 4};
  std::printf("= %d\\n", (int)cudaport_mem_prefetch_batch_async(p, n, 4, loc, two, 2, 0, 0));
  std::printf("= %d\\n", (int)cudaport_mem_prefetch_batch_async(p, n, 2, loc, two, 1, 0, 0));
  std::printf("= %d\\n", (int)cudaport_mem_prefetch_batch_async(p, n, 5, loc, two, 2, 0, 0));
  std::printf("= %d\\n", (int)cudaport_mem_prefetch_batch_async(p, n, 4, loc, bad_first, 1, 0, 0));
  std::printf("= %d\\n", (int)cudaport_mem_prefetch_batch_async(p, n, 4, loc, unordered, 2, 0, 0));
  std::printf("= %d\\n", (int)cudaport_mem_prefetch_batch_async(p, n, 4, loc, beyond, 2, 0, 0));
  std::printf("= %d\\n", (int)cudaport_mem_prefetch_batch_async(p, n, 4, loc, two, 2, 1, 0));
  std::printf("= %d\\n", (int)cudaport_mem_prefetch_batch_async(p, n, 1, loc, two, 2, 0, 0));
}
"""


@pytest.mark.slow
def test_each_range_is_prefetched_to_its_location(tmp_path):
    """CUDA's definition: location k applies from prefetchLocIdxs[k] to the next index (the
    last to count - 1); a first index other than 0, indices not increasing or not below
    count, more locations than operations, or flags: invalid value; an error ends the batch.
    With ROCm 7.2's hip_runtime_api.h (g++, a stand-in hipMemPrefetchAsync_v2)."""
    lines = run_portable_host_program(tmp_path, {b"cudaport_mem_prefetch_batch_async"}, PROGRAM)
    device, host = "1:1", "2:0"  # (hipMemLocationTypeDevice = 1, hipMemLocationTypeHost = 2)
    invalid = "= 1"  # hipErrorInvalidValue
    assert lines == [
        f"10:1:{device}:0 11:2:{device}:0 12:3:{device}:0 13:4:{host}:0 = 0",
        f"10:1:{device}:0 11:2:{device}:0 = 0",
        f"10:1:{device}:0 11:2:{device}:0 12:3:{device}:0 13:4:{host}:0 99:5:{host}:0 {invalid}",
        invalid, invalid, invalid, invalid, invalid]


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["gfx942", "gfx90a"])
def test_the_translation_compiles_with_rocm_7_2(tmp_path, arch):
    path = tmp_path / "p.hip"
    path.write_bytes(translate_bytes(SRC, Options(target_version="7.2"), "p.cu").output)
    compile_object(path, arch)
