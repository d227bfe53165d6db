"""`cudaport check`: exit codes, selection, folder walking, text output, input errors."""

from __future__ import annotations

import pytest

from click.testing import CliRunner

from check_fixtures import proj, run, run_subprocess  # noqa: F401  (fixture)
from cudaport.cli.main import main
from cudaport.run.check import Selection

EXPECTED_TEXT = """\
proj/src/graph.cuh:5:3: CP101 cudaArraySparseProperties has no HIP equivalent (CUDA 11.1+)
proj/src/graph.cuh:8:3: CP101 cudaArrayGetSparseProperties has no HIP equivalent (CUDA 11.1+)
proj/src/kernel.cu:14:3: CP101 cudaArrayGetPlane has no HIP equivalent (CUDA 11.2+)
proj/src/kernel.cu:16:3: CP103 cudaThreadSynchronize was removed in CUDA 13.0
Found 4 finding(s) (3 error, 1 warning, 0 info) in 3 file(s); 2 suppressed. \
14/19 CUDA reference(s) ported to HIP (73.7%). Files: 1 port cleanly, 0 with warnings, 2 blocked.
"""


def test_text_output_is_stable_and_uses_the_project_config(proj):
    # pyproject.toml in proj excludes third_party/ and ignores CP105 (cudaFancyNewThing).
    result = run("check", "proj")
    assert result.exit_code == 1
    assert result.stdout == EXPECTED_TEXT
    assert "\x1b[" not in result.stdout  # no colour when stdout is not a terminal


def test_statistics_counts_per_code(proj):
    result = run("check", "proj", "--statistics")
    assert "3  CP101  error    unmapped-api: CUDA API with no equivalent on the target" in result.stdout
    assert "1  CP103  warning  removed-api: CUDA API was removed" in result.stdout


@pytest.mark.parametrize("args, code", [
    ((), 1),                                      # errors present, default --fail-on error
    (("--fail-on", "never"), 0),
    (("--select", "CP103"), 0),                   # only a warning left: below error
    (("--select", "CP103", "--fail-on", "warning"), 1),
    (("--ignore", "CP1"), 0),
    (("--select", "CP9"), 0),
])
def test_exit_codes(proj, args, code):
    assert run("check", "proj", *args).exit_code == code


def test_clean_file_exits_zero_with_summary(proj):
    result = run("check", "proj/src/clean.cpp")
    assert result.exit_code == 0
    assert result.stdout.startswith("No findings in 1 file(s).")


def test_usage_errors_exit_two_with_a_message(proj):
    missing = run("check", "proj/nope.cu")
    assert missing.exit_code == 2 and "proj/nope.cu: no such file or folder" in missing.stderr
    bad = run("check", "proj", "--select", "CP1O1")
    assert bad.exit_code == 2 and "--select 'CP1O1'" in bad.stderr
    both = run("check", "proj", "--baseline", "a.json", "--write-baseline", "b.json")
    assert both.exit_code == 2


def test_a_named_binary_file_is_an_input_error_but_other_files_are_checked(proj):
    (proj / "src" / "blob.cu").write_bytes(b"\x7fELF\0\0\0")
    result = run("check", "proj/src/blob.cu", "proj/src/kernel.cu", "--fail-on", "never")
    assert result.exit_code == 2
    assert "proj/src/blob.cu:1: binary file" in result.stderr
    assert "kernel.cu:14:3: CP101" in result.stdout


def test_a_binary_file_found_in_a_folder_is_a_finding(proj):
    # the same code (CP930, info) as translate gives it: see test_pipeline.py
    (proj / "src" / "table.h").write_bytes(b"// data\n\x01\x00\x02")
    result = run("check", "proj")
    assert result.exit_code == 1 and result.stderr == ""
    assert ("proj/src/table.h:2:1: CP930 not C/C++ text, skipped: binary file (NUL byte at "
            "offset 9); not translated") in result.stdout
    assert "CP930" not in run("check", "proj", "--ignore", "CP930").stdout


def test_excluded_and_explicit_paths(proj):
    # third_party is excluded by the config even when named, like ruff's --force-exclude.
    assert "vendor.cu" not in run("check", "proj").stdout
    assert run("check", "proj/third_party/vendor.cu").stdout.startswith("No findings in 0 file(s)")
    result = run("check", "--no-config", "proj/third_party")
    assert "proj/third_party/vendor.cu:2:17: CP101" in result.stdout


