"""Where things are in a C/C++ file, found from its text: namespace blocks, brace pairs,
definitions (types, typedefs, aliases, functions, enumerators, case labels, macros) and
the preprocessor branch each sits in.

No parser: comments and literals are blanked first (same length, newlines kept), so plain
regexes see only code and every offset is an offset of the original file. Braces are
matched ignoring ``#if`` (all branches are code, as in the lexer); an unbalanced file
just gets fewer or wider blocks. Used by the collision check, the own-name tracking and
``bench/portability_damage.py``.
"""

from __future__ import annotations

import bisect
import re
from typing import Iterator, NamedTuple

from ..preprocessor.branches import BranchTree
from ..source import lexer
from ..source.lazy_re import lazy



def blank(src: bytes) -> bytes:
    """``src`` with every comment and literal replaced by spaces (newlines kept)."""
    if b"/" not in src and b'"' not in src and b"'" not in src:
        return src
    out = bytearray(src)
    for m in lexer.literals(src):
        a, b = m.span()
        piece = src[a:b]
        out[a:b] = re.sub(rb"[^\n]", b" ", piece)
    return bytes(out)


def brace_pairs(code: bytes) -> dict[int, int]:
    """Offset of each ``{`` to the offset of its ``}`` (unclosed ones map to the end)."""
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for m in re.finditer(rb"[{}]", code):
        if m.group() == b"{":
            stack.append(m.start())
        elif stack:
            pairs[stack.pop()] = m.start()
    for open_ in stack:
        pairs[open_] = len(code)
    return pairs


_NAMESPACE = lazy(lexer.word(b"namespace") + rb"\s+((?:[A-Za-z_]\w*\s*::\s*)*[A-Za-z_]\w*)\s*(?:\[\[[^\]]*\]\]\s*)?\{")


class Block(NamedTuple):
    name: bytes  # the namespace's name (a::b for a nested definition)
    start: int  # its '{'
    end: int  # its '}'


def namespaces(code: bytes, pairs: dict[int, int] | None = None) -> list[Block]:
    """Named namespace blocks of blanked ``code``, in order of their '{'."""
    if b"namespace" not in code:
        return []
    pairs = brace_pairs(code) if pairs is None else pairs
    out = []
    for m in _NAMESPACE.finditer(code):
        brace = m.end() - 1
        name = re.sub(rb"\s+", b"", m.group(1))
        out.append(Block(name, brace, pairs.get(brace, len(code))))
    return out


def namespace_at(blocks: list[Block], offset: int) -> bytes:
    """The qualified namespace (``a::b``) enclosing ``offset``; b"" at global scope."""
    if not blocks:
        return b""
    return b"::".join([b.name for b in blocks if b.start < offset < b.end])


def word_before(src: bytes, start: int) -> tuple[int, bytes]:
    """The identifier before ``start``, across blanks and ``*``/``&`` (``int* p``), and
    where it starts; an empty word if something else comes first. A byte loop: a regex
    anchored at the end would be retried from every offset of the window."""
    i = start
    while i > 0 and src[i - 1] in b" \t\r\n\f\v*&":
        i -= 1
    j = i
    while j > 0 and src[j - 1] in lexer.IDENT_BYTES:
        j -= 1
    return j, src[j:i] if j < i and not src[j:j + 1].isdigit() else b""


# Words after which a name is not being declared (`return cudaX(`, `new cudaX(`).
_NOT_A_DECLARED_TYPE = frozenset(b"""return else case do goto throw new delete sizeof alignof
typedef namespace typename template co_return co_await co_yield operator decltype noexcept if while
for switch and or not xor""".split())
_TAGS = frozenset((b"struct", b"class", b"union", b"enum"))
_MAY_FOLLOW_DECLARED = frozenset(bytes([c]) for c in b"{:;=(f/\\")


