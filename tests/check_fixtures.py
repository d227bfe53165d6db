"""Shared fixtures for the check/report tests: a copy of a small CUDA project with a
[tool.cudaport] configuration, and helpers to run the CLI in-process or as a user would."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from cudaport.cli.main import main

ROOT = Path(__file__).resolve().parent.parent
PROJECT = Path(__file__).resolve().parent / "data" / "check" / "proj"


@pytest.fixture
def proj(tmp_path, monkeypatch) -> Path:
    """A fresh copy of tests/data/check/proj; the current folder is its parent."""
    target = tmp_path / "proj"
    shutil.copytree(PROJECT, target)
    monkeypatch.chdir(tmp_path)
    return target


def run(*args: str):
    """``cudaport ARGS`` in-process; returns click's Result (exit_code, stdout, stderr)."""
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def run_subprocess(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python -m cudaport ARGS`` as a user would run it, importing this checkout."""
    env = dict(os.environ, PYTHONPATH=str(ROOT), NO_COLOR="1")
    return subprocess.run([sys.executable, "-m", "cudaport", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)
