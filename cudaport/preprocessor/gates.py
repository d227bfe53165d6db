"""Architecture and version gates: which branch of a ``#if`` on ``__CUDA_ARCH__`` or on
CUDA's version a build for the target takes, in a file with no branches of the target's
own.

hipcc defines neither ``__CUDA_ARCH__`` nor ``CUDART_VERSION``: read as written, every such
condition is 0 and HIP compiles the branch for the oldest GPU or the oldest CUDA, often a
placeholder (mixbench's half2 functions that return zeros under ``#if __CUDA_ARCH__ >=
530``; a sample's "not supported" under a version gate's ``#else``). A file that has HIP
branches of its own wrote its gates knowing that, and is left alone. In a file that has
none, each gate is decided from the target's facts (``gate_facts`` in target.yaml,
``rules/hip/facts/gates.yaml``): what each threshold stands for, and whether every GPU of
the target has it.

One policy for both kinds. The candidate points are the thresholds of the table (for
``__CUDA_ARCH__``: each GPU generation's value, and one above them all; for the version:
each CUDA version the table or the condition names, up to the CUDA the originals are
checked with). At each point the group's conditions say which branch nvcc takes. From the
newest point down, the first point whose branch relies only on what the target has is
chosen: the features of the threshold where that branch starts (narrowed to those the
branch shows evidence of), any feature with another meaning it shows, the inline PTX it
holds and the CUDA API it names that the target lacks. The conditions are then rewritten,
with a comment, so that the target's build takes that branch: an architecture gate tests
``device_gate_macro`` too (``__HIP_DEVICE_COMPILE__``: hipcc's device pass, as
``__CUDA_ARCH__`` is nvcc's, so the host pass keeps its branch), a version gate
``gate_macro`` (``__HIP_PLATFORM_AMD__``). Where that branch is not the newest one, and it
looks like a placeholder (it traps, asserts, prints "not supported", returns zeros, is an
empty function body), CP225 says so; where a feature it relies on differs on the target,
or the newest branch needs some features the target has and some it lacks, CP224; every
other decision is a note (CP223). A condition the table cannot decide (a threshold the
run does not know) keeps CP215.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import os
import re
from typing import Callable, NamedTuple

from . import conditions
from ..source import lexer
from ..rules.schema import loader, yaml  # (PyYAML on first use; its C loader)
from ..source.edits import Edit
from ..source.lazy_re import lazy

ARCH = b"__CUDA_ARCH__"
TOP_ARCH = 100000  # a GPU newer than every threshold
_OPENS = (b"if", b"ifdef", b"ifndef")
_STATUSES = ("yes", "no", "differs")
LACKING = frozenset(("unsupported", "version", "experimental"))


# ---------------------------------------------------------------------------------------
# The facts


@dataclasses.dataclass(frozen=True)
class Feature:
    id: str
    what: str
    amd: tuple[tuple[str, str], ...]  # (GPU, yes | no | differs)
    hip: str
    names: tuple[str, ...]
    launch: bool

    @property
    def status(self) -> str:
        """yes, no, differs, or some (some GPUs have it, others lack it)."""
        found = {s for _, s in self.amd}
        if found == {"yes"}:
            return "yes"
        if found == {"no"}:
            return "no"
        if "no" in found:
            return "some"
        return "differs"

    def having(self) -> list[str]:
        return [gpu for gpu, s in self.amd if s != "no"]


class Row(NamedTuple):
    value: int
    title: str
    features: tuple[str, ...]


class VersionRow(NamedTuple):
    value: int
    title: str
    what: str
    names: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Facts:
    targets: tuple[str, ...]
    features: dict[str, Feature]
    arch: tuple[Row, ...]
    versions: tuple[VersionRow, ...]
    specific_macros: frozenset[bytes]
    specific_pattern: re.Pattern[bytes] | None
    specific_feature: str

    @functools.cached_property
    def names(self) -> tuple[re.Pattern[bytes] | None, dict[bytes, tuple[str, ...]]]:
        """A regex of every evidence name, and name -> the features it shows."""
        by: dict[bytes, list[str]] = {}
        for f in self.features.values():
            for n in f.names:
                by.setdefault(n.encode(), []).append(f.id)
        if not by:
            return None, {}
        return re.compile(rb"(" + lexer.any_word(by) + rb")(?![\w$])"), {
            n: tuple(v) for n, v in by.items()}

    def arch_row(self, value: int) -> Row:
        """The row a value stands for: the highest threshold at or below it."""
        values = [r.value for r in self.arch]
        i = bisect.bisect_right(values, value) - 1
        return self.arch[max(i, 0)]

    def version_row(self, value: int) -> VersionRow | None:
        values = [r.value for r in self.versions]
        i = bisect.bisect_right(values, value) - 1
        return self.versions[i] if i >= 0 else None


class GateFactsError(ValueError):
    pass


def facts(compiled) -> Facts | None:
    """The target's gate facts (``gate_facts`` in its target.yaml, a path beside it)."""
    rel = compiled.target.extra.get("gate_facts")
    if not rel:
        return None
    return load(os.path.join(os.path.dirname(compiled.table.files[0]), rel))


@functools.cache
def load(path: str) -> Facts:
    with open(path, encoding="utf-8") as fh:
        data = yaml.load(fh, Loader=loader()) or {}  # (C loader: 0.047 -> 0.006 s a run)
    targets = tuple(data.get("targets") or ())
    features = {}
    for fid, d in (data.get("features") or {}).items():
        amd = d.get("amd")
        if isinstance(amd, bool):  # (YAML 1.1 reads yes/no as booleans)
            amd = "yes" if amd else "no"
        if isinstance(amd, str):
            amd = {gpu: amd for gpu in targets}
        amd = {gpu: ("yes" if s is True else "no" if s is False else s)
               for gpu, s in (amd or {}).items()}
        if set(amd) != set(targets) or not set(amd.values()) <= set(_STATUSES):
            raise GateFactsError(f"{path}: feature {fid}: amd must give yes, no or differs "
                                 f"for each of {', '.join(targets)}")
        evidence = d.get("evidence") or {}
        features[fid] = Feature(fid, d.get("what", fid), tuple((g, amd[g]) for g in targets),
                                d.get("hip", ""), tuple(evidence.get("names") or ()),
                                bool(evidence.get("launch")))
    rows = []
    for value, d in sorted((data.get("arch") or {}).items()):
        missing = [f for f in d.get("features") or () if f not in features]
        if missing:
            raise GateFactsError(f"{path}: arch {value}: unknown features {missing}")
        rows.append(Row(int(value), d.get("title", str(value)), tuple(d.get("features") or ())))
    versions = [VersionRow(int(v), d.get("title", str(v)), d.get("what", ""),
                           tuple(d.get("names") or ()))
                for v, d in sorted((data.get("versions") or {}).items())]
    spec = data.get("arch_specific") or {}
    pattern = spec.get("pattern")
    return Facts(targets, features, tuple(rows), tuple(versions),
                 frozenset(m.encode() for m in spec.get("macros") or ()),
                 re.compile(pattern.encode()) if pattern else None,
                 spec.get("feature", ""))


