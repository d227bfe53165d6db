"""Per-file verdicts (ports cleanly / with warnings / blocked) in every report format, and a
headline percentage that counts what blocks compilation (issue 16)."""

from __future__ import annotations

import json

import pytest

from check_fixtures import run  # noqa: F401
from cudaport.report import verdict as V
from cudaport.findings import Finding, Reference

CLEAN = b"__global__ void k(float *x) { x[threadIdx.x] = 1.0f; }\n"
WARNS = b"__global__ void k(int *x) { int lane = threadIdx.x & 31; x[lane] = 0; }\n"
# Every CUDA reference of this file ports; the PTX alone blocks it.
BLOCKED = (b"__global__ void k(int *x) {\n"
           b"  int lane; asm volatile(\"mov.u32 %0, %%warpid;\" : \"=r\"(lane));\n"
           b"  x[threadIdx.x] = lane;\n}\n")


@pytest.fixture
def three(tmp_path, monkeypatch):
    (tmp_path / "p").mkdir()
    for name, text in (("clean.cu", CLEAN), ("warns.cu", WARNS), ("blocked.cu", BLOCKED)):
        (tmp_path / "p" / name).write_bytes(text)
    monkeypatch.chdir(tmp_path)
    return tmp_path / "p"


def test_rule():
    err = Finding("CP210", "asm", line=2)
    warn = Finding("CP203", "lane")
    note = Finding("CP108", "note")
    assert V.verdict([]) == V.Verdict(V.CLEAN)
    assert V.verdict([note]) == V.Verdict(V.CLEAN)
    assert V.verdict([warn, note]) == V.Verdict(V.WARNINGS)
    v = V.verdict([warn, err, err])
    assert v.status == V.BLOCKED and v.reasons == ("CP210 inline PTX assembly (2)",)


def test_blockers_are_errors_no_unported_reference_stands_for():
    unported = Reference("cudaFoo", "runtime", "unsupported", None, "r", line=3)
    ported = Reference("cudaBar", "runtime", "converted", b"hipBar", "r", line=4)
    findings = [Finding("CP101", "x", identifier="cudaFoo", line=3),     # the reference's
                Finding("CP216", "x", identifier="cudaBar", line=4),     # on a ported name
                Finding("CP110", "x", identifier="cuda::std", line=5),   # no reference
                Finding("CP203", "x", line=6)]                           # not an error
    assert V.unreferenced_blockers(findings, [unported, ported]) == 2


@pytest.mark.parametrize("value,text", [(100.0, "100.0%"), (99.96, "99.9%"), (99.94, "99.9%"),
                                        (0.0, "0.0%"), (50.0, "50.0%")])
def test_percentage_never_rounds_up_to_complete(value, text):
    assert V.pct(value) == text


def test_pct_whole_numbers():
    assert V.pct(99.6, 0) == "99%" and V.pct(100.0, 0) == "100%"


def test_text_summary_and_statistics(three):
    result = run("check", "p", "--statistics")
    assert result.exit_code == 1  # an error finding fails check by default
    out = result.stdout
    assert "blocked: p/blocked.cu: CP210 inline PTX assembly (1)" in out
    assert "ports with warnings: p/warns.cu" in out
    assert "clean.cu" not in out
    assert out.rstrip().endswith("Files: 1 port cleanly, 1 with warnings, 1 blocked.")
    # all three files' references port, yet the PTX statement keeps the headline below 100 %
    assert "1 blocking construct(s) ported to HIP" in out and "(100.0%)" not in out


def test_json(three):
    payload = json.loads(run("check", "p", "--format", "json").stdout)
    summary = payload["summary"]
    assert summary["verdicts"] == {V.CLEAN: 1, V.WARNINGS: 1, V.BLOCKED: 1}
    assert summary["percent_ported"] < 100 and summary["blocking_without_rule"] == 1
    by_path = {f["path"]: f for f in summary["files_by_verdict"]}
    assert by_path["p/blocked.cu"] == {"path": "p/blocked.cu", "verdict": V.BLOCKED,
                                       "blocking": ["CP210 inline PTX assembly (1)"]}
    assert by_path["p/clean.cu"]["verdict"] == V.CLEAN


def test_sarif(three):
    run_ = json.loads(run("check", "p", "--format", "sarif").stdout)["runs"][0]
    summary = run_["properties"]["summary"]
    assert summary["verdicts"][V.BLOCKED] == 1
    assert {f["path"]: f["verdict"] for f in summary["files_by_verdict"]}["p/warns.cu"] == V.WARNINGS


def test_markdown(three):
    md = run("check", "p", "--format", "markdown").stdout
    assert "Files: 1 port cleanly, 1 with warnings, **1 blocked**." in md
    assert "| `p/blocked.cu` | blocked | CP210 inline PTX assembly (1) |" in md
    assert "| `p/warns.cu` | ports with warnings |  |" in md