def is_declaration(code: bytes, start: int, length: int) -> bool:
    """Whether the name at ``start`` is being declared: ``struct X {``, ``using X =``,
    ``typedef ... X;``, ``T X(...)`` (a function declaration or definition). ``code`` has
    its comments and literals blanked."""
    # What follows a declared name starts with one of these (or a comment or a line
    # splice hides it): the usual use, `cudaStream_t s` or `CUDA_R_32F,`, is told at once.
    ahead = code[start + length:start + length + 16].lstrip()
    if ahead and ahead[:1] not in _MAY_FOLLOW_DECLARED:
        return False
    _, word = word_before(code, start)
    after = lexer.next_token(code, start + length)
    follows = after.text if after is not None else b""
    if word in _TAGS:
        return follows in (b"{", b":", b";", b"final")
    if word == b"using":
        return follows == b"="
    if follows == b";":
        statement = code[max(0, start - 400):start]
        cut = max(statement.rfind(b";"), statement.rfind(b"{"), statement.rfind(b"}"))
        return statement[cut + 1:].lstrip().startswith(b"typedef")
    if follows == b"(" and word and word not in _NOT_A_DECLARED_TYPE:
        window = max(0, start - 400)  # bounded, as a line may be 1 MB long
        line_start = code.rfind(b"\n", window, start) + 1 or window
        return not code[line_start:start].lstrip().startswith(b"#")
    return False


_AFTER_PARAMETERS = lazy(
    rb"(?:\s|&|(?<![\w$])(?:const|volatile|noexcept|override|mutable|constexpr|consteval"
    rb"|throw\s*\(\s*\)|noexcept\s*\([^()]*\))(?![\w$]))*\Z")
# (searched, it would be tried from every byte of a run of blanks, each try reading to the
# run's end: 0.58 s for one arrow after a 2,000-byte blanked comment. Tried only where no
# blank or '&' stands before, plus once at the window's start, it finds the same start.)
_AFTER_PARAMETERS_START = lazy(rb"(?<![\s&])" + _AFTER_PARAMETERS.pattern)
_LAMBDA_ATTRIBUTES = lazy(rb"\](?:\s*(?:__device__|__host__|mutable))*\s*\Z")
_DECLARATOR = lazy(rb"((?:[A-Za-z_]\w*\s*::\s*)*(?:operator\s*\(\s*\)|[A-Za-z_]\w*)\s*"
                   rb"(?:<[^;{}()<>]*(?:<[^;{}()<>]*>[^;{}()<>]*)*>\s*)?)\Z")
_SPECIFIERS = lazy(rb"(?:(?<![\w$])[A-Za-z_]\w*(?:\s*\([^;{}()]*\))?\s*)*\Z")


def trailing_return(code: bytes, arrow: int) -> bool:
    """Whether the ``->`` at ``arrow`` starts a trailing return type: ``auto f(...) ->``,
    ``auto f<int>() const ->``, a lambda's ``[](...) mutable ->``; not ``f()->member``.
    Read backwards from the arrow over a bounded window, on code whose comments and
    literals are blanked (or plain code, which only misleads on a parenthesis in one)."""
    window = max(0, arrow - 2000)
    if _AFTER_PARAMETERS.match(code, window, arrow):
        i = window
    else:
        close = _AFTER_PARAMETERS_START.search(code, window, arrow)
        i = close.start() if close else arrow
    if i <= window or code[i - 1:i] != b")":
        return False
    depth = 0
    j = i - 1
    while j >= window:
        c = code[j]
        if c == 0x29:  # )
            depth += 1
        elif c == 0x28:  # (
            depth -= 1
            if depth == 0:
                break
        elif c in b";{}":
            return False
        j -= 1
    else:
        return False
    head = code[max(window, j - 300):j]
    if _LAMBDA_ATTRIBUTES.search(head):
        return True
    name = _DECLARATOR.search(head)
    if name is None:
        return False
    specifiers = _SPECIFIERS.search(head, 0, name.start())
    return specifiers is not None and b"auto" in re.findall(
        rb"[A-Za-z_]\w*", head[specifiers.start():name.start()])


