"""The Ampere async copy without inline PTX: the pipeline primitives become the portable
header's synchronous copy (CP231, a warning: the overlap is lost), and programmatic
dependent launch's device calls become no-ops (CP108: HIP launches a kernel after the one
before it has finished). rules/hip/ports/async.yaml, section "pipeline" of
rules/hip/ports/cudaport_portable.h."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from conftest import compile_object
from cudaport import Options, translate_bytes
from cudaport.translate.portable import HEADER_NAME, block, closure, parse

DATA = Path(__file__).parent / "data" / "asm"
HEADER = Path(__file__).parent.parent / "rules" / "hip" / "ports" / HEADER_NAME


def _translate(src: bytes, version: str = "7.2"):
    return translate_bytes(src, Options(target_version=version), "k.cu")


def test_pipeline_primitives_become_the_synchronous_copy():
    result = _translate((DATA / "pipeline.cu").read_bytes())
    out = result.output.decode()
    assert "#include <cuda_pipeline.h>" not in out
    for call in ("cudaport_pipeline_memcpy_async(&tile[threadIdx.x], &g[threadIdx.x], sizeof(float4));",
                 "cudaport_pipeline_memcpy_async(&tile[threadIdx.x + 32], &g[threadIdx.x + 32], 16, 8);",
                 "cudaport_pipeline_commit();", "cudaport_pipeline_wait_prior(0);",
                 "cudaport_grid_dependency_synchronize();",
                 "cudaport_trigger_programmatic_launch_completion();"):
        assert call in out
    assert out.count("#ifndef CUDAPORT_PORTABLE_PIPELINE") == 1
    found = [(f.code, f.severity, f.line) for f in result.findings]
    assert found == [("CP108", "info", 4), ("CP231", "warning", 5), ("CP231", "warning", 6),
                     ("CP231", "warning", 7), ("CP231", "warning", 8), ("CP108", "info", 11)]
    assert "no longer overlaps" in result.findings[1].message
    assert translate_bytes(result.output, Options(target_version="7.2"), "k.hip").output == \
        result.output


def _copy_reference(size: int, zfill: int, src: bytes) -> bytes:
    """CUDA's __pipeline_memcpy_async(dst, src, size, zfill): size bytes written, the last
    zfill of them zeros, the rest copied from src."""
    kept = max(size - zfill, 0)
    return src[:kept] + bytes(size - kept)


def test_the_copy_matches_cudas_definition(tmp_path):
    header = parse(HEADER.read_bytes())
    text = block(header, closure(header, {b"cudaport_pipeline_memcpy_async",
                                          b"cudaport_pipeline_commit",
                                          b"cudaport_pipeline_wait_prior"}))
    program = tmp_path / "copy.cpp"
    program.write_bytes(text + b"""
#include <cstdio>
#include <initializer_list>
int main() {
  unsigned char src[16], dst[16];
  for (int i = 0; i < 16; ++i) src[i] = (unsigned char)(0xA0 + i);
  for (int size : {4, 8, 16})
    for (int zfill = 0; zfill <= size; ++zfill) {
      for (int i = 0; i < 16; ++i) dst[i] = 0x5A;
      cudaport_pipeline_memcpy_async(dst, src, size, zfill);
      cudaport_pipeline_commit();
      cudaport_pipeline_wait_prior(0);
      for (int i = 0; i < 16; ++i) std::printf("%02x", dst[i]);
      std::printf("\\n");
    }
}
""")
    subprocess.run(["g++", "-std=c++17", str(program), "-o", str(tmp_path / "copy")], check=True)
    lines = subprocess.run([str(tmp_path / "copy")], capture_output=True, text=True,
                           check=True).stdout.split()
    src = bytes(0xA0 + i for i in range(16))
    want = [(_copy_reference(size, zfill, src) + b"\x5a" * 16)[:16].hex()
            for size in (4, 8, 16) for zfill in range(size + 1)]
    assert lines == want


@pytest.mark.slow
@pytest.mark.parametrize("arch", ["gfx942", "gfx90a"])
def test_pipeline_translation_compiles_with_rocm_7_2(tmp_path, arch):
    path = tmp_path / "pipeline.hip"
    path.write_bytes(_translate((DATA / "pipeline.cu").read_bytes()).output)
    compile_object(path, arch)