def test_html(three, tmp_path):
    out = tmp_path / "r.html"
    assert run("report", "p", "--html", str(out)).exit_code in (0, 1)
    page = out.read_text()
    assert "Verdict per file" in page and "CP210 inline PTX assembly (1)" in page
    assert "files: port cleanly / with warnings / blocked" in page
    assert ">100%<" not in page


def test_translate_report_has_a_verdict_per_file(three, tmp_path):
    report = tmp_path / "t.json"
    result = run("translate", "p", "--out-dir", str(tmp_path / "out"), "--report", str(report))
    assert result.exit_code in (0, 1), result.stderr
    payload = json.loads(report.read_text())
    assert {f["path"].rsplit("/", 1)[-1]: f["verdict"] for f in payload["files"]} == {
        "clean.cu": V.CLEAN, "warns.cu": V.WARNINGS, "blocked.cu": V.BLOCKED}
    assert payload["summary"]["verdicts"] == {V.CLEAN: 1, V.WARNINGS: 1, V.BLOCKED: 1}


def test_a_file_including_a_blocked_file_is_blocked(tmp_path, monkeypatch):
    (tmp_path / "p" / "include" / "lib").mkdir(parents=True)
    (tmp_path / "p" / "src").mkdir()
    (tmp_path / "p" / "include" / "lib" / "core.cuh").write_bytes(
        b"#include <cuda/std/atomic>\ninline cuda::std::atomic<int>* counter;\n")
    (tmp_path / "p" / "include" / "lib" / "api.cuh").write_bytes(b'#include "core.cuh"\n')
    (tmp_path / "p" / "src" / "main.cu").write_bytes(
        b"#include <lib/api.cuh>\n" + CLEAN)
    (tmp_path / "p" / "src" / "other.cu").write_bytes(b'#include "api.cuh"\n' + CLEAN)
    monkeypatch.chdir(tmp_path)
    payload = json.loads(run("check", "p", "--format", "json").stdout)
    by_path = {f["path"]: f for f in payload["summary"]["files_by_verdict"]}
    assert by_path["p/include/lib/core.cuh"]["blocking"][0].startswith("CP110")
    cause = ("p/include/lib/core.cuh:1:11 CP110 cuda/std/atomic has no HIP equivalent; use "
             "<atomic> and std:: where the code is constexpr or host-only; HIP has no device "
             "std::atomic beyond that")
    assert by_path["p/include/lib/api.cuh"]["blocking"] == [
        "includes p/include/lib/core.cuh, which is blocked: p/include/lib/api.cuh:1 -> " + cause]
    assert by_path["p/src/main.cu"]["blocking"] == [
        "includes p/include/lib/api.cuh, which is blocked: p/src/main.cu:1 -> "
        "p/include/lib/api.cuh:1 -> " + cause]
    assert by_path["p/src/other.cu"]["verdict"] == V.BLOCKED  # (by its name, -I folders)


def test_an_include_never_resolves_into_a_sibling_project(tmp_path, monkeypatch):
    """A folder holding several projects (issue 30, item 8): cuda-samples' <helper_cuda.h>
    was resolved to rodinia's copy, llama.cpp's "common.h" to a cuda-samples file."""
    blocked = b"#include <cuda/std/atomic>\ninline cuda::std::atomic<int>* counter;\n"
    files = {
        "samples/CMakeLists.txt": b"", "samples/Common/helper_cuda.h": CLEAN,
        "samples/Common/common.h": b"#include <cuda/std/atomic>\ninline cuda::std::atomic<int>* counter;\n",
        "samples/Samples/vectorAdd/vectorAdd.cu": b"#include <helper_cuda.h>\n" + CLEAN,
        "rodinia/Makefile": b"", "rodinia/common/helper_cuda.h": blocked,
        "rodinia/bfs/bfs.cu": b"#include <helper_cuda.h>\n" + CLEAN,
        "llama/CMakeLists.txt": b"", "llama/common/common.h": CLEAN,
        "llama/examples/main.cpp": b'#include "common.h"\nint main() { return 0; }\n',
        # in its own project an include is searched in the includer's ancestors too
        "llama/ggml/common.cuh": blocked,
        "llama/ggml/src/ops.cu": b'#include "common.cuh"\n' + CLEAN,
    }
    for name, data in files.items():
        (tmp_path / "corpus" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "corpus" / name).write_bytes(data)
    monkeypatch.chdir(tmp_path)
    payload = json.loads(run("check", "corpus", "--format", "json").stdout)
    verdicts = {f["path"]: f["verdict"] for f in payload["summary"]["files_by_verdict"]}
    assert verdicts["corpus/samples/Samples/vectorAdd/vectorAdd.cu"] == V.CLEAN
    assert verdicts["corpus/llama/examples/main.cpp"] != V.BLOCKED
    assert verdicts["corpus/rodinia/bfs/bfs.cu"] == V.BLOCKED  # its own helper_cuda.h
    assert verdicts["corpus/llama/ggml/src/ops.cu"] == V.BLOCKED  # its ancestor's common.h
    # an include folder given (-I) is searched before the includer's ancestors, as by
    # the compiler
    (tmp_path / "corpus" / "llama" / "common" / "common.cuh").write_bytes(CLEAN)
    payload = json.loads(run("check", "corpus", "-I", "corpus/llama/common",
                             "--format", "json").stdout)
    verdicts = {f["path"]: f["verdict"] for f in payload["summary"]["files_by_verdict"]}
    assert verdicts["corpus/llama/ggml/src/ops.cu"] != V.BLOCKED


