"""Suppression comments: ``// cudaport: ignore`` and ``// cudaport: ignore[CP101,CP2]``.

A comment that shares its line with code covers findings on that line; a comment alone on
its line covers the next line. Codes may be prefixes (``CP1``); no list means every code.
A suppression that hid nothing, or names an unknown code, is itself reported (CP910 with
``--warn-unused-ignores``, CP911 always) so stale comments do not pile up.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..source import lexer
from ..translate.context import LineIndex
from ..project.config import CODE_SELECTOR
from ..findings import CODES, Finding
from ..source.lazy_re import lazy

_DIRECTIVE = lazy(rb"cudaport:[ \t]*ignore\b(?:\[([^\]\r\n]*)\])?")


@dataclass
class Suppression:
    line: int  # where the comment is
    col: int
    covers: int  # the line whose findings it hides
    codes: tuple[str, ...] | None  # None: every code
    bad: tuple[str, ...] = ()  # listed entries that are not codes
    used: set[str] = field(default_factory=set)  # selectors (or "*") that hid something

    def matches(self, code: str) -> str | None:
        """The selector that covers ``code`` (the most specific), or None."""
        if self.codes is None:
            return "*"
        hits = [c for c in self.codes if code.startswith(c)]
        return max(hits, key=len) if hits else None


def parse(src: bytes) -> list[Suppression]:
    """Every suppression comment in ``src``, in file order."""
    if b"cudaport:" not in src:  # the common case costs one substring search
        return []
    lines = LineIndex(src)
    found: list[Suppression] = []
    for tok in lexer.tokenize(src):
        if tok.kind != "comment" or b"cudaport:" not in tok.text:
            continue
        m = _DIRECTIVE.search(tok.text)
        if m is None:
            continue
        line, col = lines.linecol(tok.start + m.start())
        line_start = src.rfind(b"\n", 0, tok.start) + 1
        alone = not src[line_start:tok.start].strip()
        end_line = lines.linecol(tok.end)[0]
        if alone:
            after = src.find(b"\n", tok.end)
            rest = src[tok.end:after if after >= 0 else len(src)]
            alone = not rest.strip()
        covers = end_line + 1 if alone else line
        codes: tuple[str, ...] | None = None
        bad: tuple[str, ...] = ()
        if m.group(1) is not None:
            items = [x.strip() for x in m.group(1).decode("utf-8", "replace").split(",")]
            items = [x for x in items if x]
            codes = tuple(x for x in items if _known_selector(x))
            bad = tuple(x for x in items if not _known_selector(x))
        found.append(Suppression(line, col, covers, codes, bad))
    return found


def _known_selector(item: str) -> bool:
    """A registered cudaport code or prefix, or a user rule's code (never "CP...")."""
    if item == "ALL" or not CODE_SELECTOR.match(item):
        return False
    return not item.startswith("CP") or (len(item) > 2 and any(c.startswith(item) for c in CODES))


def apply(findings: list[Finding], suppressions: list[Suppression]) -> tuple[list[Finding], int]:
    """Drop suppressed findings; return the kept ones and how many were hidden."""
    if not suppressions:
        return findings, 0
    by_line: dict[int, list[Suppression]] = {}
    for s in suppressions:
        by_line.setdefault(s.covers, []).append(s)
    kept: list[Finding] = []
    hidden = 0
    for finding in findings:
        hit = False
        for s in by_line.get(finding.line, ()):
            selector = s.matches(finding.code)
            if selector is not None:
                s.used.add(selector)
                hit = True
        if hit:
            hidden += 1
        else:
            kept.append(finding)
    return kept, hidden


def problems(suppressions: list[Suppression], path: str, warn_unused: bool) -> list[Finding]:
    """CP911 for unknown codes in a comment; CP910 for parts that hid nothing."""
    out: list[Finding] = []
    for s in suppressions:
        for item in s.bad:
            out.append(Finding("CP911", f"suppression lists {item!r}, which is not a cudaport "
                                        "code or code prefix", path, s.line, s.col))
        if not warn_unused:
            continue
        if s.codes is None:
            if not s.used and not s.bad:
                out.append(Finding("CP910", "unused suppression: no finding on the covered "
                                            f"line {s.covers}", path, s.line, s.col))
            continue
        unused = [c for c in s.codes if c not in s.used]
        if unused:
            out.append(Finding("CP910", f"unused suppression for {', '.join(unused)}: no such "
                                        f"finding on line {s.covers}", path, s.line, s.col,
                               identifier=",".join(unused)))
    return out
