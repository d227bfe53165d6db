"""Errors a build for the target may never meet: a finding inside a macro's body that
nothing in the run expands, or inside an ``#if`` branch that only a switch nothing in the
run defines selects. Each stays reported, as a warning that says what would make it an
error (the macro expanded, the switch defined), so the file is not called blocked for
code its build does not compile.

The run's side is read once, in the run's pre-pass (:func:`run_facts`): the macros some
file of the run expands, and the names some file ``#define``s. A file translated alone is
its own run.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
from typing import Iterable

from ..preprocessor import conditions
from ..source.lazy_re import lazy

EXPANDED = "expanded_macros"  # options.extra: macros with CUDA names that the run expands
BODIES = "macros_with_cuda"  # options.extra: the macros whose bodies were looked at
DEFINED = "defined_in_run"  # options.extra: every name some file of the run #defines

_IDENTIFIER = lazy(rb"[A-Za-z_]\w*")
_NOT_EXPANDING = lazy(
    rb"#[ \t]*(?:define|undef|ifdef|ifndef)[ \t]+([A-Za-z_]\w*)|\bdefined[ \t]*\(?[ \t]*"
    rb"([A-Za-z_]\w*)")
_DEFINE = lazy(rb"(?m)^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)")
# findings that are the build's own stop or the tool's: never softened here
_KEPT = frozenset(("CP166", "CP173", "CP174"))


def expanded(src: bytes, names: Iterable[bytes]) -> set[bytes]:
    """Which of ``names`` ``src`` uses other than by defining, undefining or testing them
    (one pass over its identifiers; a use in another macro's body counts)."""
    wanted = frozenset(names)
    if not wanted:
        return set()
    counts = collections.Counter(n for n in _IDENTIFIER.findall(src) if n in wanted)
    if not counts:
        return set()
    for m in _NOT_EXPANDING.finditer(src):
        name = m.group(1) or m.group(2)
        if name in counts:
            counts[name] -= 1
    return {n for n, k in counts.items() if k > 0}


def unexpanded_macro_body(code: bytes):
    """A test of offsets of ``code``: inside the body of a macro the file itself never
    expands (its own uses, as :func:`expanded` counts them). Read on the first offset that
    stands on a directive line, so a file asking only about code reads nothing."""
    state: dict[str, object] = {}
    if b"define" not in code:  # (once: asked per name, a search of the file each time was
        return lambda offset: False  # quadratic, the linear-time test's USE_ROCM shape)

    def test(offset: int) -> bool:
        line = code.rfind(b"\n", 0, offset) + 1
        if not code[line:offset].lstrip(b" \t").startswith(b"#"):
            # (a continued #define line: its first line starts with '#')
            if line < 2 or code[line - 2:line - 1] != b"\\":
                return False
        macros = state.get("macros")
        if macros is None:
            from .resolve import Macros

            macros = state["macros"] = Macros(code)
            state["used"] = expanded(code, {m for _, _, m, _ in macros.spans})
        inside = macros.at(offset) if macros.spans else None
        return inside is not None and inside[0] not in state["used"]

    return test


def macros_with_cuda(src: bytes, compiled) -> set[bytes]:
    """The macros ``src`` defines whose bodies name a CUDA-spelled word (a rule-table name
    or a CUDA-looking unknown): the ones whose findings depend on being expanded."""
    if b"define" not in src:
        return set()
    from .resolve import Macros

    names, unknown = compiled.names, compiled.unknown.match
    found = set()
    for begin, end, name, _params in Macros(src).spans:
        if any(w in names or unknown(w) for w in _IDENTIFIER.findall(src, begin, end)):
            found.add(name)
    return found


def defined_names(src: bytes) -> set[bytes]:
    return set(_DEFINE.findall(src)) if b"define" in src else set()


def run_facts(sources: list[bytes], macros_with_cuda: set[bytes]) -> dict[str, tuple]:
    """The options.extra entries of a run: which of the macros whose bodies hold CUDA
    names some file expands, and every name some file #defines."""
    used: set[bytes] = set()
    defined: set[bytes] = set()
    for src in sources:
        defined |= defined_names(src)
        if macros_with_cuda:
            used |= expanded(src, macros_with_cuda - used)
    return {EXPANDED: tuple(sorted(n.decode() for n in used)),
            BODIES: tuple(sorted(n.decode() for n in macros_with_cuda)),
            DEFINED: tuple(sorted(n.decode() for n in defined))}


def soften(ctx) -> None:
    """Make the file's error findings that a build may never meet warnings, each saying
    why (see the module's docstring)."""
    errors = [f for f in ctx.findings if f.severity == "error" and f.offset >= 0
              and f.code not in _KEPT and not f.code.startswith("CP9")]
    if not errors:
        return
    extra = dict(ctx.options.extra)
    symbols = ctx.symbols
    macros = symbols.macros
    changed = {}
    checked = _encoded(extra.get(BODIES, ()))
    run_expanded = _encoded(extra.get(EXPANDED, ()))
    local: set[bytes] | None = None
    undecided = None
    for f in errors:
        inside = macros.at(f.offset) if macros.spans else None
        if inside is not None:
            name = inside[0]
            if name in checked:
                used = name in run_expanded
            else:
                if local is None:
                    local = expanded(ctx.code, {m for _, _, m, _ in macros.spans})
                used = name in local
            if not used:
                changed[id(f)] = (f"{f.message} (in the body of macro {name.decode()}, which "
                                  "nothing in this run expands: an error only where it is)")
                continue
        if undecided is None:
            undecided = _Undecided(ctx, _encoded(extra.get(DEFINED, ())))
        why = undecided.why(f.offset)
        if why:
            changed[id(f)] = f"{f.message} ({why})"
    if changed:
        ctx.findings = [f if id(f) not in changed else dataclasses.replace(
            f, severity="warning", message=changed[id(f)]) for f in ctx.findings]


@functools.lru_cache(maxsize=8)
def _encoded(names: tuple[str, ...]) -> frozenset[bytes]:
    """A run's names (options.extra) as bytes, read once per run: they are the run's, many
    in a large one, and each file read them again."""
    return frozenset(n.encode() for n in names)


_EXISTENCE = lazy(rb"\bdefined[ \t]*\(?[ \t]*([A-Za-z_]\w*)")


class _Undecided:
    """The branches a build for the target compiles only where a switch is set that
    nothing in the run defines (nor -D, nor the target): with every such switch tested for
    existence (``#ifdef X``, ``defined(X)``) read as undefined, the branch is not compiled.
    A name compared by value (``TORCH_VERSION_MAJOR < 2``) stays unknown: a header outside
    the run may define it."""

    def __init__(self, ctx, defined_in_run: frozenset[bytes]) -> None:
        from ..preprocessor import platform_branches as P

        self.ctx = ctx
        self.tree = ctx.branch_tree
        self.condition_at = P.condition_at
        facts = P.known(ctx)
        defined = defined_in_run | (frozenset(_DEFINE.findall(ctx.code))
                                    if b"define" in ctx.code else frozenset())
        switches = set()
        for b in self.tree.branches:
            for name in _EXISTENCE.findall(self._condition(b)):
                if name not in defined and facts.is_defined(name) is None:
                    switches.add(name)
        self.switches = frozenset(switches)
        if not switches:
            self.decided = self.default = []
            return
        self.decided = self.tree.decide(lambda b: conditions.evaluate(self._condition(b), facts))
        unset = dataclasses.replace(facts, undefined=facts.undefined | self.switches)
        self.default = self.tree.decide(lambda b: conditions.evaluate(self._condition(b), unset))

    def _condition(self, branch) -> bytes:
        cond = self.condition_at(self.ctx, *branch.cond)
        word = branch.word if branch.first else b"if"
        if word in (b"ifdef", b"ifndef"):
            cond = (b"" if word == b"ifdef" else b"!") + b"defined(" + cond.strip() + b")"
        return cond

    def why(self, offset: int) -> str:
        """Why the error at ``offset`` is met only where such a switch is set, or ""."""
        if not self.decided:
            return ""
        for i in self.tree.path(offset):
            if self.decided[i] is not None or self.default[i] is not False:
                continue
            b = self.tree.branches[i]
            group = self.tree.groups[b.group].branches
            names = sorted({n.decode() for j in group[:group.index(i) + 1]
                            for n in _EXISTENCE.findall(self._condition(self.tree.branches[j]))
                            if n in self.switches})
            first = self.tree.branches[group[0]]
            text = self.ctx.src[first.start:first.cond[1]].decode(errors="replace").strip()
            if not b.first:
                text += f"` ... `#{b.word.decode()}"
            shown = ", ".join(names)
            return (f"inside `{text}`: no file of the run nor -D defines {shown}, so only a "
                    "build that sets it meets this; give -D to check such a build")
        return ""