def is_member(code: bytes, start: int) -> bool:
    """``x.name``, ``p->name``: reached through an object. Not a trailing return type
    (``auto f() -> name``), whose arrow only looks like a member access."""
    window = max(0, start - 16)
    before = code[window:start].rstrip()
    if before.endswith(b"."):
        return True
    return before.endswith(b"->") and not trailing_return(code, window + len(before) - 2)


class Nesting:
    """The innermost brace block around an offset, named by its ordinal (the how-manieth
    ``{`` of the file opens it), which a translation that adds no braces keeps."""

    def __init__(self, code: bytes, pairs: dict[int, int]) -> None:
        self.opens = sorted(pairs)
        self.closes = [pairs[o] for o in self.opens]
        self.parent: list[int] = []
        stack: list[int] = []
        for i, o in enumerate(self.opens):
            while stack and self.closes[stack[-1]] < o:
                stack.pop()
            self.parent.append(stack[-1] if stack else -1)
            stack.append(i)

    def at(self, offset: int) -> int:
        i = bisect.bisect_left(self.opens, offset) - 1
        while i >= 0 and self.closes[i] < offset:
            i = self.parent[i]
        return i


# A conditional directive of blanked code (for a caller with no branch tree at hand).
_DIRECTIVE = lazy(rb"(?m)^[ \t]*#[ \t]*(ifdef|ifndef|if|elif|else|endif)\b")


class Definition(NamedTuple):
    kind: str  # type, typedef, alias, function, enumerator, case, macro
    key: bytes  # what two definitions of one scope must not share: prefix + key_text
    scope: tuple  # (namespace, innermost block, branch path), or (enum/switch, branch path)
    start: int  # span of the text that makes the key (a name, or a name and parameters)
    end: int
    name_start: int  # where the defined name is (for messages)
    prefix: bytes = b""


def key_text(text: bytes) -> bytes:
    """The key part that ``Definition.start:end`` gives: its text, spaces normalized."""
    return _SPACE.sub(b" ", text).strip()


_TYPE_DEF = lazy(rb"(" + b"|".join(map(lexer.word, (b"struct", b"class", b"union")))
                 + rb"|" + lexer.word(b"enum") + rb"(?:\s+class|\s+struct)?)\s+"
                 rb"(?:__attribute__\s*\(\([^;{]*?\)\)\s*|alignas\s*\([^)]*\)\s*)?"
                 rb"([A-Za-z_]\w*)\s*(?:final\s*)?(?::[^;{}()]*)?\{")
_TYPEDEF = lazy(lexer.word(b"typedef") + rb"\b([^;{}]*?)\b([A-Za-z_]\w*)\s*;")
_TYPEDEF_BODY = lazy(rb"\}\s*([A-Za-z_]\w*)\s*(?:,[^;{}]*)?;")
_USING = lazy(lexer.word(b"using") + rb"\s+([A-Za-z_]\w*)\s*=\s*([^;{}]*?)\s*;")
_FUNCTION = lazy(rb"(?<![\w$.>:])([A-Za-z_]\w*)\s*\(([^(){};]*(?:\([^(){};]*\)[^(){};]*)*)\)"
                 rb"\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?\{")
_ENUM_BODY = lazy(lexer.word(b"enum") + rb"\b(?:\s+(?:class|struct)\b)?(?:\s*[A-Za-z_]\w*)?"
                  rb"\s*(?::\s*[\w:\s]+)?\{")
_SWITCH = lazy(lexer.word(b"switch") + rb"\s*\(")
_CASE = lazy(lexer.word(b"case") + rb"\b([^:;{}]*(?:::[^:;{}]*)*):(?!:)")
_DEFINE = lazy(rb"(?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)\n]*\))?[ \t]*"
               rb"(" + lexer.REST_OF_LINE + b")")
