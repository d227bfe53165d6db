"""The extensible launch (cudaLaunchKernelEx, its config and attributes) ports to HIP 7.2's
(rules/hip/launch-ex.yaml); programmatic dependent launch stays reported with what to do."""

from __future__ import annotations

import pytest

from cudaport import Options, translate_bytes
from tests.conftest import compile_object

SOURCE = b"""\
#include <cuda_runtime.h>
__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}
cudaError_t launch(float* x, float a, int n, cudaStream_t s) {
  cudaLaunchAttribute attr;
  attr.id = cudaLaunchAttributePriority;
  attr.val.priority = 0;
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3((n + 255) / 256);
  config.blockDim = dim3(256);
  config.dynamicSmemBytes = 0;
  config.stream = s;
  config.attrs = &attr;
  config.numAttrs = 1;
  cudaError_t e = cudaLaunchKernelEx(&config, scale, x, a, n);
  if (e != cudaSuccess) return e;
  void* args[] = {&x, &a, &n};
  return cudaLaunchKernelExC(&config, (const void*)scale, args);
}
"""


def test_extensible_launch_ports_to_hip_7_2():
    r = translate_bytes(SOURCE, Options())
    out = r.output
    for line in (b"  hipLaunchAttribute attr;", b"  attr.id = hipLaunchAttributePriority;",
                 b"  hipLaunchConfig_t config = {};",
                 b"  hipError_t e = hipLaunchKernelEx(&config, scale, x, a, n);",
                 b"  return hipLaunchKernelExC(&config, (const void*)scale, args);"):
        assert line in out
    assert not [f for f in r.findings if f.severity == "error"], r.findings
    assert translate_bytes(out, Options()).output == out
    # (HIP launches only without attributes or with a cooperative one: said at the call)
    notes = [f.message for f in r.findings if f.code == "CP108"
             and f.identifier in ("cudaLaunchKernelEx", "cudaLaunchKernelExC")]
    assert len(notes) == 2 and all("hipErrorInvalidConfiguration" in n for n in notes)


def test_rocm_6_4_has_no_extensible_launch():
    r = translate_bytes(SOURCE, Options(target_version="6.4"))
    assert {f.identifier for f in r.findings if f.code == "CP107"} >= {
        "cudaLaunchConfig_t", "cudaLaunchAttribute", "cudaLaunchKernelEx"}


def test_programmatic_stream_serialization_says_what_to_do():
    r = translate_bytes(b"#include <cuda_runtime.h>\nint id = "
                        b"cudaLaunchAttributeProgrammaticStreamSerialization;\n", Options())
    (f,) = [f for f in r.findings if f.code == "CP101"]
    assert "leave this attribute out" in f.message and "without the overlap" in f.message


@pytest.mark.slow
def test_translation_compiles_with_rocm_7_2(tmp_path):
    path = tmp_path / "launch.hip"
    path.write_bytes(translate_bytes(SOURCE, Options()).output)
    compile_object(path, "gfx942")
