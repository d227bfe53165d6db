"""The role a CUDA-spelled token plays where it stands, told from a bounded window of code
around it (comments and literals blanked) and the file's skeleton: reached through an
object or a qualifier, declared (and as what), or used.

Every question here reads at most a few hundred bytes around the token, so a file's
references cost one pass over them, never a rescan of the file.
"""

from __future__ import annotations

import re

from ..source import lexer
from . import scopes
from . import model as M
from .skeleton import BLOCK, CLASS, ENUM, EXTERN, FUNCTION, INIT, LAMBDA, NAMESPACE, Skeleton
from ..source.lazy_re import lazy


def api_namespaces(compiled) -> frozenset[bytes]:
    """Namespaces whose names are the API's (``cub``, ``cooperative_groups``, the rule
    tables' own namespaces)."""
    names = getattr(compiled, "_api_namespaces", None)
    if names is None:
        listed = compiled.target.extra.get("api_namespaces") or ()
        names = frozenset(n.encode() for n in listed) | frozenset(compiled.namespace_names)
        compiled._api_namespaces = names
    return names


def target_spellings(compiled) -> frozenset[bytes]:
    """Every name the rule tables turn a CUDA name into (``hipMemcpyHostToDevice``): on
    translated output they stand where CUDA's stood, and a decision must read them as it
    read CUDA's for a second translation to change nothing."""
    names = getattr(compiled, "_target_names", None)
    if names is None:
        names = frozenset(r.replacement for r in compiled.identifiers.values()
                          if r.replacement)
        compiled._target_names = names
    return names


def api_members(compiled) -> frozenset[bytes]:
    """Names the rule tables know as members of a framework's classes (PyTorch's
    ``Tensor::is_cuda``): reached through an object, they are still the API's."""
    names = getattr(compiled, "_api_members", None)
    if names is None:
        from ..rules.frameworks import FRAMEWORK_LIBRARY

        names = frozenset(n for n, r in compiled.identifiers.items()
                          if r.entry is not None and r.entry.library == FRAMEWORK_LIBRARY)
        compiled._api_members = names
    return names


# (the literal first: a leading look-behind made the search try every byte, 30x slower)
_ALIAS = lazy(rb"namespace(?<![\w$]namespace)\s+([A-Za-z_]\w*)\s*=\s*(?:::\s*)?([A-Za-z_]\w*)\s*;")


def namespace_aliases(code: bytes, api: frozenset[bytes]) -> frozenset[bytes]:
    """The file's own names for API namespaces (``namespace sh_cg = cooperative_groups;``,
    gsplat's SphericalHarmonics.cuh), aliases of those aliases included."""
    if b"namespace" not in code:
        return frozenset()
    pairs = [(m.group(1), m.group(2)) for m in _ALIAS.finditer(code)]
    found: set[bytes] = set()
    grew = True
    while grew:
        grew = False
        for alias, target in pairs:
            if alias not in found and alias not in api and (target in api or target in found):
                found.add(alias)
                grew = True
    return frozenset(found)


def qualifier(code: bytes, start: int) -> bytes | None:
    """The word before ``::name`` (b"" for the global ``::name``); None if unqualified."""
    i = start
    while i > 0 and code[i - 1] in b" \t":
        i -= 1
    if code[i - 2:i] != b"::":
        return None
    i -= 2
    while i > 0 and code[i - 1] in b" \t":
        i -= 1
    if i > 0 and code[i - 1:i] == b">":
        return b"<template>"  # Traits<T>::cudaX: a member of a project template
    return scopes.word_before(code, i)[1] if i and code[i - 1] in lexer.IDENT_BYTES else b""


# Words that may stand right before a name without making it a declarator (`return cudaX`,
# `struct cudaX`, `static cudaX v`): after any other word the name is being declared.
NOT_A_TYPE = frozenset(b"""
return else case do goto throw new delete sizeof alignof typedef using namespace struct
class enum union typename template const volatile static extern inline constexpr consteval
constinit register mutable thread_local co_return co_await co_yield operator decltype
noexcept friend virtual explicit public private protected and or not xor bitand bitor
__global__ __device__ __host__ __forceinline__ __inline__ __shared__ __constant__
__managed__ __restrict__ __noinline__ if while for switch default
""".split())
_TAGS = frozenset((b"struct", b"class", b"union", b"enum"))
_DECLARATOR_FOLLOWS = frozenset((b"=", b";", b",", b")", b"[", b"{"))
# The text of a declaration statement before its declarator: type words, qualifiers,
# template arguments, pointers and references, nothing that makes an expression.
_DECLARATION_HEAD = lazy(rb"[\s\w:<>,*&]*\Z")
# a preprocessor line (continued lines included) ends a statement's head as ';' does: the
# include a translation adds must not turn `T name;` after it into something else
_DIRECTIVE_LINE = lazy(rb"^[ \t]*#(?:[^\n\\]|\\.|\\\n)*(?:\n|\Z)", re.M)
_TEMPLATE_HEAD = lazy(rb"template(?<![\w$]template)\s*<")
# The token after a name, as far as a role needs it (blanks, line splices between).
_NEXT = lazy(rb"(?:[ \t\r\n\f\v]|\\\r?\n)*(::|->|[A-Za-z_$][\w$]*|[0-9]|\S)")


