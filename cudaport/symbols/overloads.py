"""Calls of a CUDA function the project overloads for its own types.

A project may declare, at global scope, an overload of a CUDA function for a type of its
own (``__device__ Pair __shfl_xor_sync(unsigned mask, Pair v, int m)``). A call whose
argument at such a parameter has that type calls the project's overload, and must stay as
written: rewriting it (a widened mask) makes the target's template a better match. The
callee is chosen from the argument shapes C++ would use: a literal's type, an identifier's
declared type (read back from the call within a bounded window of its function), an
element of a declared array or pointer. A call no shape decides is left as written too,
with a warning (see :class:`Callee`).
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple

from ..source import lexer
from .skeleton import FUNCTION, LAMBDA, Skeleton
from ..source.lazy_re import lazy

PROJECT, API, UNDECIDED = "project", "api", "undecided"

# Types no project declares: a parameter of one of these is no project's overload mark.
_BUILTIN = frozenset(b"""void bool char short int long float double unsigned signed size_t
ptrdiff_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t uint auto
const volatile half __half __half2 __nv_bfloat16 __nv_bfloat162 std""".split())
_WORD = lazy(rb"[A-Za-z_]\w*")
# a member access before any default value: an argument, not a parameter declaration
_EXPRESSION = lazy(rb"[^=]*?[\w)\]]\s*(?:\.(?!\.)|->)\s*[A-Za-z_]")
_LOOK_BACK = 4000  # bytes read back from a call for an argument's declaration
_BARRIER = lazy(rb"[;{}()]")  # (bytes a declaration holds only as its last)
_UNREAD = object()


class Overload(NamedTuple):
    at: int  # the declared name
    types: tuple[bytes, ...]  # each parameter's type, normalized (b"" when not read)
    marks: tuple[int, ...]  # positions whose type is the project's own


def parameter_type(text: bytes) -> bytes:
    """``const Pair& v`` -> ``Pair``; ``float* p`` -> ``float*``: the declared name,
    qualifiers and references dropped, pointers kept."""
    text = text.split(b"=", 1)[0].strip()
    words = _WORD.findall(text)
    stars = text.count(b"*")
    if len(words) >= 2:
        words = words[:-1]  # (the parameter's name)
    words = [w for w in words if w not in (b"const", b"volatile", b"struct", b"class")]
    return b" ".join(words) + b"*" * stars


# words that may follow a function's parameter list with parentheses of their own
_AFTER_PARAMETERS = frozenset(b"noexcept throw __attribute__ __declspec requires alignas "
                              b"decltype __launch_bounds__".split())


class Callee:
    """The project's overloads of CUDA functions in one file, and which one a call
    reaches."""

    def __init__(self, code: bytes, skeleton: Skeleton, hit_names: frozenset[bytes],
                 target: frozenset[bytes] = frozenset()) -> None:
        self.code = code
        self.skeleton = skeleton
        self.hit_names = hit_names
        self.target = target  # (the names CUDA's become: read as CUDA's are)
        self.overloads: dict[bytes, list[Overload]] = {}
        self._classes: dict[bytes, bool] = {}  # type name -> none of the file's aliases
        # name -> (its declaration, a candidate); (name, piece) -> its last declared type
        self._patterns: dict[bytes, tuple[re.Pattern[bytes], re.Pattern[bytes]]] = {}
        self._pieces: dict[tuple[bytes, int], bytes | None] = {}
        self._barriers: list[int] | None = None  # (see _declared)

    def declare(self, name: bytes, start: int) -> bool:
        """Record the global declaration of ``name`` at ``start`` when a parameter has a
        type of the project's own; whether it is such an overload."""
        paren = lexer.next_token(self.code, start + len(name))
        if paren is None or paren.text != b"(":
            return False
        parsed = lexer.split_arguments(self.code, paren.start)
        if parsed is None:
            return False
        after = lexer.next_token(self.code, parsed[1])
        then = lexer.next_token(self.code, after.end) if after and after.kind == "ident" else None
        if then is not None and then.text == b"(" and after.text not in _AFTER_PARAMETERS or any(
                self.code[a:a + 1].isdigit() for a, _ in parsed[0]):
            # `void __launch_bounds__(N * rows, 2) kernel(...)`: an attribute before the
            # function's name (a number is no parameter), not a declaration of its own
            return False
        if any(_EXPRESSION.match(self.code, a, b) for a, b in parsed[0]):
            # (`cudaMemcpy(y.data(), ...)`: a member access is no parameter's declaration
            # but a call's argument, wherever the braces around it were misread)
            return False
        types = tuple(parameter_type(self.code[a:b]) for a, b in parsed[0])
        marks = tuple(i for i, t in enumerate(types) if self._own(t))
        if not marks:
            return False
        self.overloads.setdefault(name, []).append(Overload(start, types, marks))
        return True

    def _own(self, t: bytes) -> bool:
        """A type of the project's own: no builtin or CUDA type, nor an alias the file
        declares (which may name a builtin type: pytorch_scatter's `typedef unsigned int
        warp_mask_t`)."""
        base = t.rstrip(b"*").split(b" ")[-1] if t else b""
        if not base or base in _BUILTIN or base in self.hit_names or base in self.target \
                or base.startswith(b"__"):
            return False
        found = self._classes.get(base)
        if found is None:
            name = re.escape(base)
            found = self._classes[base] = re.search(
                rb"(?<![\w$])typedef\b[^;{}]*(?<![\w$])" + name + rb"\s*;|(?<![\w$])using\s+"
                + name + rb"\s*=", self.code) is None
        return found

    def call(self, name: bytes, start: int) -> tuple[str, Overload | None]:
        """Whose function the call of ``name`` at ``start`` reaches: PROJECT (with the
        overload), API, or UNDECIDED (an argument the overload marks has no shape read)."""
        overloads = self.overloads.get(name)
        if not overloads:
            return API, None
        paren = lexer.next_token(self.code, start + len(name))
        parsed = lexer.split_arguments(self.code, paren.start) if paren is not None \
            and paren.text == b"(" else None
        if parsed is None:
            return UNDECIDED, overloads[0]
        args = parsed[0]
        unsure = None
        for o in overloads:
            if len(args) > len(o.types):
                continue
            verdict = True
            for i in o.marks:
                if i >= len(args):
                    verdict = False
                    break
                found = self.argument_type(*args[i])
                if found is None:
                    verdict = None
                elif found.rstrip(b"*").split(b" ")[-1] != o.types[i].rstrip(b"*").split(
                        b" ")[-1] or found.count(b"*") != o.types[i].count(b"*"):
                    verdict = False
                    break
            if verdict is True:
                return PROJECT, o
            if verdict is None:
                unsure = o
        return (UNDECIDED, unsure) if unsure is not None else (API, None)

    def argument_type(self, a: int, b: int) -> bytes | None:
        """The type of the argument ``code[a:b]``: a literal's, a declared identifier's, an
        element of a declared pointer or array; None when not read."""
        text = self.code[a:b].strip()
        if re.fullmatch(rb"[0-9][0-9a-fA-FxX.]*[uUlLfF]*", text):
            return b"double" if b"." in text and not text.endswith((b"f", b"F")) else b"int"
        if re.fullmatch(rb"[A-Za-z_]\w*\s*(?:\.|->)\s*[A-Za-z_]\w*", text):
            return b"<member>"  # (a member of an object: not the object's own type)
        m = re.fullmatch(rb"([A-Za-z_]\w*)\s*(\[[^\[\]]*\])?", text)
        if m is None:
            return None
        declared = self._declared(m.group(1), a)
        if declared is None:
            return None
        if m.group(2) is not None:
            return declared[:-1] if declared.endswith(b"*") else None
        return declared

    def _declared(self, name: bytes, at: int) -> bytes | None:
        """The type ``name`` is declared with before ``at``, in the function around it (its
        parameters included), read back at most a few kilobytes."""
        low = max(0, at - _LOOK_BACK)
        i = self.skeleton.at(at)
        while i >= 0:
            block = self.skeleton.blocks[i]
            if block.kind in (FUNCTION, LAMBDA):
                low = max(low, block.head)
                if block.kind == FUNCTION:
                    break
            i = block.parent
        pattern, candidate = self._patterns.get(name) or self._compile(name)
        # No match holds one of `;{}()` but as its last byte: the window's matches are those
        # of its pieces between such bytes (the same for every window holding a whole
        # piece), and a piece holds one only where the name stands before a `= ; , ) [ {
        # (` (a candidate). The last match is read from the window's end, piece by piece.
        if self._barriers is None:
            self._barriers = [m.end() for m in _BARRIER.finditer(self.code)]
        barriers = self._barriers
        read = at  # (pieces from here on are read)
        for q in reversed([m.start() for m in candidate.finditer(self.code, low, at)]):
            if q >= read:
                continue
            k = bisect.bisect_right(barriers, q)
            lo = barriers[k - 1] if k else 0
            hi = barriers[k] if k < len(barriers) else len(self.code)
            if lo >= low and hi <= at:
                found = self._pieces.get((name, lo), _UNREAD)
                if found is _UNREAD:
                    found = self._pieces[name, lo] = _last(pattern, self.code, lo, hi)
            else:
                found = _last(pattern, self.code, max(lo, low), min(hi, at))
            if found is not None:
                return found
            read = max(lo, low)
        return None

    def _compile(self, name: bytes) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
        """The declaration of ``name`` and a candidate for its name (see _declared)."""
        word = re.escape(name)
        self._patterns[name] = found = (re.compile(
            # (a qualifier after the stars, `__half2* __restrict__ p`, belongs to the pointer)
            rb"([A-Za-z_][\w:]*(?:\s*<[^;{}()<>]*>)?)\s*([*&]*)\s*"
            rb"(?:(?:__restrict__|__restrict|const|volatile)\s+)*(?<![\w$])"
            + word + rb"\s*(?:[=;,)\[{(]|\Z)"),
            re.compile(word + rb"(?<![\w$]" + word + rb")(?=\s*(?:[=;,)\[{(]|\Z))"))
        return found


def _last(pattern: re.Pattern[bytes], code: bytes, lo: int, hi: int) -> bytes | None:
    """The type of the last match of ``pattern`` (see Callee._declared) in
    ``code[lo:hi]``, or None."""
    found = None
    for m in pattern.finditer(code, lo, hi):
        if m.group(1) not in (b"return", b"case", b"else", b"goto"):
            found = m
    if found is None:
        return None
    return parameter_type(found.group(1) + found.group(2).replace(b"&", b"") + b" x")
