"""ROCm headers the target's packages do not install (CP178; ``absent_headers`` in
rules/hip/target.yaml, cudaport/translate/passes/target_headers.py).

gpu-benches' gpu-metrics.hpp includes its rocm_metrics.hpp under `#elif defined __HIP__`,
which includes <rocprofiler.h>; ROCm 7.2 from Debian's packages has no such header, and
three units were called "ports with warnings" that stopped there."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from conftest import rocm_wrapper
from cudaport import Options, translate_bytes
from cudaport.rules.compiled import get_compiled

ROCM_METRICS = b"""#include "hip/hip_runtime.h"
#include <hsa/hsa.h>
#include <rocprofiler.h>
inline void measure() { rocprofiler_t* c = nullptr; (void)c; }
"""
METRICS = b"""#ifndef M_H
#define M_H
#ifdef __NVCC__
#include "cuda_metrics.hpp"
#elif defined __HIP__
#include "rocm/rocm_metrics.hpp"
#endif
#endif
"""
UNIT = b"""#include "metrics.hpp"
#include <cuda_runtime.h>
__global__ void k(float* x) { x[0] = 1; }
int main() { k<<<1, 1>>>(nullptr); cudaDeviceSynchronize(); }
"""


def _codes(src: bytes, path: str = "k.cu", **options):
    return [(f.code, f.line, f.severity, f.identifier)
            for f in translate_bytes(src, Options(**options), path).findings
            if f.code == "CP178"]


def test_the_projects_own_rocm_code_including_rocprofiler_is_an_error():
    assert _codes(ROCM_METRICS, "rocm_metrics.hpp") == [("CP178", 3, "error", "rocprofiler.h")]
    (f,) = [f for f in translate_bytes(ROCM_METRICS, Options(), "m.hpp").findings
            if f.code == "CP178"]
    assert "ROCProfiler" in f.message and "rocprofiler-sdk" in f.message


def test_the_hip_branch_is_read_the_cuda_branch_is_not():
    src = (b"#ifdef __NVCC__\n#include <roctracer.h>\n#elif defined __HIP__\n"
           b"#include <roctracer/roctracer.h>\n#endif\n")
    assert _codes(src, "t.h") == [("CP178", 4, "error", "roctracer/roctracer.h")]
    # (ROC-TX is packaged: roctracer/roctx.h is there)
    assert _codes(b"#include <roctracer/roctx.h>\n", "t.h") == []


def test_under_a_switch_nothing_defines_it_is_a_warning():
    src = b"#include <hip/hip_runtime.h>\n#ifdef USE_ROCPROF\n#include <rocprofiler.h>\n#endif\n"
    (f,) = [f for f in translate_bytes(src, Options(), "t.hip").findings if f.code == "CP178"]
    assert f.severity == "warning" and "USE_ROCPROF" in f.message


def test_a_projects_own_header_of_that_name_is_its_own(tmp_path):
    (tmp_path / "rocprofiler.h").write_text("struct rocprofiler_t {};\n")
    src = b'#include <hip/hip_runtime.h>\n#include "rocprofiler.h"\n'
    assert _codes(src, str(tmp_path / "a.hip")) == []
    assert _codes(src, str(tmp_path / "sub.hip")) == []  # (beside it: its own)
    assert _codes(src, str(tmp_path / "no" / "a.hip")) == [
        ("CP178", 2, "error", "rocprofiler.h")]


def test_a_unit_including_the_hip_branch_is_blocked_with_the_chain(tmp_path):
    from click.testing import CliRunner

    from cudaport.cli.main import main

    (tmp_path / "rocm").mkdir()
    (tmp_path / "rocm" / "rocm_metrics.hpp").write_bytes(ROCM_METRICS)
    (tmp_path / "metrics.hpp").write_bytes(METRICS)
    (tmp_path / "a.cu").write_bytes(UNIT)
    result = CliRunner().invoke(main, ["check", "--format", "json", "--fail-on", "never",
                                       str(tmp_path)])
    assert result.exit_code == 0, result.output
    files = {Path(f["path"]).name: f for f in json.loads(result.output)["summary"]["files_by_verdict"]}
    assert files["a.cu"]["verdict"] == "blocked"
    assert "metrics.hpp:6 -> " in files["a.cu"]["blocking"][0]
    assert "CP178" in files["a.cu"]["blocking"][0]


def test_every_listed_header_is_absent_from_the_targets_roots():
    """The table stays true: each header it lists is missing from both ROCm roots (and
    ROC-TX, which Debian packages, is there in 7.2's)."""
    table = get_compiled(Options()).target.extra["absent_headers"]
    assert {"rocprofiler.h", "roctracer.h"} <= set(table)
    for version in ("7.2", "6.4"):
        include = rocm_wrapper(version).parent / "usr" / "include"
        present = [name for name in table if (include / name).exists()]
        assert present == [], (version, present)
    assert (rocm_wrapper("7.2").parent / "usr" / "include" / "roctracer" / "roctx.h").is_file()


@pytest.mark.slow
def test_the_include_fails_with_rocm_72(tmp_path):
    import subprocess

    source = tmp_path / "m.hip"
    source.write_bytes(ROCM_METRICS)
    proc = subprocess.run([str(rocm_wrapper("7.2")), "-x", "hip", "--offload-arch=gfx90a",
                           "-c", str(source), "-o", str(tmp_path / "m.o")],
                          capture_output=True, text=True)
    assert proc.returncode != 0 and "'rocprofiler.h' file not found" in proc.stderr