# ---------------------------------------------------------------------------------------
# Decisions


class Need(NamedTuple):
    """Something a branch relies on: a feature of the table, a PTX statement, a name."""
    key: str
    what: str
    status: str  # yes, no, differs, some
    note: str  # what differs, or which GPUs have it


@dataclasses.dataclass
class Decision:
    """What the translation made of one conditional group (one dimension of it)."""
    kind: str  # "arch" or "version"
    group: int
    offset: int  # the group's first directive testing the macro
    outcome: str  # newest, same, fallback, undecided
    chosen: tuple[int, ...] = ()  # branch positions taken at the chosen point
    newest: tuple[int, ...] = ()  # taken at the newest point
    rewritten: tuple[int, ...] = ()  # directive offsets rewritten
    needs: tuple[Need, ...] = ()  # of the newest branch
    missing: tuple[Need, ...] = ()  # what the newest branch needs that the target lacks
    differs: tuple[Need, ...] = ()  # what differs in the branch taken
    placeholder: str = ""  # why the branch taken looks like a placeholder
    point: str = ""  # the chosen point, for messages ("sm_53", "CUDA 13.0")
    newest_point: str = ""
    why: str = ""  # for undecided
    lines: str = ""  # of the branch taken, for messages
    newest_lines: str = ""
    directives: tuple[int, ...] = ()  # every directive of the group
    word: str = ""  # the directive that names the macro first, and the macros named
    macros: str = ""
    placeholder_at: int = -1
    reported: bool = True  # (False: another decision of the group says it)
    whole_row: bool = False  # the branch showed no evidence: all of its row counted
    row: str = ""  # the threshold whose features it relies on ("sm_80", "CUDA 12.0")


class _Branch(NamedTuple):
    index: int  # in the tree, -1 for an implicit #else
    group: int
    word: bytes
    cond: bytes | None  # condition as #if reads it (None: #else)
    start: int  # its directive
    body: tuple[int, int]  # its lines after the directive
    cond_span: tuple[int, int]


_ATOM_OPS = rb"==|!=|>=|<=|>|<"
_OPERAND = rb"\(?\s*(?:0[xX][0-9a-fA-F]+|\d+|[A-Za-z_]\w*)[uUlL]*\s*\)?"


def _atoms(macro: bytes) -> re.Pattern[bytes]:
    m = re.escape(macro)
    return re.compile(rb"defined\s*\(\s*" + m + rb"\s*\)|defined\s+" + m + rb"(?![\w$])"
                      rb"|(?<![\w$])" + m + rb"\s*(?:" + _ATOM_OPS + rb")\s*" + _OPERAND +
                      rb"|" + _OPERAND + rb"\s*(?:" + _ATOM_OPS + rb")\s*" + m + rb"(?![\w$])"
                      rb"|(?<![\w$])" + m + rb"(?![\w$])")


_ATOMS: dict[bytes, re.Pattern[bytes]] = {}


def atoms(macro: bytes) -> re.Pattern[bytes]:
    found = _ATOMS.get(macro)
    if found is None:
        found = _ATOMS[macro] = _atoms(macro)
    return found


ARCH_VALUE = lazy(lexer.any_word((b"__CUDA_ARCH__",)) + rb"(?![\w$])")


def in_directive(code: bytes, offset: int) -> bool:
    """Whether ``offset`` lies on a preprocessor directive's logical line."""
    start = code.rfind(b"\n", 0, offset) + 1
    while start > 0:  # (a line continued from the one before)
        j = start - 1
        if j > 0 and code[j - 1:j] == b"\r":
            j -= 1
        if code[j - 1:j] != b"\\":
            break
        start = code.rfind(b"\n", 0, j) + 1
    return code[start:offset].lstrip()[:1] == b"#"


_NUMBER = lazy(rb"(?<![\w$])(0[xX][0-9a-fA-F]+|\d+)[uUlL]*(?![\w$.])")


