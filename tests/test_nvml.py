"""NVML (nvml.h) is known API (issue 30, item 4): BabelStream's CUDAStream.cu called
nvmlInit, nvmlDeviceGetHandleByPciBusId and nvmlDeviceGetClockInfo and was reported as
porting cleanly. What ROCm SMI has with the same meaning and shape is mapped
(rules/hip/nvml.yaml); everything else is an error with what to use instead."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import rocm_wrapper
from cudaport.translate.pipeline import translate_source

MAPPED = """\
#include <cstdio>
#include <nvml.h>
int main() {
  nvmlReturn_t r = nvmlInit();
  if (r != NVML_SUCCESS) { std::printf("%s\\n", nvmlErrorString(r)); return 1; }
  unsigned int n = 0;
  if (nvmlDeviceGetCount(&n) != NVML_SUCCESS) return 2;
  char version[80];
  if (nvmlSystemGetDriverVersion(version, sizeof version) == NVML_SUCCESS)
    std::printf("%s %u\\n", version, n);
  return nvmlShutdown() == NVML_SUCCESS ? 0 : 3;
}
"""

# BabelStream src/cuda/CUDAStream.cu, reduced
BABELSTREAM = """\
#include <nvml.h>
#define NVML(EXPR) do { auto e = (EXPR); if (e != NVML_SUCCESS) fail(nvmlErrorString(e)); } while (false)
void fail(const char *);
unsigned memory_clock(const char *bus) {
  NVML(nvmlInit());
  nvmlDevice_t dev;
  NVML(nvmlDeviceGetHandleByPciBusId(bus, &dev));
  unsigned int clock;
  NVML(nvmlDeviceGetClockInfo(dev, NVML_CLOCK_MEM, &clock));
  return clock;
}
"""


def test_what_rocm_smi_has_is_mapped():
    result = translate_source(MAPPED, target_version="7.2")
    # nvmlErrorString: the portable header's function, which returns ROCm SMI's text
    assert [(f.code, f.identifier) for f in result.findings] == [("CP108", "nvmlErrorString")]
    assert "ROCm SMI's description" in result.findings[0].message
    out = result.output.decode()
    assert "#include <rocm_smi/rocm_smi.h>" in out
    for expected in ("rsmi_status_t r = rsmi_init(0);", "RSMI_STATUS_SUCCESS",
                     "rsmi_num_monitor_devices(&n)",
                     "rsmi_version_str_get(RSMI_SW_COMP_DRIVER, version, sizeof version)",
                     "rsmi_shut_down()"):
        assert expected in out
    assert 'std::printf("%s\\n", cudaport_nvml_error_string(r));' in out
    assert "nvml" not in out.split("int main()")[1].replace("cudaport_nvml_error_string", "")


def test_the_rest_of_nvml_is_reported():
    found = [(f.code, f.line, f.identifier, f.severity)
             for f in translate_source(BABELSTREAM, target_version="7.2").findings]
    assert found == [("CP108", 2, "nvmlErrorString", "info"),
                     ("CP101", 6, "nvmlDevice_t", "error"),
                     ("CP101", 7, "nvmlDeviceGetHandleByPciBusId", "error"),
                     ("CP101", 9, "nvmlDeviceGetClockInfo", "error"),
                     ("CP101", 9, "NVML_CLOCK_MEM", "error")]
    messages = [f.message for f in translate_source(BABELSTREAM).findings]
    assert any("rsmi_dev_gpu_clk_freq_get" in m and "in Hz" in m for m in messages)
    # a function without a hand-written note still says where to look
    other = translate_source("#include <nvml.h>\nvoid f() { nvmlInitWithFlags(0); }\n")
    assert "ROCm SMI" in other.findings[0].message


@pytest.mark.slow
def test_the_mapped_program_builds_with_rocm_7_2(tmp_path: Path):
    wrapper = rocm_wrapper("7.2")
    unit = tmp_path / "smi.hip"
    unit.write_bytes(translate_source(MAPPED, target_version="7.2").output)
    proc = subprocess.run([str(wrapper), "--offload-arch=gfx942", "-std=c++17", str(unit),
                           "-lrocm_smi64", "-o", str(tmp_path / "smi")],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr[-3000:]
