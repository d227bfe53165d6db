"""Sorted, disjoint byte spans of a file (dead branches, function bodies, a build file's
untaken if() blocks), asked about one offset at a time by bisect: one helper for every
module that asks "is this offset inside one of them"."""

from __future__ import annotations

import bisect


class Inside:
    """Whether an offset falls in one of sorted, disjoint spans (a bisect)."""

    def __init__(self, spans: list[tuple[int, int]]) -> None:
        self.spans = spans
        self.starts = [s for s, _ in spans]

    def __call__(self, offset: int) -> bool:
        i = bisect.bisect_right(self.starts, offset) - 1
        return i >= 0 and offset < self.spans[i][1]

    def __bool__(self) -> bool:
        return bool(self.spans)
