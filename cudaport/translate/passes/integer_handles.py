"""CUDA handle types that are integers where the target's are pointers (CP179, CP180).

CUDA's ``CUdeviceptr`` is ``unsigned long long`` (cuda.h), HIP's ``hipDeviceptr_t`` is
``void*`` (hip/driver_types.h); CUDA's texture and surface objects are integers too, HIP's
pointers to opaque structs (``integer_handles`` in target.yaml). The renamed code compiles
where it only stores and passes the value, and stops where it treats it as a number:

- a cast to the type with ``reinterpret_cast`` from a const pointer ("casts away
  qualifiers") or with ``static_cast`` from an integer, and a ``static_cast`` of a value of
  the type to an integer: made a C-style cast, ``(hipDeviceptr_t)(p)``, which converts
  every one of these as CUDA's cast does, bit for bit (CP179, info);
- arithmetic, bitwise operators, ordered comparisons with a number, comparisons or
  assignments of a number other than 0 on a variable declared with the type (or an alias
  of it, ``using address_t = CUdeviceptr;``): an error that says so (CP180); the text
  does not say where such an expression ends, so it is left as written.

Text-level, one pass over the file's identifiers: the aliases and the declarations with
the types are read once, each with its scope (the function whose body or parameters hold
it, or none: a global, a namespace's or class's member), and every declaration of those
names, of any type, in order. A use inside a function reads the name's nearest
declaration before it in that function (a bisect), as the symbol model's ``Callee`` reads
an argument's: a name declared ``CUdeviceptr`` in one function and ``int`` in another is
the type's only in the first. Where the function declares no such name, a declaration
outside every function (or farther back in the same one) decides; a member after ``.`` or
``->`` reads only the declarations outside functions.
"""

from __future__ import annotations

import bisect
import re
from typing import NamedTuple

from ...source import lexer
from ...source.edits import Edit
from ...symbols.skeleton import FUNCTION
from ..context import FileContext
from .registry import register
from ...source.lazy_re import lazy

PORTED = "CP179"
INTEGER_USE = "CP180"

_IDENT = lazy(rb"[A-Za-z_]\w*")
_NUMBER = lazy(rb"(?:0[xX][0-9a-fA-F']+|\d[\d']*)[uUlL]*\b")
_KEYWORDS = frozenset((b"return", b"case", b"sizeof", b"throw", b"co_return", b"co_yield",
                       b"delete", b"new", b"else", b"do", b"typename", b"const", b"volatile",
                       b"operator", b"goto"))
# operators after a value of the type that cannot take a void* (or a struct pointer):
# (`->` and `&&`, `||` are not among them; compound assignments are)
_AFTER = lazy(rb"[ \t]*(\+\+|--|<<=?|>>=?|\+=?|-=?(?!>)|\*=?|/=?|%=?|&(?!&)=?|\|(?!\|)=?"
              rb"|\^=?|<=?|>=?|[!=]=|=)")
# (before it, only where an operand stands before the operator: not unary, no declarator)
_BEFORE_OPS = (b"<<", b">>", b"+", b"-", b"/", b"%", b"|", b"^")


def _handles(ctx: FileContext) -> dict[bytes, dict]:
    table = ctx.compiled.target.extra.get("integer_handles") or {}
    return {name.encode(): dict(facts, name=name) for name, facts in table.items()
            if ctx.holds(name.encode()) and name.encode() not in ctx.own_names}


@register(46, "integer-handles")
def integer_handles(ctx: FileContext) -> None:
    handles = _handles(ctx)
    if not handles:
        return
    code = ctx.code
    types = _with_aliases(code, handles)
    rule = f"{ctx.compiled.target.name}/integer-handles"
    names = b"|".join(re.escape(t) for t in sorted(types, key=len, reverse=True))
    qualified = rb"(?:::[ \t]*)?(?:[A-Za-z_]\w*[ \t]*::[ \t]*)*(" + names + rb")"
    casts = b"_cast" in code
    if casts:
        cast_to = re.compile(rb"(reinterpret_cast|static_cast)[ \t]*<[ \t]*" + qualified
                             + rb"[ \t]*(>)[ \t]*\(")
        for m in cast_to.finditer(code):
            if _word_start(code, m.start()):
                _c_style(ctx, m.start(1), m.end(1), m.start(2), m.start(3), m.end(3), rule,
                         f"{m.group(1).decode()}<{m.group(2).decode()}>", types[m.group(2)])
    variables = _variables(code, names)
    if not variables:
        return
    uses = _uses(code, variables)
    scopes = _scopes(ctx, code, names, variables, types, uses)
    cast_from = re.compile(rb"static_cast[ \t]*<([^<>;{}()]+)(>)[ \t]*\([ \t]*"
                           rb"((?:[A-Za-z_]\w*[ \t]*(?:\.|->)[ \t]*)*([A-Za-z_]\w*))[ \t]*\)")
    for m in cast_from.finditer(code) if casts else ():
        if m.group(4) in variables and _word_start(code, m.start()) \
                and m.group(1).strip() not in types \
                and _visible(ctx, code, m.start(4), m.end(4), types, scopes):
            _c_style(ctx, m.start(), m.start() + len(b"static_cast"), m.start(1), m.start(2),
                     m.end(2), rule, f"static_cast<{m.group(1).strip().decode()}>",
                     types[variables[m.group(4)]], m.group(4).decode())
    _integer_uses(ctx, code, variables, types, scopes, uses)


