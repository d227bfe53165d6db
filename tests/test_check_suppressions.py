"""Suppression comments: where they apply, which codes, and reports of stale ones."""

from __future__ import annotations

from pathlib import Path

import pytest

from check_fixtures import run
from cudaport.report import suppressions as S
from cudaport.findings import Finding

MISSING = "cudaArrayGetPlane(0, 0, 0);"  # CP101 at column 1 (or after indentation)


def check(tmp_path: Path, monkeypatch, source: str, *args: str):
    (tmp_path / "k.cu").write_text(source)
    monkeypatch.chdir(tmp_path)
    return run("check", "k.cu", "--no-config", *args)


@pytest.mark.parametrize("source, hidden", [
    (f"{MISSING} // cudaport: ignore\n", True),
    (f"{MISSING} // cudaport: ignore[CP101]\n", True),
    (f"{MISSING} // cudaport: ignore[CP1]\n", True),               # a prefix
    (f"{MISSING} /* cudaport: ignore[CP102, CP101] */\n", True),
    (f"// cudaport: ignore[CP101]\n{MISSING}\n", True),            # alone: covers next line
    (f"  /* cudaport: ignore */\n  {MISSING}\n", True),
    (f"{MISSING} // cudaport: ignore[CP102]\n", False),            # another code
    (f"// cudaport: ignore\n\n{MISSING}\n", False),                # two lines above
    (f"int x; // cudaport: ignore\n{MISSING}\n", False),           # trailing: its own line only
    (f'puts("// cudaport: ignore"); {MISSING}\n', False),          # inside a string
    (f"{MISSING} // cudaport:ignore[cp101]\n", False),             # codes are upper case
])
def test_where_suppressions_apply(tmp_path, monkeypatch, source, hidden):
    result = check(tmp_path, monkeypatch, source)
    assert ("CP101" in result.stdout) is not hidden
    assert result.exit_code == (0 if hidden else 1)
    assert ("1 suppressed" in result.stdout) is hidden


def test_unused_suppressions_are_reported_on_request(tmp_path, monkeypatch):
    source = (f"{MISSING} // cudaport: ignore[CP101,CP102]\n"
              "int y; // cudaport: ignore\n")
    quiet = check(tmp_path, monkeypatch, source)
    assert "CP910" not in quiet.stdout and quiet.exit_code == 0
    loud = check(tmp_path, monkeypatch, source, "--warn-unused-ignores", "--fail-on", "warning")
    assert loud.exit_code == 1
    lines = loud.stdout.splitlines()
    assert lines[0] == "k.cu:1:32: CP910 unused suppression for CP102: no such finding on line 1"
    assert lines[1] == "k.cu:2:11: CP910 unused suppression: no finding on the covered line 2"


def test_warn_unused_ignores_from_config(tmp_path, monkeypatch):
    (tmp_path / ".cudaport.toml").write_text("warn-unused-ignores = true\n")
    (tmp_path / "k.cu").write_text("int y; // cudaport: ignore\n")
    monkeypatch.chdir(tmp_path)
    assert "CP910" in run("check", "k.cu").stdout


def test_unknown_codes_in_a_suppression_are_reported(tmp_path, monkeypatch):
    result = check(tmp_path, monkeypatch, f"{MISSING} // cudaport: ignore[CP1O1]\n")
    assert "CP911 suppression lists 'CP1O1', which is not a cudaport code" in result.stdout
    assert "CP101" in result.stdout  # the typo hid nothing


def test_ignored_codes_do_not_count_as_used(tmp_path, monkeypatch):
    # --ignore removes CP101 first, so the comment hid nothing and is reported as unused.
    result = check(tmp_path, monkeypatch, f"{MISSING} // cudaport: ignore[CP101]\n",
                   "--ignore", "CP101", "--warn-unused-ignores")
    assert "CP910 unused suppression for CP101" in result.stdout


def test_parse_and_apply_directly():
    src = b"a();\n// cudaport: ignore[CP10]\nb();\nc(); // cudaport: ignore\n"
    comments = S.parse(src)
    assert [(s.line, s.covers, s.codes) for s in comments] == [(2, 3, ("CP10",)), (4, 4, None)]
    findings = [Finding("CP101", "m", "f", 1, 1), Finding("CP101", "m", "f", 3, 1),
                Finding("CP901", "m", "f", 3, 1), Finding("CP109", "m", "f", 4, 1)]
    kept, hidden = S.apply(findings, comments)
    assert [(f.code, f.line) for f in kept] == [("CP101", 1), ("CP901", 3)] and hidden == 2
    assert S.parse(b"int main() {}\n") == []


def test_user_rule_codes_are_valid_in_suppressions():
    (s,) = S.parse(b"f(); // cudaport: ignore[ACME-002, CP1O1]\n")
    assert s.codes == ("ACME-002",) and s.bad == ("CP1O1",)
    kept, hidden = S.apply([Finding("ACME-002", "m", "f", 1, 1, "error")], [s])
    assert kept == [] and hidden == 1


@pytest.mark.parametrize("comment, status", [(" // cudaport: ignore[CP101]", 0), ("", 1)])
def test_translate_honours_suppressions_as_check_does(tmp_path: Path, monkeypatch, comment,
                                                      status):
    # translate said exit 1 and "blocked" where check said exit 0 and "ports cleanly"
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cu").write_text(f"void f() {{ {MISSING}{comment}\n}}\n")
    monkeypatch.chdir(tmp_path)
    checked = run("check", "src/k.cu", "--no-config")
    one = run("translate", "src/k.cu", "-o", "k.hip")
    tree = run("translate", "src", "--out-dir", "out", "--no-cache")
    assert checked.exit_code == one.exit_code == tree.exit_code == status, \
        (checked.output, one.output, tree.output)
    verdict = "1 port cleanly" if status == 0 else "1 blocked"
    assert verdict in one.output and verdict in tree.output
    assert ("CP101" in one.output) == bool(status)