class Role:
    """What :func:`role` found: the role, and for declarators the declaration it makes."""

    __slots__ = ("role", "qualifier", "decl")

    def __init__(self, role: str, qualifier: bytes | None = None,
                 decl: M.Decl | None = None) -> None:
        self.role, self.qualifier, self.decl = role, qualifier, decl


def role(src: bytes, code: bytes, start: int, name: bytes, skeleton: Skeleton) -> Role:
    """The role of ``name`` at ``start``; ``code`` is ``src`` with comments and literals
    blanked. Whether it is reached through an object or a qualifier is read on the raw
    text first, and on the code only where the raw text says so or a comment is near: a
    literal left open on the line before (``g."str``) is blanked to spaces, and the code
    alone would make ``g.`` reach the next line's name."""
    end = start + len(name)
    low = max(0, start - 16)
    suspicious = b"/" in src[low:start]
    # (most names follow neither `.`, `->` nor `::`: one look at the byte before tells)
    if suspicious or src[low:start].rstrip()[-1:] in (b".", b">", b":"):
        if (suspicious or scopes.is_member(src, start)) and scopes.is_member(code, start):
            return Role(M.MEMBER)
        q = qualifier(src, start)
        if q is not None or suspicious:
            q = qualifier(code, start)
        if q is not None:
            return Role(M.QUALIFIED, q)
    block = skeleton.at(start)
    kind = skeleton.blocks[block].kind if block >= 0 else None
    after = _NEXT.match(code, end)
    follows = after.group(1) if after is not None else b""
    wstart, word = scopes.word_before(code, start)
    if not word and follows == b"(" and kind != ENUM:
        return Role(M.CALL)  # (`= cudaMalloc(`, `(cudaFree(`: the usual call)
    if word in _TAGS:
        if follows == b";" and not _before_word(code, wstart) in (b"friend", b"typedef"):
            return Role(M.FORWARD, decl=_scoped(skeleton, name, M.FORWARD_DECLARATION, start,
                                                 block))
        if follows in (b"{", b":", b"final"):
            return Role(M.DECLARATOR, decl=_scoped(skeleton, name, M.TYPE, start, block))
        if follows in (b"*", b"&") and word != b"enum":
            # `struct cublasContext*`: an opaque type named only to point at it
            return Role(M.OPAQUE_POINTER)
        return Role(M.TAG)
    if kind == ENUM and _starts_enumerator(code, start, skeleton.blocks[block].open) \
            and follows in (b"=", b",", b"}", b""):
        return Role(M.ENUMERATOR, decl=_enumerator(skeleton, name, start, block))
    if word in (b"typename", b"class") and follows in (b",", b">", b"="):
        head = _template_head(code, start)
        if head is not None:
            return Role(M.TEMPLATE_PARAMETER, decl=_following(
                skeleton, name, M.TEMPLATE_PARAMETER_DECL, start, head))
    typed = word and word not in NOT_A_TYPE and not word[:1].isdigit() \
        or code[max(0, wstart - 1):wstart] == b">" and not word
    if typed and follows in (b",", b">", b"="):
        head = _template_head(code, start)  # (`template <typename T, uint32_t warpSize>`)
        if head is not None:
            return Role(M.TEMPLATE_PARAMETER, decl=_following(
                skeleton, name, M.TEMPLATE_PARAMETER_DECL, start, head))
    if typed and follows in _DECLARATOR_FOLLOWS:
        found = _variable(code, skeleton, name, start, wstart, block, kind, follows)
        if found is not None:
            return found
    if (word or follows == b";") and scopes.is_declaration(code, start, len(name)):
        decl = _declared(code, skeleton, name, start, block, kind, word)
        return Role(M.DECLARATOR, decl=decl)
    return Role(M.CALL if follows == b"(" else M.USE)