def _word_start(code: bytes, start: int) -> bool:
    """Whether a word starts at ``start`` (the patterns searched for begin with a literal,
    which the search finds at once, and check the byte before here)."""
    return start == 0 or code[start - 1] not in lexer.IDENT_BYTES




def _with_aliases(code: bytes, handles: dict[bytes, dict]) -> dict[bytes, dict]:
    """The types and the file's aliases of them (``using A = CUdeviceptr;``, ``typedef``),
    alias -> the facts of the type it names; an alias of an alias too (a few rounds)."""
    types = dict(handles)
    for _ in range(3):
        names = b"|".join(re.escape(t) for t in sorted(types, key=len, reverse=True))
        qualified = rb"(?:::[ \t]*)?(?:[A-Za-z_]\w*[ \t]*::[ \t]*)*(" + names + rb")\b"
        alias = re.compile(rb"using[ \t]+([A-Za-z_]\w*)[ \t]*=[ \t]*" + qualified
                           + rb"[ \t]*;|typedef[ \t]+" + qualified + rb"[ \t]+([A-Za-z_]\w*)"
                           rb"[ \t]*;")
        found = {}
        for m in alias.finditer(code):
            if not _word_start(code, m.start()):
                continue
            new, old = (m.group(1), m.group(2)) if m.group(1) else (m.group(4), m.group(3))
            if new not in types:
                found[new] = types[old]
        if not found:
            break
        types.update(found)
    return types


def _variables(code: bytes, names: bytes) -> dict[bytes, bytes]:
    """The names the file declares with one of the types: variable -> its type."""
    return {m.group(2): m.group(1) for m in _declarations(names).finditer(code)
            if m.group(2) not in _KEYWORDS and _type_start(code, m.start())}


def _declarations(names: bytes) -> re.Pattern[bytes]:
    """``TYPE name`` followed by ``;=,)[{``: the type's name first, so the search finds
    it at once (a qualifier before it, ``ns::TYPE``, changes nothing: see _type_start)."""
    return re.compile(rb"(" + names + rb")\b[ \t]+(?:const[ \t]+)?&?[ \t]*"
                      rb"([A-Za-z_]\w*)[ \t]*(?=[;=,)\[{])")


def _type_start(code: bytes, start: int) -> bool:
    """Whether a type's name at ``start`` stands where a declaration's type may: not
    inside a word, nor after ``.``, ``->`` or ``>`` (a member, a template's argument)."""
    return start == 0 or code[start - 1] not in _TYPE_AFTER


_TYPE_AFTER = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.>")


def _uses(code: bytes, variables: dict[bytes, bytes]) -> list[tuple[int, bytes]]:
    """Where the variables' names stand as whole words, in order: one search for them
    all when they are few, else one walk over the file's identifiers."""
    if len(variables) <= 32:
        alternation = b"|".join(re.escape(v) for v in sorted(variables, key=len, reverse=True))
        found = re.compile(rb"(?:" + alternation + rb")(?![\w$])").finditer(code)
        return [(m.start(), m.group()) for m in found if _word_start(code, m.start())]
    return [(m.start(), m.group()) for m in _IDENT.finditer(code) if m.group() in variables]


_FILE = -1  # (the scope of a declaration outside every function)
_NOWHERE = -2  # (a parameter of a declaration without a body)
_BARRIER = lazy(rb"[;{}()]")
_WORD_BEFORE = lazy(rb"(?<![\w$])[A-Za-z_]\w*\Z")


