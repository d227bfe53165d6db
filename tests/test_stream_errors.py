"""Errors a user can cause end in one line naming the file and exit code 2, never a
traceback: a full stdout (``> /dev/full``), a stdout closed before the start (``>&-``),
a reader that went away (``| head``), a configuration file that is not UTF-8, and a cache
that cannot be read or created."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

CUDA = b"#include <cuda_runtime.h>\nvoid f(void* p) { cudaMalloc(&p, 4); cudaFree(p); }\n"
# Every command that writes to stdout, with arguments that make it write something.
COMMANDS = {
    "translate": ["translate", "k.cu"],
    "check": ["check", "k.cu"],
    "check-sarif": ["check", "k.cu", "--format", "sarif"],
    "report": ["report", "k.cu"],
    "rules": ["rules", "list"],
    "explain": ["explain", "CP101"],
}


def _run(args: list[str], cwd: Path, env: dict | None = None, **streams):
    env = dict(os.environ if env is None else env, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "cudaport", *args], cwd=cwd, env=env,
                          stderr=subprocess.PIPE, **streams)


def _no_traceback(proc) -> str:
    err = proc.stderr.decode(errors="replace")
    assert "Traceback" not in err and "Exception ignored" not in err, err
    return err


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "k.cu").write_bytes(CUDA)
    return tmp_path


@pytest.mark.parametrize("name", list(COMMANDS))
def test_full_stdout(name, project):
    with open("/dev/full", "w") as full:
        proc = _run(COMMANDS[name], project, stdout=full)
    err = _no_traceback(proc)
    assert proc.returncode == 2
    assert err.strip().splitlines()[-1] == \
        "cudaport: error: stdout: cannot write: no space left on the device"


@pytest.mark.parametrize("name", list(COMMANDS))
def test_reader_gone(name, project):
    read, write = os.pipe()
    os.close(read)  # as after `| head` has exited
    try:
        proc = _run(COMMANDS[name], project, stdout=write)
    finally:
        os.close(write)
    err = _no_traceback(proc)
    assert proc.returncode == 2
    assert err.strip().splitlines()[-1].startswith("cudaport: error: stdout: cannot write")


@pytest.mark.parametrize("name", ["translate", "check", "rules"])
def test_stdout_closed_at_start(name, project):
    proc = _run(COMMANDS[name], project, preexec_fn=lambda: os.close(1))
    _no_traceback(proc)
    assert proc.returncode == 2


def test_head_reads_part_of_a_long_output(project):
    """The real `| head`: the reader exits after its first line while the list goes on."""
    shell = f"{sys.executable} -m cudaport rules list | head -n 1 >/dev/null; " \
            "echo ${PIPESTATUS[0]} >&2"
    proc = subprocess.run(["bash", "-c", shell], cwd=project, stderr=subprocess.PIPE,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)))
    err = _no_traceback(proc)
    assert err.strip().splitlines()[-1] in ("0", "2")  # 0 if the pipe took it all


def test_output_file_is_not_affected_by_a_closed_stdout(project):
    proc = _run(["translate", "k.cu", "-o", "out.cu"], project, preexec_fn=lambda: os.close(1))
    _no_traceback(proc)
    assert proc.returncode == 0 and b"hipFree" in (project / "out.cu").read_bytes()


@pytest.mark.parametrize("config", ["pyproject.toml", ".cudaport.toml"])
@pytest.mark.parametrize("name", ["translate", "check", "report"])
def test_config_not_utf8(name, config, project):
    header = "[tool.cudaport]\n" if config == "pyproject.toml" else ""
    (project / config).write_bytes(header.encode() + b"# caf\xe9\ntarget = \"hip\"\n")
    proc = _run(COMMANDS[name], project, stdout=subprocess.DEVNULL)
    err = _no_traceback(proc)
    assert proc.returncode == 2
    assert err.strip() == (f"cudaport: error: {(project / config).resolve()}:"
                           f"{2 if header else 1}: not UTF-8 (byte 0xe9); TOML files must be UTF-8")


@pytest.mark.parametrize("name", list(COMMANDS))
def test_cache_that_cannot_be_used(name, project):
    """A cache path through a regular file (no folder can be made there), then a cache
    folder whose every file is garbage: commands run as without a cache."""
    blocker = project / "not-a-folder"
    blocker.write_bytes(b"x")
    env = dict(os.environ, CUDAPORT_CACHE_DIR=str(blocker / "cache"))
    first = _run(COMMANDS[name], project, env, stdout=subprocess.PIPE)
    _no_traceback(first)
    garbage = project / "cache"
    env["CUDAPORT_CACHE_DIR"] = str(garbage)
    assert _run(COMMANDS[name], project, env, stdout=subprocess.DEVNULL).returncode \
        == first.returncode
    cached = [p for p in garbage.rglob("*") if p.is_file()]
    for path in cached:
        path.write_bytes(b"\x80not a pickle")
    again = _run(COMMANDS[name], project, env, stdout=subprocess.PIPE)
    _no_traceback(again)
    assert (again.returncode, again.stdout) == (first.returncode, first.stdout)
