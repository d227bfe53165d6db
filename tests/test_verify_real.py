"""bench/verify_real.py's nvcc cache: a rerun asks nvcc only about units it has not seen."""

from __future__ import annotations

import importlib.util
import os
import stat
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("verify_real", ROOT / "bench" / "verify_real.py")
verify_real = importlib.util.module_from_spec(_spec)
sys.modules.setdefault("verify_real", verify_real)  # its dataclasses look themselves up
_spec.loader.exec_module(verify_real)


def _fake_nvcc(tmp_path: Path) -> tuple[Path, Path]:
    """An 'nvcc' that logs each call and rejects files containing BAD."""
    log = tmp_path / "calls.log"
    exe = tmp_path / "nvcc"
    exe.write_text(f"#!/bin/sh\necho call >> {log}\nfor a; do last=$a; done\n"
                   'if grep -q BAD "$last"; then echo "x.cu(1): error: bad thing" >&2; exit 1; fi\n')
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    return exe, log


def _calls(log: Path) -> int:
    return len(log.read_text().split()) if log.exists() else 0


def test_verdicts_are_reused_until_the_unit_or_flags_change(tmp_path):
    nvcc, log = _fake_nvcc(tmp_path)
    unit = tmp_path / "a.cu"
    unit.write_text("int main() {}\n")
    cache = verify_real.NvccCache(tmp_path / "cache")
    check = verify_real.cached_nvcc_check
    assert check(cache, str(nvcc), unit, ["-I."], "sm_80") == (True, "")
    assert check(cache, str(nvcc), unit, ["-I."], "sm_80") == (True, "")
    assert _calls(log) == 1
    check(cache, str(nvcc), unit, ["-I.", "-Iother"], "sm_80")  # other flags: asked again
    assert _calls(log) == 2
    unit.write_text("BAD\n")  # other text: asked again, the failure is kept with its error
    assert check(cache, str(nvcc), unit, ["-I."], "sm_80") == (False, "bad thing")
    assert check(cache, str(nvcc), unit, ["-I."], "sm_80") == (False, "bad thing")
    assert _calls(log) == 3


def test_no_cache_always_asks_nvcc_and_a_broken_entry_is_ignored(tmp_path):
    nvcc, log = _fake_nvcc(tmp_path)
    unit = tmp_path / "a.cu"
    unit.write_text("int main() {}\n")
    off = verify_real.NvccCache(None)
    for _ in range(2):
        assert verify_real.cached_nvcc_check(off, str(nvcc), unit, [], "sm_80") == (True, "")
    assert _calls(log) == 2
    folder = tmp_path / "cache"
    on = verify_real.NvccCache(folder)
    verify_real.cached_nvcc_check(on, str(nvcc), unit, [], "sm_80")
    (entry,) = folder.glob("*.json")
    entry.write_text("{not json")
    assert verify_real.cached_nvcc_check(on, str(nvcc), unit, [], "sm_80") == (True, "")
    assert _calls(log) == 4
    assert not list(folder.glob("*.tmp")), os.listdir(folder)


def test_a_cp210_names_an_error_in_its_asm_statements_operands(tmp_path):
    # bitsandbytes' gemm_4bit_sm75.cu: CP210 on the asm line, hipcc's "invalid output
    # constraint '+f'" three lines below it, in the same statement
    from cudaport.findings import Finding

    unit = tmp_path / "k.cu"
    unit.write_text('__device__ void f(float* x) {\n  asm volatile(\n    "mma.sync.aligned.m16n8k8'
                    '.row.col.f32.f16.f16.f32 {%0}, {%1};\\n"\n    : "+f"(x[0])\n    : "r"(1));\n'
                    '  x[1] = 0;\n}\n')

    def at(line, code="CP501", message="invalid output constraint '+f' in asm"):
        return Finding(code, message, str(unit), line, 3, "error", "asm", "", "lexical", -1, None)

    cp210 = at(2, "CP210", "inline assembly (PTX) does not assemble for HIP")
    assert verify_real.names_cause(at(4), [cp210]) is cp210
    assert verify_real.names_cause(at(6, message="use of undeclared identifier 'y'"), [cp210]) is None