class Gates:
    """The gates of one file: ``decide`` each group that tests an architecture or
    version macro, rewrite its conditions, and report."""

    def __init__(self, ctx, facts_: Facts, base: conditions.Known,
                 cond_text: Callable[[int, int], bytes]) -> None:
        self.ctx = ctx
        self.facts = facts_
        self.base = base
        self.cond_text = cond_text
        extra = ctx.compiled.target.extra
        lookup = ctx.compiled.identifiers
        # (a framework that maps one in conditions too, ROCm PyTorch's CUDA_VERSION, decides it)
        self.versions = frozenset(
            m.encode() for m in extra.get("cuda_version_macros") or ()
            if not _framework(lookup.get(m.encode())))
        self.cuda = {m.encode(): int(v) for m, v in (extra.get("cuda_version_values") or {}).items()}
        self.gate = (extra.get("gate_macro") or "").encode()
        self.device_gate = (extra.get("device_gate_macro") or "").encode()
        self.tree = ctx.branch_tree
        self.decisions: list[Decision] = []
        self._ports: dict[int, tuple[str, str] | None] = {}
        self._idents = None
        self._asm = None
        self._includes = None
        # facts at each point (the architecture and version points of every group)
        self._points: dict[tuple[int | None, int | None], conditions.Known] = {}
        self._versions: dict[int, conditions.Known] = {}

    # -- reading the groups

    def _kinds(self, text: bytes) -> set[str]:
        kinds = set()
        if ARCH in text and atoms(ARCH).search(text):
            kinds.add("arch")
        if any(s in text for s in self.facts.specific_macros) or (
                self.facts.specific_pattern is not None and b"__CUDA_ARCH_FEAT" in text
                and self.facts.specific_pattern.search(text)):
            kinds.add("specific")
        if any(v in text for v in self.versions) and any(
                re.search(rb"(?<![\w$])" + v + rb"(?![\w$])", text) for v in self.versions):
            kinds.add("version")
        return kinds

    def _group(self, g: int) -> list[_Branch]:
        tree, src = self.tree, self.ctx.src
        out = []
        for i in tree.groups[g].branches:
            b = tree.branches[i]
            a, e = b.cond
            if b.word == b"else":
                cond = None
            else:
                cond = self.cond_text(a, e)
                if b.word in (b"ifdef", b"ifndef"):
                    cond = (b"" if b.word == b"ifdef" else b"!") + b"defined(" + cond.strip() + b")"
            nl = src.find(b"\n", e)
            body_start = len(src) if nl < 0 else nl + 1
            out.append(_Branch(i, g, b.word, cond, b.start,
                               (body_start, max(body_start, b.end)), (a, e)))
        if out[-1].word != b"else":
            endif = tree.groups[g].endif
            at = endif if endif >= 0 else len(src)
            out.append(_Branch(-1, g, b"else", None, at, (at, at), (at, at)))
        return out

    def written(self) -> list[Decision]:
        """In a file with branches of the target's own, the gates stay as written: each
        group's decision is "own", with the branch the target compiles as it reads them
        (its placeholder, if it is one, is still reported)."""
        return self.run(as_written=True)

    def run(self, as_written: bool = False) -> list[Decision]:
        tree = self.tree
        # groups that test a gate macro, and the spans of those inside each branch
        gate_groups = []
        for g, group in enumerate(tree.groups):
            kinds = set()
            for i in group.branches:
                b = tree.branches[i]
                if b.word != b"else":
                    kinds |= self._kinds(self.cond_text(*b.cond))
            if kinds:
                gate_groups.append((g, kinds))
        if not gate_groups:
            return []
        self._nested = []  # (start, end) of each gate group, for leaving them out of evidence
        for g, _ in gate_groups:
            first = tree.branches[tree.groups[g].branches[0]]
            endif = tree.groups[g].endif
            self._nested.append((first.start, endif if endif >= 0 else len(self.ctx.src)))
        self._nested.sort()
        for g, kinds in gate_groups:
            branches = self._group(g)
            version_point = None
            found = []
            if as_written:
                found.append(self._as_written(g, branches, kinds))
                self._describe(found[-1], branches)
                self.decisions.extend(found)
                continue
            if "version" in kinds:
                d, version_point = self._decide_version(g, branches, kinds)
                found.append(d)
            if "arch" in kinds:
                found.append(self._decide_arch(g, branches, version_point))
            elif "specific" in kinds:
                found.append(self._decide_specific(g, branches))
            for d in found:
                self._describe(d, branches)
            self.decisions.extend(found)
        return self.decisions

    def _describe(self, d: Decision, branches: list[_Branch]) -> None:
        ctx = self.ctx
        d.directives = tuple(b.start for b in branches if b.index >= 0)
        d.lines = _lines(ctx, [branches[p] for p in d.chosen])
        d.newest_lines = _lines(ctx, [branches[p] for p in d.newest])
        at = next((b for b in branches if b.index >= 0 and b.cond_span[0] <= d.offset
                   <= b.cond_span[1]), branches[0])
        d.word = at.word.decode()
        text = ctx.code_at(*at.cond_span)
        names = sorted({m.group().decode() for m in _MACRO_NAME.finditer(text)
                        if m.group() == ARCH or m.group() in self.versions
                        or m.group() in self.facts.specific_macros
                        or (self.facts.specific_pattern is not None
                            and self.facts.specific_pattern.fullmatch(m.group()))})
        d.macros = ", ".join(names) or "a CUDA macro"
        if d.placeholder:
            chosen = [branches[p] for p in d.chosen]
            d.placeholder_at = chosen[0].start if chosen else d.offset

    # -- evaluating a group at a point

    def _at_arch(self, value: int | None, version: int | None) -> conditions.Known:
        """The facts at an architecture and version point (None: not defined there), one
        object per point for the whole file: what it evaluated serves every group."""
        key = (value, version)
        found = self._points.get(key)
        if found is None:
            found = self._with_version(self.base, version)
            if value is not None:
                found = found.defining(((ARCH, value),), undefined=found.undefined - {ARCH})
            self._points[key] = found
        return found

    def _with_version(self, facts: conditions.Known, version: int | None) -> conditions.Known:
        if version is None:
            return facts
        if facts is self.base:
            found = self._versions.get(version)
            if found is None:
                found = self._versions[version] = self._version_facts(facts, version)
            return found
        return self._version_facts(facts, version)

    def _version_facts(self, facts: conditions.Known, version: int) -> conditions.Known:
        values = {}
        for name in self.versions:
            if name == b"__CUDACC_VER_MAJOR__":
                values[name] = version // 1000
            elif name == b"__CUDACC_VER_MINOR__":
                values[name] = version % 1000 // 10
            elif name == b"__CUDACC_VER_BUILD__":
                values[name] = 0
            else:
                values[name] = version
        return facts.defining(tuple(values.items()), undefined=facts.undefined - values.keys())

    @staticmethod
    def _taken(branches: list[_Branch], facts: conditions.Known) -> tuple[int, ...]:
        """Positions of the branches that may be taken with ``facts``."""
        out = []
        for pos, b in enumerate(branches):
            if b.cond is None:
                out.append(pos)
                break
            v = conditions.evaluate(b.cond, facts)
            if v is True:
                out.append(pos)
                break
            if v is None:
                out.append(pos)
        return tuple(out)

    # -- what a branch relies on

    def _spans(self, b: _Branch) -> list[tuple[int, int]]:
        """The branch's body without the gate groups nested in it."""
        lo, hi = b.body
        out, pos = [], lo
        i = bisect.bisect_left(self._nested, (lo, -1))
        while i < len(self._nested) and self._nested[i][0] < hi:
            s, e = self._nested[i]
            if s >= pos:
                out.append((pos, s))
                pos = max(pos, e)
            i += 1
        if pos < hi:
            out.append((pos, hi))
        return [(s, e) for s, e in out if e > s]

    def _evidence(self, b: _Branch, kind: str) -> tuple[set[str], list[Need]]:
        """(features shown, needs that are no table feature: PTX, names the target lacks)
        of the branch's own text."""
        ctx = self.ctx
        shown: set[str] = set()
        extra: list[Need] = []
        regex, by = self.facts.names
        launcher = (ctx.compiled.target.launch_function or "").encode()
        for s, e in self._spans(b):
            code = ctx.code_at(s, e)
            if kind == "arch" and regex is not None:
                for m in regex.finditer(code):
                    shown.update(by[m.group(1)])
                if b"<<<" in code or launcher and launcher in code:
                    # (a launch, or one the translation wrote: its second pass decides alike)
                    shown.update(f.id for f in self.facts.features.values() if f.launch)
            if kind == "arch" and ARCH in code and any(
                    not in_directive(code, m.start()) for m in ARCH_VALUE.finditer(code)):
                extra.append(Need("value:__CUDA_ARCH__", "the value of __CUDA_ARCH__", "no",
                                  f"{ctx.compiled.target.title}'s compiler defines no "
                                  "__CUDA_ARCH__ (CP226 where it is compiled)"))
            for start, name in self._idents_in(s, e):
                r = ctx.compiled.identifiers.get(name)
                if r is not None and r.status in LACKING:
                    shown_name = name.decode()
                    extra.append(Need(f"name:{shown_name}", shown_name, "no",
                                      f"{ctx.compiled.target.title} "
                                      f"{_version(ctx.compiled.version)} lacks it"))
            if b"error" in code and _ERROR_LINE.search(self.ctx.src, s, e):
                extra.append(Need("error:", "#error", "no", "the branch stops the build"))
            for start in self._asm_in(s, e):
                outcome = self._port(start)
                if outcome is None:
                    continue
                status, text = outcome
                what = "inline PTX" + (f" ({text})" if status == "yes" else "")
                extra.append(Need(f"ptx:{start}", what, status, text if status != "yes" else ""))
        return shown, extra

    def _idents_in(self, s: int, e: int):
        if self._idents is None:
            self._idents = sorted((i[0], i[1]) for i in self.ctx.scan.idents if i[2] == "code")
        i = bisect.bisect_left(self._idents, (s, b""))
        while i < len(self._idents) and self._idents[i][0] < e:
            yield self._idents[i]
            i += 1

    def _includes_in(self, s: int, e: int):
        if self._includes is None:
            self._includes = sorted(self.ctx.scan.includes, key=lambda inc: inc.start)
            self._include_starts = [inc.start for inc in self._includes]
        i = bisect.bisect_left(self._include_starts, s)
        while i < len(self._includes) and self._includes[i].start < e:
            yield self._includes[i]
            i += 1

    def _asm_in(self, s: int, e: int):
        if self._asm is None:
            words = (b"asm", b"__asm", b"__asm__")
            self._asm = sorted({start for start, word in self.ctx.scan.marks if word in words})
        i = bisect.bisect_left(self._asm, s)
        while i < len(self._asm) and self._asm[i] < e:
            yield self._asm[i]
            i += 1

    def _port(self, start: int):
        if start not in self._ports:
            from ..translate.passes.asm import port_outcome  # (the asm pass decides what ports)
            self._ports[start] = port_outcome(self.ctx, start)
        return self._ports[start]

    def _feature_need(self, fid: str) -> Need:
        f = self.facts.features[fid]
        status = f.status
        note = f.hip
        if status == "some":
            note = f"only {', '.join(f.having())} of the GPUs have it" + (f" ({f.hip})" if f.hip else "")
        return Need(fid, f.what, status, note)

    def _arch_needs(self, b: _Branch, row: Row | None, sibling: _Branch | None
                    ) -> tuple[list[Need], bool]:
        """What the branch relies on, and whether that is its whole row (it showed no
        evidence of any of the row's features)."""
        if row is None:  # (taken only above every threshold the table knows)
            return [Need("future", "a GPU newer than every threshold of the table", "no",
                         "the table does not say what such GPUs have")], False
        shown, extra = self._evidence(b, "arch")
        if not shown and not extra and sibling is not None and not self._has_code(b):
            shown, _ = self._evidence(sibling, "arch")  # (an empty branch: what it replaces)
        in_row = [f for f in row.features if f in shown]
        # (a branch that shows what it does only by its PTX or the CUDA API it names relies
        # on those, not on every feature of its row)
        whole = not in_row and not extra
        needs = [self._feature_need(f) for f in (row.features if whole else in_row)]
        # (a feature the target lacks or has otherwise, shown anywhere in it, counts too)
        needs += [self._feature_need(f) for f in sorted(shown - set(row.features))
                  if self.facts.features[f].status != "yes"]
        return needs + extra, whole and len(row.features) > 1

    def _has_code(self, b: _Branch) -> bool:
        return any(self.ctx.code_at(s, e).strip() for s, e in self._spans(b))

    def _version_needs(self, b: _Branch, row: VersionRow | None) -> tuple[list[Need], bool]:
        """What the branch relies on: the CUDA API it names (with the PTX it holds), else
        its row's; and whether that is its row's."""
        _shown, extra = self._evidence(b, "version")
        lookup = self.ctx.compiled.identifiers
        names = [name for s, e in self._spans(b) for _, name in self._idents_in(s, e)]
        headers = [inc.name for s, e in self._spans(b) for inc in self._includes_in(s, e)]
        for name in dict.fromkeys(headers):  # (a CUDA header the branch includes)
            h = self.ctx.compiled.header(name)
            if h is not None:
                ok = h.status not in ("unsupported", "version")
                extra.append(Need(f"header:{name.decode()}", f"what <{name.decode()}> declares",
                                  "yes" if ok else "no", "" if ok else
                                  f"{self.ctx.compiled.target.title} "
                                  f"{_version(self.ctx.compiled.version)} lacks it"))
        whole = not names and not extra and row is not None
        if whole:
            names = [n.encode() for n in row.names]
        out = []
        for name in dict.fromkeys(names):
            r = lookup.get(name)
            if r is None or r.status in LACKING:
                continue  # (the lacking ones are in extra, for the branch's own names)
            out.append(Need(f"name:{name.decode()}", name.decode(), "yes", ""))
        if whole:
            for name in row.names:
                r = lookup.get(name.encode())
                if r is not None and r.status in LACKING:
                    out.append(Need(f"name:{name}", name, "no",
                                    f"{self.ctx.compiled.target.title} "
                                    f"{_version(self.ctx.compiled.version)} lacks it"))
        return extra + out, whole

    # -- the walks

    def _decide_arch(self, g: int, branches: list[_Branch], version: int | None) -> Decision:
        offset = self._first_offset(branches, ARCH)
        if ARCH not in self.base.undefined:
            return Decision("arch", g, offset, "undecided",
                            why="the project defines __CUDA_ARCH__ itself")
        rows = self.facts.arch
        points = sorted({r.value for r in rows} | {TOP_ARCH})
        taken = {p: self._taken(branches, self._at_arch(p, version)) for p in points}
        host = self._taken(branches, self._at_arch(None, version))
        if any(not t for t in taken.values()):
            return Decision("arch", g, offset, "undecided", why="its conditions are not understood")
        lowest = _lowest_points(points, taken)
        cache: dict[int, tuple[list[Need], bool]] = {}

        def needs(pos: int) -> list[Need]:
            if pos not in cache:
                start = lowest[pos]
                below = [taken[p] for p in points if p < start]
                sibling = branches[below[-1][0]] if below else None
                row = self.facts.arch_row(start) if start < TOP_ARCH else None
                cache[pos] = self._arch_needs(branches[pos], row, sibling)
            return cache[pos][0]

        # (None: no device branch fits; the host's reading stands)
        chosen_point = _highest_fitting(points, taken, needs)
        newest = taken[TOP_ARCH]
        newest_needs = [n for pos in newest for n in needs(pos)]
        chosen = taken[chosen_point] if chosen_point is not None else host
        d = Decision("arch", g, offset, "", chosen=chosen, newest=newest,
                     needs=tuple(_unique(newest_needs)),
                     missing=tuple(_unique(n for n in newest_needs
                                           if n.status not in ("yes", "differs"))),
                     point=_before(points, taken, chosen_point) if chosen_point is not None
                     else "the host pass (in hipcc's device pass too, as it reads the condition)",
                     newest_point=_arch_title(self.facts, TOP_ARCH, lowest, newest))
        d.whole_row = any(cache[pos][1] for pos in newest)
        start = max((lowest[p] for p in newest), default=TOP_ARCH)
        d.row = f"sm_{self.facts.arch_row(start).value // 10}" if start < TOP_ARCH else ""
        d.differs = tuple(_unique(n for pos in chosen if pos in lowest for n in needs(pos)
                                  if n.status == "differs"))
        if chosen_point is None and not set(host) & {p for t in taken.values() for p in t}:
            # (no device branch fits: hipcc's device pass compiles what nvcc's host pass does)
            d.differs += (Need("host-branch", "device code", "differs",
                               f"{self.ctx.compiled.target.title}'s device pass compiles the "
                               "branch nvcc compiles in its host pass only"),)
        if chosen_point == TOP_ARCH:
            d.outcome = "same" if chosen == host else "newest"
        else:
            d.outcome = "fallback"
        if chosen != host and chosen_point is not None:
            if not self._rewrite(d, branches, self._at_arch(chosen_point, version),
                                 self._at_arch(None, version), (ARCH,), self.device_gate,
                                 by_pass=True):
                return Decision("arch", g, offset, "undecided",
                                why="its conditions could not be rewritten")
        if d.outcome == "fallback":
            d.placeholder = self._placeholder(branches, chosen, newest)
        return d

    def _as_written(self, g: int, branches: list[_Branch], kinds: set[str]) -> Decision:
        kind = "arch" if kinds & {"arch", "specific"} else "version"
        names = (ARCH, *self.facts.specific_macros) if kind == "arch" else tuple(self.versions)
        offset = self._first_offset(branches, *names)
        here = self._taken(branches, self.base)
        if kind == "arch":
            newest = self._taken(branches, self._at_arch(TOP_ARCH, None))
            point = "the newest GPUs"
        else:
            top = self.cuda.get(b"CUDART_VERSION") or max(self.cuda.values(), default=0)
            newest = self._taken(branches, self._with_version(self.base, top or None))
            point = _cuda(top) if top else "the newest CUDA"
        d = Decision(kind, g, offset, "own", chosen=here, newest=newest, point="as written",
                     newest_point=point)
        if here and newest and here != newest:
            d.placeholder = self._placeholder(branches, here, newest)
        return d

    def _decide_specific(self, g: int, branches: list[_Branch]) -> Decision:
        """A gate on the arch-specific macros: the target never defines them."""
        names = self.facts.specific_macros
        offset = self._first_offset(branches, *names) if names else branches[0].start
        defined = tuple((n, 900) for n in names)
        pattern = self.facts.specific_pattern
        on = dataclasses.replace(self.base, defined=defined + self.base.defined,
                                 undefined=self.base.undefined - names,
                                 undefined_family=None if pattern is None else
                                 (lambda n: False))
        if pattern is not None:  # (every FEAT macro a condition names: defined there)
            found = {m.group() for b in branches if b.cond
                     for m in pattern.finditer(b.cond)}
            on = dataclasses.replace(on, defined=tuple((n, 1) for n in sorted(found)) + on.defined)
        newest = self._taken(branches, on)
        here = self._taken(branches, self.base)
        need = self._feature_need(self.facts.specific_feature) if self.facts.specific_feature \
            else Need("specific", "arch-specific features", "no", "")
        outcome = "same" if newest == here else "fallback"
        d = Decision("arch", g, offset, outcome, chosen=here, newest=newest, needs=(need,),
                     missing=(need,) if outcome == "fallback" else (),
                     point="GPUs without them", newest_point="an arch-specific target")
        if outcome == "fallback":
            d.placeholder = self._placeholder(branches, here, newest)
        return d

    def _decide_version(self, g: int, branches: list[_Branch], kinds: set[str]
                        ) -> tuple[Decision, int | None]:
        offset = self._first_offset(branches, *self.versions)
        top = self.cuda.get(b"CUDART_VERSION") or max(self.cuda.values(), default=0)
        if not top:
            return Decision("version", g, offset, "undecided", why="no CUDA version"), None
        points = {r.value for r in self.facts.versions if r.value <= top} | {top}
        for b in branches:
            if b.cond is None:
                continue
            for m in _NUMBER.finditer(b.cond):
                n = conditions.integer_literal(m.group(1))
                if n is None:
                    continue
                if n >= 1000:
                    points |= {n, n - 10, n + 10}
                elif 0 < n < 100:  # (a major version)
                    points |= {n * 1000, n * 1000 - 10, (n + 1) * 1000 - 10}
        points = sorted(p for p in points if 0 < p <= top)

        def at(p: int | None) -> tuple[int, ...]:
            facts = self._with_version(self.base, p)
            found = set(self._taken(branches, facts))
            if "arch" in kinds:  # (an architecture test beside it: the device's reading too)
                found |= set(self._taken(branches, self._at_arch(TOP_ARCH, p)))
            return tuple(sorted(found))

        taken = {p: at(p) for p in points}
        here = at(None)
        lowest = _lowest_points(points, taken)
        cache: dict[int, tuple[list[Need], bool]] = {}

        def needs(pos: int) -> list[Need]:
            if pos not in cache:
                cache[pos] = self._version_needs(branches[pos],
                                                 self.facts.version_row(lowest[pos]))
            return cache[pos][0]

        chosen_point = _highest_fitting(points, taken, needs)
        newest = taken[top]
        chosen = taken[chosen_point] if chosen_point is not None else here
        newest_needs = [n for pos in newest for n in needs(pos)]
        d = Decision("version", g, offset, "", chosen=chosen, newest=newest,
                     needs=tuple(_unique(newest_needs)),
                     missing=tuple(_unique(n for n in newest_needs
                                           if n.status not in ("yes", "differs"))),
                     point=_cuda(chosen_point) if chosen_point else "the oldest CUDA",
                     newest_point=_cuda(top))
        d.differs = tuple(_unique(n for pos in chosen if pos in cache for n in cache[pos][0]
                                  if n.status == "differs"))
        row = self.facts.version_row(max((lowest[p] for p in newest), default=top))
        d.whole_row = any(cache[pos][1] for pos in newest if pos in cache)
        d.row = row.title if row is not None else ""
        if chosen_point == top:
            d.outcome = "same" if chosen == here else "newest"
        else:
            d.outcome = "fallback"
        if chosen != here and chosen_point is not None:
            facts = self._with_version(self.base, chosen_point)
            if not self._rewrite(d, branches, facts, self.base, tuple(sorted(self.versions)),
                                 self.gate, by_pass=False):
                return Decision("version", g, offset, "undecided",
                                why="its conditions could not be rewritten"), None
        if d.outcome == "fallback":
            d.placeholder = self._placeholder(branches, chosen, newest)
        return d, chosen_point

    # -- rewriting

    def _rewrite(self, d: Decision, branches: list[_Branch], wanted: conditions.Known,
                 here: conditions.Known, names: tuple[bytes, ...], gate: bytes,
                 by_pass: bool) -> bool:
        """Make the target's build take ``d.chosen``: each condition up to the last branch
        taken whose reading differs tests ``gate`` too (the whole condition where both
        readings are known, else each atom on the macro). False where that cannot be
        done (nothing is edited then)."""
        if not gate:
            return False
        self._kind = d.kind
        last = max(d.chosen)
        edits: list[Edit] = []
        forced: dict[int, bool | None] = {}
        rewritten = []
        for pos, b in enumerate(branches[:last + 1]):
            if b.cond is None or b.index < 0:
                continue
            want = conditions.evaluate(b.cond, wanted)
            now = conditions.evaluate(b.cond, here)
            if want is not None and want == now:
                continue
            if b.start in self.ctx.forced_conditions:
                return False  # (rewritten for the other kind of gate already)
            new = _rewritten(b.cond, want, now, names, gate, wanted)
            if new is None or not _verifies(b.cond, new, want, now, gate, here, wanted):
                return False
            edits.extend(self._edits(b, new))
            rewritten.append(b.start)
            forced[b.start] = (want if want == now else None) if by_pass else want
        if not rewritten:
            return True
        comment = b" /* cudaport: " + _comment(d).encode() + b" */"
        last_edit = edits[-1]
        edits[-1] = last_edit._replace(replacement=last_edit.replacement + comment)
        self.ctx.edits.extend(edits)
        self.ctx.forced_conditions.update(forced)
        d.rewritten = tuple(rewritten)
        return True

    def _edits(self, b: _Branch, new: bytes) -> list[Edit]:
        rule = f"{self.ctx.compiled.target.name}/{'arch' if self._kind == 'arch' else 'version'}-gate"
        src = self.ctx.src
        a, e = b.cond_span
        code = self.ctx.code_at(a, e)
        lo, hi = a + len(code) - len(code.lstrip()), a + len(code.rstrip())
        if b.word in (b"ifdef", b"ifndef"):
            word = src.find(b.word, b.start, a)
            return [Edit(word, hi, b"if " + new, rule)]
        return [Edit(lo, hi, new, rule)]

    # -- placeholders

    def _placeholder(self, branches: list[_Branch], chosen: tuple[int, ...],
                     newest: tuple[int, ...] = ()) -> str:
        """Why a branch of ``chosen`` that is not one of ``newest`` looks like a
        placeholder ("" when none does)."""
        for pos in chosen:
            if pos in newest:
                continue
            why = placeholder(self.ctx, branches[pos], self._spans(branches[pos]))
            if why:
                return why
        return ""

    def _first_offset(self, branches: list[_Branch], *names: bytes) -> int:
        """Where the group's conditions first name one of ``names`` (its first directive
        where none does)."""
        for b in branches:
            if b.cond is None:
                continue
            text = self.ctx.code_at(*b.cond_span)
            found = [i for i in (text.find(n) for n in names) if i >= 0]
            if found:
                return b.cond_span[0] + min(found)
        return branches[0].start


