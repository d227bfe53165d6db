"""What a user installs is what was tested: the sdist carries the tests with what they read,
the wheel built from that sdist carries every rule file, and the installed program
translates with a framework's rules and runs the README's CI recipe.

Slow: it makes a virtual environment, gets setuptools (PEP 639 needs 77 or newer) from
the configured package index, and builds both archives."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT

pytestmark = pytest.mark.slow

CUDA = (b"#include <cuda_runtime.h>\n#include <ATen/cuda/CUDAContext.h>\n"
        b"void f(void* p) { cudaMalloc(&p, 4); cudaStream_t s = at::cuda::getCurrentCUDAStream(); "
        b"cudaFree(p); }\n")


def _run(args, **kwargs) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CUDAPORT_RULES_DIR")}
    return subprocess.run(args, capture_output=True, text=True, env=env, **kwargs)


def _tracked_files() -> list[str]:
    proc = _run(["git", "ls-files", "-z"], cwd=ROOT)
    if proc.returncode != 0:
        pytest.skip("not a git checkout: the file list to package is unknown")
    return [name for name in proc.stdout.split("\0") if name and (ROOT / name).is_file()]


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """(sdist, wheel, venv python, venv bin): the sdist built from a copy of the checkout's
    files, the wheel from the unpacked sdist, installed in a fresh venv."""
    base = tmp_path_factory.mktemp("packaging")
    source = base / "checkout"
    for name in _tracked_files():
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True)
    python = venv / "bin" / "python"
    # the running environment's libraries (click, PyYAML...) without its cudaport: CI runs
    # from a venv, whose packages --system-site-packages does not reach. A plain path in a
    # .pth is not a site dir, so an editable install's finder there is not read.
    inner = _run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"])
    outer = sysconfig.get_paths()["purelib"]
    if Path(outer) != Path(inner.stdout.strip()):
        (Path(inner.stdout.strip()) / "outer-environment.pth").write_text(outer + "\n")
    got = _run([str(python), "-m", "pip", "install", "-q", "setuptools>=77"])
    if got.returncode != 0:
        pytest.skip(f"setuptools>=77 not available from the package index: {got.stderr[-300:]}")
    dist = base / "dist"
    sdist = _build(python, "build_sdist", source, dist)
    with tarfile.open(sdist) as tar:
        # (tarfile's extraction filters came in 3.11.4; Debian 12's python3 is 3.11.2)
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(base / "unpacked", **safe)
    unpacked = next((base / "unpacked").iterdir())
    wheel = _build(python, "build_wheel", unpacked, dist)
    installed = _run([str(python), "-m", "pip", "install", "-q", "--no-deps", str(wheel)])
    assert installed.returncode == 0, installed.stderr
    return sdist, wheel, python, venv / "bin"


def _build(python: Path, hook: str, source: Path, out: Path) -> Path:
    code = (f"import sys, warnings; warnings.simplefilter('error', DeprecationWarning); "
            f"from setuptools import build_meta; print(build_meta.{hook}({str(out)!r}))")
    proc = _run([str(python), "-c", code], cwd=source)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "deprecat" not in proc.stderr.lower(), proc.stderr  # e.g. a TOML-table license
    return out / proc.stdout.strip().splitlines()[-1]


def test_wheel_carries_every_rule_file(built):
    _, wheel, _, _ = built
    with zipfile.ZipFile(wheel) as zf:
        shipped = {n.removeprefix("cudaport/_rules/") for n in zf.namelist()
                   if n.startswith("cudaport/_rules/")}
    rules = {p.relative_to(ROOT / "rules").as_posix() for p in (ROOT / "rules").rglob("*")
             if p.is_file() and "__pycache__" not in p.parts and p.suffix != ".pyc"}
    assert rules - shipped == set()
    assert "hip/frameworks/pytorch/rocm.yaml" in shipped


def test_sdist_carries_what_its_tests_read(built):
    sdist, _, _, _ = built
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    assert "tests/test_examples.py" in names and "examples/vector_add/vector_add.cu" in names
    assert "docs/codes.md" in names and "tests/conftest.py" in names
    assert not any(n.endswith(".pyc") for n in names)


def test_installed_program_translates_with_framework_rules(built, tmp_path):
    _, _, python, bin_dir = built
    where = _run([str(python), "-c", "import cudaport; print(cudaport.__file__)"], cwd=tmp_path)
    assert str(bin_dir.parent) in where.stdout, "the venv must run the wheel, not the checkout"
    (tmp_path / "k.cu").write_bytes(CUDA)
    proc = _run([str(bin_dir / "cudaport"), "translate", "--framework", "pytorch", "k.cu"],
                cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "hipMalloc" in proc.stdout and "<ATen/hip/HIPContext.h>" in proc.stdout  # pytorch rules
    check = _run([str(bin_dir / "cudaport"), "check", "k.cu"], cwd=tmp_path)
    assert check.returncode == 0 and "Traceback" not in check.stderr, check.stderr


def _actions_recipe() -> list[str]:
    readme = (ROOT / "README.md").read_text()
    block = readme.split("GitHub Actions, as annotations plus code scanning:", 1)[1]
    block = block.split("```yaml", 1)[1].split("```", 1)[0]
    return [m.group(1).strip() for m in re.finditer(r"^- run: (.+)$", block, re.M)]


def test_readme_actions_recipe_installs_from_the_repository_and_runs(built, tmp_path):
    _, wheel, _, bin_dir = built
    commands = _actions_recipe()
    install = [c for c in commands if c.startswith("pip install")]
    assert install and all("git+https://" in c for c in install), \
        "cudaport is not on PyPI: the recipe must install it from its repository"
    (tmp_path / "k.cu").write_bytes(CUDA)
    for command in commands:
        if command.startswith("pip install"):
            continue  # done by the fixture, from the wheel of this checkout
        argv = command.split("#", 1)[0].split()
        assert argv[0] == "cudaport"
        proc = _run([str(bin_dir / "cudaport"), *argv[1:]], cwd=tmp_path)
        assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr, (command, proc.stderr)
    assert (tmp_path / "cudaport.sarif").read_text().lstrip().startswith("{")
