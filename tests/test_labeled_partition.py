"""cooperative_groups::labeled_partition, which HIP's cooperative groups lack, becomes the
portable header's cudaport_labeled_partition (section labeled_partition, declared in
namespace cooperative_groups, so `cg::` keeps naming it) from ROCm 7.2; before, CP213.
rules/hip/ports/device.yaml, rules/hip/ports/cudaport_portable.h."""

from __future__ import annotations

import pytest

from conftest import compile_object
from cudaport import Options, translate_bytes

# The shapes gsplat writes (ProjectionEWA3DGSPacked.cu, SphericalHarmonics.cuh), cut down.
SRC = b"""\
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
namespace sh_cg = cooperative_groups;
__global__ void k(const int* label, const float* v, float* out) {
  auto warp = cg::tiled_partition<32>(cg::this_thread_block());
  auto g = cg::labeled_partition(warp, label[threadIdx.x]);
  float x = v[threadIdx.x];
  for (unsigned d = 1; d < g.size(); d *= 2) x += g.shfl_down(x, d);
  auto active = cg::coalesced_threads();
  auto h = sh_cg::labeled_partition(active, static_cast<long long>(label[threadIdx.x]));
  if (g.thread_rank() == 0) out[label[threadIdx.x]] = x + h.meta_group_rank() + h.meta_group_size();
}
"""


def _translate(version: str):
    return translate_bytes(SRC, Options(target_version=version), "k.cu")


def test_labeled_partition_becomes_the_portable_function():
    result = _translate("7.2")
    out = result.output.decode()
    assert "auto g = cg::cudaport_labeled_partition(warp, label[threadIdx.x]);" in out
    assert "sh_cg::cudaport_labeled_partition(active, static_cast<long long>" in out
    assert out.count("#ifndef CUDAPORT_PORTABLE_LABELED_PARTITION") == 1
    assert out.index("CUDAPORT_PORTABLE_LABELED_PARTITION") > out.index("hip_cooperative_groups.h")
    assert not [f for f in result.findings if f.severity in ("error", "warning")], result.findings
    assert translate_bytes(result.output, Options(target_version="7.2"), "k.hip").output == \
        result.output


def test_before_7_2_it_stays_reported():
    result = _translate("6.4")
    assert b"cudaport_labeled_partition" not in result.output
    assert [(f.code, f.line) for f in result.findings if f.identifier == "labeled_partition"
            and f.severity == "error"] == [("CP107", 6), ("CP213", 6), ("CP107", 10)]


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["gfx942", "gfx90a", "gfx1100"])
def test_the_translation_compiles_with_rocm_7_2(tmp_path, arch):
    path = tmp_path / "k.hip"
    path.write_bytes(_translate("7.2").output)
    compile_object(path, arch)
