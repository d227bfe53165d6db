"""Per-file context helpers: line and column of an offset."""

from __future__ import annotations

import random

from cudaport.translate.context import LineIndex


def _naive(src: bytes, offset: int) -> tuple[int, int]:
    before = src[:offset]
    return before.count(b"\n") + 1, offset - (before.rfind(b"\n") + 1) + 1


def test_line_and_column_in_any_query_order():
    rng = random.Random(7)
    for _ in range(500):
        src = bytes(rng.choice(b"ab\r\n") for _ in range(rng.randint(0, 80)))
        index = LineIndex(src)
        for _ in range(rng.randint(1, 30)):  # ascending runs, jumps back, past the end
            offset = rng.randint(0, len(src) + 2)
            assert index.linecol(offset) == _naive(src, offset), (src, offset)


def test_queries_going_back_stop_counting_once_the_table_is_cheaper():
    src = b"x\n" * 1000
    index = LineIndex(src)
    assert index.linecol(1990) == (996, 1)
    for offset in range(1980, 0, -10):  # each would count from the start
        assert index.linecol(offset) == (offset // 2 + 1, 1)
    assert index._starts is not None  # bounded: at most about twice the file was counted