def _rewritten(cond: bytes, want, now, names: tuple[bytes, ...], gate: bytes,
               wanted: conditions.Known) -> bytes | None:
    """The condition that reads ``want`` where ``gate`` is defined and as now elsewhere."""
    text = cond.strip()
    if want is not None and now is not None:
        return (b"(" + text + (b") || defined(" if want else b") && !defined(") + gate + b")")
    # each atom on the macros, at its value where the gate is defined
    out, pos, changed = [], 0, False
    spans = sorted((m.start(), m.end()) for n in names for m in atoms(n).finditer(text))
    for s, e in spans:
        if s < pos:
            return None  # (overlapping atoms: not understood)
        atom = text[s:e]
        value = conditions.evaluate(atom, wanted)
        before = conditions.evaluate(atom, dataclasses.replace(
            wanted, defined=tuple((n, v) for n, v in wanted.defined if n not in names),
            undefined=wanted.undefined | set(names)))
        if value is None or before is None:
            return None
        out.append(text[pos:s])
        if value != before:
            out.append(b"(" + atom + (b" || defined(" if value else b" && !defined(") + gate + b"))")
            changed = True
        else:
            out.append(atom)
        pos = e
    out.append(text[pos:])
    return b"".join(out) if changed else None


def _framework(r) -> bool:
    from ..rules.frameworks import FRAMEWORK_LIBRARY

    return r is not None and r.entry is not None and r.entry.library == FRAMEWORK_LIBRARY