def _statement(code: bytes, start: int) -> bytes:
    """The text of the statement ``start`` stands in, up to it (a bounded look back)."""
    low = max(0, start - 400)
    cut = max(code.rfind(b";", low, start), code.rfind(b"{", low, start),
              code.rfind(b"}", low, start))
    return code[cut + 1 if cut >= 0 else low:start]


def _before_word(code: bytes, wstart: int) -> bytes:
    return scopes.word_before(code, wstart)[1]


def _starts_enumerator(code: bytes, start: int, brace: int) -> bool:
    """Whether ``start`` begins an enumerator of the enum body opening at ``brace``: only
    blanks (and directive lines) since the ``{`` or a ``,``."""
    low = max(brace, start - 300)
    before = code[low:start]
    cut = max(before.rfind(b","), before.rfind(b"{") if low == brace else -1)
    if low == brace and cut < 0:
        cut = 0
    if cut < 0:
        return False
    rest = before[cut + 1:] if before[cut:cut + 1] in (b",", b"{") else before[cut:]
    lines = [line for line in rest.split(b"\n") if not line.lstrip().startswith(b"#")]
    return not b"".join(lines).strip()


def _template_head(code: bytes, start: int) -> int | None:
    """The offset of ``template`` when ``start`` stands inside its ``<...>``."""
    low = max(0, start - 2000)
    found = None
    for m in _TEMPLATE_HEAD.finditer(code, low, start):
        found = m
    if found is None:
        return None
    between = code[found.end():start]
    if re.search(rb"[;{}]", between) or between.count(b"<") + 1 <= between.count(b">"):
        return None
    return found.start()


def _next_block(skeleton: Skeleton, start: int) -> int:
    """The first block opening after ``start`` whose head holds ``start`` (the body of the
    declaration ``start`` stands in), or -1."""
    import bisect

    i = bisect.bisect_right(skeleton.opens, start)
    if i < len(skeleton.blocks) and skeleton.blocks[i].head <= start:
        return i
    return -1


def _following(skeleton: Skeleton, name: bytes, kind: str, start: int, head: int) -> M.Decl:
    """A name visible in the declaration it heads (a template or function parameter):
    from its head to the end of that declaration's body, if it has one."""
    body = _next_block(skeleton, start)
    end = skeleton.blocks[body].close + 1 if body >= 0 else start + len(name)
    return M.Decl(name, kind, start, head, end, skeleton.namespace_at(start))


def _scoped(skeleton: Skeleton, name: bytes, kind: str, start: int, block: int) -> M.Decl:
    """A name visible from its declaration to the end of the block it stands in (an
    ``extern "C"`` block is no scope: its names are the block around it's)."""
    while block >= 0 and skeleton.blocks[block].kind == EXTERN:
        block = skeleton.blocks[block].parent
    end = skeleton.blocks[block].close if block >= 0 else len(skeleton.code)
    owner = skeleton.blocks[block].name if block >= 0 and \
        skeleton.blocks[block].kind == CLASS else b""
    return M.Decl(name, kind, start, start, end, skeleton.namespace_of(block), owner)


def _member(skeleton: Skeleton, name: bytes, kind: str, start: int, block: int) -> M.Decl:
    """A class member: visible in the whole class body (members are used before they are
    declared, in inline member functions)."""
    b = skeleton.blocks[block]
    return M.Decl(name, kind, start, b.open, b.close, skeleton.namespace_of(block), b.name)


def _enumerator(skeleton: Skeleton, name: bytes, start: int, block: int) -> M.Decl:
    """An enumerator: visible where its enum's name is (the block around the enum), from
    the enum's body on; a scoped enum's (``enum class``) only through its name."""
    enum = skeleton.blocks[block]
    head = skeleton.code[enum.head:enum.open]
    scoped = re.search(rb"(?<![\w$])enum\s+(?:class|struct)(?![\w$])", head) is not None
    parent = enum.parent
    if scoped:
        return M.Decl(name, M.ENUMERATOR_DECL, start, enum.open, enum.close,
                      skeleton.namespace_of(block), enum.name)
    if parent >= 0 and skeleton.blocks[parent].kind == CLASS:
        return _member(skeleton, name, M.ENUMERATOR_DECL, start, parent)
    end = skeleton.blocks[parent].close if parent >= 0 else len(skeleton.code)
    return M.Decl(name, M.ENUMERATOR_DECL, start, enum.open, end, skeleton.namespace_of(parent))


