"""cuFFT's multi-GPU (Xt) API maps to hipFFT's, which ROCm 6.0 added (rules/hip/cufft-xt.yaml).

cuda-samples' simpleCUFFT_MGPU: plan on several GPUs, descriptor-based copies and
execution. hipFFT is not part of Debian 12's HIP 5.2, so only ROCm 6.4 compiles it; for an
older --hip-version the names are reported as too new.
"""

from __future__ import annotations

import pytest

from conftest import compile_hip
from cudaport import Options, translate_bytes

MULTI_GPU = b"""\
#include <cufft.h>
#include <cufftXt.h>
#include <cuda_runtime.h>

int run(cufftComplex *host, int n) {
  cufftHandle plan;
  cufftCreate(&plan);
  int gpus[2] = {0, 1};
  cufftXtSetGPUs(plan, 2, gpus);
  size_t sizes[2];
  cufftMakePlan1d(plan, n, CUFFT_C2C, 1, sizes);
  cudaLibXtDesc *d;
  cufftXtMalloc(plan, &d, CUFFT_XT_FORMAT_INPLACE);
  cufftXtMemcpy(plan, d, host, CUFFT_COPY_HOST_TO_DEVICE);
  cufftXtExecDescriptorC2C(plan, d, d, CUFFT_FORWARD);
  cudaXtDesc *parts = d->descriptor;
  cufftXtMemcpy(plan, host, d, CUFFT_COPY_DEVICE_TO_HOST);
  cufftXtFree(d);
  cufftDestroy(plan);
  return parts->nGPUs;
}
"""


def _translate(version: str):
    return translate_bytes(MULTI_GPU, Options(target_version=version), "mgpu.cu")


def test_xt_names_map_to_hipfft():
    result = _translate("6.4")
    out = result.output.decode()
    for name in ("hipfftXtSetGPUs(plan, 2, gpus)", "hipLibXtDesc *d;",
                 "hipfftXtMalloc(plan, &d, HIPFFT_XT_FORMAT_INPLACE)",
                 "hipfftXtMemcpy(plan, d, host, HIPFFT_COPY_HOST_TO_DEVICE)",
                 "hipfftXtExecDescriptorC2C(plan, d, d, HIPFFT_FORWARD)",
                 "hipXtDesc *parts", "hipfftXtFree(d)"):
        assert name in out
    assert not [f for f in result.findings if f.severity == "error"]
    assert translate_bytes(result.output, Options(target_version="6.4"), "mgpu.hip").output \
        == result.output


def test_xt_names_are_too_new_for_hip_5_2():
    found = {f.identifier for f in _translate("5.2").findings if f.code == "CP107"}
    assert {"cufftXtSetGPUs", "cudaLibXtDesc", "cufftXtMalloc"} <= found


@pytest.mark.slow
def test_xt_translation_compiles_with_rocm_6_4(tmp_path):
    path = tmp_path / "mgpu.hip"
    path.write_bytes(_translate("6.4").output)
    compile_hip(path, "rocm")