def _verifies(old: bytes, new: bytes, want, now, gate: bytes, here: conditions.Known,
              wanted: conditions.Known) -> bool:
    """The new condition reads as the old one where ``gate`` is not defined (a CUDA build,
    and here), and as wanted where it is."""
    def without(facts: conditions.Known) -> conditions.Known:
        return dataclasses.replace(facts, defined=tuple(d for d in facts.defined if d[0] != gate),
                                   undefined=facts.undefined | {gate})
    on = dataclasses.replace(here, defined=((gate, 1),) + here.defined,
                             undefined=here.undefined - {gate})
    return (conditions.evaluate(new, without(here)) == now
            and conditions.evaluate(new, without(wanted)) == conditions.evaluate(old, wanted)
            and (want is None or conditions.evaluate(new, on) == want))


_MACRO_NAME = lazy(rb"[A-Za-z_]\w*")
_ERROR_LINE = lazy(rb"(?m)^[ \t]*#[ \t]*error\b")


def _lines(ctx, branches: list[_Branch]) -> str:
    """'line N' / 'lines N-M' of the branches' bodies; 'no code' where they are empty."""
    spans = [b.body for b in branches if b.body[1] > b.body[0]]
    if not spans:
        return "no code"
    first = ctx.linecol(spans[0][0])[0]
    last = ctx.linecol(max(spans[-1][1] - 1, spans[-1][0]))[0]
    return f"line {first}" if first == last else f"lines {first}-{last}"


