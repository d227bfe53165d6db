"""The brace blocks of a file and what each one opens, found in one pass.

Braces are paired on code whose comments and literals are blanked. ``#if`` groups are
read as a first build reads them: the first branch of each group pairs with the braces
around the group; a later branch (``#elif``/``#else``) pairs only its own braces, so a
kernel whose ``#if`` branch closes loops its ``#else`` never opened (ggml's mmf.cuh) does
not shift every block after it. Each ``{`` is classified by a bounded look behind it:
namespace, class (struct/union), enum, function, lambda, extern "C", initializer or
block. Lookups (the innermost block around an offset, its namespace) are bisects.
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple, Sequence

from ..preprocessor.branches import OPENS
from ..source.spans import Inside
from ..source.lazy_re import lazy

NAMESPACE, CLASS, ENUM, FUNCTION, LAMBDA, EXTERN, INIT, BLOCK = (
    "namespace", "class", "enum", "function", "lambda", "extern", "init", "block")

_BRACE = lazy(rb"[{}]")
_DEVICE_MARK = lazy(rb"(?<![\w$])(?:__device__|__global__)(?![\w$])")
_PAREN = lazy(rb"[()]")
_LOOK_BEHIND = 400  # bytes read before a '{' to classify it

_NAMESPACE_HEAD = lazy(
    rb"(?<![\w$])(?:inline\s+)?namespace(?:\s+((?:[A-Za-z_]\w*\s*::\s*)*(?:inline\s+)?[A-Za-z_]\w*))?"
    rb"\s*(?:\[\[[^\]]*\]\]\s*|__attribute__\s*\(\([^;{}]*\)\)\s*)*\Z")
_EXTERN_HEAD = lazy(rb"(?<![\w$])extern\Z")  # (its "C" is blanked)
_CLASS_HEAD = lazy(
    rb"(?<![\w$])(enum(?:\s+(?:class|struct))?|struct|class|union)(?![\w$])"
    rb"((?:\s*(?:__attribute__\s*\(\([^;{}]*?\)\)|alignas\s*\([^;{}]*?\)|__align__\s*\([^;{}]*?\)"
    rb"|\[\[[^\]]*\]\]|__declspec\s*\([^;{}]*?\)|[A-Z_][A-Z0-9_]*(?=\s+[A-Za-z_])))*)"
    rb"\s*((?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*)?\s*(?:<[^;{}]*>\s*)?(?:final\s*)?"
    rb"(?::[^;{}]*)?\Z")
_CLOSE_PAREN_HEAD = lazy(
    rb"\)\s*(?:(?:const|volatile|noexcept|override|final|mutable|constexpr|&&|&|try"
    rb"|__device__|__host__)\s*|noexcept\s*\([^;{}]*\)\s*|->\s*[^;{}()=]*?\s*"
    rb"|__attribute__\s*\(\([^;{}]*\)\)\s*)*\Z")
_BLANKS = lazy(rb"\s+")
_TAG_WORD = lazy(rb"enum|struct|class|union")
_CONTROL = frozenset(b"if for while switch catch".split())
_ELSE_DO = lazy(rb"(?<![\w$])(?:else|do|try|__try|__finally)\s*\Z")
# (identifiers and blanks possessive: searched from every byte of the head, a name split
# every way it could be was quadratic in its length; the group itself not, Debian 12's
# python3 3.11.2 matches nothing with a possessive group, see lexer.py)
_WORD_BEFORE = lazy(rb"((?:[A-Za-z_~]\w*+\s*+::\s*+)*(?:operator\s*[^\s\w(]+|~?[A-Za-z_]\w*+))"
                    rb"\s*+(?:<[^;{}()]*>\s*)?\Z")
_NAME_BEFORE = lazy(rb"((?:[A-Za-z_~]\w*+\s*+::\s*+)*(?:operator\s*[^\s\w(]+|~?[A-Za-z_]\w*+))"
                    rb"\s*+\Z")


class Block(NamedTuple):
    open: int  # its '{'
    close: int  # its '}', or the end of the file (or of its #if branch) when unclosed
    kind: str
    name: bytes  # namespace, class, enum or function name (b"" when there is none)
    parent: int  # the block around it, -1 at file level
    head: int  # where its head starts (the declaration the '{' belongs to)


class Skeleton:
    """Brace blocks of ``code`` (comments and literals blanked); ``directives``: the
    scan's conditional directives, so later branches of an ``#if`` pair apart."""

    def __init__(self, code: bytes, directives: Sequence[tuple[int, bytes]] = ()) -> None:
        self.code = code
        pairs: dict[int, int] = {}
        stack: list[int] = []
        floor = 0  # a '}' closes only blocks above this (inside a later #if branch)
        frames: list[list] = []  # per open #if group: [floor before, stack at #if, first end]
        events = _merge(_BRACE.finditer(code), directives)
        for offset, what in events:
            if what is None:  # a brace
                if code[offset] == 0x7B:  # {
                    stack.append(offset)
                elif len(stack) > floor:
                    pairs[stack.pop()] = offset
            elif what in OPENS:
                frames.append([floor, list(stack), None])
            elif what in (b"elif", b"else"):
                if not frames:
                    continue
                frame = frames[-1]
                if frame[2] is None:  # the first branch ends: its state is the group's
                    frame[2] = list(stack)
                else:
                    _close_above(stack, floor, offset, pairs)
                stack[:] = frame[1]
                floor = len(stack)
            elif what == b"endif":
                if not frames:
                    continue
                before, _at_if, first = frames.pop()
                if first is not None:  # (after a later branch: the first one's state)
                    _close_above(stack, floor, offset, pairs)
                    stack[:] = first
                floor = before
        for open_ in stack:
            pairs.setdefault(open_, len(code))
        opens = sorted(pairs)
        self.opens = opens
        self.closes = [pairs[o] for o in opens]
        parents: list[int] = []
        # boundaries for at(): from starts[i] on, the innermost block is inner[i]
        self.starts: list[int] = [0]
        self.inner: list[int] = [-1]
        open_blocks: list[int] = []
        # (brace offsets in order: each open is a boundary, each close ends one)
        closing = sorted((c, i) for i, c in enumerate(self.closes))
        ci = 0
        for i, o in enumerate(opens):
            while ci < len(closing) and closing[ci][0] < o:
                self._end(closing[ci], open_blocks)
                ci += 1
            while open_blocks and self.closes[open_blocks[-1]] < o:
                open_blocks.pop()  # (closed by a brace already past)
            parents.append(open_blocks[-1] if open_blocks else -1)
            open_blocks.append(i)
            self.starts.append(o + 1)
            self.inner.append(i)
        while ci < len(closing):
            self._end(closing[ci], open_blocks)
            ci += 1
        self.parents = parents  # (each block's parent, known before any is classified)
        self.blocks = _Blocks(self, parents)
        self._namespaces: dict[int, bytes] = {}
        self._host_spans: tuple[Inside, Inside] | None = None

    def _end(self, closing: tuple[int, int], open_blocks: list[int]) -> None:
        close, i = closing
        if open_blocks and open_blocks[-1] == i:
            open_blocks.pop()
            self.starts.append(close)
            self.inner.append(open_blocks[-1] if open_blocks else -1)
        elif i in open_blocks:  # (blocks closed out of order: an #if branch's end)
            while open_blocks and open_blocks[-1] != i:
                open_blocks.pop()
            open_blocks.pop()
            self.starts.append(close)
            self.inner.append(open_blocks[-1] if open_blocks else -1)

    def _classify(self, brace: int, parent: int) -> tuple[str, bytes, int]:
        code = self.code
        low = max(0, brace - _LOOK_BEHIND)
        # the head: back to the last ';', '{' or '}' (or a directive line)
        cut = _last_boundary(code, low, brace)
        # (a ';' inside parentheses, `for (;;) {`, is no boundary: read on back)
        while cut >= low and code.count(b")", cut, brace) > code.count(b"(", cut, brace):
            cut = _last_boundary(code, low, cut)
        start = cut + 1 if cut >= 0 else low
        hash_ = code.rfind(b"#", start, brace)
        if hash_ >= 0:  # (a directive between: the head starts after its line)
            nl = code.find(b"\n", hash_)
            if 0 <= nl < brace:
                start = nl + 1
        head = code[start:brace].rstrip()
        stripped = head.lstrip()
        start += len(head) - len(stripped)
        head = stripped
        if not head:
            return BLOCK, b"", start
        # (each head regex is anchored at the end and would be tried from every byte of
        # the head: the words it needs are looked for first)
        m = _NAMESPACE_HEAD.search(head) if b"namespace" in head else None
        if m is not None:
            name = re.sub(rb"\s+|inline\s", b"", m.group(1) or b"")
            return NAMESPACE, name, start
        if head.endswith(b"extern") and _EXTERN_HEAD.search(head):
            return EXTERN, b"", start
        m = _CLASS_HEAD.search(head) if _TAG_WORD.search(head) else None
        if m is not None and b"(" not in head[m.start():].split(b":", 1)[0]:
            kind = ENUM if m.group(1).startswith(b"enum") else CLASS
            name = m.group(3) or b""
            return kind, name.rpartition(b"::")[2].strip(), start
        if head.endswith(b")"):
            return self._after_parameters(head, start, parent, _CLOSE_PAREN_HEAD.search(head))
        m = _CLOSE_PAREN_HEAD.search(head) if b")" in head else None
        if m is not None:
            return self._after_parameters(head, start, parent, m)
        if head.endswith((b"else", b"do", b"try", b"__finally")) and _ELSE_DO.search(head):
            return BLOCK, b"", start
        last = head[-1:]
        if last in b"=,([{?" or head.endswith(b"return") or last == b">" or last == b")":
            return INIT, b"", start
        if last.isalnum() or last == b"_" or last == b"]":
            # `Type name{...}`, `T{...}` (a braced initializer), `struct S name{...}`
            return INIT, b"", start
        return BLOCK, b"", start

    def _after_parameters(self, head: bytes, start: int, parent: int,
                          m: re.Match[bytes] | None) -> tuple[str, bytes, int]:
        """A '{' after ``(...)`` (``m``: _CLOSE_PAREN_HEAD's match in ``head``): a
        function, a lambda or a control statement."""
        close = m.start() if m is not None else len(head) - 1
        j = head.rfind(b"(", 0, close)
        if head[close] != 0x29 or j < 0 or head.find(b")", j + 1, close) >= 0:
            # (parentheses inside the list: its '(' is found by counting back)
            depth, j = 0, -1
            for p in reversed([q.start() for q in _PAREN.finditer(head, 0, close + 1)]):
                if head[p] == 0x29:
                    depth += 1
                else:
                    depth -= 1
                    if depth == 0:
                        j = p
                        break
        if j < 0:
            return BLOCK, b"", start
        before = head[:j].rstrip()
        if before.endswith(b"]") or before.endswith(b"__device__") and b"[" in before:
            return LAMBDA, b"", start
        # (a template's arguments end the head only where it ends with '>')
        w = (_WORD_BEFORE if before.endswith(b">") else _NAME_BEFORE).search(before)
        if w is None:
            return BLOCK, b"", start
        name = _BLANKS.sub(b"", w.group(1))
        if name in _CONTROL:
            return BLOCK, b"", start
        if b"::" not in name and before[:w.start()].rstrip().endswith((b",", b":")) \
                and not before[:w.start()].rstrip().endswith(b"::"):
            return FUNCTION, b"", start  # (a constructor's member initializer list)
        if parent >= 0 and self.blocks[parent].kind in (FUNCTION, LAMBDA, BLOCK, INIT) \
                and not before[:w.start()].strip():
            return BLOCK, b"", start  # (a call's block: `MACRO(x) {`, in a body)
        return FUNCTION, name, start

    # -- lookups ----------------------------------------------------------------------

    def at(self, offset: int) -> int:
        """The innermost block whose braces enclose ``offset`` (-1: file level)."""
        return self.inner[bisect.bisect_right(self.starts, offset) - 1]

    def chain(self, index: int) -> list[int]:
        """``index`` and the blocks around it, innermost first."""
        out = []
        while index >= 0:
            out.append(index)
            index = self.parents[index]
        return out

    def kind_at(self, offset: int) -> str | None:
        i = self.at(offset)
        return self.blocks[i].kind if i >= 0 else None

    def namespace_of(self, index: int) -> bytes:
        """The qualified namespace (``a::b``) a block stands in, itself included when it
        is one; b"" at global scope. Kept per block, so a query is a dict lookup."""
        if index < 0:
            return b""
        found = self._namespaces.get(index)
        if found is None:
            b = self.blocks[index]
            outer = self.namespace_of(b.parent)
            if b.kind == NAMESPACE and b.name:
                found = outer + b"::" + b.name if outer else b.name
            else:
                found = outer
            self._namespaces[index] = found
        return found

    def namespace_at(self, offset: int) -> bytes:
        return self.namespace_of(self.at(offset))

    def function_bodies(self) -> list[Block]:
        """Function and lambda bodies, outermost first for nested ones."""
        return [b for b in self.blocks if b.kind in (FUNCTION, LAMBDA)]

    def host_only(self, offset: int) -> bool:
        """Whether ``offset`` lies in a function or lambda body nvcc compiles for the host
        only: in some body, and in none whose head is marked ``__device__``/``__global__``
        (a device lambda inside a host function, a device member of a class are device
        code). Built on first use, one pass over the bodies."""
        spans = self._host_spans
        if spans is None:
            bodies: list[tuple[int, int]] = []
            device: list[tuple[int, int]] = []
            for block in self.function_bodies():  # (outermost first)
                span = (block.open, block.close + 1)
                if not bodies or block.open >= bodies[-1][1]:
                    bodies.append(span)
                if (not device or block.open >= device[-1][1]) \
                        and _DEVICE_MARK.search(self.code, block.head, block.open):
                    device.append(span)
            spans = self._host_spans = (Inside(bodies), Inside(device))
        bodies_at, device_at = spans
        return bodies_at(offset) and not device_at(offset)


