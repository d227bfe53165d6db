"""CP2xx fixes (cudaport/translate/fixes.py): what --fix and --unsafe-fixes change, that each fix is
idempotent and byte-exact outside its edit, reported in every format, and compiles."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from cudaport import Options, translate_bytes
from cudaport.cli.main import main

KERNEL = b"""\
__global__ void k(float* out, const float* in) {
  int lane = threadIdx.x & 31;
  int warp = threadIdx.x >> 5;
  int mixed = blockIdx.x + threadIdx.x & 31;
  unsigned m = __ballot_sync(0xffffffff, in[threadIdx.x] > 0);
  float v = in[threadIdx.x];
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  if (lane == 0) out[warp] = v + (float)m + (float)mixed;
}
"""


def _run(src: bytes, level: str):
    return translate_bytes(src, Options(fix=level), "k.cu")


def _fixes(result) -> list[tuple[str, str, bool]]:
    return [(f.code, f.fix.applicability, f.fix.applied) for f in result.findings if f.fix]


def test_findings_carry_fixes_that_are_not_applied_by_default():
    r = _run(KERNEL, "none")
    assert _fixes(r) == [("CP203", "unsafe", False), ("CP203", "unsafe", False),
                         ("CP201", "safe", False), ("CP206", "unsafe", False)]
    assert b"& 31" in r.output and b"unsigned m" in r.output


def test_fix_applies_safe_fixes_only():
    r = _run(KERNEL, "safe")
    out = r.output.decode()
    assert "unsigned long long m = __ballot_sync(" in out
    assert "threadIdx.x & 31;" in out and "int o = 16;" in out
    assert ("CP201", "safe", True) in _fixes(r)


def test_unsafe_fixes_apply_both_kinds():
    out = _run(KERNEL, "unsafe").output.decode()
    assert "int lane = threadIdx.x % warpSize;" in out
    assert "int warp = threadIdx.x / warpSize;" in out
    assert "for (int o = warpSize / 2; o > 0; o /= 2)" in out
    # `blockIdx.x + threadIdx.x & 31` groups as (a + b) & 31: '%' would regroup it.
    assert "blockIdx.x + threadIdx.x & 31;" in out


@pytest.mark.parametrize("level", ["safe", "unsafe"])
def test_fixes_are_idempotent_and_touch_nothing_else(level):
    fixed = _run(KERNEL, level).output
    assert _run(fixed, level).output == fixed
    plain = _run(KERNEL, "none").output
    # Outside the fixes' lines the output is the plain translation, byte for byte.
    changed = {i for i, (a, b) in enumerate(zip(plain.splitlines(), fixed.splitlines())) if a != b}
    added = len(plain.splitlines()) - len(KERNEL.splitlines())  # the main header's include
    assert changed <= {added + n for n in (1, 2, 4, 6)}  # lines 2, 3, 5, 7 of the input
    assert len(plain.splitlines()) == len(fixed.splitlines())


def test_no_fix_in_a_branch_only_another_platform_compiles():
    src = b"#ifndef __HIP_PLATFORM_AMD__\n" + KERNEL + b"#endif\n"
    assert b"& 31" in _run(src, "unsafe").output


def test_reports_list_every_fix(tmp_path):
    path = tmp_path / "k.cu"
    path.write_bytes(KERNEL)
    runner = CliRunner()
    text = runner.invoke(main, ["check", str(path)]).output
    assert "CP201 [*]" in text and "CP203 [-]" in text
    # (findings each flag fixes: --unsafe-fixes applies the safe fix too; issue 37)
    assert "1 fixable with --fix (4 with --unsafe-fixes)" in text
    assert "more with" not in text
    data = json.loads(runner.invoke(main, ["check", "--format", "json", str(path)]).output)
    fixes = [f["fix"] for f in data["findings"] if "fix" in f]
    assert len(fixes) == 4 and fixes[0]["edits"][0]["replacement"] == "% warpSize"
    assert data["summary"]["fixes"] == {"applied": 0, "safe_available": 1, "unsafe_available": 3}
    sarif = json.loads(runner.invoke(main, ["check", "--format", "sarif", str(path)]).output)
    results = sarif["runs"][0]["results"]
    replacement = results[0]["fixes"][0]["artifactChanges"][0]["replacements"][0]
    assert replacement == {"deletedRegion": {"startLine": 2, "startColumn": 26, "endLine": 2,
                                             "endColumn": 30},
                           "insertedContent": {"text": "% warpSize"}}
    markdown = runner.invoke(main, ["check", "--format", "markdown", str(path)]).output
    assert "`CP201` [*]" in markdown
    out = tmp_path / "k.hip"
    result = runner.invoke(main, ["translate", str(path), "-o", str(out), "--unsafe-fixes"])
    assert result.exit_code == 0, result.output
    assert "CP203 [fixed]" in result.output and "4 fixed" in result.output
    assert "% warpSize" in out.read_text()


def test_config_asks_for_fixes(tmp_path):
    (tmp_path / ".cudaport.toml").write_text("fix = true\n")
    path = tmp_path / "k.cu"
    path.write_bytes(KERNEL)
    out = tmp_path / "k.hip"
    result = CliRunner().invoke(main, ["translate", str(path), "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert "unsigned long long m" in out.read_text() and "& 31" in out.read_text()


@pytest.mark.slow
@pytest.mark.parametrize("toolchain,version", [("rocm", "6.4"), ("system", "5.2")])
def test_fixed_output_compiles(tmp_path, toolchain, version):
    from conftest import compile_hip

    path = tmp_path / "k.hip"
    path.write_bytes(translate_bytes(KERNEL, Options(fix="unsafe", target_version=version),
                                     "k.cu").output)
    compile_hip(path, toolchain)