def report(ctx, decisions: list[Decision]) -> frozenset[int]:
    """The findings of ``decisions`` (CP223 notes, CP224 and CP225 warnings; one per
    group); the directives of the groups decided (their CP215 is not reported)."""
    title = ctx.compiled.target.title
    release = f"{title} {_version(ctx.compiled.version)}"
    decided = set()
    by_group: dict[int, list[Decision]] = {}
    for d in decisions:
        by_group.setdefault(d.group, []).append(d)
    for group in by_group.values():
        if len(group) > 1:  # (arch and version in one group: say the one that matters)
            # (one that compiles a placeholder first: hipcc compiles it whatever the
            # other dimension's rewrite, as in nvshmem's `__CUDA_ARCH__ >= 900 &&
            # CUDART_VERSION >= 12010`)
            group.sort(key=lambda d: (d.outcome == "undecided", not d.placeholder,
                                      not d.rewritten, not d.differs, d.outcome == "same"))
        for d in group[1:]:
            d.reported = False
    for d in decisions:
        if d.outcome == "own" and d.placeholder:
            ctx.find("CP225", d.placeholder_at, f"the branch the {title} build compiles for "
                     f"this #{d.word} on {d.macros} ({d.lines}), read as {title}'s compiler "
                     f"reads it (0), looks like a placeholder: {d.placeholder}; this file has "
                     f"{title} branches of its own, so the gate is left as written (the "
                     f"branch CUDA takes {_where(d)} is {d.newest_lines})",
                     d.macros.split(", ")[0])
        if d.outcome in ("undecided", "own"):
            continue
        decided.update(d.directives)
        lacks = "AMD GPUs lack" if d.kind == "arch" else f"{release} lacks"
        if d.placeholder:  # (reported for every decision: never compiled in silence)
            ctx.find("CP225", d.placeholder_at, f"the branch the {title} build compiles for "
                     f"this #{d.word} on {d.macros} ({d.lines}) looks like a placeholder: "
                     f"{d.placeholder}; the branch CUDA takes {_where(d)} relies on "
                     f"{_listed(d.missing)}, which {lacks}", d.macros.split(", ")[0])
        if not d.reported:
            continue
        gate = ctx.compiled.target.extra.get("device_gate_macro" if d.kind == "arch"
                                             else "gate_macro", "")
        head = (f"#{d.word} on {d.macros}: {title}'s compiler does not define "
                f"{'it' if ', ' not in d.macros else 'them'}, and this file has no {title} "
                f"branches of its own (its gates were written for CUDA alone)")
        has = "every AMD GPU has" if d.kind == "arch" else f"{release} has"
        stands = "stands for" if d.kind == "arch" else "added"
        row = f" (nothing in it shows which of {d.row}'s features it uses)" if d.whole_row else ""
        if d.outcome in ("newest", "same"):
            why = (f"{has} what {d.row} {stands} ({_listed(d.needs)})" if d.whole_row else
                   f"{has} {_listed(d.needs)}") if d.needs else \
                f"it relies on nothing {title} lacks"
            verb = "takes" if d.outcome == "newest" else "compiles, as written,"
            body = (f"the {title} build {verb} the branch CUDA takes {_where(d)} "
                    f"({d.newest_lines}): {why}")
        else:
            body = (f"the branch CUDA takes {_where(d)} ({d.newest_lines}) relies on "
                    f"{_listed(d.missing)}{row}, which {lacks}{_notes(d.missing)}; the "
                    f"{title} build compiles the branch for {d.point} ({d.lines})")
        if d.rewritten:
            body += f"; the condition tests {gate} too"
        differs = [f"{_short(n)}: {n.note}" if n.note else _short(n) for n in d.differs]
        has_some = [n for n in d.needs if n.status in ("yes", "differs")]
        real = [n for n in d.missing if n.key != "error:"]
        if d.outcome == "fallback" and has_some and real:
            of = f"of {d.row}" if d.whole_row else "of that branch"
            differs.append(f"{title} has {_listed(has_some)} {of}, but not "
                           f"{_listed(real)}")
            differs += [f"{_short(n)}: {n.note}" for n in real
                        if n.note and n.status == "no" and not n.key.startswith(("name:", "ptx:"))]
        if any(n.status == "some" for n in d.missing) and not differs:
            differs.append("some AMD GPUs have it, not all")
        if differs:
            ctx.find("CP224", d.offset, f"{head}; {body}; what differs: "
                     + "; ".join(dict.fromkeys(differs)), d.macros.split(", ")[0])
        else:
            ctx.find("CP223", d.offset, f"{head}; {body}", d.macros.split(", ")[0])
    return frozenset(decided)