def test_includes_in_other_platform_branches_do_not_block(tmp_path, monkeypatch):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "cuda_only.cuh").write_bytes(b"#include <cuda/std/atomic>\ninline cuda::std::atomic<int>* counter;\n")
    (tmp_path / "p" / "k.cu").write_bytes(
        b'#ifndef USE_ROCM\n#include "cuda_only.cuh"\n#endif\n' + CLEAN)
    monkeypatch.chdir(tmp_path)
    payload = json.loads(run("check", "p", "--format", "json").stdout)
    by_path = {f["path"]: f["verdict"] for f in payload["summary"]["files_by_verdict"]}
    assert by_path == {"p/cuda_only.cuh": V.BLOCKED, "p/k.cu": V.CLEAN}


def test_c_files_that_reach_a_target_header_c_cannot_read_are_blocked(tmp_path, monkeypatch):
    # pjreddie/darknet: its .c files include darknet.h, which includes curand.h;
    # hiprand/hiprand.h does not compile as C (CP169).
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "lib.h").write_bytes(
        b'#include "curand.h"\n#ifdef __cplusplus\nextern "C" {\n#endif\nint f(void);\n'
        b"#ifdef __cplusplus\n}\n#endif\n")
    (tmp_path / "p" / "layer.h").write_bytes(b'#include "lib.h"\n')
    (tmp_path / "p" / "layer.c").write_bytes(b'#include "layer.h"\nint g(void) { return f(); }\n')
    (tmp_path / "p" / "kernels.cu").write_bytes(b'#include "lib.h"\n' + CLEAN)
    (tmp_path / "p" / "direct.c").write_bytes(b"#include <curand.h>\nint h(void);\n")
    monkeypatch.chdir(tmp_path)
    payload = json.loads(run("check", "p", "--format", "json").stdout)
    by_path = {f["path"]: f for f in payload["summary"]["files_by_verdict"]}
    assert by_path["p/lib.h"]["verdict"] == V.CLEAN  # (C++ files may include it)
    assert by_path["p/kernels.cu"]["verdict"] == V.CLEAN
    assert by_path["p/layer.c"]["blocking"] == [
        "includes p/lib.h, which includes hiprand/hiprand.h, which does not compile as C"]
    assert by_path["p/direct.c"]["blocking"][0].startswith("CP169")
    found = {(f["path"], f["severity"]) for f in payload["findings"] if f["code"] == "CP169"}
    assert found == {("p/lib.h", "info"), ("p/direct.c", "error")}


def test_a_blocked_include_chain_names_every_step_to_the_root_cause(tmp_path, monkeypatch):
    """Three headers away (issue 37): the unit's reason names each include on its line and
    the first error of the header blocked by itself, with its code, for check's text,
    its JSON and translate's report alike."""
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "main.cu").write_bytes(b"// unit\n#include \"a.cuh\"\n" + CLEAN)
    (tmp_path / "p" / "a.cuh").write_bytes(b"#pragma once\n\n#include \"b.cuh\"\n")
    (tmp_path / "p" / "b.cuh").write_bytes(b"#pragma once\n#include \"c.cuh\"\n")
    (tmp_path / "p" / "c.cuh").write_bytes(
        b"#pragma once\ninline void f() {\n  asm volatile(\"bar.arrive 1, 64;\");\n}\n")
    monkeypatch.chdir(tmp_path)
    payload = json.loads(run("check", "p", "--format", "json").stdout)
    by_path = {f["path"]: f for f in payload["summary"]["files_by_verdict"]}
    (reason,) = by_path["p/main.cu"]["blocking"]
    assert reason.startswith("includes p/a.cuh, which is blocked: p/main.cu:2 -> p/a.cuh:3 -> "
                             "p/b.cuh:2 -> p/c.cuh:3:3 CP210 "), reason
    text = run("check", "p", "--statistics").stdout
    assert "blocked: p/main.cu: includes p/a.cuh, which is blocked: p/main.cu:2 -> " in text
    report = tmp_path / "t.json"
    run("translate", "p", "--out-dir", str(tmp_path / "out"), "--report", str(report))
    files = {f["path"]: f for f in json.loads(report.read_text())["files"]}
    assert files["p/main.cu"]["blocking"] == [reason]