class _Scopes(NamedTuple):
    handles: dict[bytes, set[int]]  # name -> the scopes of its declarations with the types
    # name -> the offsets of its declarations (of any type), and whether each has the type
    declared: dict[bytes, tuple[list[int], list[bool]]]


def _scopes(ctx: FileContext, code: bytes, names: bytes, variables: dict[bytes, bytes],
            types: dict[bytes, dict], uses: list[tuple[int, bytes]]) -> _Scopes:
    """The variables' declarations: those with one of the types, with the scope each
    stands in (the index of the function block whose body or parameter list holds one,
    _FILE, or _NOWHERE); and every declaration of the names (``uses``: where they stand),
    in order."""
    skeleton = ctx.skeleton
    barriers: list[int] | None = None
    handles: dict[bytes, set[int]] = {}
    for m in _declarations(names).finditer(code):
        if m.group(2) in _KEYWORDS or not _type_start(code, m.start()):
            continue
        at = m.start(2)
        scope = _function(skeleton, at)
        if scope == _FILE:
            if barriers is None:
                barriers = [b.start() for b in _BARRIER.finditer(code)]
            k = bisect.bisect_left(barriers, at)
            if k and code[barriers[k - 1]] == 0x28:  # `(`: a parameter (or a for's local)
                after = bisect.bisect_right(skeleton.opens, at)
                block = skeleton.blocks[after] if after < len(skeleton.blocks) else None
                scope = after if block is not None and block.kind == FUNCTION \
                    and block.head <= at else _NOWHERE
        handles.setdefault(m.group(2), set()).add(scope)
    declared: dict[bytes, tuple[list[int], list[bool]]] = {}
    for at, name in uses:
        m = _declaration_of(code, at)
        if m is None or m.group(1) in _KEYWORDS:
            continue
        kind, between = m.group(1), m.group(2)
        if b"*" in between or b"&" in between:  # (not `x = a * b;`, `return a & b;`)
            j = m.start(1)
            while j > 0 and code[j - 1] in b" \t\r\n":
                j -= 1
            word = _WORD_BEFORE.search(code, max(0, j - 64), j)
            if not (j == 0 or code[j - 1] in b";{}(,<>:" or word is not None
                    and word.group() not in _KEYWORDS):
                continue
        positions, handle = declared.setdefault(name, ([], []))
        positions.append(at)
        handle.append(kind in types and b"*" not in between)
    return _Scopes(handles, declared)


# a declaration of a name with a one-word type: `int d`, `CUdeviceptr* p`, `T const& r`
_ANY_DECLARATION = lazy(rb"([A-Za-z_]\w*)((?:[ \t]*[*&]+[ \t]*|[ \t]+)"
                        rb"(?:const[ \t]+)?)([A-Za-z_]\w*)[ \t]*(?=[;=,)\[{])")
_SEPARATOR = b" \t*&"


def _declaration_of(code: bytes, at: int) -> re.Match[bytes] | None:
    """_ANY_DECLARATION's match whose declared name starts at ``at``: its type word is read
    back from there (the word before, or the one before ``const``), not searched for."""
    i = at
    while i > 0 and code[i - 1] in _SEPARATOR:
        i -= 1
    if i == at:
        return None
    starts = []
    j = i
    while j > 0 and code[j - 1] in lexer.IDENT_BYTES:
        j -= 1
    if code[j:i] == b"const":  # (`T const x`: T is the type; else `const` is)
        k = j
        while k > 0 and code[k - 1] in _SEPARATOR:
            k -= 1
        h = k
        while h > 0 and code[h - 1] in lexer.IDENT_BYTES:
            h -= 1
        if h < k:
            starts.append(h)
    starts.append(j)
    for start in starts:
        if start > 0 and code[start - 1] in _NOT_BEFORE_TYPE:
            continue
        m = _ANY_DECLARATION.match(code, start)
        if m is not None and m.start(3) == at:
            return m
    return None


_NOT_BEFORE_TYPE = lexer.IDENT_BYTES | frozenset(b".>")


def _function(skeleton, at: int) -> int:
    """The function block whose body holds ``at`` (the outermost, lambdas included), or
    _FILE."""
    found = _FILE
    i = skeleton.at(at)
    while i >= 0:
        if skeleton.blocks[i].kind == FUNCTION:
            found = i
        i = skeleton.blocks[i].parent
    return found


