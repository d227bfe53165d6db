"""The translate command: outputs, exit codes, reports and error messages."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cudaport.cli.main import main
from conftest import ROOT

CLEAN = b"#include <cuda_runtime.h>\nvoid f(float* p) { cudaFree(p); }\n"
UNMAPPED = b"#include <cuda_runtime.h>\nvoid f() { cudaDeviceRegisterAsyncNotification(0, 0, 0); }\n"


def run(*args, input=None):
    return CliRunner().invoke(main, list(args), input=input)


def test_stdout_and_exit_0(tmp_path):
    src = tmp_path / "a.cu"
    src.write_bytes(CLEAN)
    r = run("translate", str(src))
    assert r.exit_code == 0, r.output
    assert "hipFree(p)" in r.stdout
    assert "ported (100.0%)" in r.stderr
    assert src.read_bytes() == CLEAN  # the input is never touched


def test_unmapped_gives_exit_1_and_fail_on_tunes_it(tmp_path):
    src = tmp_path / "a.cu"
    src.write_bytes(UNMAPPED)
    r = run("translate", str(src), "-o", str(tmp_path / "a.hip"))
    assert r.exit_code == 1
    assert f"{src}:2:12: CP101 cudaDeviceRegisterAsyncNotification has no HIP equivalent (CUDA 12.4+)" in r.stderr
    assert (tmp_path / "a.hip").exists()  # translated anyway
    assert run("translate", str(src), "-q", "--fail-on", "never").exit_code == 0


def test_stdin_to_stdout():
    r = run("translate", "-", input=CLEAN)
    assert r.exit_code == 0 and "hipFree" in r.stdout


def test_out_dir_mirrors_relative_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src" / "k").mkdir(parents=True)
    (tmp_path / "src" / "k" / "a.cu").write_bytes(CLEAN)
    (tmp_path / "src" / "b.cuh").write_bytes(CLEAN)
    r = run("translate", "src/k/a.cu", "src/b.cuh", "--out-dir", "out", "-q")
    assert r.exit_code == 0, r.output
    # (below the inputs' common folder, src/: see test_newcomer's mirroring rule)
    assert b"hipFree" in (tmp_path / "out" / "k" / "a.cu").read_bytes()
    assert (tmp_path / "out" / "b.cuh").exists()


def test_in_place_rewrites_and_keeps_mode(tmp_path):
    src = tmp_path / "a.cu"
    src.write_bytes(CLEAN)
    os.chmod(src, 0o640)
    assert run("translate", str(src), "--in-place", "-q").exit_code == 0
    assert b"hipFree" in src.read_bytes()
    assert oct(src.stat().st_mode & 0o777) == "0o640"
    assert not [p for p in tmp_path.iterdir() if p.name != "a.cu"]  # no temp files left


def test_refuses_to_overwrite_input_without_in_place(tmp_path):
    src = tmp_path / "a.cu"
    src.write_bytes(CLEAN)
    r = run("translate", str(src), "-o", str(src))
    assert r.exit_code == 2
    assert "refusing to overwrite the input" in r.stderr
    assert src.read_bytes() == CLEAN


@pytest.mark.parametrize("args,message", [
    (["missing.cu"], "missing.cu: no such file"),
    (["a.cu", "b.cu"], "several inputs need --out-dir or --in-place"),
    (["a.cu", "-o", "x", "--in-place"], "choose one of -o, --out-dir and --in-place"),
    (["a.cu", "--hip-version", "six"], "--hip-version 'six'"),
    (["a.cu", "--target", "nope"], "unknown target 'nope'"),
])
def test_usage_and_input_errors_exit_2(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.cu").write_bytes(CLEAN)
    r = run("translate", *args)
    assert r.exit_code == 2
    assert message in r.stderr
    assert "Traceback" not in r.output


def test_binary_input_is_an_error_naming_the_file(tmp_path):
    src = tmp_path / "blob.cu"
    src.write_bytes(b"int x;\n\x00\x01\x02")
    r = run("translate", str(src))
    assert r.exit_code == 2
    assert f"{src}:2: binary file" in r.stderr


def test_unreadable_input(tmp_path):
    # Root reads any file whatever its mode, so use a path that cannot be opened at all.
    (tmp_path / "plain").write_bytes(b"")
    r = run("translate", str(tmp_path / "plain" / "a.cu"))
    assert r.exit_code == 2
    assert f"{tmp_path / 'plain' / 'a.cu'}: cannot read: Not a directory" in r.stderr


def test_directory_input_is_reported(tmp_path):
    r = run("translate", str(tmp_path))
    assert r.exit_code == 2 and "is a directory" in r.stderr


def test_bad_user_rule_file_names_file_and_line(tmp_path):
    rules = tmp_path / "mine.yaml"
    rules.write_text("library: mine\nidentifiers:\n  cudaFoo: {to: hipFoo, colour: red}\n")
    src = tmp_path / "a.cu"
    src.write_bytes(CLEAN)
    r = run("translate", str(src), "--rules", str(rules))
    assert r.exit_code == 2
    assert f"{rules}:3:" in r.stderr and "unknown key 'colour'" in r.stderr


def test_json_report(tmp_path):
    src = tmp_path / "a.cu"
    src.write_bytes(UNMAPPED + b"void g() { MY_CUDA_CHECK(1); cudaGetLastError(); }\n")
    report = tmp_path / "r.json"
    r = run("translate", str(src), "-q", "--report", str(report), "-o", str(tmp_path / "o.cu"))
    assert r.exit_code == 1
    data = json.loads(report.read_text())
    (f,) = data["files"]
    assert [u["identifier"] for u in f["unmapped"]] == ["cudaDeviceRegisterAsyncNotification"]
    assert {x["identifier"]: x["status"] for x in f["references"]} == {
        "cuda_runtime.h": "converted", "cudaDeviceRegisterAsyncNotification": "unsupported",
        "cudaGetLastError": "converted"}
    assert data["summary"]["by_status"] == {"converted": 2, "unsupported": 1}
    assert [x["code"] for x in f["findings"]] == ["CP101"]


def test_version_and_module_entry_point():
    r = subprocess.run([sys.executable, "-m", "cudaport", "--version"], capture_output=True,
                       text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.returncode == 0 and r.stdout.startswith("cudaport, version ")


def test_every_command_module_defines_the_command_of_its_name():
    """The sub-commands load by module name, so each module's command carries it (with
    ``-`` for ``_``: portable_header.py is ``cudaport portable-header``)."""
    from cudaport.cli.commands import load, module_names

    assert {name: load(name).name for name in module_names()} == {
        name: name.replace("_", "-") for name in module_names()}


def test_check_imports_only_the_check_command(tmp_path):
    """The pre-commit case (``cudaport check one.cu``) loads no other sub-command."""
    src = tmp_path / "a.cu"
    src.write_text("int main() { return 0; }\n")
    probe = ("import sys\nfrom cudaport.cli.entry import main\n"
             "try:\n    main(['check', sys.argv[1]])\n"
             "except SystemExit:\n    pass\n"
             "print(sorted(m for m in sys.modules if m.startswith('cudaport.cli.commands.')))\n")
    r = subprocess.run([sys.executable, "-c", probe, str(src)], capture_output=True,
                       text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert r.stdout.strip().splitlines()[-1] == "['cudaport.cli.commands.check']", r.stderr


def test_out_dir_removed_between_runs_in_one_process(tmp_path, monkeypatch):
    # folders seen in one run are remembered; one deleted before the next run is made again
    monkeypatch.chdir(tmp_path)
    (tmp_path / "src" / "k").mkdir(parents=True)
    (tmp_path / "src" / "k" / "a.cu").write_bytes(CLEAN)
    (tmp_path / "src" / "k" / "b.cu").write_bytes(CLEAN)
    for _ in range(2):
        r = run("translate", "src", "--out-dir", "out", "-q", "--no-cache")
        assert r.exit_code == 0, r.output
        assert b"hipFree" in (tmp_path / "out" / "k" / "b.cu").read_bytes()
        shutil.rmtree(tmp_path / "out")
