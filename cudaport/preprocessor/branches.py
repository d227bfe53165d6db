"""One tree of a file's ``#if`` groups, read once from the scan's directive list.

Every other question about branches is a lookup in it: the innermost branch around an
offset (a bisect), the chain of branches around it, the later branches of each group
(``#elif``/``#else``: a brace matcher reads only the first branch of a group, as the
first build of a file usually does), and which branches a build for the target takes,
given a test of one condition (three-valued: True, False, None for not known).

The lexer never evaluates ``#if``; this tree does not either: it only holds the shape,
and :meth:`BranchTree.decide` evaluates the conditions a caller's test can read, once per
test, in one walk over the groups.
"""

from __future__ import annotations

import bisect
from typing import Callable, NamedTuple, Sequence

from ..source import lexer
from ..source.lazy_re import lazy

OPENS = (b"if", b"ifdef", b"ifndef")

# The rest of a directive's logical line after its keyword: its condition.
_CONDITION = lazy(rb"#[ \t]*(?:if|ifdef|ifndef|elif|else|endif)\b(" + lexer.REST_OF_LINE + rb")")


class Branch(NamedTuple):
    """One branch of a conditional group: from its directive to the next directive of
    its group (``#elif``, ``#else``, ``#endif``) or the end of the file."""

    start: int  # its directive's '#'
    word: bytes  # if, ifdef, ifndef, elif or else
    cond: tuple[int, int]  # its condition's span (empty for #else)
    end: int  # the next directive of its group, or the end of the file when unclosed
    group: int  # index of its group
    parent: int  # the branch around it, -1 at file level
    first: bool  # the first branch of its group (#if, #ifdef, #ifndef)


class Group(NamedTuple):
    branches: tuple[int, ...]  # indexes of its branches, in order
    endif: int  # offset of its #endif's '#', -1 when the file ends first


Test = Callable[[Branch], "bool | None"]


class BranchTree:
    """The file's conditional groups; ``directives`` are the scan's (offset, keyword) of
    each conditional directive in order (``Scan.directives``)."""

    def __init__(self, src: bytes, directives: Sequence[tuple[int, bytes]]) -> None:
        self.src = src
        self.branches: list[Branch] = []
        self.groups: list[Group] = []
        # boundaries for at(): from starts[i] on, the innermost branch is inner[i]
        self.starts: list[int] = [0]
        self.inner: list[int] = [-1]
        branches, groups = self.branches, self.groups
        members: list[list[int]] = []  # per group, its branch indexes so far
        open_: list[int] = []  # index of the current branch of each open group
        n = len(src)
        for offset, word in directives:
            if word in OPENS or word in (b"elif", b"else"):
                if word not in OPENS:
                    if not open_:
                        continue  # an #elif/#else outside any group: nothing to say
                    current = open_.pop()
                    branches[current] = branches[current]._replace(end=offset)
                    group = branches[current].group
                else:
                    group = len(groups)
                    groups.append(Group((), -1))
                    members.append([])
                parent = open_[-1] if open_ else -1
                index = len(branches)
                branches.append(Branch(offset, word, self._condition(offset, word), n, group,
                                       parent, word in OPENS))
                members[group].append(index)
                open_.append(index)
                self.starts.append(offset)
                self.inner.append(index)
            elif word == b"endif":
                if not open_:
                    continue
                current = open_.pop()
                branches[current] = branches[current]._replace(end=offset)
                group = branches[current].group
                groups[group] = Group(tuple(members[group]), offset)
                self.starts.append(offset)
                self.inner.append(open_[-1] if open_ else -1)
        for group, found in enumerate(members):
            if groups[group].endif < 0:
                groups[group] = Group(tuple(found), -1)
        self._decided: dict[object, list] = {}

    def _condition(self, offset: int, word: bytes) -> tuple[int, int]:
        if word == b"else":
            return (offset, offset)
        m = _CONDITION.match(self.src, offset)
        return m.span(1) if m is not None else (offset, offset)

    def __len__(self) -> int:
        return len(self.branches)

    def at(self, offset: int) -> int:
        """Index of the innermost branch around ``offset`` (its directive line counts as
        inside it, its group's ``#endif`` line does not); -1 outside every group."""
        return self.inner[bisect.bisect_right(self.starts, offset) - 1]

    def chain(self, index: int) -> tuple[int, ...]:
        """The branches from the outermost down to ``index`` (empty for -1)."""
        out = []
        while index >= 0:
            out.append(index)
            index = self.branches[index].parent
        return tuple(reversed(out))

    def path(self, offset: int) -> tuple[int, ...]:
        """:meth:`chain` of the branch around ``offset``: two offsets with one path stand in
        the same branches; siblings (``#if``/``#else``) have different ones."""
        return self.chain(self.at(offset))

    def condition(self, index: int) -> bytes:
        a, b = self.branches[index].cond
        return self.src[a:b]

    def later_spans(self) -> list[tuple[int, int]]:
        """(start, end) of each group's ``#elif``/``#else`` branches taken together, from
        the first later directive to the ``#endif``; spans inside another are left out."""
        spans: list[tuple[int, int]] = []
        last_end = -1
        for group in self.groups:
            if len(group.branches) < 2 or group.endif < 0:
                continue
            start = self.branches[group.branches[1]].start
            if start < last_end:
                continue  # (inside a later branch of an outer group: already covered)
            spans.append((start, group.endif))
            last_end = group.endif
        return spans

    def decide(self, test: Test, key: object = None) -> list[bool | None]:
        """Whether a build takes each branch: True (for certain), False (never), None (not
        known), reading each group's conditions in order with ``test`` (which says what one
        branch's own condition gives, or None). After a branch taken for certain, every
        later one of its group is never taken; an ``#else`` after branches never taken is
        taken; after branches not known, a later branch is not known unless its own test is
        False. A branch inside one never taken is never taken. With ``key``, the answer is
        kept for the next call with the same key."""
        if key is not None and key in self._decided:
            return self._decided[key]
        out: list[bool | None] = [None] * len(self.branches)
        state: dict[int, tuple[bool, bool]] = {}  # group -> (one taken, one maybe)
        for i, b in enumerate(self.branches):
            if b.first:
                own = test(b)
                taken, maybe = own is True, own is None
            else:
                taken, maybe = state[b.group]
                if taken:
                    own = False
                elif b.word == b"else":
                    own = None if maybe else True
                else:
                    mine = test(b)
                    own = mine if mine is False or not maybe else None
                    taken = mine is True
                taken = taken or own is True
                maybe = maybe or own is None
            state[b.group] = (taken, maybe)
            if b.parent >= 0 and out[b.parent] is False:
                own = False
            out[i] = own
        if key is not None:
            self._decided[key] = out
        return out

    def spans(self, decided: list[bool | None], select: Callable[[bool | None], bool]
              ) -> list[tuple[int, int]]:
        """Merged (start, end) spans of the branches whose decision ``select`` picks."""
        merged: list[tuple[int, int]] = []
        for b, d in zip(self.branches, decided):
            if not select(d):
                continue
            if merged and b.start <= merged[-1][1]:
                if b.end > merged[-1][1]:
                    merged[-1] = (merged[-1][0], b.end)
            else:
                merged.append((b.start, b.end))
        return merged