def test_more_specific_selector_wins():
    s = Selection(select=["CP1"], ignore=["CP10"])
    assert not s.allows("CP101") and s.allows("CP110")
    s = Selection(select=["CP101"], ignore=["CP1"])
    assert s.allows("CP101") and not s.allows("CP102")
    s = Selection(select=["CP101"], ignore=["CP101"])  # a tie: ignore wins
    assert not s.allows("CP101")
    assert Selection().allows("CP999") and not Selection(ignore=["ALL"]).allows("CP101")
    assert not Selection().allows("CP101", extra_ignore=("CP1",))


def test_output_file_is_written_and_stdout_stays_empty(proj, tmp_path):
    result = run("check", "proj", "--output", "out/findings.txt")
    assert result.exit_code == 1 and result.stdout == ""
    assert (tmp_path / "out" / "findings.txt").read_text() == EXPECTED_TEXT
    assert not list((tmp_path / "out").glob("*.cudaport-tmp"))


def test_check_writes_no_source_files(proj):
    before = {p: p.read_bytes() for p in proj.rglob("*") if p.is_file()}
    run("check", "proj")
    assert {p: p.read_bytes() for p in proj.rglob("*") if p.is_file()} == before


def test_cli_as_a_subprocess(proj):
    done = run_subprocess("check", "proj", "--format", "github", cwd=proj.parent)
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[0] == (
        "::error file=proj/src/graph.cuh,line=5,col=3,title=CP101::"
        "cudaArraySparseProperties has no HIP equivalent (CUDA 11.1+)")


def test_explain_prints_the_registry_text():
    result = run("explain", "CP101")
    assert result.exit_code == 0
    assert result.stdout.startswith("CP101 unmapped-api (error): CUDA API with no equivalent")
    assert "Fix:" in result.stdout
    prefix = run("explain", "cp91")
    assert "CP910" in prefix.stdout and "CP911" in prefix.stdout
    unknown = run("explain", "CP000")
    assert unknown.exit_code == 2 and "CP000: unknown code" in unknown.stderr


def test_new_output_files_get_normal_permissions(proj, tmp_path):
    import os
    import stat

    old = os.umask(0o022)
    try:
        run("check", "proj", "--output", "new.txt")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o644


def test_colour_only_when_asked():
    from cudaport.report.model import FileReport, Report
    from cudaport.findings import Finding
    from cudaport.options import Options
    from cudaport.report import text
    from cudaport.report.totals import compute

    report = Report([FileReport("a.cu", [Finding("CP101", "m", "a.cu", 1, 2)], ["f"])],
                         [], Options(), "HIP")
    plain = text.render(report, compute(report))
    painted = text.render(report, compute(report), colour=True)
    assert plain.startswith("a.cu:1:2: CP101 m\n")
    assert painted.startswith("\x1b[1ma.cu:1:2:\x1b[0m \x1b[31mCP101\x1b[0m m\n")


def test_standard_input_with_a_filename_for_editors(proj):
    source = (proj / "src" / "kernel.cu").read_text()
    result = CliRunner().invoke(main, ["check", "-", "--stdin-filename", "proj/src/kernel.cu"],
                                input=source)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[:2] == [
        "proj/src/kernel.cu:14:3: CP101 cudaArrayGetPlane has no HIP equivalent (CUDA 11.2+)",
        "proj/src/kernel.cu:16:3: CP103 cudaThreadSynchronize was removed in CUDA 13.0"]
    # The config found from the filename applies: excludes and per-path ignores.
    vendor = CliRunner().invoke(main, ["check", "-", "--stdin-filename",
                                       "proj/third_party/v.cu"], input=source)
    assert vendor.exit_code == 0 and vendor.stdout.startswith("No findings in 0 file(s)")
    header = CliRunner().invoke(main, ["check", "-", "--stdin-filename", "proj/src/new.cuh"],
                                input="cudaThreadSynchronize();\n")
    assert header.stdout.startswith("No findings in 1 file(s)")  # "src/*.cuh" ignores CP103
    plain = CliRunner().invoke(main, ["check", "-"], input="cudaFancyNewThing();\n")
    assert plain.stdout.startswith("<stdin>:1:1: CP105")


def test_docs_codes_md_is_generated_from_the_registry():
    """SARIF help links point into docs/codes.md, so it must list every code as it is now."""
    from check_fixtures import ROOT

    expected = run("explain", "--all", "--markdown").stdout
    assert (ROOT / "docs" / "codes.md").read_text() == expected, (
        "docs/codes.md is stale: run `python3 -m cudaport explain --all --markdown > docs/codes.md`")
