"""Project classes that CUDA and HIP build differently from one number.

A class with converting constructors from both a half pair and its element
(``halfx2(const __half2&)`` and ``halfx2(const __half&)``, marian's common/types.h) is
built from one number through the element under nvcc: CUDA's ``__half2`` has no
constructor a number converts to, its ``__half`` has one. HIP's ``__half2`` converts
from a number too (its constructor from its ``_Float16`` vector, which a number splats
to: hip/amd_detail/amd_hip_fp16.h), so ``halfx2 one(1.f)`` and ``halfx2(1.f)`` are
ambiguous there (marian's functional/operators.h:634). Making the number the element
(``halfx2(__half(1.f))``) is the call nvcc makes, on both.

The classes are read from every file of a run by its pre-pass (the class is declared in
one header, built in another) and carried in the options, as ``project.py`` carries
declarations; a file also reads its own.
"""

from __future__ import annotations

import re
from ..source.lazy_re import lazy

OPTION = "half_pair_classes"

_CLASS = lazy(rb"(?:struct(?<!\wstruct)|class(?<!\wclass))\s+([A-Za-z_]\w*)\s*(?:final\s*)?[:{]")
# A constructor of one parameter of a half type, declared or defined: Name(const T& x)
_CONSTRUCTOR = lazy(
    rb"(?<![\w~:.>])([A-Za-z_]\w*)[ \t]*\([ \t]*(?:const[ \t]+)?(__half2|half2|__half|half)"
    rb"[ \t]*(?:const[ \t]*)?&?[ \t]*[A-Za-z_]\w*[ \t]*\)[ \t\r\n]*[:{;]")
_EXPLICIT = lazy(rb"\bexplicit\s+(?:[A-Za-z_]\w*\s+)*\Z")
_NUMBER = rb"[-+]?(?:\d[\w.']*|\.\d[\w']*)"


def half_pair_classes(code: bytes) -> dict[bytes, bytes]:
    """The classes ``code`` (comments and literals blanked) declares with non-explicit
    constructors from both a half pair and a half: class name -> the element's spelling
    (``__half`` or ``half``)."""
    if b"half2" not in code:
        return {}
    classes = set(_CLASS.findall(code))
    pairs: set[bytes] = set()
    elements: dict[bytes, bytes] = {}
    for m in _CONSTRUCTOR.finditer(code):
        name = m.group(1)
        if name not in classes or _EXPLICIT.search(code, max(0, m.start() - 60), m.start()):
            continue
        if m.group(2).endswith(b"2"):
            pairs.add(name)
        else:
            elements.setdefault(name, m.group(2))
    return {n: elements[n] for n in sorted(pairs) if n in elements}


def carried(options) -> dict[bytes, bytes]:
    """The classes the run's pre-pass found in its files."""
    return {n.encode(): e.encode() for n, e in dict(options.extra).get(OPTION, ())}


def with_classes(options, found: dict[bytes, bytes]):
    """``options`` carrying ``found`` to every file of the run."""
    import dataclasses

    if not found:
        return options
    extra = tuple(kv for kv in options.extra if kv[0] != OPTION)
    items = tuple(sorted((n.decode(), e.decode()) for n, e in found.items()))
    return dataclasses.replace(options, extra=extra + ((OPTION, items),))


_ARITHMETIC = frozenset(b"float double int unsigned long short char signed size_t int32_t "
                        b"uint32_t int64_t uint64_t".split())
_LOOK_BACK = 2000  # bytes read back from a build for its argument's declaration


def one_number_builds(code: bytes, classes: dict[bytes, bytes]) -> list[tuple[int, int, bytes]]:
    """Where ``code`` builds one of ``classes`` from a single number: ``C(1.f)``,
    ``C{1.f}``, ``C x(1.f)``, ``C x{1.f}``, or from a variable declared (a few lines
    above, in the text) with an arithmetic type; (the argument's start, its end, the
    class). A variable whose declaration is not read is left: its type is unknown."""
    if not classes:
        return []
    names = b"|".join(re.escape(n) for n in sorted(classes, key=len, reverse=True))
    pattern = re.compile(rb"(?<![\w.>:~])(" + names + rb")\b[ \t]*(?:[A-Za-z_]\w*[ \t]*)?"
                         rb"[({][ \t]*(" + _NUMBER + rb"|[A-Za-z_]\w*)[ \t]*[)}]")
    found = []
    for m in pattern.finditer(code):
        arg = m.group(2)
        if (arg[:1].isalpha() or arg[:1] == b"_") and not _arithmetic(code, arg, m.start()):
            continue
        found.append((m.start(2), m.end(2), m.group(1)))
    return found


def _arithmetic(code: bytes, name: bytes, at: int) -> bool:
    """Whether the last declaration of ``name`` in the text before ``at`` (a parameter or
    a local, read back at most ``_LOOK_BACK`` bytes) gives it an arithmetic type."""
    last = None
    declared = re.compile(rb"\b([A-Za-z_]\w*)[ \t]+(?:const[ \t]+)?" + re.escape(name)
                          + rb"[ \t]*[=;,)\[{(]")
    for m in declared.finditer(code, max(0, at - _LOOK_BACK), at):
        last = m
    return last is not None and last.group(1) in _ARITHMETIC
