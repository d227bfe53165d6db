"""Every output format on the same fixture project: SARIF against the official schema,
JSON, GitHub annotations, Markdown; and the renderers agree on the numbers."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest

from check_fixtures import proj, run  # noqa: F401  (fixture)
from cudaport.findings import CODES
from cudaport.report.github import render as github_render

SCHEMA = Path(__file__).resolve().parent / "data" / "sarif" / "sarif-schema-2.1.0.json"
LOCATIONS = [("proj/src/graph.cuh", 5, 3, "CP101"), ("proj/src/graph.cuh", 8, 3, "CP101"),
             ("proj/src/kernel.cu", 14, 3, "CP101"), ("proj/src/kernel.cu", 16, 3, "CP103")]


@pytest.fixture(scope="module")
def sarif_validator():
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.FormatChecker())


def test_sarif_is_valid_and_complete(proj, sarif_validator):
    result = run("check", "proj", "--format", "sarif")
    assert result.exit_code == 1
    log = json.loads(result.stdout)
    errors = sorted(sarif_validator.iter_errors(log), key=str)
    assert not errors, "\n".join(e.message for e in errors[:5])
    run_ = log["runs"][0]
    rules = run_["tool"]["driver"]["rules"]
    assert {r["id"] for r in rules} == set(CODES)
    for r in rules:
        assert r["help"]["text"] and r["helpUri"].startswith("https://")
        assert r["shortDescription"]["text"] == CODES[r["id"]].title
    got = []
    for res in run_["results"]:
        loc = res["locations"][0]["physicalLocation"]
        got.append((loc["artifactLocation"]["uri"], loc["region"]["startLine"],
                    loc["region"]["startColumn"], res["ruleId"]))
        assert rules[res["ruleIndex"]]["id"] == res["ruleId"]
        assert len(res["partialFingerprints"]["cudaportFingerprint/v1"]) == 32
    assert got == LOCATIONS
    assert [r["level"] for r in run_["results"]] == ["error", "error", "error", "warning"]
    assert run_["invocations"][0]["executionSuccessful"] is True


def test_sarif_with_an_input_error_and_no_findings_is_still_valid(proj, sarif_validator):
    (proj / "src" / "blob.cu").write_bytes(b"\0")
    result = run("check", "proj/src/blob.cu", "--format", "sarif", "--select", "CP9")
    assert result.exit_code == 2
    log = json.loads(result.stdout)
    assert not list(sarif_validator.iter_errors(log))
    invocation = log["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert "binary file" in invocation["toolExecutionNotifications"][0]["message"]["text"]


def test_sarif_fingerprints_match_the_baseline(proj, tmp_path):
    log = json.loads(run("check", "proj", "--format", "sarif").stdout)
    run("check", "proj", "--write-baseline", "b.json")
    baseline = json.loads((tmp_path / "b.json").read_text())
    assert sorted(r["partialFingerprints"]["cudaportFingerprint/v1"] for r in log["runs"][0]["results"]) \
        == sorted(e["fingerprint"] for e in baseline["findings"])


def test_json_format(proj):
    data = json.loads(run("check", "proj", "--format", "json").stdout)
    assert [(f["path"], f["line"], f["col"], f["code"]) for f in data["findings"]] == LOCATIONS
    assert data["summary"]["by_code"] == {"CP101": 3, "CP103": 1}
    assert data["summary"]["percent_ported"] == 73.68
    assert data["summary"]["suppressed"] == 2 and data["errors"] == []


def test_github_format(proj):
    lines = run("check", "proj", "--format", "github").stdout.splitlines()
    assert lines[:4] == [
        "::error file=proj/src/graph.cuh,line=5,col=3,title=CP101::cudaArraySparseProperties has no HIP equivalent (CUDA 11.1+)",
        "::error file=proj/src/graph.cuh,line=8,col=3,title=CP101::cudaArrayGetSparseProperties has no HIP equivalent (CUDA 11.1+)",
        "::error file=proj/src/kernel.cu,line=14,col=3,title=CP101::cudaArrayGetPlane has no HIP equivalent (CUDA 11.2+)",
        "::warning file=proj/src/kernel.cu,line=16,col=3,title=CP103::cudaThreadSynchronize was removed in CUDA 13.0",
    ]
    assert lines[4].startswith("Found 4 finding(s)")


def test_github_escapes_properties_and_messages():
    from cudaport.report.model import FileReport, Report
    from cudaport.findings import Finding
    from cudaport.options import Options
    from cudaport.report.totals import compute

    f = Finding("CP108", "50% done,\nsee: notes", "dir,a:b%.cu", 3, 4)
    report = Report([FileReport("dir,a:b%.cu", [f], ["x" * 32])], [], Options(), "HIP")
    first = github_render(report, compute(report)).splitlines()[0]
    assert first == "::notice file=dir%2Ca%3Ab%25.cu,line=3,col=4,title=CP108::50%25 done,%0Asee: notes"
    whole_file = Finding("CP902", "binary", "b.cu", 0, 0)
    report = Report([FileReport("b.cu", [whole_file], ["y" * 32])], [], Options(), "HIP")
    assert github_render(report, compute(report)).startswith("::error file=b.cu,title=CP902::binary\n")


def test_markdown_format_and_report_command_agree(proj, tmp_path):
    md = run("check", "proj", "--format", "markdown").stdout
    assert "**4 finding(s)** in 3 file(s): 3 error, 1 warning, 0 info." in md
    assert "14 of 19 CUDA references ported to HIP (**73.7%**); 2 suppressed." in md
    assert "| `cudaArrayGetPlane` | runtime | 2 | proj/src/kernel.cu:14, proj/src/kernel.cu:17 |" in md
    assert "| `proj/src/kernel.cu:16:3` | `CP103` | cudaThreadSynchronize was removed in CUDA 13.0 |" in md
    result = run("report", "proj", "--markdown", "pr.md")
    assert result.exit_code == 0  # report fails only when asked (--fail-on)
    assert (tmp_path / "pr.md").read_text() == md
    assert run("report", "proj", "--fail-on", "error").exit_code == 1
    assert run("report", "proj").stdout == md  # no --html: Markdown on stdout


def test_markdown_escapes_table_cells():
    from cudaport.report.markdown import md_escape

    assert md_escape("a|b`c\nd") == "a\\|b\\`c d"


def test_the_schema_rejects_a_broken_log(proj, sarif_validator):
    """Guards the guard: the vendored schema really constrains results."""
    log = json.loads(run("check", "proj", "--format", "sarif").stdout)
    del log["runs"][0]["results"][0]["message"]
    log["runs"][0]["results"][1]["level"] = "fatal"
    assert len(list(sarif_validator.iter_errors(log))) >= 2


def test_user_rule_codes_get_a_sarif_rule(sarif_validator):
    """Codes from users' check rules (never CP...) are valid results with their own rule."""
    from cudaport.report.model import FileReport, Report
    from cudaport.findings import Finding
    from cudaport.options import Options
    from cudaport.report.sarif import render
    from cudaport.report.totals import compute

    f = Finding("ACME-002", "do not reset the device", "a.cu", 2, 5, "error")
    report = Report([FileReport("a.cu", [f], ["0" * 32])], [], Options(), "HIP")
    log = json.loads(render(report, compute(report)))
    assert not list(sarif_validator.iter_errors(log))
    result = log["runs"][0]["results"][0]
    rule = log["runs"][0]["tool"]["driver"]["rules"][result["ruleIndex"]]
    assert rule["id"] == "ACME-002" and rule["defaultConfiguration"]["level"] == "error"


