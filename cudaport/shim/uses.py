"""What one file needs from a shim, read from its translation.

The translation of a file (:func:`cudaport.run.kinds.translate_file`, as ``check`` runs it) is
the reference for what the file needs on the target: every edit it makes is either one a
compatibility header can make too, uniformly, by the preprocessor (a rename, a call
template, a mapped include, the main header, a widened lane mask, a function of the
portable header, a version gate) or one only a source edit can make (inline PTX, a braced
vector initializer, a spaced launch ...). :func:`file_uses` sorts them: the first kind
becomes the names, headers and switches the shim provides, the second a CP701 finding
that says which construct needs an edit and that ``cudaport translate`` makes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..source import lexer
from ..findings import Finding
from ..translate.context import LineIndex
from ..rules.compiled import Compiled, Resolved
from ..source.scan import Scan, scan
from ..source.lazy_re import lazy

# Edits whose effect the shim's headers give the unmodified source, by rule-id suffix
# (after "<target>/"): the main header and the macros it needs are the forced include,
# the portable header's functions are in the shim, lane masks are widened by the
# macros of the warp functions, version gates take CUDA's branch because the shim
# defines CUDA's version macros, inserted library companions are in the library's
# header, `register` is accepted by a pragma, std::printf names HIP's device printf
# through a using-declaration, a member of a launch attribute's value HIP's union lacks is
# renamed by a macro as the translation renames it, and a project's own alias of two CUDA
# names that map to one HIP name redefines a macro (a warning, as where the project's own
# definition stands first); cuda::std:: names that are standard ones resolve through a
# using-directive of ::std in namespace cuda::std, and thrust::cuda is an alias of the
# target's Thrust device back end.
COVERED = frozenset({"main-header", "target-macros", "portable-header", "warp-mask",
                     "version-gate", "library-types", "library-companions",
                     "register-storage-class", "device-printf", "self-alias", "launch-ex",
                     "libcudacxx", "thrust-backend"})

# What each edit a header cannot make rewrites, for the CP701 message.
NEEDS_EDIT = {
    "asm": "inline PTX assembly, which no AMD GPU assembles",
    "vector-init": "a braced initializer HIP's vector types reject",
    "literal-qualifier-space": "a string literal written against a CUDA qualifier "
                               "(`\"C\"__global__`), which C++11 reads as a literal suffix",
    "launch-chevrons": "a kernel launch with spaced chevrons (`<< <`), which clang rejects",
    "launch-dims": "a launch dimension of a type HIP's dim3 does not convert from",
    "launch": "a kernel launch rewritten to the target's launch function",
    "redefinition": "a definition of a function HIP's headers already define",
    "atomic-ref": "a cuda::atomic_ref, which becomes HIP's scoped atomic builtins",
    "block-barrier": "a cuda::barrier used as the block barrier",
    "thread-pipeline": "a thread-scope cuda::pipeline",
    "gemm-compute-type": "a cuBLAS compute type held in a cudaDataType variable",
    "retired-macro": "a platform macro this HIP version no longer defines",
    "arch-gate": "an #if on __CUDA_ARCH__ whose branch the HIP build should take (hipcc "
                 "defines no __CUDA_ARCH__, and a header cannot give it one value that fits "
                 "every gate)",
}

# Translation findings that describe a rewrite the shim does not make (the CP701 of the
# same place says what to do instead): PTX rewritten (CP230).
REPLACED_BY_CP701 = frozenset({"CP230"})
# The names a CP215 ("#if on NAMES: the target's compiler does not define them") is about.
_CP215_NAMES = lazy(r"#\w+ on ([A-Za-z_][\w, ]*): ")

# Rule ids of edits made after the passes, which carry no target prefix.
_UNPREFIXED = frozenset({"self-alias"})
_INCLUDE_LINE = lazy(rb"\s*#\s*include\b")
_IDENT = lazy(rb"[A-Za-z_]\w*")

# Kinds of rule-table entries whose names the preprocessor may map.
_MAPPABLE = frozenset({"function", "type", "constant", "macro", "variable", "name", "keyword",
                       "enum", "namespace"})


@dataclass
class NameUse:
    """How a file uses one CUDA name the shim maps."""

    calls: set[int] = field(default_factory=set)  # argument counts of its calls
    bare: list[int] = field(default_factory=list)  # offsets of uses that are no call
    split: list[tuple[int, int, int]] = field(default_factory=list)  # (offset, C++ args,
    # arguments the preprocessor sees): a call a function-like macro would cut elsewhere
    first: int = -1  # offset of the first use


@dataclass
class FileUses:
    """What one source file needs from the shim, and what it cannot get there."""

    shown: str
    names: dict[bytes, NameUse] = field(default_factory=dict)
    headers: dict[bytes, int] = field(default_factory=dict)  # CUDA header -> offset
    companions: dict[bytes, list[bytes]] = field(default_factory=dict)  # header -> includes
    dropped_labels: set[bytes] = field(default_factory=set)  # `case NAME:` translation drops
    mentions: set[bytes] = field(default_factory=set)  # version/compiler macros it tests
    register: bool = False  # uses the `register` storage class
    std_printf: bool = False  # calls std::printf in device code
    cuda_std: bool = False  # names standard names through cuda::std::
    thrust_backend: bytes = b""  # the target's name of thrust::cuda, where the file uses it
    members: dict[bytes, bytes] = field(default_factory=dict)  # launch attribute members
    probes: set[bytes] = field(default_factory=set)  # CUDA headers `__has_include` tests
    lacking: set[str] = field(default_factory=set)  # libraries of names HIP lacks it uses
    own: dict[bytes, int] = field(default_factory=dict)  # CUDA names the project declares
    findings: list[Finding] = field(default_factory=list)  # the shim's, and translation's
    edits: list[tuple[int, str, str]] = field(default_factory=list)  # (offset, what, id):
    # edits only a source edit makes, reported by finish()
    translated: list[Finding] = field(default_factory=list)  # the translation's findings
    lines: LineIndex | None = None


def file_uses(data: bytes, outcome, compiled: Compiled, scanned: Scan | None = None
              ) -> FileUses:
    """Sort the translation ``outcome`` of ``data`` (a FileOutcome with its references and
    edits kept) into what the shim provides and what needs a source edit (the findings
    are made by :func:`finish`, once the branches the shim's build skips are known)."""
    uses = FileUses(outcome.shown, lines=LineIndex(data))
    target = compiled.target.name + "/"
    lookup = compiled.identifiers
    scanned = scanned or scan(data, compiled)
    brackets = lexer.Brackets(data)
    include_spans = [(inc.start, inc.end, inc.name) for inc in scanned.includes]
    for inc in scanned.includes:
        r = compiled.header(inc.name)
        if r is not None and r.status != "same":
            uses.headers.setdefault(inc.name, inc.start)
    # Names: every reference the translation resolved to the API and renames, or whose
    # calls it rewrites (lane masks, templates), in code; and the name of every edit an
    # identifier rule made (a use in a branch the translation's report leaves out).
    rule_names = _rule_names(compiled)
    conditions = _CONDITION_MACROS(compiled)
    covered_rules: set[str] = set()
    drops: set[bytes] = set()
    seen: set[int] = set()
    for ref in outcome.references or ():
        if ref.context != "code" or not ref.rule_id:
            continue
        name = ref.identifier.encode()
        r = lookup.get(name)
        if r is None or r.entry is None:
            continue
        if name in conditions:
            uses.mentions.add(name)  # (defined by the shim, see render.condition_macros)
            covered_rules.add(r.entry.rule_id)
            continue
        if ref.status == "unsupported":
            uses.lacking.add(r.entry.library)
        if ref.status == "drop":
            drops.add(name)
            covered_rules.add(ref.rule_id)
            continue
        if _mapped(r):
            seen.add(ref.offset)
            _use(uses, data, ref.offset, name, r, brackets)
            covered_rules.add(r.entry.rule_id)
    for edit in outcome.edits or ():
        name = rule_names.get(edit.rule_id)
        if name is None or edit.start in seen:
            continue
        r = lookup[name]
        if name in conditions:
            uses.mentions.add(name)
            covered_rules.add(edit.rule_id)
        elif r.status == "unsupported" and edit.replacement == b"" \
                and data.startswith(b"case", edit.start):  # (a label in a dead branch)
            drops.add(name)
            covered_rules.add(edit.rule_id)
        elif _mapped(r):
            covered_rules.add(edit.rule_id)
            if data.startswith(name, edit.start):
                seen.add(edit.start)
                _use(uses, data, edit.start, name, r, brackets)
    uses.dropped_labels = drops
    for start, name, context in scanned.idents:  # (in conditions too, where the
        if context == "code" and name in conditions:  # translation leaves them)
            uses.mentions.add(name)
    # Edits: covered by the names and headers above, or a source edit.
    last_header: bytes | None = None
    for edit in sorted(outcome.edits or (), key=lambda e: e[0]):
        rule = edit.rule_id
        kind = rule[len(target):] if rule.startswith(target) else \
            rule if rule in _UNPREFIXED else None
        if kind in ("main-header", "target-macros") and isinstance(edit.replacement, bytes):
            # the headers CUDA's runtime header brings and HIP's does not (<math.h> for
            # isfinite): the shim's cuda_runtime.h includes them
            main = compiled.target.main_header.encode()
            extra = [line for line in _included(edit.replacement) if main not in line]
            if extra:
                have = uses.companions.setdefault(b"cuda_runtime.h", [])
                have.extend(line for line in extra if line not in have)
            continue
        if kind in ("library-types", "library-companions") and last_header is not None:
            text = edit.replacement if isinstance(edit.replacement, bytes) else b""
            have = uses.companions.setdefault(last_header, [])
            have.extend(line for line in _included(text) if line not in have)
            continue
        inside = _include_at(include_spans, edit.start)
        if inside is not None:
            last_header = inside
            continue
        if rule in covered_rules:
            continue
        span = data[edit.start:edit.end]
        if span and compiled.header(span) is not None:  # `__has_include(<nvml.h>)`
            uses.probes.add(span)  # (finds the shim's header, if it has one)
            continue
        if kind == "register-storage-class":
            uses.register = True
        elif kind == "device-printf":
            uses.std_printf = True
        elif kind == "libcudacxx":
            uses.cuda_std = True
        elif kind == "thrust-backend" and isinstance(edit.replacement, bytes):
            uses.thrust_backend = edit.replacement
        elif kind == "launch-ex" and isinstance(edit.replacement, bytes) \
                and _IDENT.fullmatch(span) and _IDENT.fullmatch(edit.replacement):
            uses.members[span] = edit.replacement
        if kind in COVERED:
            continue
        what = NEEDS_EDIT.get(kind) if kind is not None else None
        if what is None:  # an identifier rule of a name the shim does not map
            name = rule.rsplit(":", 1)[-1]
            what = f"{name}, which the translation rewrites where a macro cannot"
        uses.edits.append((edit.start, what, kind or ""))
    for f in outcome.findings:
        if f.code == "CP164" and f.identifier:
            name = f.identifier.encode()
            uses.own.setdefault(name, f.offset)
        if f.code == "CP108" and f.identifier.encode() in conditions:
            continue  # (the translation's note on its rename; the shim defines CUDA's value)
        if f.code == "CP215" and _defined_by_shim(f.message, conditions):
            continue  # (hipcc alone reads them as 0; the shim defines them as CUDA 13's)
        if f.code not in REPLACED_BY_CP701:
            uses.translated.append(f)
    return uses


def finish(uses: FileUses, dead=None) -> None:
    """The file's findings: CP701 for each construct that needs a source edit, and the
    translation's, except in branches ``dead`` says the shim's build never compiles (see
    :mod:`.branches`)."""
    dead = dead or (lambda offset: False)
    reported: set[tuple[str, int]] = set()
    for offset, what, identifier in uses.edits:
        if dead(offset):
            continue
        line, _ = uses.lines.linecol(offset)
        if (what, line) not in reported:
            reported.add((what, line))
            _needs_edit(uses, offset, what, identifier)
    for name, use in uses.names.items():
        bare = [o for o in use.bare if not dead(o)]
        split = [c for c in use.split if not dead(c[0])]
        for offset in bare[:1]:
            _needs_edit(uses, offset, f"{name.decode()} used other than in a call: the shim "
                        "maps its calls with a function-like macro, which a name alone does "
                        "not expand", name.decode())
        for offset, cpp, pp in split[:1]:
            _needs_edit(uses, offset, f"a call of {name.decode()} with {cpp} argument(s) "
                        f"that the preprocessor splits into {pp} (a comma inside <...> or "
                        "{...}): put that argument in parentheses", name.decode())
    uses.findings += [f for f in uses.translated if not (f.offset >= 0 and dead(f.offset))]
    uses.findings.sort(key=lambda f: (f.line, f.col, f.code))


def _defined_by_shim(message: str, conditions: frozenset[bytes]) -> bool:
    """Whether a CP215's condition names only macros the shim defines (CUDART_VERSION ...,
    as CUDA 13's): the translation's note that hipcc reads them as 0, and which branch it
    then takes, is not what the shim's build does (it takes the branch CUDA 13 takes, and
    the branches it never compiles are read as such, :mod:`.branches`)."""
    m = _CP215_NAMES.match(message)
    return m is not None and all(n.strip().encode() in conditions
                                 for n in m.group(1).split(","))


def _use(uses: FileUses, data: bytes, offset: int, name: bytes, r: Resolved,
         brackets: lexer.Brackets) -> None:
    use = uses.names.get(name)
    if use is None:
        use = uses.names[name] = NameUse(first=offset)
    if _is_function_like(r):
        _call_shape(data, offset, name, use, brackets)


def _rule_names(compiled: Compiled) -> dict[str, bytes]:
    """Rule id -> the CUDA name of each identifier entry (once per table)."""
    names = getattr(compiled, "_shim_rule_names", None)
    if names is None:
        names = {r.entry.rule_id: name for name, r in compiled.identifiers.items()
                 if r.entry is not None}
        compiled._shim_rule_names = names
    return names


def _needs_edit(uses: FileUses, offset: int, what: str, identifier: str) -> None:
    line, col = uses.lines.linecol(offset)
    uses.findings.append(Finding(
        "CP701", f"needs a source edit: {what}; `cudaport translate {uses.shown}` rewrites it",
        uses.shown, line, col, identifier=identifier, engine="shim", offset=offset))


def _mapped(r: Resolved) -> bool:
    """Whether the shim maps this resolved name: renamed, rewritten by a template, or a
    warp function whose lane mask is widened."""
    entry = r.entry
    if entry is None or entry.kind not in _MAPPABLE:
        return False
    if r.status in ("converted", "fallback") and r.renames:
        return True
    return entry.lane_mask is not None and r.status in ("converted", "same", "fallback")


def _is_function_like(r: Resolved) -> bool:
    return r.template is not None or bool(r.by_args) or (
        r.entry is not None and r.entry.lane_mask is not None)


def _call_shape(data: bytes, offset: int, name: bytes, use: NameUse,
                brackets: lexer.Brackets) -> None:
    """Record how the name at ``offset`` is used: a call (its argument count, and whether
    the preprocessor would cut its arguments elsewhere), or a bare name."""
    end = offset + len(name)
    parsed = lexer.call_arguments(data, end, brackets)
    if parsed is None:
        use.bare.append(offset)
        return
    args, close = parsed
    use.calls.add(len(args))
    pp = _preprocessor_arguments(data, end, close, brackets)
    if pp != max(1, len(args)):
        use.split.append((offset, len(args), pp))


def _preprocessor_arguments(data: bytes, start: int, close: int,
                            brackets: lexer.Brackets) -> int:
    """How many arguments the preprocessor sees in the call whose ``(`` follows ``start``
    and whose ``)`` ends at ``close``: commas count unless inside parentheses (not
    ``<>``, ``[]`` or ``{}``). Nested parentheses are stepped over, so each token is read
    by the walk of the one call whose own parentheses hold it (linear over a file)."""
    pos = data.index(b"(", start) + 1
    count = 1
    while pos < close - 1:
        tok = lexer.next_token(data, pos, skip_trivia=False)
        if tok is None:
            break
        if tok.text == b"(":
            end = brackets.close_end(tok.start)
            pos = end if end is not None and end > tok.end else tok.end
            continue
        if tok.text == b",":
            count += 1
        pos = tok.end
    return count


def _include_at(spans: list[tuple[int, int, bytes]], offset: int) -> bytes | None:
    """The header name of the #include directive whose span holds ``offset``."""
    import bisect

    i = bisect.bisect_right(spans, (offset, float("inf"), b"")) - 1
    if i >= 0 and spans[i][0] <= offset <= spans[i][1]:
        return spans[i][2]
    return None


def _included(text: bytes) -> list[bytes]:
    """The ``#include`` lines of inserted text, as written."""
    return [line.strip() for line in text.splitlines() if _INCLUDE_LINE.match(line)]


def _CONDITION_MACROS(compiled: Compiled) -> frozenset[bytes]:
    """CUDA's version macros and compiler macros (``__CUDACC__``, ``__NVCC__``): a file
    that names one gets it defined by the shim."""
    names = getattr(compiled, "_shim_condition_macros", None)
    if names is None:
        extra = compiled.target.extra
        names = frozenset(m.encode() for m in extra.get("cuda_version_macros") or ()) | {
            b"__CUDACC__", b"__NVCC__"}
        compiled._shim_condition_macros = names
    return names