def _where(d: Decision) -> str:
    if d.kind == "version":
        return f"with {d.newest_point}"
    if d.newest_point.startswith("sm_"):
        return f"from {d.newest_point} on"
    return f"on {d.newest_point}"


def _short(n: Need) -> str:
    return n.what.split(" (")[0]


def _notes(needs) -> str:
    notes = []
    for n in needs:
        if n.status == "some":
            notes.append(n.note.split(" (")[0])
        elif n.key.startswith("ptx:") and n.note:
            notes.append(f"inline PTX: {n.note}")
    return f" ({'; '.join(dict.fromkeys(notes))})" if notes else ""


def _listed(needs, limit: int = 4) -> str:
    whats = list(dict.fromkeys(_short(n) for n in needs))
    if len(whats) > limit:
        whats = whats[:limit - 1] + [f"{len(whats) - limit + 1} more"]
    if len(whats) <= 1:
        return "".join(whats)
    return ", ".join(whats[:-1]) + " and " + whats[-1]


def _unique(needs) -> list[Need]:
    seen, out = set(), []
    for n in needs:
        if n.key not in seen:
            seen.add(n.key)
            out.append(n)
    return out


def _version(version) -> str:
    v = list(version or ())
    while len(v) > 2 and v[-1] == 0:
        v.pop()
    return ".".join(map(str, v))


def _cuda(value: int) -> str:
    return f"CUDA {value // 1000}.{value % 1000 // 10}"


def _arch_title(facts: Facts, point: int, lowest: dict[int, int], taken: tuple[int, ...]) -> str:
    """The GPUs a branch taken at ``point`` is for: from its latest start on."""
    start = max((lowest[p] for p in taken if p in lowest), default=point)
    if start >= TOP_ARCH:
        return "GPUs newer than every threshold"
    if start <= facts.arch[0].value:
        return "every GPU"
    return f"sm_{start // 10}"


def _lowest_points(points: list[int], taken: dict[int, tuple[int, ...]]) -> dict[int, int]:
    """The lowest of the ascending ``points`` (architectures, CUDA versions) at which each
    branch is taken: what that branch stands for."""
    lowest: dict[int, int] = {}
    for p in points:
        for pos in taken[p]:
            lowest.setdefault(pos, p)
    return lowest


def _highest_fitting(points: list[int], taken: dict[int, tuple[int, ...]], needs) -> int | None:
    """The highest point whose taken branches need only what the target has (or has with a
    difference), None when there is none."""
    for p in reversed(points):
        if all(n.status in ("yes", "differs") for pos in taken[p] for n in needs(pos)):
            return p
    return None


def _before(points: list[int], taken: dict, point: int) -> str:
    """'GPUs before sm_XX', XX the next threshold above ``point`` where another branch is
    taken."""
    above = next((p for p in points if p > point and taken[p] != taken[point]), None)
    if above is None or above >= TOP_ARCH:
        return "the newest GPUs the table knows"
    return f"GPUs before sm_{above // 10}"


