"""Module-level regular expressions compiled on their first use.

cudaport's modules define about 300 patterns at import; a one-file ``check`` uses a
tenth of them, and compiling them all was a sixth of its CPU time. ``lazy(pattern,
flags)`` stands for ``re.compile(pattern, flags)``: the pattern is compiled when one of
its methods is first looked up, and from then on each method is a plain attribute of
the object (no slower than the compiled pattern's own).

Only for patterns used through their methods and attributes (``P.search(...)``,
``P.pattern``): the ``re`` module's functions and ``isinstance(P, re.Pattern)`` want the
compiled pattern, ``P.compiled``.
"""

from __future__ import annotations

import re

# What a compiled pattern offers; each is copied onto the lazy one at its first use.
_FORWARDED = ("match", "search", "fullmatch", "finditer", "findall", "sub", "subn", "split",
              "scanner", "flags", "groups", "groupindex")


class LazyPattern:
    """``re.compile(pattern, flags)``, done at the first use of a method."""

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self.pattern = pattern
        self._flags = flags

    def __getattr__(self, name: str):
        # Called only for attributes the object lacks: before the first use, every
        # forwarded one (and ``compiled``).
        if name not in _FORWARDED and name != "compiled":
            raise AttributeError(name)
        compiled = re.compile(self.pattern, self._flags)
        attributes = self.__dict__
        for forwarded in _FORWARDED:
            attributes[forwarded] = getattr(compiled, forwarded)
        attributes["compiled"] = compiled
        return attributes[name]

    def __reduce__(self):
        return LazyPattern, (self.pattern, self._flags)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r}, {self._flags})"


def lazy(pattern: str | bytes, flags: int = 0) -> LazyPattern:
    """A pattern compiled on its first use (see the module's note)."""
    return LazyPattern(pattern, flags)
