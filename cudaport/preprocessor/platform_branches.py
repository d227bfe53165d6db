"""Spans of ``#if`` branches that a build for the target never compiles.

A project that already supports the target keeps its CUDA code in the branch the target
skips: ``#ifndef USE_ROCM`` ... ``#else`` (the ROCm code) ... ``#endif``. Findings in such
a branch are not problems of the port. The target's ``platform_macros`` and
``platform_macro_pattern`` (target.yaml) name the macros only its builds define (or set to
1, like bitsandbytes' ``BNB_HIP``); a branch counts as the other platform's when its
condition is exactly one of them negated (``#ifndef M``, ``#if !defined(M)``, ``#if !M``),
or it follows a branch that tests one (``#ifdef M`` / ``#if M`` ... ``#elif``/``#else``).
Anything more complex (``&&``, ``||``, versions) is left alone: both may be compiled.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import re

from . import conditions
from ..source import lexer
from ..source.edits import Edit
from ..source.spans import Inside
from ..rules.frameworks import FRAMEWORK_LIBRARY
from ..rules.model import version_tuple
from ..source.lazy_re import lazy


# Found from the '#' (a literal first lets the regex engine search fast), then checked to
# start its line (``_directives``).
_DIRECTIVE = lazy(rb"#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$", re.M)


def _directives(code: bytes, end: int | None = None, pattern: re.Pattern = _DIRECTIVE):
    """Conditional directives of ``code`` (before ``end``), found by ``pattern``: a '#' with
    only blanks before it on its line."""
    for m in pattern.finditer(code, 0, len(code) if end is None else end):
        if lexer.starts_line(code, m.start()):
            yield m
# The same, its condition running on over continued lines (`#if A && \` + `B`).
_LOGICAL = lazy(rb"#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(" + lexer.REST_OF_LINE + rb")")
_DEFINED = lazy(rb"\A(!?)\s*defined\s*(?:\(\s*(\w+)\s*\)|\s(\w+))\Z")


_PLAIN = re.compile(rb"\A(!?)\s*(\w+)\Z")


def _test(kind: bytes, cond: bytes, is_platform,
          known: conditions.Known | None = None) -> bool | None:
    """True: the branch is compiled only for the target; False: only elsewhere; None:
    not known. A plain test of one platform macro is decided by the macro (``#if M`` tests
    a project's own switch that is 1 on the target, such as bitsandbytes' ``BNB_HIP``);
    any other condition by what ``known`` says of its names."""
    cond = cond.strip()
    if kind in (b"ifdef", b"ifndef"):
        if is_platform(cond):
            return kind == b"ifdef"
        d = known.is_defined(cond) if known is not None else None
        return None if d is None else d == (kind == b"ifdef")
    m = _DEFINED.match(cond) or _PLAIN.match(cond)
    if m and is_platform(m.group(m.lastindex) if m.re is _PLAIN else m.group(2) or m.group(3)):
        return not m.group(1)
    return conditions.evaluate(cond, known) if known is not None else None


def other_platform_spans(directives, is_platform,
                         known: conditions.Known | None = None) -> list[tuple[int, int]]:
    """(start, end) byte spans of branches only another platform compiles. ``directives``
    are the (offset of '#', keyword, condition with comments blanked, end of line) of the
    file's conditional directives; ``is_platform`` tells whether a macro name is one only
    the target's builds define; ``known``, what else a build for the target is known to
    define or not (a condition it decides is evaluated: ``!defined(GGML_USE_HIP) && ...``
    with -D GGML_USE_HIP, ``CUDART_VERSION >= 12080``)."""
    return _spans(directives, is_platform, known, lambda test: test is False)


def _spans(directives, is_platform, known, select, guards: frozenset[int] = frozenset(),
           end_of_file: int | None = None) -> list[tuple[int, int]]:
    """Spans of the branches whose test (True: the target compiles it, False: never, None:
    not known) ``select`` picks, nested ones folded into the outer; ``guards``: offsets of
    `#if`s to read as true (include guards); ``end_of_file``: where a group left open ends
    (None: it is not picked)."""
    spans = [(start, end) for start, end, test in
             _branches(directives, is_platform, known, guards, end_of_file) if select(test)]
    merged: list[tuple[int, int]] = []  # (nested spans inside an outer one fold into it)
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def _branches(directives, is_platform, known, guards: frozenset[int] = frozenset(),
              end_of_file: int | None = None):
    """(start, end, test) of each branch of the file's conditional groups, as
    :func:`_spans` reads them."""
    # per open group: [test of the current branch, its start, a branch was taken, a branch
    # before may have been]
    stack: list[list] = []
    for offset, kind, cond, line_end in directives:
        if kind in (b"if", b"ifdef", b"ifndef"):
            test = True if offset in guards else _test(kind, cond, is_platform, known)
            stack.append([test, line_end, test is True, test is None])
        elif not stack:
            continue  # an unbalanced #elif/#else/#endif: nothing to say
        elif kind in (b"elif", b"else"):
            current, start, taken, maybe = stack[-1]
            yield start, offset, current
            # after a branch the target takes, every later one is dead for it; after
            # branches it never takes, the next is decided by its own test (#else: taken).
            # A test true on the target ends the group even after undecided branches
            # (``#if HIP && TORCH_OLD`` / ``#elif HIP`` / ``#else`` CUDA): the target takes
            # this one or one before, so the later ones are dead.
            own = None
            if taken:
                test = False
            elif kind == b"else":
                test = None if maybe else True
            else:
                own = _test(b"if", cond, is_platform, known)
                test = own if own is False or not maybe else None
            stack[-1] = [test, line_end, taken or test is True or own is True,
                         maybe or test is None]
        else:  # endif
            current, start, _taken, _maybe = stack.pop()
            yield start, offset, current
    if end_of_file is not None:
        for current, start, _t, _m in stack:
            yield start, end_of_file, current


KEPT_IN_DEAD_BRANCHES = frozenset({"CP905"})


def drop_other_platform(ctx) -> None:
    """Forget the findings and references of ``ctx`` in branches only another platform
    compiles. When an error is forgotten in a branch that the project's own build switch
    keeps from the target (``#ifdef USE_AMD_ROCM`` ... ``#else`` CUDA), which no target
    compiler defines, say so once (CP166): compiled as translated, that branch is the one
    the target compiler takes."""
    inside = other_platform_test(ctx)
    if inside is not None:
        dropped = [f for f in ctx.findings if f.severity == "error" and f.offset >= 0
                   and inside(f.offset)]
        # (only a branch a plain test of a switch keeps from the target: one dropped as a
        # version gate or through a -D is not the switch's doing)
        switched = other_platform_test(ctx, plain=True) if dropped else None
        dropped = [f for f in dropped if switched is not None and switched(f.offset)]
        if dropped:
            _build_switch(ctx, dropped[0].offset)
        # (CP905, clang's word that a branch is inactive for the given flags, is about the
        # branch itself: the user asked for it with --inactive-branches)
        ctx.findings = [f for f in ctx.findings if f.offset < 0 or f.code in KEPT_IN_DEAD_BRANCHES
                        or not inside(f.offset)]
        ctx.references = [r for r in ctx.references if not inside(r[0])]
        ctx.scan.idents[:] = [i for i in ctx.scan.idents if not inside(i[0])]
        ctx.scan.unknown[:] = [u for u in ctx.scan.unknown if not inside(u[0])]
        ctx.scan.includes[:] = [i for i in ctx.scan.includes if not inside(i.start)]


_DEFINED_ANY = lazy(rb"\bdefined\s*(?:\(\s*(\w+)\s*\)|\s(\w+))")


def _build_switch(ctx, before: int) -> None:
    """CP166 at the last directive before ``before`` that tests whether a switch of the
    project's own is defined (``#ifdef M``, ``defined(M)``) - a macro the target's
    ``platform_macro_pattern`` matches but no target compiler defines (not one of its
    ``platform_macros``, nor of the ``header_macros`` its headers define). A switch the
    project computes itself (``#define BNB_HIP 1``, tested by value as ``#if BNB_HIP``), or
    one the user gave with ``-D``, is not one."""
    extra = ctx.compiled.target.extra
    builtin = frozenset(m.encode() for m in (*(extra.get("platform_macros") or ()),
                                             *(extra.get("header_macros") or ())))
    pattern = extra.get("platform_macro_pattern")
    if not pattern:
        return
    own = _platform_test((), pattern)
    given = {d.split("=")[0].encode() for d in ctx.options.defines} | {
        n.encode() for n, _ in dict(ctx.options.extra).get(BUILD_DEFINES, ())}
    code = ctx.code
    found = None
    defined = None  # (the names the file #defines, read once: a search per directive was
    # quadratic in a file of many switch groups, 2,000 took 14 s)
    for m in _directives(code, before):
        kind, cond = m.group(1), m.group(2)
        if kind in (b"ifdef", b"ifndef"):
            names = [cond.strip()]
        elif kind in (b"if", b"elif"):
            names = [a or b for a, b in _DEFINED_ANY.findall(cond)]
        else:
            continue
        for name in names:
            if not own(name) or name in builtin or name in given:
                continue
            if defined is None:
                defined = {n for _, n, undef, _ in _define_lines(code) if not undef}
            if name not in defined:
                found = (m.start(), name.decode())
    if found is not None:
        target = ctx.compiled.target.title
        ctx.find("CP166", found[0], f"{found[1]} selects this file's {target} code, but no "
                 f"{target} compiler defines it: compiled as translated, the CUDA branch is "
                 f"taken and does not compile; build with -D{found[1]} (and pass "
                 f"-D {found[1]} to cudaport)", found[1])


def other_platform_test(ctx, plain: bool = False) -> "Inside | None":
    """A test of offsets: inside a branch only another platform compiles (None: there is
    no such branch in ``ctx``). ``plain``: only branches a plain test of a platform macro
    decides, without the known facts and -D switches."""
    read = _read_branches(ctx, plain)
    if read is None:
        return None
    spans = read[0]
    return Inside(spans) if spans else None


def _read_branches(ctx, plain: bool = False):
    """(dead spans, directives, what the build is known to define there, the file's
    :func:`_defines`) of ``ctx``, or None where the target gives no platform macros or the
    file has no conditional directive. Kept on the context while what it reads stays (the
    gates, the #error check and the dead-branch filter ask in turn)."""
    key = (plain, ctx.undefined_in_conditions,
           () if plain else tuple(ctx.forced_conditions.items()))
    memo = ctx._branch_readings
    if key not in memo:
        memo[key] = _reading(ctx, plain)
    return memo[key]


def _reading(ctx, plain: bool):
    extra = ctx.compiled.target.extra
    macros = extra.get("platform_macros")
    if not macros or not ctx.scan.directives:
        return None
    is_platform = _platform_test(tuple(macros), extra.get("platform_macro_pattern"))
    # the scan's directives, each condition blanked of comments as the code is
    directives = []
    src = ctx.src
    for offset, word in ctx.scan.directives:
        if word in (b"else", b"endif"):  # (no condition: only where the line ends)
            end = src.find(b"\n", offset)
            directives.append((offset, word, b"", len(src) if end < 0 else end))
            continue
        m = _LOGICAL.match(src, offset)
        if m is not None:
            forced = _UNFORCED if plain else ctx.forced_conditions.get(offset, _UNFORCED)
            # (a condition the translation rewrote reads as it now does there: None where
            # hipcc's host and device passes take different branches)
            cond = condition_at(ctx, *m.span(2)) if forced is _UNFORCED else \
                _EITHER if forced is None else b"01"[forced:forced + 1]
            word = m.group(1) if forced is _UNFORCED or m.group(1) in (b"if", b"elif") else b"if"
            directives.append((offset, word, cond, m.end()))
    facts = None if plain else known(ctx)
    if facts is None:
        return other_platform_spans(directives, is_platform, None), directives, None, []
    defines = _defines(src) if b"define" in src or b"undef" in src else []
    spans, valued = _file_spans(directives, defines, is_platform, facts)
    project = frozenset(n.encode() for n in dict(ctx.options.extra).get(DEAD_SWITCHES, ()))
    if spans and defines or project:
        # A switch the file defines only inside branches the target never compiles
        # (ggml's GGML_CUDA_USE_PDL under `#if !defined(GGML_USE_HIP) && ...`) is undefined
        # there too, unless -D gives it: the branches that test it are decided once more.
        # So is one another file of the run defines only so (ggml's TURING_MMA_AVAILABLE,
        # defined in common.cuh, tested in mma.cuh): ``project_dead_switches``.
        dead = _dead_switches([(directives, defines)], is_platform, facts, project)
        if dead - facts.undefined:
            facts = dataclasses.replace(facts, undefined=facts.undefined | dead)
            spans, valued = _file_spans(directives, defines, is_platform, facts)
    return spans, directives, valued, defines


_UNFORCED = object()
_EITHER = b"__cudaport_pass_dependent__"  # (a name nothing defines: not known)
_ERROR = lazy(rb"#[ \t]*error\b")


def reached_errors(ctx) -> None:
    """CP173 at each ``#error`` that stands, in no branch the target never compiles, in a
    branch the target takes for certain by what it is known to define, as every branch
    around it (ParRes Kernels' prk_cuda.h: `#if defined(CUBLAS_VERSION) && ...` ...
    `#else` `#error ...`, and hipcc defines no CUBLAS_VERSION); CP174, a warning, where an
    outer branch is not known (there `#ifdef PRK_USE_CUBLAS`, which its Makefile gives
    only the cuBLAS programs). A branch only a platform switch's name decides does not
    count as taken; an #error outside any branch is not reported (a header's own guard
    against being compiled at all)."""
    if b"error" not in ctx.src:
        return
    found = [m.start() for m in _directives(ctx.code, pattern=_ERROR)]
    if not found:
        return
    read = _read_branches(ctx)
    if read is None:
        return
    dead, directives, facts, defines = read
    dead = Inside(dead)
    # (a retired platform macro is read as the name the translation gives it: CP170)
    now = {old.encode(): new.encode() for old, new in
           retired_macros(ctx.compiled, ctx.compiled.version).items()}
    if now:
        defined = dict(facts.defined)
        renamed = tuple((old, defined[new]) for old, new in now.items() if new in defined)
        facts = facts.defining(after=renamed, undefined=facts.undefined - now.keys())
    # each #error's innermost branch: taken for certain, by the facts alone
    tree = ctx.branch_tree
    decided = tree.decide(_tester(directives, facts, _guard(directives, defines)))
    title = ctx.compiled.target.title
    for offset in found:
        around = [decided[i] for i in tree.path(offset)]
        if not around or around[-1] is not True or dead(offset):
            continue
        end = ctx.src.find(b"\n", offset)
        text = ctx.src[offset:len(ctx.src) if end < 0 else end].decode(errors="replace").strip()
        why = (f"the branch it stands in is the one {title} takes (a CUDA macro {title}'s "
               "compiler does not define reads as 0 there)")
        if all(test is True for test in around):
            ctx.find("CP173", offset, f"{title}'s build stops at `{text}`: {why}", "#error")
        else:  # (an outer condition not known: ggml-style switches a build may set)
            ctx.find("CP174", offset, f"wherever this line is compiled for {title}, the build "
                     f"stops at `{text}`: {why}; whether the branches around it are compiled "
                     "depends on macros not known here (give them with -D)", "#error")


def _tester(directives, facts: conditions.Known, guards: frozenset[int]):
    """A test of one branch of the file's tree (:meth:`BranchTree.decide`) by its own
    condition as ``directives`` give it (comments blanked), decided by ``facts`` alone;
    an include guard is taken."""
    by_offset = {offset: (kind, cond) for offset, kind, cond, _end in directives}

    def test(branch) -> bool | None:
        if branch.start in guards:
            return True
        found = by_offset.get(branch.start)
        if found is None:
            return None
        kind, cond = found
        return _test(kind if branch.first else b"if", cond, _never, facts)
    return test


# (searched from '#', the one literal it has; a match counts when only blanks stand
# before it on its line: `(?m)^[ \t]*#` was tried at every line start, 65 us a file line)
_DEFINE_AT_HASH = lazy(rb"#[ \t]*(define|undef)[ \t]+([A-Za-z_]\w*)")


def _define_lines(src: bytes):
    """(line start, name, whether #undef) of each #define and #undef line of ``src``."""
    for m in _DEFINE_AT_HASH.finditer(src):
        line = src.rfind(b"\n", 0, m.start()) + 1
        if line == m.start() or not src[line:m.start()].strip(b" \t"):
            yield line, m.group(2), m.group(1) == b"undef", m.end()


# the rest of a `#define NAME` line that is an integer literal and nothing else (a comment
# may follow): `#define GGML_CUDA_CC_TURING 750`, `#define USE_NVML 1`, `#define X (0x10u)`
_LITERAL = lazy(rb"[ \t]+\(?[ \t]*(0[xX][0-9a-fA-F]+|[1-9][0-9]*|0)[uUlL]*[ \t]*\)?[ \t]*"
                rb"(?://[^\n]*|/\*[^\n]*?\*/[ \t]*)?(?=\r?\n|\Z)")


def _defines(src: bytes) -> list[tuple[int, bytes, int | None]]:
    """(offset, name, value) of each #define and #undef line of ``src``: the value of a
    #define whose body is one integer literal, else None (#undef, a function-like macro,
    any other body)."""
    out = []
    for line, name, undef, end in _define_lines(src):
        lit = None if undef else _LITERAL.match(src, end)
        out.append((line, name, None if lit is None else int(lit.group(1), 0)))
    return out


def _with_defines(sources: list[bytes]):
    """(source, its :func:`_defines`) of each source with a #define or #undef line."""
    for src in sources:
        found = _defines(src) if b"define" in src or b"undef" in src else None
        if found:
            yield src, found


PROJECT_CONSTANTS = "project_constants"
BUILD_DEFINES = "build_defines"  # (set by the driver from the project's CMake files)


def _int(value: str) -> int:
    """A -D value as the preprocessor reads it in #if; 1 for none or a non-number."""
    try:
        return int(value.strip() or "1", 0)
    except ValueError:
        return 1
_OPENS = (b"if", b"ifdef", b"ifndef")


def project_constants(sources: list[bytes]) -> tuple[tuple[str, int], ...]:
    """(name, value) of the macros the files of one run #define as one integer literal,
    every time the same, never #undef'd, and each time outside every conditional branch
    (a header's include guard aside): their value is known in every file of the run.
    candle's mmq_common.cuh: `#define GGML_CUDA_CC_VOLTA 700` at the top level, tested in
    mmq_mma.cuh as `#if __CUDA_ARCH__ == GGML_CUDA_CC_VOLTA` (false for HIP)."""
    values: dict[bytes, int | None] = {}
    for src, found in _with_defines(sources):
        marks = [(m.start(), m.group(1), m.group(2).strip()) for m in _directives(src)]
        # (an include guard: the first directive `#ifndef X`, then `#define X`, and the
        # last one its #endif: its branch does not count)
        guard = len(marks) > 1 and marks[0][1] == b"ifndef" and marks[-1][1] == b"endif" \
            and any(name == marks[0][2] and o > marks[0][0] for o, name, _ in found[:1])
        depth, depths = 0, []
        for offset, word, _ in marks:
            depth += (word in _OPENS) - (word == b"endif")
            depths.append((offset, depth))
        starts = [o for o, _ in depths]
        for offset, name, value in found:
            i = bisect.bisect_right(starts, offset) - 1
            level = depths[i][1] - guard if i >= 0 else 0
            if value is None or level != 0 or values.get(name, value) != value:
                values[name] = None
            else:
                values[name] = value
    return tuple(sorted((n.decode(), v) for n, v in values.items() if v is not None))


def _never(_name: bytes) -> bool:
    return False


def _file_spans(directives, defines, is_platform, facts: conditions.Known):
    """The spans of the file's branches a build for the target never compiles, with the
    values of its own literal #defines known where it certainly makes them (``_values``),
    to a fixed point (and the facts with those values): `#define GGML_CUDA_CC_TURING 750` decides `__CUDA_ARCH__ >=
    GGML_CUDA_CC_TURING`, and `#define USE_NVML 1` in the branch `__has_include(<nvml.h>)`
    takes decides `#if USE_NVML`."""
    spans = other_platform_spans(directives, is_platform, facts)
    if not any(v is not None for _, _, v in defines):
        return spans, facts
    for _ in range(min(len(defines), PASSES)):
        new = _values(directives, defines, facts, Inside(spans))
        if not new:
            break
        facts = facts.defining(after=tuple(sorted(new.items())))
        spans = other_platform_spans(directives, is_platform, facts)
    return spans, facts


def _values(directives, defines, facts: conditions.Known, dead) -> dict[bytes, int]:
    """Names not yet known that the file certainly #defines to one literal value: every
    #define or #undef of the name outside the ``dead`` branches is a #define of that value
    in a branch every build for the target takes (by what ``facts`` decide alone, not by a
    platform switch's name; an include guard counts as taken), and no condition before the
    first one tests the name (there it is not defined yet)."""
    by: dict[bytes, list[tuple[int, int | None]]] = {}
    for offset, name, value in defines:
        if not dead(offset):
            by.setdefault(name, []).append((offset, value))
    candidates = {n: e for n, e in by.items() if all(v is not None for _, v in e)
                  and len({v for _, v in e}) == 1 and facts.value(n) is None}
    if not candidates:
        return {}
    unsure = Inside(_spans(directives, _never, facts, lambda test: test is not True,
                            _guard(directives, defines), end_of_file=1 << 62))
    tested: dict[bytes, int] = {}  # name -> offset of the first condition naming it
    for offset, _k, cond, _e in directives:
        for name in _NAME.findall(cond):
            tested.setdefault(name, offset)
    out = {}
    for name, found in candidates.items():
        first = min(o for o, _ in found)
        if tested.get(name, first) < first or any(unsure(o) for o, _ in found):
            continue
        out[name] = found[0][1]
    return out


def _guard(directives, defines) -> frozenset[int]:
    """The offset of the file's include guard (`#ifndef G` / `#if !defined(G)` as its first
    directive, `#define G` next, its `#endif` the last directive), if it has one."""
    if len(directives) < 2 or directives[-1][1] != b"endif" or not defines:
        return frozenset()
    offset, kind, cond, line_end = directives[0]
    if kind == b"ifndef":
        name = cond.strip()
    else:
        m = _DEFINED.match(cond.strip()) if kind == b"if" else None
        name = (m.group(2) or m.group(3)) if m is not None and m.group(1) else None
    after = next((d for d in defines if d[0] >= line_end), None)
    if name and after is not None and after[1] == name and after[0] < directives[1][0]:
        return frozenset((offset,))
    return frozenset()
def dead_test(src: bytes, path: str, options) -> "Inside | None":
    """:func:`other_platform_test` for bytes outside a translation (verify's scan of a unit
    for PTX): branches a build for the target never compiles, read as the translation
    reads them."""
    from ..translate.context import FileContext
    from ..rules.compiled import get_compiled
    from ..source.scan import scan

    compiled = get_compiled(options)
    ctx = FileContext(src, path, compiled, options, scan(src, compiled))
    before_passes(ctx)
    return other_platform_test(ctx)


DEAD_SWITCHES = "dead_switches"
_COMMENT = lazy(rb"/\*.*?\*/|//[^\n]*", re.S)


def project_dead_switches(sources: list[bytes], compiled, options) -> tuple[str, ...]:
    """The macros the files of one run define (or #undef) only inside branches a build for
    the target never compiles, and nowhere else, nor given with -D: undefined in every
    file of the run (:func:`other_platform_test`). A lexical scan of each file's
    conditional and #define lines (comments in conditions blanked), decided by the
    target's own macros and the -D switches."""
    extra = compiled.target.extra
    macros = extra.get("platform_macros")
    if not macros:
        return ()
    is_platform = _platform_test(tuple(macros), extra.get("platform_macro_pattern"))
    facts = _known(compiled, compiled.version, tuple(options.defines))
    arch = frozenset(n.encode() for n in dict(options.extra).get(ARCH_DEFINED, ()))
    if arch:
        facts = _without(facts, arch)
    files = []
    for src, found in _with_defines(sources):
        directives = [(m.start(), m.group(1), _COMMENT.sub(b" ", m.group(2))
                       if b"/" in m.group(2) else m.group(2), m.end())
                      for m in _directives(src, pattern=_LOGICAL)]
        files.append((directives, found))
    return tuple(sorted(n.decode() for n in _dead_switches(files, is_platform, facts)))


# Passes of the fixed points over a file's literals and a run's dead switches: each pass
# reads every file's conditions once, so the bound keeps a run linear in its size.
PASSES = 8


def _dead_switches(files, is_platform, facts: conditions.Known,
                   dead: frozenset[bytes] = frozenset()) -> frozenset[bytes]:
    """The names ``files`` (each its conditional directives and its :func:`_defines`) define
    only inside branches a build for the target never compiles, and that -D does not give;
    ``dead``: names another file of the run defines only so (unless one of ``files`` defines
    it where the target goes). To a fixed point: a switch defined only under another dead
    one (ggml's
    CUB_TOP_K_AVAILABLE, under `#ifdef GGML_CUDA_USE_CUB`, itself defined only where HIP
    never goes) is dead too, found in the next pass. Each pass decides more branches and
    never fewer (the evaluation is monotone in what is known), so the passes stop when one
    finds nothing new, at most once per name and ``PASSES`` times (a chain of switches
    deeper than that is left unknown: never a wrong answer, only a missed one)."""
    given = facts.defined_names
    names = {n for _, found in files for _, n, _v in found}
    for _ in range(min(len(names) + 1, PASSES)):
        now = dataclasses.replace(facts, undefined=facts.undefined | dead) if dead else facts
        defined: dict[bytes, bool] = dict.fromkeys(dead, True)
        for directives, found in files:
            inside = Inside(_file_spans(directives, found, is_platform, now)[0])
            for offset, name, _value in found:
                defined[name] = defined.get(name, True) and inside(offset)
        new = frozenset(n for n, only in defined.items() if only and n not in given)
        if new == dead:
            break
        dead = new
    return dead


def known(ctx) -> conditions.Known:
    """What a build for the target and version is known to define: the compiler's own
    macros and ``-D`` switches (value 1 unless given), and not: CUDA's version and
    architecture macros and the platform macros the target version no longer defines. An
    architecture macro that this file or another of the run defines itself (ggml's
    vendors/hip.h: ``#define __CUDA_ARCH__ 1300``) is not known. Kept on the context
    until ``undefined_in_conditions`` changes: passes ask once per directive, and each
    reading searched the whole file."""
    memo = getattr(ctx, "_known_facts", None)
    if memo is not None and memo[0] is ctx.undefined_in_conditions:
        return memo[1]
    facts = _known_facts(ctx)
    if hasattr(ctx, "_known_facts"):
        ctx._known_facts = (ctx.undefined_in_conditions, facts)
    return facts


def _known_facts(ctx) -> conditions.Known:
    own = project_arch_macros(ctx.compiled, (ctx.src,)) if b"__CUDA_ARCH" in ctx.src else ()
    extra = dict(ctx.options.extra)
    redefined = frozenset(own) | frozenset(n.encode() for n in extra.get(ARCH_DEFINED, ()))
    base = _run_facts(ctx.compiled, ctx.compiled.version, tuple(ctx.options.defines), redefined,
                      extra.get(PROJECT_CONSTANTS, ()), extra.get(BUILD_DEFINES, ()))
    if not ctx.undefined_in_conditions:
        return base
    return dataclasses.replace(base, undefined=base.undefined | ctx.undefined_in_conditions)


@functools.lru_cache(maxsize=16)
def _run_facts(compiled, version, defines: tuple[str, ...], redefined: frozenset[bytes],
               constants, built) -> conditions.Known:
    """:func:`known` before the file's own names in conditions: the same for every file of
    a run (and one object, so the outcomes it keeps serve them all), built once; a run's
    constants are many (1,400 over the corpus), and each file filtered them again."""
    base = _known(compiled, version, defines)
    if redefined:
        base = _without(base, redefined)
    if built:  # (the project's own build for the target: CMake's add_definitions)
        have = {n for n, _ in base.defined}
        base = dataclasses.replace(base, defined=base.defined + tuple(
            (n.encode(), _int(v)) for n, v in built if n.encode() not in have),
            undefined=base.undefined - {n.encode() for n, _ in built})
    if constants:  # (after the target's facts and -D, which win)
        have = {n for n, _ in base.defined} | base.undefined | redefined
        base = dataclasses.replace(base, defined=base.defined + tuple(
            (n.encode(), v) for n, v in constants if n.encode() not in have))
    return base


def _without(facts: conditions.Known, names: frozenset[bytes]) -> conditions.Known:
    """``facts`` with ``names`` no longer known to be undefined."""
    family = facts.undefined_family
    return dataclasses.replace(facts, undefined=facts.undefined - names, undefined_family=None
                               if family is None else lambda n: n not in names and family(n))


ARCH_DEFINED = "arch_macros_defined"


def project_arch_macros(compiled, sources, paths=None,
                        defines: tuple[str, ...] = ()) -> tuple[bytes, ...]:
    """CUDA's architecture macros (the target's ``cuda_arch_macros``) that ``sources``
    #define or #undef themselves: their value is the project's, not known. With ``paths``
    (one per source), a file whose every ``#include`` in the others stands in a branch the
    build never compiles does not count: ggml's vendors/hip.h, included under `#if
    defined(GGML_USE_HIP)`, defines __CUDA_ARCH__ only in a build given -D GGML_USE_HIP."""
    arch = _arch_macros(compiled)
    if arch is None:
        return ()
    names, family = arch
    sources = list(sources)
    defining = {}
    for i, src in enumerate(sources):
        if b"__CUDA_ARCH" in src:
            found = {name for _, name, _, _ in _define_lines(src)}
            found = {n for n in found if n in names or family is not None and family(n)}
            if found:
                defining[i] = found
    if not defining:
        return ()
    if paths is not None and len(paths) == len(sources):
        unused = _never_included(compiled, sources, [str(p).replace("\\", "/") for p in paths],
                                 defining, defines)
        defining = {i: found for i, found in defining.items() if i not in unused}
    return tuple(sorted(set().union(*defining.values())))


_INCLUDE = lazy(rb"(?m)^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"\n]+)[>\"]")


def _never_included(compiled, sources, paths, wanted, defines) -> set[int]:
    """The indexes in ``wanted`` of files that other files of the run include, and only in
    branches a build as invoked never compiles: the conditions read with the target's facts
    and -D alone, a project switch by its name (``platform_macro_pattern``) that -D does not
    give and no file of the run defines being undefined (its branch is the one a build
    without it skips)."""
    extra = compiled.target.extra
    pattern = extra.get("platform_macro_pattern")
    switch = re.compile(pattern.encode()).fullmatch if pattern else None
    facts = _known(compiled, compiled.version, defines)
    run_defines = {name for src in sources if b"define" in src
                   for _, name, _, _ in _define_lines(src)}
    live: set[int] = set()
    included: set[int] = set()
    for j, src in enumerate(sources):
        if b"include" not in src:
            continue
        spans = None
        for m in _INCLUDE.finditer(src):
            name = m.group(1).decode(errors="replace").strip()
            hits = [i for i in wanted if i != j and (paths[i] == name or paths[i].endswith(
                "/" + name.lstrip("./")))]
            if not hits:
                continue
            if spans is None:
                directives = [(d.start(), d.group(1), _COMMENT.sub(b" ", d.group(2))
                               if b"/" in d.group(2) else d.group(2), d.end())
                              for d in _directives(src, pattern=_LOGICAL)]
                off = {n for d in directives for n in _NAME.findall(d[2])
                       if switch is not None and switch(n) and facts.is_defined(n) is None
                       and n not in run_defines}
                now = dataclasses.replace(facts, undefined=facts.undefined | off) if off else facts
                spans = Inside(_spans(directives, _never, now, lambda test: test is False))
            included.update(hits)
            if not spans(m.start()):
                live.update(hits)
    return included - live


@functools.lru_cache(maxsize=16)
def _arch_macros(compiled):
    extra = compiled.target.extra
    names = frozenset(m.encode() for m in extra.get("cuda_arch_macros") or ())
    pattern = extra.get("cuda_arch_macro_pattern")
    family = re.compile(pattern.encode()).fullmatch if pattern else None
    return (names, family) if names or family is not None else None


@functools.lru_cache(maxsize=16)
def _known(compiled, version, defines: tuple[str, ...]) -> conditions.Known:
    extra = compiled.target.extra
    defined = {m.encode(): 1 for m in extra.get("predefined_macros") or ()}
    # the version macros of the target's libraries at this version (RCCL's NCCL_VERSION_CODE)
    line = (version + (0,))[:2] if version else None
    for name, values in (extra.get("library_version_macros") or {}).items():
        value = next((v for k, v in values.items()
                      if line is not None and (version_tuple(k) + (0,))[:2] == line), None)
        if value is not None:
            defined[name.encode()] = value
    for d in defines:
        name, _, value = d.partition("=")
        try:
            defined[name.strip().encode()] = int(value.strip() or "1", 0)
        except ValueError:  # (-DX=abc, -DX=010: a value not read here)
            defined[name.strip().encode()] = 1
    undefined = {m.encode() for m in (*(extra.get("cuda_version_macros") or ()),
                                      *(extra.get("cuda_compiler_macros") or ()))}
    undefined |= {m.encode() for m in retired_macros(compiled, version)}
    family = None
    arch = _arch_macros(compiled)
    if arch is not None:
        undefined |= arch[0]
        if arch[1] is not None:
            given = frozenset(defined)
            family = lambda n, match=arch[1]: n not in given and match(n) is not None  # noqa: E731
    functions = tuple((name.encode(), tuple(p.encode() for p in params), body.encode())
                      for name, (params, body) in (extra.get("function_macros") or {}).items())
    return conditions.Known(tuple(defined.items()), frozenset(undefined - set(defined)),
                            functools.partial(header_on_target, compiled), family, functions)


def header_on_target(compiled, name: bytes) -> bool | None:
    """Whether ``__has_include`` finds ``name`` in a build for the target, as translated: a
    CUDA header the translation renames is there as its target header (the condition is
    renamed too: :func:`has_include`), one it drops, inlines or has no equivalent of (at
    this version) is not, a target header is; a project's or the system's: not known."""
    r = compiled.header(name)
    if r is None:
        return True if name in compiled.target_headers else None
    return r.status in ("converted", "same")


def condition_at(ctx, start: int, end: int) -> bytes:
    """The condition at ``start:end`` with comments and literals blanked, except the header
    names of ``__has_include("name")``: a string there is no literal."""
    code = ctx.code_at(start, end)
    if b"__has_include" not in code:
        return code
    out = bytearray(code)
    for m in conditions.HAS_INCLUDE.finditer(ctx.src, start, end):
        if code.startswith(b"__has_include", m.start() - start):  # (not in a comment)
            out[m.start() - start:m.end() - start] = m.group()
    return bytes(out)


def decided(ctx, word: bytes, cond: bytes) -> bool:
    """Whether what the target build is known to define settles the condition of a
    ``#word cond`` directive (comments blanked): ``!defined(GGML_USE_HIP) && __CUDA_ARCH__
    >= 800`` with -D GGML_USE_HIP, whatever the CUDA macro says."""
    if word in (b"ifdef", b"ifndef"):
        cond = (b"" if word == b"ifdef" else b"!") + b"defined(" + cond.strip() + b")"
    facts = known(ctx)
    arch = _arch_macros(ctx.compiled)
    compiler = frozenset(m.encode() for m in
                         ctx.compiled.target.extra.get("cuda_compiler_macros") or ())
    if arch is not None or compiler:  # (a condition only they settle is CP215's)
        facts = dataclasses.replace(facts, undefined=facts.undefined - compiler - (
            arch[0] if arch is not None else frozenset()), undefined_family=None)
    return conditions.evaluate(cond, facts) is not None


def retired_macros(compiled, version) -> dict[str, str]:
    """Platform macros the target ``version`` no longer defines -> the name it defines."""
    out = {}
    for name, fact in (compiled.target.extra.get("retired_macros") or {}).items():
        if version is None or version >= version_tuple(fact["until"]):
            out[name] = fact["now"]
    return out


@functools.cache
def _platform_test(macros: tuple[str, ...], pattern: str | None):
    names = frozenset(m.encode() for m in macros)
    regex = re.compile(pattern.encode()) if pattern else None
    return lambda name: name in names or regex is not None and regex.fullmatch(name) is not None



# ---------------------------------------------------------------------------------------
# Names in conditions: read as the target's preprocessor reads them

_CONDITION_WORDS = frozenset((b"if", b"elif", b"ifdef", b"ifndef"))
_NAME = lazy(rb"[A-Za-z_]\w*")


def _conditions(ctx):
    """(offset, word, condition span, end of the branch it opens or None) of each
    conditional directive with a condition, from the scan's directive list."""
    src = ctx.src
    out = []
    open_: list[int] = []  # indexes into out of each open chain's latest branch
    for offset, word in ctx.scan.directives:
        if word in (b"elif", b"else", b"endif") and open_:
            i = open_.pop()
            if i >= 0:
                out[i][3] = offset
        if word == b"endif":
            continue
        if word == b"else":
            open_.append(-1)
            continue
        m = _LOGICAL.match(src, offset)
        if m is None:
            open_.append(-1)
            continue
        out.append([offset, word, m.span(2), None])
        open_.append(len(out) - 1)
    return out


def _names_the_target(ctx, conds) -> int | None:
    """Offset of the first condition that names the target itself (a platform macro or
    guard, a retired one): the file has HIP branches of its own."""
    extra = ctx.compiled.target.extra
    own = set(extra.get("platform_macros") or ()) | set(extra.get("portable_guards") or ()) \
        | set(extra.get("retired_macros") or {}) | set(extra.get("predefined_macros") or ()) \
        | ({extra["device_gate_macro"]} if extra.get("device_gate_macro") else set())
    pattern = extra.get("platform_macro_pattern")
    is_platform = _platform_test(tuple(sorted(own)), pattern)
    for offset, _word, (a, b), _end in conds:
        if any(is_platform(n) for n in _NAME.findall(ctx.code_at(a, b))):
            return offset
    return None


def before_passes(ctx) -> None:
    """CUDA names in ``#if`` conditions that the target's preprocessor reads as undefined
    are left as written and not reported as missing API: CUDA's version macros (the
    version-macro policy, README "Version gates") and names the target lacks (an undefined
    name is 0 in a condition, never an error). In a file with no branches of the target's
    own, each gate on CUDA's architecture or version is decided from the target's facts
    (:mod:`cudaport.preprocessor.gates`: CP223/CP224/CP225); every other condition gets
    one CP215 that says whether the target compiles the branch. (nvcc's own ``__NVCC__``
    is no table name: the target's compiler does not define it, and hazards' CP215 says
    which branch it takes.)"""
    if not ctx.scan.directives:
        return
    if b"__has_include" in ctx.src:
        has_include(ctx)
    conds = _conditions(ctx)
    if not conds:
        return
    leave: dict[int, list] = {}  # condition index -> [(offset, name)]
    if ctx.scan.idents:
        lookup = ctx.compiled.identifiers
        versions = frozenset(m.encode() for m in
                             ctx.compiled.target.extra.get("cuda_version_macros") or ())
        starts = [c[2][0] for c in conds]
        for start, name, context in ctx.scan.idents:
            if context != "code":
                continue
            i = bisect.bisect_right(starts, start) - 1
            if i < 0 or not conds[i][2][0] <= start < conds[i][2][1]:
                continue
            r = lookup.get(name)
            if r is not None and r.entry is not None and r.entry.library == FRAMEWORK_LIBRARY:
                continue  # (a framework's own mapping: ROCm PyTorch's CUDA_VERSION)
            elif name not in versions and (r is None or r.status != "unsupported"):
                continue
            leave.setdefault(i, []).append((start, name))
    if leave:
        gone = {s for found in leave.values() for s, _ in found}
        ctx.scan.idents[:] = [i for i in ctx.scan.idents if i[0] not in gone]
        ctx.undefined_in_conditions = frozenset(n for found in leave.values() for _, n in found)
    decided = _gates(ctx, conds)
    if not leave:
        return
    base = known(ctx)
    title = ctx.compiled.target.title
    for i, found in sorted(leave.items()):
        offset, word, (a, b), end = conds[i]
        if offset in decided:
            continue  # (a gate the target's facts decided: its own finding says how)
        cond = condition_at(ctx, a, b)
        names = frozenset(n for _, n in found)
        if word in (b"ifdef", b"ifndef"):
            cond = (b"" if word == b"ifdef" else b"!") + b"defined(" + cond.strip() + b")"
        if conditions.evaluate(cond, dataclasses.replace(
                base, undefined=base.undefined - names)) is not None:
            continue  # decided without them (`!defined(GGML_USE_HIP) && ...` with -D)
        outcome = conditions.evaluate(cond, dataclasses.replace(
            base, undefined=base.undefined | names))
        shown = ", ".join(sorted(n.decode() for n in names))
        why = f"{title}'s compiler does not define {shown} (read as 0 there)"
        ctx.find("CP215", found[0][0], f"#{word.decode()} on {shown}: {why}; "
                 f"{_outcome(ctx, b, end, outcome)}", found[0][1].decode())


def _gates(ctx, conds) -> frozenset[int]:
    """Decide the gates on CUDA's architecture and version of a file with no branches of
    the target's own (:mod:`cudaport.preprocessor.gates`); the offsets of the directives
    of the groups decided."""
    from . import gates

    text = ctx.src
    if b"__CUDA" not in text and b"CUDA_VERSION" not in text and b"CUDART_VERSION" not in text:
        return frozenset()
    found = gates.facts(ctx.compiled)
    if found is None:
        return frozenset()
    # (with the values of the file's own literal #defines: `#define CC_TURING 750` decides
    # `__CUDA_ARCH__ >= CC_TURING` at each point)
    read = _read_branches(ctx)
    base = read[2] if read is not None and read[2] is not None else known(ctx)
    file_gates = gates.Gates(ctx, found, base, lambda a, b: condition_at(ctx, a, b))
    own = _names_the_target(ctx, conds) is not None
    decisions = file_gates.written() if own else file_gates.run()
    if any(d.placeholder for d in decisions):
        inside = other_platform_test(ctx)  # (a placeholder the target never compiles)
        for d in decisions:
            if d.placeholder and inside is not None and inside(d.placeholder_at):
                d.placeholder = ""
    ctx.gate_decisions = decisions
    decided = gates.report(ctx, decisions)
    ctx.gate_directives = decided
    return decided


def compiler_skipped_spans(ctx) -> list[tuple[int, int, bytes]]:
    """(start, end, macro) of the branches the target's compiler never compiles by what it
    defines itself (``predefined_macros``: hipcc's ``__HIP__``, ``__HIPCC__``), each decided
    by a condition that names one of them: ``#if defined(__CUDACC__) && !defined(__HIP__)``,
    a project's HIP-to-CUDA layer for nvcc, or the ``#else`` of ``#ifdef __HIPCC__``. That
    is the project's code for other compilers, as it wrote it; the directive lines come
    with it, so the group reads as before."""
    macros = [m.encode() for m in ctx.compiled.target.extra.get("predefined_macros") or ()]
    if not ctx.scan.directives or not any(m in ctx.src for m in macros):
        return []
    facts = conditions.Known(tuple((m, 1) for m in macros))
    tree = ctx.branch_tree
    named: dict[int, bytes] = {}

    def test(branch) -> bool | None:
        cond = condition_at(ctx, *branch.cond)
        found = next((m for m in macros if m in cond), None)
        if found is None:
            return None
        named[branch.group] = found
        word = branch.word if branch.first else b"if"
        if word in (b"ifdef", b"ifndef"):
            cond = (b"" if word == b"ifdef" else b"!") + b"defined(" + cond.strip() + b")"
        return conditions.evaluate(cond, facts)

    decided = tree.decide(test)
    out: list[tuple[int, int, bytes]] = []
    for b, d in zip(tree.branches, decided):
        if d is not False or b.group not in named:
            continue
        if out and b.start < out[-1][1]:
            continue  # (inside one already taken)
        # (a group's last branch runs to its #endif: the directive line goes with it)
        group = tree.groups[b.group]
        end = b.end
        if b.end == group.endif:
            nl = ctx.src.find(b"\n", end)
            end = len(ctx.src) if nl < 0 else nl
        out.append((b.start, end, named[b.group]))
    return out


def branch_outcome(ctx, offset: int, word: bytes, cond: bytes) -> str:
    """What a build for the target does with the branch of the ``#word cond`` directive
    at ``offset`` (comments blanked in ``cond``), read with what it is known to define."""
    if word in (b"ifdef", b"ifndef"):
        cond = (b"" if word == b"ifdef" else b"!") + b"defined(" + cond.strip() + b")"
    tree = ctx.branch_tree
    i = tree.at(offset)
    branch = tree.branches[i] if i >= 0 and tree.branches[i].start == offset else None
    end = branch.end if branch is not None else None
    return _outcome(ctx, branch.cond[1] if branch is not None else offset, end,
                    conditions.evaluate(cond, known(ctx)))


def _outcome(ctx, cond_end: int, end: int | None, outcome: bool | None) -> str:
    """What a condition ending at ``cond_end`` means for its branch (which ends at ``end``)."""
    title = ctx.compiled.target.title
    first = ctx.linecol(ctx.src.find(b"\n", cond_end) + 1 if cond_end < len(ctx.src)
                        else cond_end)[0]
    last = ctx.linecol(end - 1)[0] if end is not None else None
    lines = "its branch" if last is None or last < first else f"line {first}" \
        if last == first else f"lines {first}-{last}"
    if outcome is None:
        return f"whether {lines} {'is' if lines.startswith('line ') else 'are'} compiled " \
               f"for {title} depends on the other macros it tests"
    verb = ("is" if lines.startswith("line ") else "are") + ("" if outcome else " not")
    return f"it is {'true' if outcome else 'false'} there: {lines} {verb} compiled for {title}"


def has_include(ctx) -> None:
    """``__has_include(<name>)`` in conditions, read as the translation leaves it: a CUDA
    header the translation renames is renamed there too (``<nvml.h>`` to
    ``<rocm_smi/rocm_smi.h>``), so the condition finds the header the branch now includes;
    one the target lacks (no equivalent, dropped, inlined, too new for the version) stays
    as written, the target's compiler does not find it, and CP215 says which branch is
    compiled instead (findings in the branch it skips are dropped with the other dead
    branches')."""
    base = known(ctx)
    title = ctx.compiled.target.title
    for _offset, word, (a, b), end in _conditions(ctx):
        code = ctx.code_at(a, b)
        if b"__has_include" not in code:
            continue
        absent = []
        for m in conditions.HAS_INCLUDE.finditer(ctx.src, a, b):
            if not code.startswith(b"__has_include", m.start() - a):
                continue  # (in a comment)
            g = 1 if m.group(1) is not None else 2
            r = ctx.compiled.header(m.group(g))
            if r is None or r.status == "same":
                continue
            if r.status == "converted":
                ctx.edits.append(Edit(m.start(g), m.end(g), r.replacement, r.entry.rule_id))
            else:
                absent.append((m.start(g), m.group(g).decode(errors="replace")))
        if absent:
            shown = ", ".join(sorted({n for _, n in absent}))
            outcome = conditions.evaluate(condition_at(ctx, a, b), base)
            ctx.find("CP215", absent[0][0], f"#{word.decode()} on __has_include({shown}): "
                     f"{title} has no {shown}, so its compiler does not find it (left as "
                     f"written); {_outcome(ctx, b, end, outcome)}", absent[0][1])


_RETIRED = lazy(rb"__HIP_PLATFORM_(?<![\w$]__HIP_PLATFORM_)\w+__(?![\w$])")


def retired(ctx) -> None:
    """Platform macros the target version no longer defines (``__HIP_PLATFORM_HCC__`` since
    HIP 6.0) become the name it defines, with CP170: the project's HIP branch under the old
    name was dead. Run after the portable regions are settled, so a HIP branch nested in
    another is renamed too."""
    if b"__HIP_PLATFORM_" not in ctx.src:
        return
    old = retired_macros(ctx.compiled, ctx.compiled.version)
    if not old:
        return
    code = ctx.code
    reported: set[bytes] = set()
    for m in _RETIRED.finditer(code):
        name = m.group()
        new = old.get(name.decode())
        if new is None:
            continue
        ctx.edits.append(Edit(m.start(), m.end(), new.encode(), "hip/retired-macro"))
        if name not in reported:
            reported.add(name)
            until = ctx.compiled.target.extra["retired_macros"][name.decode()]["until"]
            title = ctx.compiled.target.title
            predefined = ctx.compiled.target.extra.get("predefined_macros") or ()
            said = (f"(it defines {new}): the project's {title} code under it was dead there "
                    f"and the other branch compiled" if new in predefined else
                    f"({new} is its name now, for another platform than this target's)")
            ctx.find("CP170", m.start(), f"{name.decode()} is not defined by {title}'s "
                     f"compiler since {until} {said}; renamed to {new}", name.decode())