def _comment(d: Decision) -> str:
    """The comment a rewritten condition carries."""
    if d.kind == "version":
        if d.outcome == "fallback":
            return f"HIP takes the branch for {d.point}, as it lacks {_shown(d.missing)}"
        return f"HIP takes the branch {d.newest_point} takes, as it has what that uses"
    if d.outcome == "fallback":
        return f"HIP takes the branch for {d.point}, as AMD GPUs lack {_shown(d.missing)}"
    where = "device code" if d.newest_point == "every GPU" else f"{d.newest_point} and later"
    return f"HIP takes the branch for {where}, as AMD GPUs have {_shown(d.needs)}"


def _shown(needs, limit: int = 3) -> str:
    whats = [n.what.split(" (")[0] for n in needs]
    if not whats:
        return "what it uses"
    shown = ", ".join(whats[:limit])
    return shown + (f" and {len(whats) - limit} more" if len(whats) > limit else "")


# ---------------------------------------------------------------------------------------
# Placeholders

_TRAP = lazy(rb"(?<![\w$])(?:__trap|__builtin_trap|abort)\s*\(\s*\)|(?<![\w$])assert\s*\(\s*"
             rb"(?:0|false)\s*\)")
_TRAP_ASM = lazy(rb"(?<![\w$])(?:asm|__asm__|__asm)\s*(?:volatile\s*|__volatile__\s*)?\(\s*\"\s*trap\s*;")
_UNSUPPORTED = lazy(rb"(?i)not (?:supported|implemented|available)|unsupported|does not support"
                    rb"|requires? (?:compute capability|sm_?\d|cuda \d|a (?:newer|gpu))")
_STUB = lazy(rb"(?i)\b(?:dummy|stubs?|placeholders?|never be called)\b")
_WORKAROUND = lazy(rb"(?i)\bworkaround\b")
_ZERO = rb"(?:0|0[uUlL]+|0?\.0*[fF]?|0\.0*|false|nullptr|NULL)"
# `return 0;`, `return {};`, `return T();`, `return make_double4(0., 0., 0., 0.);`: group 1
# is the T of `T()` / `T{}` / `T(0, ...)`, which must name a type (not a call of a function)
_ZERO_RETURN = lazy(rb"return\s+(?:([\w:<>]+)\s*)?(?:\(\s*\)|\{\s*\}|\(\s*" + _ZERO +
                    rb"(?:\s*,\s*" + _ZERO + rb")*\s*\)|" + _ZERO + rb")\s*;")
_VECTOR_TYPE = lazy(rb"(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]"
                    rb"|(?:__)?half2?|(?:__)?nv_bfloat162?")
_BUILTIN_TYPES = frozenset(b"bool char short int long unsigned signed float double size_t".split())
_RETURN = lazy(rb"(?<![\w$])return(?![\w$])")


def placeholder(ctx, b: _Branch, spans: list[tuple[int, int]]) -> str:
    """Why the branch looks like a placeholder ("" when it does not): it traps or asserts,
    says "not supported", says it is a dummy or stub, returns only zeros, or is the whole
    body of a function and empty."""
    src = ctx.src
    code = b"".join(ctx.code_at(s, e) for s, e in spans)
    raw = b"".join(src[s:e] for s, e in spans)
    if not code.strip():
        return "an empty function body" if _whole_body(ctx, b.group) else ""
    m = _TRAP.search(code)
    if m is not None:
        return f"it stops the program ({m.group().decode(errors='replace')})"
    if _TRAP_ASM.search(raw):
        return "it stops the program (trap)"
    if re.search(rb"(?m)^[ \t]*#[ \t]*error\b", raw):
        return "it stops the build (#error)"
    literals = _literals(ctx, spans)
    m = _UNSUPPORTED.search(literals)
    if m is not None:
        return f"it reports \"{m.group().decode(errors='replace')}\""
    comments = _comments(ctx, spans)
    zeros = [m for m in _ZERO_RETURN.finditer(code) if _zero_value(ctx, m)]
    m = _STUB.search(comments) or (_WORKAROUND.search(comments) if zeros else None)
    if m is not None:
        return f"its comment calls it a {m.group().decode(errors='replace').lower()}"
    returns = _RETURN.findall(code)
    if returns and len(zeros) == len(returns):
        return "it returns only zeros"
    return ""


def _zero_value(ctx, m: re.Match) -> bool:
    """Whether a `return ...;` of :data:`_ZERO_RETURN` returns a zero value: a literal, or
    `T()`, `T{}`, `T(0, ...)` of a type (a builtin one, or a CUDA type or maker the rules
    know: `half2()`, `make_double4(0., 0., 0., 0.)`), not a call of the project's own."""
    name = m.group(1)
    if name is None or name == b"return":
        return True
    if name in _BUILTIN_TYPES or name.startswith(b"make_") or _VECTOR_TYPE.fullmatch(name):
        return True
    r = ctx.compiled.identifiers.get(name)
    return r is not None and r.entry is not None and r.entry.kind in ("type", "typedef", "struct", "class")


def _whole_body(ctx, g: int) -> bool:
    """Whether group ``g`` is all there is in the braces around it, which follow a
    parameter list (a function body)."""
    tree = ctx.branch_tree
    group = tree.groups[g]
    start = tree.branches[group.branches[0]].start
    end = group.endif
    if end < 0:
        return False
    nl = ctx.src.find(b"\n", end)
    end = len(ctx.src) if nl < 0 else nl
    before = ctx.code_at(max(0, start - 4096), start).rstrip()
    after = ctx.code_at(end, min(len(ctx.src), end + 4096)).lstrip()
    if not before.endswith(b"{") or not after.startswith(b"}"):
        return False
    # (read back word by word: a regex anchored at the end, substituted, was tried from
    # every byte of the 4 kB window, quadratic in a blank run: 0.3 s for one group)
    head = before[:-1].rstrip()
    while head.endswith(_BODY_QUALIFIERS):
        head = head[:-len(next(w for w in _BODY_QUALIFIERS if head.endswith(w)))].rstrip()
    return head.endswith(b")")


# (no word of it ends another, so reading them back from the end is unambiguous)
_BODY_QUALIFIERS = (b"const", b"noexcept", b"override", b"final", b"__device__", b"__host__",
                    b"__forceinline__")


def _literals(ctx, spans) -> bytes:
    out = []
    for s, e in spans:
        for a, z in ctx.scan.literals[bisect.bisect_left(ctx.scan.literals, (s,)):]:
            if a >= e:
                break
            text = ctx.src[a:z]
            if text[:1] in (b'"', b"'") or text[:2] in (b'L"', b'u"', b'U"', b'R"'):
                out.append(text)
    return b"\n".join(out)


def _comments(ctx, spans) -> bytes:
    out = []
    for s, e in spans:
        for a, z in ctx.scan.literals[bisect.bisect_left(ctx.scan.literals, (s,)):]:
            if a >= e:
                break
            text = ctx.src[a:z]
            if text[:2] in (b"//", b"/*"):
                out.append(text)
    return b"\n".join(out)
