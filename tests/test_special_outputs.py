"""Outputs that are not regular files are written through, never replaced: a device, a
FIFO, /dev/stdout. A symlinked output writes the file it points to and stays a link.
(Every writer goes through cudaport.run.runner.io.write_output: -o, --report, check -o, report
--html.)"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from cudaport.run.runner.io import write_output
from conftest import ROOT

CUDA = b"#include <cuda_runtime.h>\nvoid f(void* p) { cudaFree(p); }\n"


def _cudaport(*args: str, cwd: Path, **kwargs) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "cudaport", *args], cwd=cwd, env=env,
                          capture_output=True, **kwargs)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "k.cu").write_bytes(CUDA)
    return tmp_path


def test_fifo_is_written_through(project):
    fifo = project / "out.fifo"
    os.mkfifo(fifo)
    received: list[bytes] = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    proc = _cudaport("translate", "k.cu", "-o", str(fifo), cwd=project, timeout=120)
    reader.join(timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert b"hipFree(p)" in received[0]
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


def test_device_is_written_through_not_replaced(project):
    device = project / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # what /dev/null is
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot make a device node here: {exc}")
    for args in (["translate", "k.cu", "-o", str(device)],
                 ["translate", "k.cu", "-o", "x.cu", "--report", str(device)],
                 ["check", "k.cu", "-o", str(device)]):
        proc = _cudaport(*args, cwd=project)
        assert proc.returncode == 0, (args, proc.stderr)
        assert stat.S_ISCHR(os.lstat(device).st_mode), args
    assert not [p for p in project.iterdir() if p.name.endswith(".cudaport-tmp")]


def test_dev_stdout(project):
    proc = _cudaport("translate", "k.cu", "-o", "/dev/stdout", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == CUDA.replace(b"cuda_runtime.h", b"hip/hip_runtime.h").replace(
        b"cudaFree", b"hipFree")
    sarif = _cudaport("check", "k.cu", "--format", "sarif", "-o", "/dev/stdout", cwd=project)
    assert sarif.returncode == 0 and sarif.stdout.lstrip().startswith(b"{")


def test_symlinked_output_writes_its_target_and_stays_a_link(project):
    (project / "real").mkdir()
    target = project / "real" / "out.cu"
    target.write_bytes(b"old\n")
    (project / "middle.cu").symlink_to("real/out.cu")
    link = project / "out.cu"
    link.symlink_to("middle.cu")  # a chain of two links
    proc = _cudaport("translate", "k.cu", "-o", "out.cu", cwd=project)
    assert proc.returncode == 0, proc.stderr
    assert link.is_symlink() and (project / "middle.cu").is_symlink()
    assert os.readlink(link) == "middle.cu"
    assert b"hipFree(p)" in target.read_bytes()
    assert not [p for p in project.rglob("*") if p.name.endswith(".cudaport-tmp")]


def test_dangling_symlink_creates_its_target(tmp_path):
    link = tmp_path / "report.json"
    link.symlink_to("reports/today.json")
    (tmp_path / "reports").mkdir()
    write_output(link, b"{}\n")
    assert link.is_symlink() and (tmp_path / "reports" / "today.json").read_bytes() == b"{}\n"


def test_regular_file_is_still_replaced_atomically(tmp_path):
    path = tmp_path / "out.cu"
    path.write_bytes(b"old\n")
    before = os.stat(path).st_ino
    write_output(path, b"new\n")
    assert path.read_bytes() == b"new\n" and os.stat(path).st_ino != before


def test_directory_output_is_an_error(project):
    (project / "outdir").mkdir()
    proc = _cudaport("translate", "k.cu", "-o", "outdir", cwd=project)
    assert proc.returncode == 2 and b"Traceback" not in proc.stderr
    assert b"outdir" in proc.stderr



NOBODY = 65534


def _as_nobody(action) -> int:
    """Run ``action()`` in a child process that is user and group ``nobody``; its exit
    status (0 when it returns True). The child imports nothing after dropping root: this
    Python may live where nobody cannot read."""
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            status = 0 if action() else 1
        finally:
            os._exit(status)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


@pytest.fixture
def shared(tmp_path_factory) -> Path:
    """A folder everyone may write (below /tmp: pytest's own folders are root's alone)."""
    if os.geteuid() != 0:
        pytest.skip("needs root to act as another user")
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="cudaport-shared-", dir="/tmp"))
    os.chmod(folder, 0o777)
    yield folder
    shutil.rmtree(folder)


def test_in_place_by_another_user_keeps_the_owner(shared: Path):
    """The group may write root's file: the edit goes into the file, which stays root's
    (a rename would hand it to the writer)."""
    src = shared / "k.cu"
    src.write_bytes(CUDA)
    os.chown(src, 0, NOBODY)
    os.chmod(src, 0o664)
    assert _as_nobody(lambda: write_output(src, b"new\n", mode_from=src,
                                           keep_identity=True) is None) == 0
    st = os.stat(src)
    assert (st.st_uid, st.st_gid, st.st_mode & 0o777) == (0, NOBODY, 0o664)
    assert src.read_bytes() == b"new\n"
    assert [p.name for p in shared.iterdir()] == ["k.cu"]


def test_in_place_refuses_a_file_the_user_cannot_write(shared: Path):
    from cudaport.run.runner.io import OutputError, refuse_read_only

    src = shared / "k.cu"
    src.write_bytes(CUDA)
    os.chmod(src, 0o644)  # root's, writable by root only

    def refused() -> bool:
        try:
            refuse_read_only(src, "k.cu")
        except OutputError as exc:
            return str(exc).startswith("k.cu: read-only")
        return False

    assert _as_nobody(refused) == 0
    refuse_read_only(src, "k.cu")  # root may: the mode allows it


@pytest.mark.skipif(not os.path.isdir("/dev/shm") or not os.access("/dev/shm", os.W_OK),
                    reason="no writable /dev/shm")
def test_out_dir_in_shared_memory_is_an_ordinary_folder(project):
    """/dev/shm is a tmpfs of ordinary files: --out-dir below it creates its folders and
    writes the files (only devices and kernel links under /dev are written through)."""
    import shutil
    import tempfile

    out = Path(tempfile.mkdtemp(dir="/dev/shm")) / "nested" / "hip"
    try:
        (project / "sub").mkdir()
        (project / "sub" / "k2.cu").write_bytes(CUDA)
        proc = _cudaport("translate", ".", "--out-dir", str(out), "-q", cwd=project)
        assert proc.returncode == 0, proc.stderr.decode()
        assert b"hipFree" in (out / "sub" / "k2.cu").read_bytes()
        assert not [p for p in out.rglob("*cudaport-tmp*")]
    finally:
        shutil.rmtree(out.parent.parent, ignore_errors=True)
