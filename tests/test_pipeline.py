"""One pipeline for every command: translate (single file and tree), check, report and
both pre-commit hooks give the same answer for the same files (issue 18's cases)."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from cudaport.cli import hooks
from cudaport.cli.main import main
from cudaport.findings import Finding
from cudaport.run.kinds import FileOutcome
from cudaport.options import Options
from cudaport.report import json_report
from cudaport.report.model import FileReport, collect
from cudaport.report.totals import compute

UNMAPPED = b"#include <cuda_runtime.h>\nvoid f(cudaArray_t a) { cudaArrayGetPlane(0, a, 0); }\n"
CLEAN = b"#include <cuda_runtime.h>\nvoid g() { cudaDeviceSynchronize(); }\n"


def run(*args: str, cwd: Path) -> tuple[int, str, str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, list(args))
    finally:
        os.chdir(old)
    return result.exit_code, result.stdout, result.stderr


def hook(*args: str, cwd: Path, capsys) -> tuple[int, str]:
    old = os.getcwd()
    os.chdir(cwd)
    try:
        code = hooks.main(list(args))
    finally:
        os.chdir(old)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def answers(root: Path, capsys, *extra: str) -> dict[str, str]:
    """What each front says about ``proj`` below ``root``: all findings as text."""
    out = {}
    out["check"] = run("check", "proj", "--fail-on", "never", "--no-config", *extra, cwd=root)[1]
    out["translate"] = run("translate", "proj", "--check", "--no-cache", *extra, cwd=root)[2]
    out["report"] = run("report", "proj", "--no-config", *extra, cwd=root)[1]
    out["hook"] = hook("check", "--fail-on", "info", "proj", cwd=root, capsys=capsys)[1]
    return out


@pytest.fixture
def proj(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    (root / "src").mkdir(parents=True)
    (root / "src" / "ok.cu").write_bytes(CLEAN)
    return tmp_path


def git_init(root: Path) -> None:
    subprocess.run(["git", "init", "-q", str(root)], check=True)


def test_gitignored_files_are_skipped_by_every_front(proj: Path, capsys):
    git_init(proj / "proj")
    (proj / "proj" / ".gitignore").write_text("gen/\n")
    (proj / "proj" / "gen").mkdir()
    (proj / "proj" / "gen" / "bad.cu").write_bytes(UNMAPPED)
    (proj / "proj" / "src" / "bad.cu").write_bytes(UNMAPPED)
    for front, text in answers(proj, capsys).items():
        assert "src/bad.cu" in text, front
        assert "gen/bad.cu" not in text, front


def test_inc_files_are_read_by_every_front(proj: Path, capsys):
    (proj / "proj" / "src" / "table.inc").write_bytes(UNMAPPED)
    for front, text in answers(proj, capsys).items():
        assert "table.inc" in text and "CP101" in text, front


def test_suppression_comments_count_in_the_hook_as_in_check(proj: Path, capsys):
    src = UNMAPPED.replace(b"0); }", b"0); }  // cudaport: ignore[CP101]")
    (proj / "proj" / "src" / "bad.cu").write_bytes(src)
    code, text = hook("check", "proj/src/bad.cu", cwd=proj, capsys=capsys)
    assert code == 0 and "CP101" not in text
    code, out, _ = run("check", "proj/src/bad.cu", cwd=proj)
    assert code == 0 and "CP101" not in out
    # without the comment both fail
    (proj / "proj" / "src" / "bad.cu").write_bytes(UNMAPPED)
    assert hook("check", "proj/src/bad.cu", cwd=proj, capsys=capsys)[0] == 1
    assert run("check", "proj/src/bad.cu", cwd=proj)[0] == 1


def test_a_binary_file_met_while_walking_is_cp930_everywhere(proj: Path, capsys):
    (proj / "proj" / "src" / "blob.cu").write_bytes(b"// data\n\x01\x00\x02")
    for front, text in answers(proj, capsys).items():
        assert "CP902" not in text, front
        if front != "report":  # (the Markdown report lists counts per code, not files)
            assert "blob.cu:2:1: CP930" in text, front
        else:
            assert "CP930" in text, front
    # named on the command line it is an input error, as for any command
    code, _, err = run("check", "proj/src/blob.cu", cwd=proj)
    assert code == 2 and "binary file" in err
    code, _, err = run("translate", "proj/src/blob.cu", cwd=proj)
    assert code == 2 and "binary file" in err


def test_check_has_jobs_quiet_and_exclude_like_translate(proj: Path, capsys):
    for i in range(12):
        (proj / "proj" / "src" / f"k{i}.cu").write_bytes(CLEAN)
    (proj / "proj" / "vendor").mkdir()
    (proj / "proj" / "vendor" / "bad.cu").write_bytes(UNMAPPED)
    text = answers(proj, capsys, "--exclude", "vendor/", "-j", "2", "-q")
    assert "vendor/bad.cu" not in text["check"] and "vendor/bad.cu" not in text["translate"]
    assert "vendor/bad.cu" not in text["report"]
    code, out, err = run("check", "proj", "-j", "2", "-q", "--no-config", cwd=proj)
    assert code == 1 and "vendor/bad.cu:2" in out and err == ""


TORCH = b"import torch\nx = torch.zeros(3).cuda()\ntorch.cuda.synchronize()\n"


def test_a_single_python_file_is_translated_and_counted_as_in_a_folder(tmp_path: Path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "train.py").write_bytes(TORCH)
    args = ("--framework", "pytorch", "--target", "musa")
    code, out, err = run("translate", "pkg/train.py", *args, cwd=tmp_path)
    assert code == 0 and "torch.musa.synchronize()" in out and "zeros(3).musa()" in out
    assert "import torch_musa" in out
    assert any(line.startswith("1 file(s), 1 changed; 0 CUDA reference(s)")
               for line in err.splitlines()), err
    code, _, err = run("translate", "pkg", *args, "--out-dir", "out", "--no-cache", cwd=tmp_path)
    assert code == 0 and (tmp_path / "out" / "train.py").read_text() == out
    assert any(line.startswith("1 file(s), 1 changed; 0 CUDA reference(s)")
               for line in err.splitlines())


def test_json_report_is_the_same_for_a_file_and_a_folder(proj: Path):
    (proj / "proj" / "src" / "bad.cu").write_bytes(UNMAPPED)
    (proj / "proj" / "src" / "ok.cu").unlink()
    run("translate", "proj/src/bad.cu", "-o", "single.hip", "--report", "single.json", cwd=proj)
    run("translate", "proj", "--out-dir", "out", "--no-cache", "--report", "tree.json", cwd=proj)
    single = json.loads((proj / "single.json").read_text())
    tree = json.loads((proj / "tree.json").read_text())
    assert single["summary"] == tree["summary"] and single["summary"]["references"] > 0
    assert single["files"] == tree["files"]
    assert not (Path(__file__).parent.parent / "cudaport" / "cli" / "tree.py").read_text().count("Result(")


def test_a_link_out_of_the_tree_is_the_same_note_everywhere(proj: Path, tmp_path: Path, capsys):
    outside = tmp_path / "elsewhere.cu"
    outside.write_bytes(UNMAPPED)
    (proj / "proj" / "src" / "link.cu").symlink_to(outside)
    for front, text in answers(proj, capsys).items():
        assert "CP101" not in text, front  # the file it points to is not read
        if front != "report":
            assert "proj/src/link.cu" in text and "CP931" in text, front


# One report model (cudaport.report.model): translate, check and report build the same
# Report from the runner's outcomes and render the same totals from it.

def tree(tmp_path: Path) -> Path:
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "ok.cu").write_bytes(CLEAN)
    (tmp_path / "proj" / "bad.cu").write_bytes(UNMAPPED)
    (tmp_path / "proj" / "notes.txt").write_bytes(b"copied, not counted\n")
    return tmp_path


def test_translate_and_check_report_the_same_totals(tmp_path: Path):
    root = tree(tmp_path)
    run("translate", "proj", "--out-dir", "out", "--no-cache", "--report", "tr.json", cwd=root)
    _, out, _ = run("check", "proj", "--format", "json", "--no-config", "--fail-on", "never",
                    cwd=root)
    translated = json.loads((root / "tr.json").read_text())["summary"]
    checked = json.loads(out)["summary"]
    assert translated["files"] == checked["files"] == 2  # the copied .txt is not a file
    assert translated["known_cuda_references"] == checked["cuda_references"] > 0
    assert translated["ported"] == checked["ported"] < checked["cuda_references"]
    assert translated["percent_ported"] == checked["percent_ported"]
    assert translated["by_code"] == checked["by_code"] and "CP101" in checked["by_code"]


def test_a_link_is_a_note_not_a_file_in_every_count(tmp_path: Path):
    root = tree(tmp_path)
    (root / "elsewhere.cu").write_bytes(UNMAPPED)
    (root / "proj" / "link.cu").symlink_to(root / "elsewhere.cu")
    _, out, _ = run("check", "proj", "--no-config", "--fail-on", "never", cwd=root)
    assert "proj/link.cu" in out and "CP931" in out
    assert re.search(r"in 2 file\(s\)", out.splitlines()[-1]), out
    _, _, err = run("translate", "proj", "--check", "--no-cache", cwd=root)
    assert any(line.startswith("2 file(s), ") for line in err.splitlines()), err


def outcome(shown: str, **kw) -> FileOutcome:
    o = FileOutcome(shown, "source", **kw)
    o.references = []
    return o


def test_collect_keeps_files_counts_stale_and_turns_failures_into_errors():
    finding = Finding("CP101", "no equivalent", "a.cu", 2, 3)
    outcomes = [outcome("a.cu", status="stale", changed=True, findings=[finding]),
                FileOutcome("b.txt", "copy"), outcome("c.cu", status="failed"),
                outcome("d.cu", status="failed", message="d.cu: cannot read")]
    report = collect(outcomes, Options(), "HIP", errors=["x: no such file or folder"])
    assert [r.path for r in report.files] == ["a.cu"]
    assert report.files[0].findings == [finding] and report.files[0].changed
    assert report.errors == ["x: no such file or folder", "c.cu: failed", "d.cu: cannot read"]
    assert report.stale == 1 and report.exit_code("never") == 2
    report.errors.clear()
    assert report.exit_code("never") == 1 and report.exit_code("error") == 1


def test_collect_fills_verdicts_across_files_and_json_shows_them():
    ptx = Finding("CP210", "inline PTX", "lib/core.cuh", 1)
    outcomes = [outcome("lib/core.cuh", findings=[ptx], blockers=1),
                outcome("main.cu", includes=("lib/core.cuh",)), outcome("other.cu")]
    report = collect(outcomes, Options(), "HIP")
    verdicts = {r.path: (r.verdict, r.blocking) for r in report.files}
    assert verdicts == {
        "lib/core.cuh": ("blocked", ("CP210 inline PTX assembly (1)",)),
        "main.cu": ("blocked", ("includes lib/core.cuh, which is blocked: main.cu -> "
                                "lib/core.cuh:1:0 CP210 inline PTX",)),
        "other.cu": ("ports cleanly", ())}
    totals = compute(report)
    assert totals.blockers == 1 and totals.percent == 0.0
    files = json.loads(json_report.render(report, totals))["files"]
    assert files[1]["verdict"] == "blocked" and files[2]["blocking"] == []


def test_notes_are_records_but_not_files():
    note = Finding("CP931", "symbolic link out of the tree", "l.cu")
    report = collect([outcome("a.cu")], Options(), "HIP", notes=[FileReport("l.cu", [note])])
    totals = compute(report)
    assert totals.files == 1 and totals.findings == 1 and report.findings == [note]
    assert [f["path"] for f in json.loads(json_report.render(report, totals))["files"]] \
        == ["a.cu"]
