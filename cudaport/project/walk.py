"""Which files of a folder take part in a tree translation.

Respects .gitignore (through ``git ls-files`` when the folder is in a git work tree, which
is exact and fast; else by reading the .gitignore files), ``--exclude`` / ``--include``
patterns (gitignore syntax) and extra excludes from configuration; never follows a
symbolic link out of the folder. Symbolic links and other oddities become notes
(findings), not errors.
"""

from __future__ import annotations

import os
import shutil
import stat
from dataclasses import dataclass, field
from pathlib import Path

from ..findings import Finding
from .ignore import PatternList, matches_any


@dataclass
class Listing:
    files: list[str] = field(default_factory=list)  # POSIX paths relative to the root
    notes: list[Finding] = field(default_factory=list)
    # links to folders inside the tree: (rel, the folder it names, relative to the root)
    folder_links: list[tuple[str, str]] = field(default_factory=list)


def _git_files(root: Path) -> list[str] | None:
    """Files git would consider (tracked plus untracked-not-ignored), or None if the
    folder is not in a git work tree."""
    import subprocess  # (a folder's walk asks git; a one-file run does not pay for it)

    if shutil.which("git") is None:
        return None
    try:
        proc = subprocess.run(
            ["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
             "--exclude-standard"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, check=False)
    except OSError:
        return None
    if proc.returncode != 0:
        return None
    names = proc.stdout.decode("utf-8", "surrogateescape").split("\0")
    return sorted({n for n in names if n and not n.endswith("/")})


class GitignoreStack:
    """The .gitignore files of a tree, read lazily, asked folder by folder."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._lists: dict[str, PatternList | None] = {}

    def _list(self, folder: str) -> PatternList | None:
        if folder not in self._lists:
            path = self.root / folder / ".gitignore" if folder else self.root / ".gitignore"
            try:
                lines = path.read_text("utf-8", "surrogateescape").splitlines()
                self._lists[folder] = PatternList(lines, folder)
            except OSError:
                self._lists[folder] = None
        return self._lists[folder]

    def ignored(self, rel: str, is_dir: bool) -> bool:
        parts = rel.split("/")
        verdict = False
        for depth in range(len(parts)):
            patterns = self._list("/".join(parts[:depth]))
            if patterns is not None:
                decided = patterns.decide(rel, is_dir)
                if decided is not None:
                    verdict = decided
        return verdict


def git_ignored(root: Path, rel: str) -> bool:
    """Whether git (or, outside git, the .gitignore files) ignores ``rel`` below root."""
    import subprocess

    if shutil.which("git") is not None:
        proc = subprocess.run(["git", "-C", str(root), "check-ignore", "-q", rel],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if proc.returncode in (0, 1):
            return proc.returncode == 0
    return GitignoreStack(root).ignored(rel, True)


def list_tree(root: Path, exclude: PatternList, include: PatternList | None = None,
              prune: tuple[str, ...] = (), display: str | None = None) -> Listing:
    """Files below ``root`` that take part, as POSIX paths relative to it.

    ``prune`` are folders (relative) skipped whole, such as an output folder inside the
    tree. ``display`` prefixes paths in notes (defaults to ``root``).
    """
    shown = display if display is not None else str(root)
    listing = Listing()
    real_root = root.resolve()
    candidates = _git_files(root)
    from_git = candidates is not None
    if candidates is None:
        candidates = _walk(root, exclude, prune)
    prune_prefixes = tuple(p.rstrip("/") + "/" for p in prune)
    for rel in candidates:  # (grows: a submodule's files are listed after it)
        if rel.startswith(prune_prefixes) or rel in prune:
            continue
        if exclude.patterns and matches_any(exclude, rel, False):
            continue
        if include is not None and include.patterns and not include.decide(rel, False):
            continue
        path = root / rel
        try:
            st = path.lstat()
        except OSError:  # listed by git but deleted from the work tree
            continue
        if stat.S_ISLNK(st.st_mode):
            note = _symlink_note(path, real_root, f"{shown}/{rel}")
            if note is not None:
                listing.notes.append(note)
                if note.code == "CP932":
                    listing.folder_links.append(
                        (rel, path.resolve().relative_to(real_root).as_posix()))
                continue
        elif stat.S_ISDIR(st.st_mode) and from_git:  # a submodule: git lists it, not its files
            inner = _git_files(path)
            candidates.extend(f"{rel}/{name}" for name in (
                inner if inner is not None else _walk(path, PatternList([]), ())))
            continue
        elif not stat.S_ISREG(st.st_mode):
            continue  # (a FIFO, socket or device is never read)
        listing.files.append(rel)
    return listing


def _symlink_note(path: Path, real_root: Path, shown: str) -> Finding | None:
    """None when a link to a regular file inside the tree (translated like a file)."""
    try:
        target = path.resolve(strict=True)
    except (OSError, RuntimeError):
        return Finding("CP931", "broken symbolic link; not followed", shown)
    try:
        target.relative_to(real_root)
    except ValueError:
        return Finding("CP931", f"symbolic link to {target}, outside the tree; not followed",
                       shown)
    if target.is_dir():
        return Finding("CP932", "symbolic link to a folder inside the tree; not followed",
                       shown)
    return None


def _walk(root: Path, exclude: PatternList, prune: tuple[str, ...]) -> list[str]:
    """Fallback listing without git: os.walk with .gitignore files and pruning."""
    ignores = GitignoreStack(root)
    out: list[str] = []
    for folder, dirs, files in os.walk(root):
        rel_folder = os.path.relpath(folder, root).replace(os.sep, "/")
        rel_folder = "" if rel_folder == "." else rel_folder
        keep = []
        for d in sorted(dirs):
            rel = f"{rel_folder}/{d}" if rel_folder else d
            if d == ".git" or rel in prune or ignores.ignored(rel, True) \
                    or exclude.decide(rel, True):
                continue
            if os.path.islink(os.path.join(folder, d)):
                out.append(rel)  # reported as a link by list_tree
                continue
            keep.append(d)
        dirs[:] = keep
        for f in sorted(files):
            rel = f"{rel_folder}/{f}" if rel_folder else f
            if not ignores.ignored(rel, False):
                out.append(rel)
    return out