_NOT_FUNCTIONS = frozenset(b"""if for while switch catch return sizeof alignof decltype
    defined __attribute__ __declspec alignas static_assert noexcept throw new delete
    operator template typename using namespace else do case constexpr consteval asm
    __asm__ volatile __launch_bounds__""".split())
_SPACE = lazy(rb"\s+")


_BODY_AFTER_PARAMETERS = lazy(rb"\)\s*(?:const\s*)?(?:noexcept\s*)?(?:override\s*)?\{")


def _functions(code: bytes) -> Iterator[re.Match[bytes]]:
    """_FUNCTION's matches in ``code``, as its search of the whole file finds them, but
    looked for only before a '{' that follows a parameter list: a match holds no ``;``,
    ``{`` or ``}`` before its own '{', so it lies between that '{' and the boundary before
    it (the pattern, led by a look-behind, was tried at every byte of the file)."""
    previous = -1
    for m in _BODY_AFTER_PARAMETERS.finditer(code):
        brace = m.end() - 1
        cut = max(code.rfind(b";", previous + 1, brace), code.rfind(b"{", previous + 1, brace),
                  code.rfind(b"}", previous + 1, brace))
        found = _FUNCTION.search(code, cut + 1 if cut >= 0 else previous + 1, brace + 1)
        if found is not None:
            yield found
        previous = brace


_OPERATOR = lazy(rb"(?<![\w$])operator\Z")
_ACCESS = lazy(rb"(?:public|private|protected)\s*:\Z")


def _may_define(code: bytes, start: int) -> bool:
    """Whether what comes before ``name(`` lets it be a definition: a type, ``Class::``,
    a statement or block boundary; not ``: base() {}``, ``, member() {}`` or ``= f() {``."""
    before = code[max(0, start - 40):start].rstrip()
    if not before:
        return True
    if _OPERATOR.search(before):
        return False  # operator T(): a conversion to T, not a definition of T
    last = before[-1:]
    if last == b":":
        return before.endswith(b"::") or _ACCESS.search(before) is not None
    return last not in b",(=?!|+-/%^<["


