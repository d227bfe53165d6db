"""Map positions in translated output back to the original source.

cudaport knows every edit it made, so a compiler diagnostic on the translated file can be
reported on the CUDA file the user wrote: text copied unchanged maps byte for byte, text
inside a replacement maps to the start of the code it replaced, and an inserted line (the
main header, for example) maps to the line it was inserted before.
"""

from __future__ import annotations

import bisect
from typing import Sequence

from ..translate.context import LineIndex
from .edits import Edit


class PositionMap:
    """Output (line, col) → input (line, col) for one translation."""

    def __init__(self, src: bytes, edits: Sequence[Edit], output: bytes) -> None:
        # Non-empty output segments: (out_start, in_start, length, copied).
        segments: list[tuple[int, int, int, bool]] = []
        out = pos = 0
        for edit in edits:
            if edit.start > pos:
                segments.append((out, pos, edit.start - pos, True))
                out += edit.start - pos
            if edit.replacement:
                segments.append((out, edit.start, len(edit.replacement), False))
                out += len(edit.replacement)
            pos = edit.end
        if len(src) > pos:
            segments.append((out, pos, len(src) - pos, True))
        self._segments = segments
        self._starts = [s[0] for s in segments]
        self._out = LineIndex(output)
        self._in = LineIndex(src)
        self._out_line_starts: list[int] | None = None
        self.output = output

    def _offset(self, line: int, col: int) -> int:
        if self._out_line_starts is None:
            starts = [0]
            find = self.output.find
            i = find(b"\n")
            while i >= 0:
                starts.append(i + 1)
                i = find(b"\n", i + 1)
            self._out_line_starts = starts
        starts = self._out_line_starts
        line = min(max(line, 1), len(starts))
        return min(starts[line - 1] + max(col, 1) - 1, len(self.output))

    def input_offset(self, out_offset: int) -> int:
        if not self._segments:
            return 0
        i = max(bisect.bisect_right(self._starts, out_offset) - 1, 0)
        out_start, in_start, length, copied = self._segments[i]
        if copied:
            return in_start + min(out_offset - out_start, length)
        return in_start

    def input_line(self, line: int) -> bytes:
        """The text of input line ``line`` (1-based), without its line break."""
        src = self._in.src
        start = 0
        for _ in range(line - 1):
            start = src.find(b"\n", start) + 1
            if start == 0:
                return b""
        end = src.find(b"\n", start)
        return src[start:len(src) if end < 0 else end].rstrip(b"\r")

    def to_input(self, line: int, col: int) -> tuple[int, int]:
        """The input position of output ``line``:``col`` (both 1-based)."""
        return self._in.linecol(self.input_offset(self._offset(line, col)))