class _Blocks(Sequence[Block]):
    """The blocks in order of their '{', each classified on first use: most of a file's
    braces (loop bodies, initializers) are never asked about. A block's class may depend on
    its parent's, so the unclassified blocks around it are classified first, outermost
    first (no recursion: nesting may be deep)."""

    def __init__(self, skeleton: Skeleton, parents: list[int]) -> None:
        self._skeleton = skeleton
        self._parents = parents
        self._done: list[Block | None] = [None] * len(parents)

    def __len__(self) -> int:
        return len(self._parents)

    def __getitem__(self, index):  # type: ignore[override]
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(len(self)))]
        done = self._done
        block = done[index]
        if block is None:
            if index < 0:
                index += len(done)
            skeleton, parents = self._skeleton, self._parents
            todo = [index]
            parent = parents[index]
            while parent >= 0 and done[parent] is None:
                todo.append(parent)
                parent = parents[parent]
            for i in reversed(todo):
                o = skeleton.opens[i]
                kind, name, head = skeleton._classify(o, parents[i])
                done[i] = Block(o, skeleton.closes[i], kind, name, parents[i], head)
            block = done[index]
        return block

    def __iter__(self):
        for i in range(len(self._parents)):
            yield self[i]


def device_mark(skeleton: "Skeleton", offset: int) -> str | None:
    """How the code at ``offset`` is compiled by the function around it: "device" (a body
    marked ``__device__`` or ``__global__`` without ``__host__``), "both" (``__host__
    __device__``), None (host code or outside bodies). An unmarked lambda takes its
    enclosing function's marks, as nvcc's do."""
    for i in skeleton.chain(skeleton.at(offset)):
        block = skeleton.blocks[i]
        if block.kind not in (FUNCTION, LAMBDA):
            continue
        head = skeleton.code[block.head:block.open]
        if _DEVICE_MARK.search(head):
            return "both" if _HOST_MARK.search(head) else "device"
        if block.kind == FUNCTION:
            return None
    return None


_HOST_MARK = lazy(rb"(?<![\w$])__host__(?![\w$])")


def _last_boundary(code: bytes, low: int, end: int) -> int:
    return max(code.rfind(b";", low, end), code.rfind(b"{", low, end),
               code.rfind(b"}", low, end))


def _merge(braces, directives: Sequence[tuple[int, bytes]]):
    """Braces (word None) and conditional directives in offset order."""
    d = iter(directives)
    nxt = next(d, None)
    for m in braces:
        o = m.start()
        while nxt is not None and nxt[0] < o:
            yield nxt
            nxt = next(d, None)
        yield o, None
    while nxt is not None:
        yield nxt
        nxt = next(d, None)


def _close_above(stack: list[int], floor: int, end: int, pairs: dict[int, int]) -> None:
    """Blocks a later ``#if`` branch opened and left open end with the branch."""
    while len(stack) > floor:
        pairs[stack.pop()] = end