def definitions(src: bytes, code: bytes | None = None,
                branches: BranchTree | None = None) -> list[Definition]:
    """Definitions in ``src`` whose keys must be unique within their scope; the branch path
    of each (definitions in ``#if``/``#else`` siblings never clash) comes from ``branches``,
    the file's branch tree (``ctx.branch_tree``), built here only when none is given."""
    code = blank(src) if code is None else code
    pairs = brace_pairs(code)
    blocks = namespaces(code, pairs)
    if branches is None:
        branches = BranchTree(code, [(m.start(), m.group(1)) for m in _DIRECTIVE.finditer(code)])
    nesting = Nesting(code, pairs)
    out: list[Definition] = []

    def scope(offset: int) -> tuple:
        return (namespace_at(blocks, offset), nesting.at(offset), branches.path(offset))

    def add(kind: str, prefix: bytes, where: tuple, start: int, end: int,
            text: bytes = code) -> None:
        out.append(Definition(kind, prefix + key_text(text[start:end]), where, start, end,
                              start, prefix))

    for m in _TYPE_DEF.finditer(code):
        kind = b"enum " if m.group(1).startswith(b"enum") else b"type "
        add("type", kind, scope(m.start()), m.start(2), m.end(2))
    for m in _TYPEDEF.finditer(code):
        add("typedef", b"typedef ", scope(m.start()), m.start(2), m.end(2))
    for m in _USING.finditer(code):
        add("alias", b"typedef ", scope(m.start()), m.start(1), m.end(1))
    for m in _functions(code):
        name = m.group(1)
        if name in _NOT_FUNCTIONS or not _may_define(code, m.start()):
            continue
        add("function", b"", scope(m.start()), m.start(), m.end(2) + 1)
    # enum and switch bodies are told apart by their ordinal, which translation keeps
    for ordinal, m in enumerate(_ENUM_BODY.finditer(code)):
        brace = m.end() - 1
        close = pairs.get(brace, len(code))
        where = (("enum", ordinal), branches.path(brace))
        for e in re.finditer(rb"(?:^|,|\{)\s*(?:#[^\n]*\n\s*)*([A-Za-z_]\w*)",
                             code[brace:close]):
            s = brace + e.start(1)
            add("enumerator", b"", (where[0], branches.path(s)), s, s + len(e.group(1)))
    # each case label belongs to the innermost switch body around it: switch bodies and
    # labels are read in one merged walk with a stack of the open bodies
    bodies = []
    for ordinal, m in enumerate(_SWITCH.finditer(code)):
        parsed = lexer.split_arguments(code, m.end() - 1)
        if parsed is None:
            continue
        brace = code.find(b"{", parsed[1])
        if brace < 0 or code[parsed[1]:brace].strip():
            continue
        bodies.append((brace, pairs.get(brace, len(code)), ordinal))
    if bodies:
        open_: list[tuple[int, int, int]] = []
        nxt = 0
        for c in _CASE.finditer(code, bodies[0][0]):
            at = c.start()
            while nxt < len(bodies) and bodies[nxt][0] < at:
                while open_ and open_[-1][1] < bodies[nxt][0]:
                    open_.pop()
                open_.append(bodies[nxt])
                nxt += 1
            while open_ and open_[-1][1] < at:
                open_.pop()
            if not open_:
                continue
            # the label's text with its literals ('a')
            add("case", b"case ", (("switch", open_[-1][2]), branches.path(at)),
                c.start(1), c.end(1), src)
    for m in _DEFINE.finditer(code):
        add("macro", b"#define ", ((), branches.path(m.start())), m.start(1), m.end(1))
    return out


def duplicates(defs: list[Definition]) -> dict[tuple, list[Definition]]:
    """(kind, scope, key) shared by more than one definition, with those definitions.
    Macros and typedefs repeated word for word are legal; callers compare before/after."""
    seen: dict[tuple, list[Definition]] = {}
    for d in defs:
        seen.setdefault((d.kind if d.kind not in ("typedef", "alias") else "typedef",
                         d.scope, d.key), []).append(d)
    return {k: v for k, v in seen.items() if len(v) > 1}


_SELF_ALIAS = (
    re.compile(rb"using(?<!\wusing)\s+([A-Za-z_]\w*)\s*=\s*(?:::\s*)?\1\s*;"),
    re.compile(rb"typedef(?<!\wtypedef)\s+(?:(?:struct|union|enum|class)\s+)?([A-Za-z_]\w*)\s+\1\s*;"),
)


def self_aliases(code: bytes) -> list[tuple[int, int, bytes]]:
    """``using X = X;`` and ``typedef X X;`` (span, name). ``typedef struct X X;`` is
    the C idiom that names a struct tag as a type and is not one: it is not counted."""
    out = []
    for m in _SELF_ALIAS[0].finditer(code):
        out.append((m.start(), m.end(), m.group(1)))
    for m in _SELF_ALIAS[1].finditer(code):
        if not re.match(rb"typedef\s+(?:struct|union|enum|class)\b", m.group()):
            out.append((m.start(), m.end(), m.group(1)))
    return out


def self_macros(code: bytes) -> list[tuple[int, int, bytes]]:
    """``#define X X`` and ``#define f(a) f(a, b)``: a macro whose body names itself
    (line span, name)."""
    out = []
    for m in _DEFINE.finditer(code):
        name = m.group(1)
        if re.search(rb"(?<![\w$])" + re.escape(name) + rb"(?![\w$])", m.group(3)):
            out.append((m.start(), m.end(), name))
    return out
