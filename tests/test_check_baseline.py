"""Baselines: record findings, then fail only on new ones, across unrelated line shifts."""

from __future__ import annotations

import json

import pytest

from check_fixtures import proj, run  # noqa: F401  (fixture)
from cudaport.report import baseline as B
from cudaport.findings import Finding


def test_write_then_check_against_the_baseline(proj, tmp_path):
    wrote = run("check", "proj", "--write-baseline", "baseline.json")
    assert wrote.exit_code == 0 and wrote.stdout == ""
    assert "wrote 4 finding(s) to baseline baseline.json" in wrote.stderr
    data = json.loads((tmp_path / "baseline.json").read_text())
    assert [e["code"] for e in data["findings"]] == ["CP101", "CP101", "CP101", "CP103"]
    result = run("check", "proj", "--baseline", "baseline.json")
    assert result.exit_code == 0
    assert result.stdout.startswith("No findings in 3 file(s); 2 suppressed, 4 in baseline.")


def test_line_shifts_keep_old_findings_in_the_baseline(proj):
    run("check", "proj", "--write-baseline", "baseline.json")
    kernel = proj / "src" / "kernel.cu"
    text = kernel.read_text()
    # Unrelated edits above and between findings, and re-indentation of a flagged line.
    text = "// new header comment\n#include <vector>\n\n" + text.replace(
        "  cudaArrayGetPlane(&plane, array, 0);", "\n\n    cudaArrayGetPlane(&plane, array, 0);")
    kernel.write_text(text)
    assert run("check", "proj", "--baseline", "baseline.json").exit_code == 0
    # A new use of an unmapped API is reported, and only it.
    kernel.write_text(text.replace("  cudaFree(d);", "  cudaFree(d);\n  cudaArrayGetPlane(&plane, array, 2);"))
    result = run("check", "proj", "--baseline", "baseline.json")
    assert result.exit_code == 1
    findings = [line for line in result.stdout.splitlines() if ": CP" in line]
    assert findings == ["proj/src/kernel.cu:24:3: CP101 cudaArrayGetPlane has no HIP equivalent (CUDA 11.2+)"]


def test_a_second_identical_occurrence_is_new():
    f = Finding("CP101", "m", "a.cu", 1, 1, identifier="cudaX")
    g = Finding("CP101", "m", "a.cu", 2, 1, identifier="cudaX")
    one = B.fingerprints([f], b"cudaX();\n")
    two = B.fingerprints([f, g], b"cudaX();\ncudaX();\n")
    assert one[0] == two[0] and two[0] != two[1]
    moved = B.fingerprints([Finding("CP101", "m", "a.cu", 9, 5, identifier="cudaX")],
                           b"\n" * 8 + b"    cudaX();\n")
    assert moved == one
    other_file = B.fingerprints([Finding("CP101", "m", "b.cu", 1, 1, identifier="cudaX")],
                                b"cudaX();\n")
    assert other_file != one


@pytest.mark.parametrize("text, message", [
    ("{", "baseline is not valid JSON"),
    ('{"tool": "ruff", "findings": []}', "not a cudaport baseline"),
    ('{"tool": "cudaport", "baseline_version": 99, "findings": []}', "baseline version 99"),
    ('{"tool": "cudaport", "baseline_version": 1, "findings": [{}]}', 'findings[0] has no "fingerprint"'),
])
def test_bad_baselines_exit_two(proj, tmp_path, text, message):
    (tmp_path / "b.json").write_text(text)
    result = run("check", "proj", "--baseline", "b.json")
    assert result.exit_code == 2 and message in result.stderr and "b.json" in result.stderr
    missing = run("check", "proj", "--baseline", "none.json")
    assert missing.exit_code == 2 and "none.json: no such baseline file" in missing.stderr
