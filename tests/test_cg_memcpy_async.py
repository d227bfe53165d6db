"""Cooperative groups' memcpy_async, wait and wait_prior (<cooperative_groups/memcpy_async.h>;
issue 41): HIP's cooperative groups have none. `cg::NAME` becomes the portable header's
`cg::cudaport_NAME` (section cg_memcpy_async): the group's threads copy at once and the
wait syncs the group, the same bytes in dst after the wait; CP231 says the overlap is lost."""

from __future__ import annotations

import pytest

from conftest import compile_object
from cudaport import Options, translate_bytes

SRC = b"""#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;
__global__ void k(const float* in, float* out) {
  __shared__ float tile[256];
  __shared__ int ids[64];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, tile, in, sizeof(float) * 256);
  cooperative_groups::memcpy_async(block, ids, 64, (const int*)in, 32);
  cg::wait_prior<1>(block);
  cg::wait(block);
  out[block.thread_rank()] = tile[block.thread_rank()] + ids[0];
}
"""


def _translate(version: str = "7.2"):
    return translate_bytes(SRC, Options(target_version=version), "k.cu")


def test_memcpy_async_and_wait_become_the_portable_headers():
    result = _translate()
    out = result.output.decode()
    body = out.split("__global__ void k")[1]
    for expected in ("cg::cudaport_memcpy_async(block, tile, in, sizeof(float) * 256);",
                     "cooperative_groups::cudaport_memcpy_async(block, ids, 64, (const int*)in, 32);",
                     "cg::cudaport_wait_prior<1>(block);", "cg::cudaport_wait(block);"):
        assert expected in body, expected
    assert "#include <cooperative_groups/memcpy_async.h>" not in out
    assert [(f.code, f.line, f.severity) for f in result.findings if f.code != "CP204"] == [
        ("CP231", 8, "warning"), ("CP231", 9, "warning"), ("CP231", 10, "warning"),
        ("CP231", 11, "warning")]
    assert "overlap" in result.findings[-1].message
    assert translate_bytes(result.output, Options(target_version="7.2"), "k.hip").output \
        == result.output


@pytest.mark.slow
@pytest.mark.parametrize("version", ["7.2", "6.4"])
def test_the_translation_compiles_to_object_code(tmp_path, version):
    path = tmp_path / "copy.hip"
    path.write_bytes(_translate(version).output)
    compile_object(path, "gfx942", version)
