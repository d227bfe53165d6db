"""Per-file state shared by the translation passes."""

from __future__ import annotations

import bisect
import itertools
import operator
from dataclasses import dataclass, field

from ..source import lexer
from ..symbols import scopes
from ..source.edits import Edit
from ..findings import Finding
from ..options import Options
from ..rules.compiled import Compiled
from ..source.scan import Scan

CUDA_SUFFIXES = (".cu", ".cuh")  # sources nvcc compiles as CUDA whatever they hold
# (macros a CUDA compile defines, read in #if lines, where the scan records no name)
_CUDA_MACROS = (b"__CUDA_ARCH", b"__CUDACC", b"__NVCC__", b"CUDART_VERSION", b"CUDA_VERSION")


class LineIndex:
    """Offset to 1-based (line, column); columns count bytes, as compilers do.

    Most queries come in ascending order (a pass's findings, a file's references): those
    count line breaks from the previous query on, so a file with a finding near its top
    costs a few bytes, not a table of every line. A query going back counts again from
    the start, until that has cost as much as the table, which is then built."""

    def __init__(self, src: bytes) -> None:
        self.src = src
        self._starts: list[int] | None = None
        self._pos = 0  # the last ascending query, its line, and where that line starts
        self._line = 1
        self._line_start = 0
        self._budget = len(src)  # bytes backward queries may count before the table

    def linecol(self, offset: int) -> tuple[int, int]:
        if self._starts is None:
            if offset < self._pos:  # going back: count again from the start, while cheap
                self._budget -= offset
                if offset >= 0 and self._budget >= 0:
                    self._pos, self._line, self._line_start = 0, 1, 0
            if offset >= self._pos:
                breaks = self.src.count(b"\n", self._pos, offset)
                if breaks:
                    self._line += breaks
                    self._line_start = self.src.rfind(b"\n", self._pos, offset) + 1
                self._pos = offset
                return self._line, offset - self._line_start + 1
            # line k starts after the lengths of lines 0..k-1 and their k newlines
            # (sums made in C: a Python step per line cost more than the rest of a file)
            lengths = map(len, self.src.split(b"\n"))
            self._starts = [0, *map(operator.add, itertools.accumulate(lengths),
                                    itertools.count(1))][:-1]
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1


