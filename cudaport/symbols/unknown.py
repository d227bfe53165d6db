"""CUDA-looking names the rule tables do not know (``CUDA_CHECK``, ``cudaDev``) that a file
defines or declares itself: never CUDA's API (CUDA declares no such name), so the file's own,
in every file of the run that sees them (``FileContext.own_names``, cudaport/symbols/own_names.py).
Decided per name: any definition or declaration in the file makes every use its own."""

from __future__ import annotations


from ..source import lexer
from . import scopes
from .roles import NOT_A_TYPE
from ..source.lazy_re import lazy


def own_unknown_names(src: bytes, unknown) -> frozenset[bytes]:
    """The names of ``unknown`` (the scan's (offset, name, context) of CUDA-looking
    unknowns) that ``src`` #defines, declares after a type name, or defines as a type."""
    macros = _defined_macros(src)
    return macros | _declared_names(src, unknown, macros)


_DEFINE = lazy(rb"#[ \t]*define[ \t]+([A-Za-z_$][\w$]*)")


def _defined_macros(src: bytes) -> frozenset[bytes]:
    """Names the file itself ``#define``s."""
    return frozenset(m.group(1) for m in _DEFINE.finditer(src)
                     if lexer.starts_line(src, m.start()))


def _declared_names(src: bytes, unknown: list[tuple[int, bytes, str]],
                    skip: frozenset[bytes]) -> frozenset[bytes]:
    """Unknown names the file declares itself: some occurrence follows a type name
    (``int cudaDev``, ``cudaError_t* cudaErr``). CUDA API is never declared in user code,
    so such a name is the project's own. Names in ``skip`` are known to be own already."""
    declared = set()
    for start, name, context in unknown:
        if context != "code" or name in declared or name in skip:
            continue
        word_start, word = scopes.word_before(src, start)
        if not word or word in NOT_A_TYPE:
            if _defines_type(src, start, len(name), word):
                declared.add(name)
            continue
        line_start = src.rfind(b"\n", 0, word_start) + 1
        line = src[line_start:word_start]
        # not `#define M cudaX`, nor a word ending a line comment (`// runtime` + newline)
        if not line.lstrip().startswith(b"#") and b"//" not in line:
            declared.add(name)
    return frozenset(declared)


_TAG = frozenset((b"struct", b"class", b"union", b"enum"))


def _defines_type(src: bytes, start: int, length: int, word: bytes) -> bool:
    """``struct cudaX {`` / ``: base`` / ``;``, ``} cudaX;`` (a typedef'd or declared
    struct), ``using cudaX =`` and ``namespace cuda_driver {``: the project names a type
    or namespace of its own. ``word`` is the identifier before the name, if any."""
    after = lexer.next_token(src, start + length)
    follows = after.text if after is not None else b""
    if word:
        if word in _TAG:  # (`enum class cudaX {` ends in a tag word too)
            return follows in (b"{", b":", b";", b"final")
        return word == b"using" and follows == b"=" or word == b"namespace" and follows == b"{"
    return src[max(0, start - 64):start].rstrip().endswith(b"}") and follows in (b";", b",")


