"""Path patterns with .gitignore syntax: for .gitignore files when git itself is not
available, and for ``--exclude`` / ``--include`` globs, so users learn one syntax.

Supported: ``*``, ``?``, ``[...]``, ``**`` (any number of folders), a leading ``!`` to
re-include, a trailing ``/`` for folders only, and anchoring by a ``/`` anywhere but the
end. The last matching pattern decides, as in git.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Pattern:
    regex: re.Pattern[str]
    negated: bool
    dir_only: bool
    text: str


def _glob_to_regex(glob: str) -> str:
    out = []
    i, n = 0, len(glob)
    while i < n:
        c = glob[i]
        if c == "*":
            if glob.startswith("**", i):
                at_start = i == 0 or glob[i - 1] == "/"
                after = glob[i + 2:i + 3]
                if at_start and after == "/":  # "**/": zero or more folders
                    out.append(r"(?:[^/]*/)*")
                    i += 3
                    continue
                if at_start and after == "":  # trailing "/**": everything below
                    out.append(r".*")
                    i += 2
                    continue
            out.append(r"[^/]*")
            while i < n and glob[i] == "*":
                i += 1
            continue
        if c == "?":
            out.append(r"[^/]")
        elif c == "[":
            j = glob.find("]", i + 2 if glob[i + 1:i + 2] in ("!", "]") else i + 1)
            if j < 0:
                out.append(r"\[")
            else:
                body = glob[i + 1:j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out.append("[" + body.replace("\\", "\\\\") + "]")
                i = j
        elif c == "\\" and i + 1 < n:
            i += 1
            out.append(re.escape(glob[i]))
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)


def compile_pattern(line: str) -> Pattern | None:
    """One .gitignore line (or one glob) as a :class:`Pattern`; blank lines and comments
    give ``None``."""
    text = line.rstrip("\n").rstrip("\r")
    stripped = text.rstrip(" ")
    if stripped.endswith("\\"):  # "\ " keeps a trailing space
        stripped = text
    if not stripped or stripped.startswith("#"):
        return None
    negated = stripped.startswith("!")
    body = stripped[1:] if negated else stripped
    if body.startswith("\\"):
        body = body[1:] if body[1:2] in ("#", "!") else body
    dir_only = body.endswith("/")
    body = body.rstrip("/")
    if not body:
        return None
    anchored = "/" in body
    body = body.lstrip("/")
    prefix = "" if anchored else r"(?:[^/]*/)*"
    regex = re.compile(r"\A" + prefix + _glob_to_regex(body) + r"\Z", re.DOTALL)
    return Pattern(regex, negated, dir_only, stripped)


class PatternList:
    """Patterns that apply below one folder (``base``, POSIX, '' for the root)."""

    def __init__(self, lines: list[str] | tuple[str, ...], base: str = "") -> None:
        self.base = base.strip("/")
        self.patterns = [p for p in map(compile_pattern, lines) if p is not None]

    def decide(self, rel: str, is_dir: bool) -> bool | None:
        """True: ignored, False: re-included, None: no pattern here speaks about it."""
        if self.base:
            if not rel.startswith(self.base + "/"):
                return None
            rel = rel[len(self.base) + 1:]
        verdict = None
        for p in self.patterns:
            if p.dir_only and not is_dir:
                continue
            if p.regex.match(rel):
                verdict = not p.negated
        return verdict


def matches_any(patterns: PatternList, rel: str, is_dir: bool) -> bool:
    """Whether ``rel`` or any folder above it is matched (used for --exclude)."""
    parts = rel.split("/")
    for i in range(1, len(parts)):
        if patterns.decide("/".join(parts[:i]), True):
            return True
    return bool(patterns.decide(rel, is_dir))
