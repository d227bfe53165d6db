"""The one atomic writer: every output, report, baseline and cache goes through
:func:`write_output`."""

from __future__ import annotations

import os
import stat
from pathlib import Path


class OutputError(Exception):
    """An output could not be written where it was asked to go."""


# Folders (absolute paths) this process found to be real folders, not symbolic links. A tree
# run writes thousands of files into a few hundred folders; each mkdir or link test of a
# folder already seen was a system call, and an output disk can make those slow.
_REAL_FOLDERS: set[str] = set()


def write_output(path: Path, data: bytes, mode_from: Path | None = None,
                 durable: bool = True, keep_identity: bool = False) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder and a rename,
    so a reader (or an interrupted run) never sees a partial file. The file gets the
    permissions of ``mode_from`` when given, else those of the file it replaces, else
    those of any new file (0666 less the umask). ``durable=False`` skips the fsync (a
    regenerable mirror or cache need not survive a power cut; thousands of fsyncs
    dominate a tree translation). Failures raise :class:`OutputError` naming the path.

    What is not a regular file is written through, never replaced: a device
    (``/dev/null``), a FIFO, ``/dev/stdout`` and anything else under /dev or /proc. A
    symbolic link stays one: the file it points to is written (created if the link
    dangles).

    ``keep_identity`` (``--in-place``): the file keeps its owner and group (root gives the
    new file the old one's; anyone else never changes an owner) and its hard links. When a
    rename cannot keep them (another user's file, one with several links, a group the
    writer cannot give), the file is rewritten where it is instead (not atomic)."""
    target = _replaceable(path)
    if target is None:
        _write_through(path, data)
        return
    owner = None
    if keep_identity:
        try:
            st = os.stat(target)
        except OSError:
            st = None
        if st is not None:
            if st.st_nlink > 1 or (os.geteuid() != 0 and st.st_uid != os.geteuid()):
                _write_through(target, data)
                return
            owner = (st.st_uid, st.st_gid)
    import tempfile  # (imported by the first write: a check writes nothing)

    folder = target.parent
    try:
        known = os.path.abspath(folder) in _REAL_FOLDERS
        if not known:
            folder.mkdir(parents=True, exist_ok=True)
        try:
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.",
                                       suffix=".cudaport-tmp")
        except FileNotFoundError:
            if not known:
                raise
            _REAL_FOLDERS.clear()  # (removed since it was seen: made again)
            folder.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.",
                                       suffix=".cudaport-tmp")
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.chmod(tmp, _mode(mode_from if mode_from is not None else target))
        if owner is not None and not _give(tmp, owner):
            os.unlink(tmp)
            _write_through(target, data)
            return
        os.replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
        raise


def refuse_linked_folders(path: Path, depth: int) -> None:
    """Refuse (:class:`OutputError`) to write ``path`` when one of the ``depth`` folders
    just above it (those between an output root and the file) is a symbolic link, or
    when ``path`` is a link to a file outside that root: a link left in an output folder
    must not carry a write out of it. The root itself may be a link: the user named it."""
    folder = path.parent
    checked = []
    for _ in range(depth):
        if os.path.abspath(folder) in _REAL_FOLDERS:
            folder = folder.parent
            continue
        if os.path.islink(folder):  # (a missing folder is created as a real one)
            raise OutputError(f"{path}: {folder} is a symbolic link; cudaport does not "
                              "write through it (remove the link or choose another output "
                              "folder)")
        if os.path.isdir(folder):
            checked.append(os.path.abspath(folder))
        folder = folder.parent
    _REAL_FOLDERS.update(checked)
    if os.path.islink(path):
        root = os.path.realpath(folder)
        if not os.path.realpath(path).startswith(root.rstrip("/") + "/"):
            raise OutputError(f"{path}: a symbolic link out of {folder}; cudaport does not "
                              "write through it (remove the link)")


def write_link(path: Path, text: str, depth: int) -> bool:
    """Make ``path`` a symbolic link reading ``text`` (a folder link of the tree, made
    again in its output); False when it already is one. Anything else at ``path`` is kept
    and refused (:class:`OutputError`): a file or another link is never replaced."""
    refuse_linked_folders(path, depth)
    if os.path.islink(path) and os.readlink(path) == text:
        return False
    if os.path.lexists(path):
        raise OutputError(f"{path}: exists and is not a link to {text}; cudaport does not "
                          "replace it (remove it to have the link made)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(text, path)
    except OSError as exc:
        raise OutputError(f"{path}: cannot make the link: {exc.strerror or exc}") from None
    return True


def refuse_read_only(path: Path, shown: str) -> None:
    """Refuse (:class:`OutputError`) to overwrite a file that has no write permission at
    all (root included: the mode says to keep it) or that this user may not write."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return  # (the write reports it)
    if not mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH) \
            or (os.geteuid() != 0 and not os.access(path, os.W_OK)):
        raise OutputError(f"{shown}: read-only; --in-place does not overwrite it (make it "
                          "writable first)")


def _give(tmp: str, owner: tuple[int, int]) -> bool:
    """Give ``tmp`` the ``(uid, gid)`` of the file it replaces; False when not allowed."""
    st = os.stat(tmp)
    if (st.st_uid, st.st_gid) == owner:
        return True
    try:
        os.chown(tmp, owner[0] if os.geteuid() == 0 else -1, owner[1])
    except OSError:
        return False
    return True


def _mode(like: Path) -> int:
    try:
        return stat.S_IMODE(like.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


_SPECIAL_ROOTS = ("/dev/", "/proc/")
# Folders below /dev that hold ordinary files (POSIX shared memory is a tmpfs): written
# like any other folder, parents created, through a temporary file and a rename.
_ORDINARY_UNDER_DEV = ("/dev/shm/",)


def _replaceable(path: Path) -> Path | None:
    """The regular file that ``path`` names, to be replaced by a rename (through any
    symbolic links); None when ``path`` is to be written through instead."""
    absolute = os.path.abspath(path)
    if absolute.startswith(_SPECIAL_ROOTS) and not absolute.startswith(_ORDINARY_UNDER_DEV):
        return None  # /dev/stdout, /proc/self/fd/1: links the kernel makes, not files
    try:
        st = os.lstat(path)
        if stat.S_ISLNK(st.st_mode):
            try:
                if not stat.S_ISREG(os.stat(path).st_mode):
                    return None
            except FileNotFoundError:
                pass  # (a dangling link: the file it names is created)
            return Path(os.path.realpath(path))
    except OSError:
        return path  # (nothing there yet; or the write reports it)
    return path if stat.S_ISREG(st.st_mode) else None


def _write_through(path: Path, data: bytes) -> None:
    try:
        with open(path, "wb") as fh:
            fh.write(data)
    except OSError as exc:
        raise OutputError(f"{path}: cannot write: {exc.strerror or exc}") from None
