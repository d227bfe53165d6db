"""The hooks in .pre-commit-hooks.yaml, run by the real pre-commit framework in temporary
git repositories (pre-commit builds its own virtualenv with cudaport installed from this
checkout, so the packaging is tested too)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cudaport.cli import hooks

ROOT = Path(__file__).resolve().parent.parent
OK = b"#include <cuda_runtime.h>\nint main() { float* p; cudaMalloc(&p, 4); cudaFree(p); }\n"
BAD = b"#include <cuda_runtime.h>\nint main() { cudaDeviceRegisterAsyncNotification(0, 0, 0); }\n"

pytestmark = [pytest.mark.slow, pytest.mark.skipif(
    shutil.which("git") is None or not (ROOT / ".git").exists(),
    reason="needs git and a git checkout of cudaport")]


def _pre_commit() -> list[str]:
    exe = shutil.which("pre-commit")
    return [exe] if exe else [sys.executable, "-m", "pre_commit"]


@pytest.fixture(scope="module")
def pc_env(tmp_path_factory) -> dict[str, str]:
    home = tmp_path_factory.mktemp("pre-commit-home")
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), GIT_AUTHOR_NAME="t",
               GIT_AUTHOR_EMAIL="t@t", GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@t")
    env.pop("PYTHONPATH", None)  # the hook must run from pre-commit's own install
    return env


NO_NETWORK = ("NewConnectionError", "Temporary failure in name resolution",
              "No matching distribution found", "Network is unreachable")


def pre_commit(args: list[str], repo: Path, env) -> subprocess.CompletedProcess:
    """Run pre-commit; skip (not fail) when its virtualenv cannot be built for want of
    PyPI (it installs cudaport's dependencies from there the first time)."""
    proc = subprocess.run(_pre_commit() + args, cwd=repo, env=env, capture_output=True,
                          text=True, timeout=600)
    if proc.returncode == 3:
        log = Path(env["PRE_COMMIT_HOME"]) / "pre-commit.log"
        text = proc.stdout + proc.stderr + (log.read_text() if log.exists() else "")
        if any(marker in text for marker in NO_NETWORK):
            pytest.skip("pre-commit could not install cudaport's dependencies (no PyPI)")
    return proc


def git(repo: Path, *args: str, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True,
                          check=True)


def new_repo(path: Path, files: dict[str, bytes], env) -> Path:
    path.mkdir()
    git(path, "init", "-q", env=env)
    for rel, data in files.items():
        (path / rel).parent.mkdir(parents=True, exist_ok=True)
        (path / rel).write_bytes(data)
    git(path, "add", ".", env=env)
    return path


def test_check_hook_with_try_repo(tmp_path: Path, pc_env):
    repo = new_repo(tmp_path / "user", {"ok.cu": OK, "bad.cu": BAD, "notes.txt": b"cudaDeviceRegisterAsyncNotification\n"},
                    pc_env)
    proc = pre_commit(["try-repo", str(ROOT), "cudaport-check", "--files", "ok.cu", "bad.cu",
                       "notes.txt"], repo, pc_env)
    assert proc.returncode == 1, proc.stdout + proc.stderr
    assert "bad.cu:2:14: CP101" in proc.stdout and "cudaDeviceRegisterAsyncNotification" in proc.stdout
    assert "ok.cu" not in proc.stdout.split("cudaport-check")[-1].replace("ok.cu ", "")
    proc = pre_commit(["try-repo", str(ROOT), "cudaport-check", "--files", "ok.cu"], repo, pc_env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Passed" in proc.stdout


def test_translate_check_hook_through_a_config(tmp_path: Path, pc_env):
    """The mirror hook needs arguments, which try-repo cannot pass: a .pre-commit-config
    names this checkout at its HEAD commit (so it checks the committed hook code)."""
    head = git(ROOT, "rev-parse", "HEAD").stdout.strip()
    config = (f"repos:\n- repo: {ROOT}\n  rev: {head}\n  hooks:\n"
              "  - id: cudaport-translate-check\n    args: [--source, src, --mirror, hip]\n")
    repo = new_repo(tmp_path / "user", {"src/k.cu": OK, "src/plain.cpp": b"int x;\n",
                                        ".pre-commit-config.yaml": config.encode()}, pc_env)
    run = ["run", "cudaport-translate-check", "--files", "src/k.cu", "src/plain.cpp"]
    proc = pre_commit(run, repo, pc_env)
    assert proc.returncode == 1 and "CP933" in proc.stdout and "missing" in proc.stdout, \
        proc.stdout + proc.stderr
    env = dict(pc_env, PYTHONPATH=str(ROOT))
    subprocess.run([sys.executable, "-m", "cudaport", "translate", "src", "--out-dir", "hip",
                    "-q"], cwd=repo, env=env, check=True)
    # the whole tree: k.cu translated, plain.cpp copied as it is (issue 37)
    assert (repo / "hip/k.cu").read_bytes() != OK
    assert (repo / "hip/plain.cpp").read_bytes() == b"int x;\n"
    proc = pre_commit(run, repo, pc_env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (repo / "src/k.cu").write_bytes(OK + b"void f() { cudaDeviceReset(); }\n")
    proc = pre_commit(run, repo, pc_env)
    assert proc.returncode == 1 and "out of date" in proc.stdout


def test_hook_functions_directly(tmp_path: Path, capsys):
    (tmp_path / "ok.cu").write_bytes(OK)
    (tmp_path / "bad.cu").write_bytes(BAD)
    (tmp_path / "blob.cu").write_bytes(b"\0\1")
    assert hooks.main(["check", str(tmp_path / "ok.cu"), str(tmp_path / "blob.cu")]) == 0
    assert hooks.main(["check", str(tmp_path / "bad.cu")]) == 1
    assert "CP101" in capsys.readouterr().out
    assert hooks.main(["check", "--fail-on", "never", str(tmp_path / "bad.cu")]) == 0
    assert hooks.main(["check", str(tmp_path / "missing.cu")]) == 2
    # --rename: the mirror holds k.hip, and includes of renamed files follow them.
    src = tmp_path / "src"
    src.mkdir()
    (src / "k.cu").write_bytes(b'#include "a.cu"\n' + OK)
    (src / "a.cu").write_bytes(OK)
    mirror = tmp_path / "hip"
    args = ["translate-check", "--source", str(src), "--mirror", str(mirror), "--rename",
            str(src / "k.cu")]
    assert hooks.main(args) == 1
    from click.testing import CliRunner

    from cudaport.cli.main import main

    CliRunner().invoke(main, ["translate", str(src), "--out-dir", str(mirror), "--rename"])
    assert b'#include "a.hip"' in (mirror / "k.hip").read_bytes()
    assert hooks.main(args) == 0