def _visible(ctx: FileContext, code: bytes, start: int, end: int, types: dict[bytes, dict],
             scopes: _Scopes) -> bool:
    """Whether the declaration of the name at ``code[start:end]`` visible there has one of
    the types (see the module's note)."""
    name = code[start:end]
    found = scopes.handles.get(name, set())
    k = start
    while k > 0 and code[k - 1] in b" \t":
        k -= 1
    if code.endswith((b".", b"->"), 0, k):
        return _FILE in found  # (a member: declared outside functions)
    word = _WORD_BEFORE.search(code, max(0, k - 64), k)
    if word is not None and word.group() not in _KEYWORDS:
        return word.group() in types  # (the declaration itself: `int d = 1`)
    function = _function(ctx.skeleton, start)
    if function != _FILE:  # (the nearest declaration before the use in its function)
        positions, handle = scopes.declared.get(name, ((), ()))
        i = bisect.bisect_left(positions, start) - 1
        if i >= 0 and positions[i] >= ctx.skeleton.blocks[function].head:
            return handle[i]
    return _FILE in found or function in found


def _c_style(ctx: FileContext, start: int, keyword_end: int, type_start: int,
             close: int, close_end: int, rule: str, shown: str, facts: dict,
             operand: str = "") -> None:
    """``xxx_cast<T>(e)`` -> ``(T)(e)``: the keyword and ``<`` become ``(``, ``>`` ``)``,
    the type between them left to the passes that rename it."""
    ctx.edits.append(Edit(start, type_start, b"(", rule))
    ctx.edits.append(Edit(close, close_end, b")", rule))
    what = f"{shown}({operand})" if operand else shown
    ctx.find(PORTED, start, f"{what}: {facts['name']} is {facts['cuda']} in CUDA, "
             f"{facts['target']} ({facts['to']}) in {ctx.compiled.target.title}, where the cast does not "
             "compile from a const pointer or between the pointer and an integer: made a "
             "C-style cast, which converts as CUDA's does (same value)", shown, "", "info")


def _integer_uses(ctx: FileContext, code: bytes, variables: dict[bytes, bytes],
                  types: dict[bytes, dict], scopes: _Scopes,
                  uses: list[tuple[int, bytes]]) -> None:
    seen: set[int] = set()
    for start, name in uses:
        end = start + len(name)
        after = _after(code, end)
        before = None if after else _before(code, start)
        if not (after or before) or start in seen \
                or not _visible(ctx, code, start, end, types, scopes):
            continue
        seen.add(start)
        facts = types[variables[name]]
        line = code.rfind(b"\n", 0, start) + 1
        if code[line:start].lstrip(b" \t").startswith(b"#"):
            continue  # (a directive: #define bodies are read where expanded)
        shown = name.decode()
        use = f"{shown} {after} ..." if after else f"... {before} {shown}"
        ctx.find(INTEGER_USE, start, f"{shown} is a {variables[name].decode()}, "
                 f"{facts['cuda']} in CUDA and {facts['target']} ({facts['to']}) in "
                 f"{ctx.compiled.target.title}: `{use}` treats it as a number, which does "
                 f"not compile there; convert it for the arithmetic and back "
                 f"(`({facts['to']})((uintptr_t)({shown}) + n)`, the same value)", shown, "",
                 "error")


def _after(code: bytes, end: int) -> str | None:
    m = _AFTER.match(code, end)
    if m is None:
        return None
    op = m.group(1)
    if op in (b"=", b"==", b"!=", b"<", b">", b"<=", b">="):
        rest = code[m.end():m.end() + 40].lstrip(b" \t")
        number = _NUMBER.match(rest)
        if number is None or (op in (b"=", b"==", b"!=")
                              and number.group().rstrip(b"uUlL") in (b"0", b"0x0", b"0X0")):
            return None  # (a comparison or assignment of pointers, or of 0: compiles)
    return op.decode()


def _before(code: bytes, start: int) -> str | None:
    i = start
    while i > 0 and code[i - 1] in b" \t":
        i -= 1
    for op in _BEFORE_OPS:
        if code.endswith(op, max(0, i - len(op)), i):
            j = i - len(op)
            if code[j - 1:j] in (b"<", b">", b"-", b"+", b"&", b"|") and op not in (b"<<", b">>"):
                return None  # (`->`, `<<`, `++`, `&&` ...: another operator)
            while j > 0 and code[j - 1] in b" \t":
                j -= 1
            prev = code[j - 1:j]
            if not prev or not (prev.isalnum() or prev in b"_)]"):
                return None  # (unary, or after another operator)
            word = re.search(rb"[A-Za-z_]\w*\Z", code[max(0, j - 40):j])
            if word is not None and word.group() in _KEYWORDS:
                return None
            return op.decode()
    return None
