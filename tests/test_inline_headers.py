"""Headers the target lacks, replaced by definitions (``inline:`` in a header rule).

HIP before 7.13 has no ``<cooperative_groups/reduce.h>``; llm.c includes it in most of its
kernels (``cg::reduce(warp, v, cg::plus<float>())``). cudaport replaces the include with
its own definitions (rules/hip/inline/cooperative_groups_reduce.h): the tests pin the
replacement, its idempotence, and that the result compiles with both HIP toolchains.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cudaport import Options, translate_bytes
from cudaport.rules import get_compiled
from conftest import compile_hip

REDUCE = b"""\
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void k(const float* x, float* out, int* spread, unsigned* bits) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> warp = cg::tiled_partition<32>(block);
  float s = cg::reduce(warp, x[threadIdx.x], cg::plus<float>());
  int hi = cg::reduce(warp, (int)threadIdx.x, cg::greater<int>());
  int lo = cg::reduce(warp, (int)threadIdx.x, cg::less<int>());
  unsigned b = cg::reduce(warp, 1u << warp.thread_rank(), cg::bit_or<unsigned>());
  cg::coalesced_group active = cg::coalesced_threads();
  float t = cg::reduce(active, x[threadIdx.x], [](float a, float c) { return a + c; });
  if (warp.thread_rank() == 0) { out[0] = s + t; spread[0] = hi - lo; bits[0] = b; }
}
"""


def _translate(src: bytes, **options):
    return translate_bytes(src, Options(**options), "reduce.cu")


def test_reduce_header_becomes_definitions():
    result = _translate(REDUCE)
    out = result.output.decode()
    assert "cooperative_groups/reduce.h" not in out.split("*/")[1]  # only in the comment
    assert out.count("#include <hip/hip_cooperative_groups.h>") == 2  # own include + guard
    assert "#ifndef CUDAPORT_COOPERATIVE_GROUPS_REDUCE" in out
    assert "struct bit_or" in out and "reduce(const Group& group" in out
    assert not [f for f in result.findings if f.code in ("CP106", "CP213")]
    assert {r.status for r in result.references
            if r.identifier == "cooperative_groups/reduce.h"} \
        == {"inline"}
    assert _translate(result.output).output == result.output  # idempotent


def test_definitions_take_the_file_line_endings():
    out = _translate(REDUCE.replace(b"\n", b"\r\n")).output
    assert b"\n" not in out.replace(b"\r\n", b"")


def test_rule_explains_the_replacement():
    compiled = get_compiled(Options())
    assert compiled.header(b"cooperative_groups/reduce.h").status == "inline"


def test_inline_file_must_sit_next_to_the_pack(tmp_path: Path):
    from cudaport.rules.schema import RuleError

    pack = tmp_path / "user.yaml"
    pack.write_text("headers:\n  acme/missing.h: {inline: ../etc/passwd}\n")
    with pytest.raises(RuleError, match="no file"):
        get_compiled(Options(rule_files=(str(pack),)))
    (tmp_path / "acme.h").write_text("#define ACME 1\n")
    pack.write_text("headers:\n  acme/missing.h: {inline: acme.h}\n")
    out = translate_bytes(b"#include <acme/missing.h>\nint x = ACME;\n",
                          Options(rule_files=(str(pack),)), "a.cu").output
    assert out == b"#define ACME 1\nint x = ACME;\n"


@pytest.mark.slow
@pytest.mark.parametrize("toolchain,version", [("rocm", "6.4"), ("system", "5.2")])
def test_reduce_definitions_compile(tmp_path, toolchain, version):
    path = tmp_path / "reduce.hip"
    path.write_bytes(_translate(REDUCE, target_version=version).output)
    compile_hip(path, toolchain)