def test_sarif_columns_count_utf16_units(tmp_path, monkeypatch):
    """Byte columns (text output) become UTF-16 columns in SARIF, as viewers count them."""
    # "é" is 2 bytes / 1 unit, "😀" 4 bytes / 2 units, "\xe9" alone (Latin-1) 1 byte / 1 unit.
    (tmp_path / "k.cu").write_bytes("/*é😀*/ cudaArrayGetPlane(0, 0, 0);\n".encode()
                                    + b"/*\xe9*/ cudaArrayGetPlane(0, 0, 0);\n")
    monkeypatch.chdir(tmp_path)
    text = run("check", "k.cu", "--no-config").stdout
    assert "k.cu:1:12: CP101" in text and "k.cu:2:7: CP101" in text
    log = json.loads(run("check", "k.cu", "--no-config", "--format", "sarif").stdout)
    assert log["runs"][0]["columnKind"] == "utf16CodeUnits"
    cols = [r["locations"][0]["physicalLocation"]["region"]["startColumn"]
            for r in log["runs"][0]["results"]]
    assert cols == [9, 7]


def test_sarif_uris_are_encoded_and_absolute_paths_are_file_uris(tmp_path, monkeypatch,
                                                                   sarif_validator):
    for folder in ("work/sub dir", "elsewhere"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "k#1.cu").write_text("cudaArrayGetPlane(0, 0, 0);\n")
    monkeypatch.chdir(tmp_path / "work")
    log = json.loads(run("check", "--no-config", "--format", "sarif", "sub dir",
                         str(tmp_path / "elsewhere")).stdout)
    assert not list(sarif_validator.iter_errors(log))
    uris = sorted(r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
                  for r in log["runs"][0]["results"])
    assert uris == sorted([(tmp_path / "elsewhere" / "k#1.cu").as_uri(), "sub%20dir/k%231.cu"])


def test_markdown_explains_hazards():
    """Hazard codes (CP2xx, from the hazard passes) get their explanation in the comment."""
    from cudaport.report.model import FileReport, Report
    from cudaport.findings import Finding
    from cudaport.options import Options
    from cudaport.report.markdown import render
    from cudaport.report.totals import CodeCount, compute

    report = Report([FileReport("a.cu", [Finding("CP101", "m", "a.cu", 1, 1)], ["0" * 32])],
                         [], Options(), "HIP")
    totals = compute(report)
    totals.codes.append(CodeCount("CP299", "warp-thing", "a warp hazard", "warning", 2,
                                  "What: lanes.\nWhy: width.\nFix: warpSize."))
    md = render(report, totals)
    assert "### Portability hazards" in md
    assert "<code>CP299</code> a warp hazard: 2" in md and "What: lanes.\nWhy: width." in md
    assert "Portability hazards" not in render(report, compute(report))