def _variable(code: bytes, skeleton: Skeleton, name: bytes, start: int, wstart: int,
              block: int, kind: str | None, follows: bytes) -> Role | None:
    """``T name =``, ``T name;``, ``T name)`` ...: a variable, field or parameter."""
    low = max(0, wstart - 300)
    cut = max(code.rfind(b";", low, wstart), code.rfind(b"{", low, wstart),
              code.rfind(b"}", low, wstart))
    statement = code[cut + 1 if cut >= 0 else low:wstart]
    if b"#" in statement:
        directive = None
        for directive in _DIRECTIVE_LINE.finditer(statement):
            pass
        if directive is not None:
            statement = statement[directive.end():]
    paren = statement.rfind(b"(")
    if paren >= 0 and statement.count(b"(", paren) > statement.count(b")", paren):
        # inside an open parenthesis: a parameter list of a function being declared (at a
        # declaration scope, or a lambda's), else an expression
        if kind in (FUNCTION, BLOCK, INIT) and not statement[:paren].rstrip().endswith(b"]"):
            return None
        inner = statement[statement.rfind(b",") + 1 if b"," in statement[paren:] else paren + 1:]
        if not _DECLARATION_HEAD.match(inner):
            return None
        body = _next_block(skeleton, start)
        end = skeleton.blocks[body].close + 1 if body >= 0 else start + len(name)
        head = skeleton.blocks[body].head if body >= 0 else start
        return Role(M.PARAMETER, decl=M.Decl(name, M.PARAMETER_DECL, start, head, end,
                                              skeleton.namespace_at(start)))
    if follows == b")" or not _DECLARATION_HEAD.match(statement):
        return None
    if statement.lstrip().startswith((b"return", b"case", b"goto", b"typedef", b"using")):
        return None  # (an alias is read as one: roles._declared)
    if kind == CLASS:
        return Role(M.DECLARATOR, decl=_member(skeleton, name, M.FIELD, start, block))
    if kind in (FUNCTION, BLOCK, LAMBDA):
        return Role(M.DECLARATOR, decl=_scoped(skeleton, name, M.LOCAL, start, block))
    if kind == NAMESPACE and skeleton.blocks[block].name:
        return Role(M.DECLARATOR, decl=_scoped(skeleton, name, M.VARIABLE, start, block))
    if re.search(rb"(?<![\w$])extern(?![\w$])", statement):
        return Role(M.DECLARATOR)  # (`extern const dim3 blockDim;`: a redeclaration, CP115)
    # a global variable of its own (`constexpr int warpSize = 64;`), from here on (the
    # caller keeps it only outside conditional branches)
    return Role(M.DECLARATOR, decl=_scoped(skeleton, name, M.GLOBAL_VARIABLE, start, block))


def _declared(code: bytes, skeleton: Skeleton, name: bytes, start: int, block: int,
              kind: str | None, word: bytes) -> M.Decl | None:
    """The declaration :func:`scopes.is_declaration` found: a type, typedef, alias or
    function; None where it is at global scope (a redeclaration of the API's name, which
    the redefinitions pass settles)."""
    if word in _TAGS:
        decl_kind = M.TYPE
    elif word == b"using" or _statement(code, start).lstrip().startswith(b"typedef"):
        decl_kind = M.ALIAS
    else:
        decl_kind = M.FUNCTION
    if kind == CLASS:
        return _member(skeleton, name, M.METHOD if decl_kind == M.FUNCTION else decl_kind,
                       start, block)
    if kind in (FUNCTION, BLOCK, LAMBDA):
        # (a local type or alias; in a body `x && cudaX(...)` only looks like `T f(...)`)
        return _scoped(skeleton, name, decl_kind, start, block) if decl_kind != M.FUNCTION \
            else None
    if kind == NAMESPACE and skeleton.namespace_of(block):
        return _scoped(skeleton, name, decl_kind, start, block)
    if decl_kind == M.ALIAS and kind in (None, EXTERN, NAMESPACE):
        # a global alias of its own (`using cublasHandle_t = struct cublasContext*;`): the
        # project's, from here on (the caller keeps it only outside conditional branches)
        return _scoped(skeleton, name, M.GLOBAL_ALIAS, start, block)
    return None


__all__ = ["Role", "role", "qualifier", "api_namespaces", "namespace_aliases", "NOT_A_TYPE",
           "EXTERN"]
