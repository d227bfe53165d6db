"""File-system faults during translation: nothing lost, nothing half-written (issue 9).

Run as root in CI, so permission bits do not stop writes: faults are made real where the
kernel can make them (a path through a file, a symlink loop, a deleted input) and
simulated at the write call for a full disk.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from cudaport.run.runner import io as files
from cudaport.run.runner.io import write_output
from cudaport.cli.main import main

CUDA = b"#include <cuda_runtime.h>\nvoid f(void* p) { cudaFree(p); }\n"


def translate(*args):
    return CliRunner().invoke(main, ["translate", *args, "-q", "--no-cache", "-j", "1"])


def make_tree(root: Path, names: list[str]) -> Path:
    for name in names:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(CUDA)
    return root


def leftovers(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.name.endswith(".cudaport-tmp")]


def test_disk_full_leaves_no_partial_file_and_keeps_the_old_one(tmp_path, monkeypatch):
    src = make_tree(tmp_path / "src", ["a.cu"])
    out = tmp_path / "out"
    (out).mkdir()
    (out / "a.cu").write_bytes(b"previous output\n")
    real_fdopen = os.fdopen

    class Full:
        def __init__(self, fh):
            self.fh = fh

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.fh.close()

        def write(self, data):
            self.fh.write(data[: len(data) // 2])
            raise OSError(errno.ENOSPC, "No space left on device")

        def __getattr__(self, name):
            return getattr(self.fh, name)

    monkeypatch.setattr(files.os, "fdopen", lambda fd, mode: Full(real_fdopen(fd, mode)))
    r = translate(str(src), "--out-dir", str(out))
    assert r.exit_code == 2
    assert "No space left on device" in r.output
    assert (out / "a.cu").read_bytes() == b"previous output\n"  # old file intact
    assert not leftovers(tmp_path)


def test_output_folder_that_cannot_exist(tmp_path):
    src = make_tree(tmp_path / "src", ["a.cu"])
    blocker = tmp_path / "file"
    blocker.write_bytes(b"")
    r = translate(str(src / "a.cu"), "-o", str(blocker / "sub" / "a.cu"))
    assert r.exit_code == 2
    assert "cannot write" in r.output
    assert (src / "a.cu").read_bytes() == CUDA


def test_input_deleted_during_the_run_fails_that_file_only(tmp_path, monkeypatch):
    src = make_tree(tmp_path / "src", ["a.cu", "b.cu"])
    out = tmp_path / "out"
    from cudaport.run import driver

    real = driver.run_job

    def run_job(job, request, *args, **kwargs):
        if job.source.name == "a.cu":
            job.source.unlink()  # vanishes after planning, before reading
        return real(job, request, *args, **kwargs)

    monkeypatch.setattr(driver, "run_job", run_job)
    r = translate(str(src), "--out-dir", str(out))
    assert r.exit_code == 2
    assert "a.cu" in r.output
    assert b"hipFree" in (out / "b.cu").read_bytes()
    assert not (out / "a.cu").exists()


def test_symlink_loop_is_not_followed(tmp_path):
    src = make_tree(tmp_path / "src", ["a.cu"])
    (src / "loop").symlink_to(src, target_is_directory=True)
    (src / "self.cu").symlink_to(src / "self.cu")  # a link to itself
    out = tmp_path / "out"
    r = translate(str(src), "--out-dir", str(out))
    assert r.exit_code in (0, 1), r.output
    assert (out / "a.cu").exists()
    assert not (out / "loop").exists()  # (a folder link is made again, a loop never)


def test_inputs_never_change_without_in_place(tmp_path):
    src = make_tree(tmp_path / "src", ["a.cu", "k/b.cuh"])
    before = {p: p.read_bytes() for p in src.rglob("*") if p.is_file()}
    translate(str(src), "--out-dir", str(tmp_path / "out"))
    translate(str(src / "a.cu"), "-o", str(tmp_path / "x.cu"))
    assert {p: p.read_bytes() for p in src.rglob("*") if p.is_file()} == before


@pytest.mark.parametrize("name", ["a.cu"])
def test_atomic_write_replaces_in_one_step(tmp_path, name):
    target = tmp_path / name
    target.write_bytes(b"old")
    write_output(target, b"new")
    assert target.read_bytes() == b"new" and not leftovers(tmp_path)


def test_read_only_output_folder_fails_cleanly(tmp_path, monkeypatch):
    src = make_tree(tmp_path / "src", ["a.cu", "k/b.cu"])
    out = tmp_path / "out"
    out.mkdir()
    if os.geteuid() == 0:  # root writes anywhere: give the kernel's answer by hand
        def refuse(*args, **kwargs):
            raise PermissionError(errno.EACCES, "Permission denied", str(out))

        import tempfile  # (the writer imports it on its first write)

        monkeypatch.setattr(tempfile, "mkstemp", refuse)
    else:
        out.chmod(0o555)
    try:
        r = translate(str(src), "--out-dir", str(out))
    finally:
        out.chmod(0o755)
    assert r.exit_code == 2
    assert "Permission denied" in r.output
    assert [p for p in out.rglob("*") if p.is_file()] == []
    assert (src / "a.cu").read_bytes() == CUDA and (src / "k" / "b.cu").read_bytes() == CUDA