@dataclass
class FileContext:
    src: bytes
    path: str
    compiled: Compiled
    options: Options
    scan: Scan
    edits: list[Edit] = field(default_factory=list)
    # (offset, name, context, resolved rule or None for unknown names); turned into
    # Reference objects only when someone reads them (see translate.Result).
    references: list[tuple] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    lines: LineIndex | None = None
    # Requests applied once after the passes (passes.final_steps): a pass that sees
    # runtime or device use asks for the main header; the includes pass says whether the
    # file has it (and which target header came before it).
    uses_runtime: bool = False
    # Kernel-language use (__global__, threadIdx, a launch): only the target's own main
    # header declares those, not the library headers that count as main (hipfft.h).
    uses_device: bool = False
    main_header: tuple = (False, None, None, False, False)  # (has it, target header before
    # it, its include when translated from a CUDA header, has the target's own main header,
    # a project header is included before that one or without one after it)
    # Macros the target's headers need defined before them (HIP_ENABLE_WARP_SYNC_BUILTINS):
    # always, and only when the file ends up including the main header.
    defines: set[bytes] = field(default_factory=set)
    defines_with_main: tuple[bytes, ...] = ()
    clang: object | None = None  # cudaport.clang.Facts when --clang parsed the file
    _brackets: lexer.Brackets | None = None
    _branch_tree: object | None = None
    _skeleton: object | None = None
    _known_facts: tuple | None = None  # (see platform_branches.known)
    _branch_readings: dict = field(default_factory=dict)  # (platform_branches._read_branches)
    _symbols: object | None = None
    _code: bytes | None = None
    _names: frozenset[bytes] | None = None
    _heads: dict[bytes, bool] = field(default_factory=dict)
    _asm_reads: dict = field(default_factory=dict)  # (read_asm)
    # Includes in branches the target's compiler selects (`#ifdef __HIPCC__`): left as they
    # are, but a target main header there is one the file has (else the first run turned
    # `#ifdef __CUDACC__` / `#include <cuda.h>` into it, and a second run added another).
    portable_includes: list = field(default_factory=list)
    # CUDA-looking names the file defines or declares itself (CUDA_CHECK, cudaDev): not
    # CUDA API here, nor in the project's other files (see cudaport.symbols.own_names).
    own_names: frozenset[bytes] = frozenset()
    # CUDA names the file's #if conditions test that the target never defines (read as 0
    # there: platform_branches.before_passes), for deciding which branches it compiles
    undefined_in_conditions: frozenset[bytes] = frozenset()
    # '#' offset -> outcome of the #if/#elif conditions the translation makes take the
    # branch a CUDA build takes (a version gate in a file with no HIP branches of its own)
    forced_conditions: dict[int, bool | None] = field(default_factory=dict)
    # The architecture and version gates the target's facts decided (a file with no
    # branches of the target's own: cudaport.preprocessor.gates), and their directives
    gate_decisions: list = field(default_factory=list)
    gate_directives: frozenset[int] = frozenset()

    def linecol(self, offset: int) -> tuple[int, int]:
        if self.lines is None:
            self.lines = LineIndex(self.src)
        return self.lines.linecol(offset)

    def find(self, code: str, offset: int, message: str, identifier: str = "",
             library: str = "", severity: str = "", engine: str = "lexical") -> None:
        line, col = self.linecol(offset)
        self.findings.append(Finding(code, message, self.path, line, col, severity,
                                     identifier, library, engine, offset))

    def in_code(self, start: int, end: int) -> bool:
        """Whether no comment or literal overlaps ``src[start:end]``: a span found by
        walking bytes backwards (a kernel expression before ``<<<``) may have walked into
        a comment. The scan recorded the literal spans."""
        spans = self.scan.literals
        i = bisect.bisect_left(spans, (end,)) - 1
        return i < 0 or spans[i][1] <= start

    @property
    def uses_cuda(self) -> bool:
        """Whether the file uses CUDA: a CUDA source by its suffix, or a CUDA header, name,
        launch or CUDA-looking word in its code (once the names the project owns are set
        aside), or the compiler's CUDA macros in its conditions.
        A file that does not is never edited: a pass that fixes C++ hipcc's clang rejects
        names the spot there instead (CP182)."""
        s = self.scan
        return self.path.lower().endswith(CUDA_SUFFIXES) or bool(s.launches) or bool(
            s.marks) or any(c == "code" for _, _, c in s.idents) or any(
            c == "code" for _, _, c in s.unknown) or any(
            self.compiled.header(i.name) is not None for i in s.includes) or any(
            m in self.src for m in _CUDA_MACROS)

    @property
    def names(self) -> frozenset[bytes]:
        """The table names the scan found in code: a set lookup tells a pass whether the
        file uses a name at all, without a search of its bytes."""
        if self._names is None:
            self._names = frozenset(n for _, n, where in self.scan.idents if where == "code")
        return self._names

    @property
    def code(self) -> bytes:
        """The source with comments and literals blanked (same offsets), made once per
        file for every pass that searches code with regexes."""
        if self._code is None:
            self._code = lexer.blank_spans(self.src, self.scan.literals)
        return self._code

    def holds(self, text: bytes) -> bool:
        """``text in self.src``, answered at once for most target names: their first
        three bytes (``hip``) are searched for once per file, and a file without them
        holds none of the names that start so."""
        head = text[:3]
        seen = self._heads.get(head)
        if seen is None:
            seen = self._heads[head] = head in self.src
        return seen and (text == head or text in self.src)

    def marked(self, *words: bytes) -> list[int]:
        """Where the scan saw these of ``Compiled.marked_words`` in code."""
        return [start for start, word in self.scan.marks if word in words]

    def code_at(self, start: int, end: int) -> bytes:
        """``self.code[start:end]``, without blanking the whole file for a few lines."""
        if self._code is not None:
            return self._code[start:end]
        spans = self.scan.literals
        i = max(0, bisect.bisect_left(spans, (start,)) - 1)
        inside = []
        while i < len(spans) and spans[i][0] < end:
            a, b = spans[i]
            if b > start:
                inside.append((max(a, start) - start, min(b, end) - start))
            i += 1
        return lexer.blank_spans(self.src[start:end], inside)

    @property
    def branch_tree(self):
        """The file's ``#if`` groups (:class:`cudaport.preprocessor.branches.BranchTree`),
        built once from the scan's directives for every pass that asks."""
        if self._branch_tree is None:
            from ..preprocessor.branches import BranchTree

            self._branch_tree = BranchTree(self.src, self.scan.directives)
        return self._branch_tree

    @property
    def skeleton(self):
        """The file's brace blocks (:class:`cudaport.symbols.skeleton.Skeleton`), built once
        from the code for every pass that asks."""
        if self._skeleton is None:
            from ..symbols.skeleton import Skeleton

            self._skeleton = Skeleton(self.code, self.scan.directives)
        return self._skeleton

    @property
    def symbols(self):
        """Who owns each CUDA-spelled token (:class:`cudaport.symbols.resolve.FileSymbols`),
        built once from the scan's hits as they stand when first asked (after the
        already-portable regions are set aside)."""
        if self._symbols is None:
            from ..symbols.project import project_declarations
            from ..symbols.resolve import FileSymbols
            from ..symbols.roles import api_members, api_namespaces, target_spellings

            hits = [(s, n) for s, n, c in self.scan.idents if c == "code"]
            hits += [(s, n) for s, n, c in self.scan.unknown if c == "code"]
            hits.sort()
            self._symbols = FileSymbols(self.src, self.code, hits, self.skeleton,
                                        api_namespaces(self.compiled),
                                        project_declarations(self.options), self.branch_tree,
                                        api_members(self.compiled),
                                        target_spellings(self.compiled))
        return self._symbols

    @property
    def brackets(self) -> lexer.Brackets:
        """The file's bracket pairs, shared by every pass that splits argument lists."""
        if self._brackets is None:
            self._brackets = lexer.Brackets(self.src)
        return self._brackets

    def read_asm(self, offset: int):
        """``ptx.read_asm`` of the asm keyword at ``offset``, read once per file: the hazard
        pass and the asm pass both read each statement."""
        read = self._asm_reads.get(offset, self)
        if read is self:
            from . import ptx

            read = self._asm_reads[offset] = ptx.read_asm(self.src, offset, self.brackets)
        return read

    def call_arguments(self, start: int, end: int) -> tuple[list[tuple[int, int]], int] | None:
        """The argument spans of a call of the name at ``start:end`` and the offset past
        its ``)``; None where no argument list follows or where the name is being declared:
        a project's own overload (``at::Half __shfl_up_sync(const warp_mask_t mask, ...)``)
        is no call, and its parameters are no arguments to rewrite."""
        parsed = lexer.call_arguments(self.src, end, self.brackets)
        if parsed is not None and scopes.is_declaration(self.src, start, end - start) \
                and scopes.is_declaration(self.code, start, end - start):
            return None
        return parsed

    def eol(self) -> bytes:
        """The file's line ending, for inserted lines."""
        i = self.src.find(b"\n")
        return b"\r\n" if i > 0 and self.src[i - 1:i] == b"\r" else b"\n"
