"""Read one rule pack (``identifiers``, ``macros``, ``keep``, ``headers``, ``calls``,
``notes``, ``checks``) into a table's dictionaries, validating every value (errors name
file and line), and the checks a whole table must pass (no rename renamed again)."""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from ..findings import CODES
from . import schema as S
from .schema import yaml
from .model import Check, Entry, Fallback, HeaderEntry, Mapping, TargetInfo, version_tuple
from .target import decode as _decode
from ..source.lazy_re import lazy

_TEMPLATE_HEAD = lazy(r"\s*[A-Za-z_][\w:]*\s*(?:<[^;{}]*>\s*)?\(")


@dataclass(frozen=True)
class Call:
    """A ``calls:`` item, applied once its layer's identifiers are all known."""

    name: str
    template: str | None
    note: str | None
    at: S.Where
    library: str
    rule_id: str
    by_args: tuple = ()  # ((argument count, template), ...)
    variant: str | None = None  # the library variant the template is for (None: default)
    before: str | None = None  # the template applies only to target versions older than this


def apply_calls(identifiers: dict[str, Entry], calls: list[Call], create: bool) -> None:
    """Attach templates; in user files a call may also introduce a new name."""
    for call in calls:
        entry = identifiers.get(call.name)
        if call.variant is not None:
            if entry is None:
                raise call.at.error(f"calls: {call.name!r} is not an identifier of any rule pack")
            mapping = entry.variants.get(call.variant)
            if mapping is None or mapping.to is None:
                # No function of that name: the template is the translation, and its head
                # the name a use that is not a call gets (as for a user file's new name).
                mapping = Mapping(_template_head(call))
            variants = dict(entry.variants)
            variants[call.variant] = dataclasses.replace(
                mapping, template=call.template, by_args=call.by_args,
                note="; ".join(n for n in (mapping.note, call.note) if n) or None)
            identifiers[call.name] = _replace(entry, variants=variants)
            continue
        if entry is None:
            if not create:
                raise call.at.error(f"calls: {call.name!r} is not an identifier of any rule pack")
            entry = Entry(name=call.name, library=call.library, kind="function",
                          main=Mapping(_template_head(call)), rule_id=call.rule_id,
                          source=f"{call.at.path}:{call.at.line}")
        if call.before is not None:
            # A template only older target versions need (HIP 7 takes CUDA's parameter
            # types where HIP 6 needed a cast): an older generation of the main column.
            identifiers[call.name] = _replace(entry, main=_template_before(entry.main, call),
                                              note=call.note or entry.note)
            continue
        identifiers[call.name] = _replace(entry, template=call.template or entry.template,
                                          by_args=call.by_args, note=call.note or entry.note)


def _template_before(main: Mapping, call: Call) -> Mapping:
    """``main`` with ``call.template`` used below version ``call.before``: the older
    generations already listed below that version get it too (their own name stays)."""
    limit = version_tuple(call.before)
    generations = [(v, to, call.template if version_tuple(v) <= limit and template is None
                    else template) for v, to, template in main.before]
    if not any(version_tuple(v) == limit for v, _, _ in generations):
        generations.append((call.before, main.to, call.template))
    generations.sort(key=lambda g: version_tuple(g[0]))
    return dataclasses.replace(main, before=tuple(generations))


def _template_head(call: Call) -> str:
    """The function a call's template calls (``static_cast`` for ``static_cast<T>(...)``)."""
    head = _TEMPLATE_HEAD.match(call.template or call.by_args[0][1]).group().rstrip(" (")
    return re.sub(r"\s*<.*", "", head)


def _replace(entry: Entry, **changes: object) -> Entry:
    values = {f: getattr(entry, f) for f in Entry.__slots__}  # type: ignore[attr-defined]
    values.update(changes)
    return Entry(**values)


def _mapping_reader(info: TargetInfo, check_name) -> object:
    """Reader for a variant value: a name, null (no equivalent) or a mapping."""

    def read(path: str, node: yaml.Node, what: str) -> Mapping:
        if S.is_null(node):
            return Mapping(None)
        if isinstance(node, yaml.ScalarNode):
            return Mapping(check_name(path, node, what))
        d = S.fields(path, node, what, {
            "to": check_name, "to_since": S.version, "to_deprecated": S.version,
            "to_removed": S.version, "experimental": S.boolean, "note": S.text,
            "before": _before_reader(check_name),
        })
        return Mapping(d.get("to"), d.get("to_since"), d.get("to_deprecated"),
                       d.get("to_removed"), d.get("experimental", False), d.get("note"),
                       d.get("before", ()))

    return read


def _variants_reader(info: TargetInfo, library: str, check_name):
    group = next((g for g in info.variant_groups.values() if library in g.libraries), None)
    one = _mapping_reader(info, check_name)

    def read(path: str, node: yaml.Node, what: str) -> dict[str, Mapping]:
        out = {}
        for key, value, at in S.mapping(path, node, what):
            if group is None or key not in group.choices:
                allowed = ", ".join(group.choices) if group else "none for this library"
                raise at.error(f"{what}: unknown variant {key!r} (allowed: {allowed})")
            out[key] = one(path, value, f"{what}.{key}")
        return out

    return read


def _code(path: str, node: yaml.Node, what: str) -> str:
    """The code an unsupported entry is reported under: a registered CP1xx code, so a
    family of names (libcu++, WMMA, CUTLASS) says what it is and what to use instead."""
    code = S.text(path, node, what)
    if not (code.startswith("CP1") and code in CODES):
        raise S.where(path, node).error(f"{what}: {code!r} is not a registered CP1xx code")
    return code


def read_pack(path: Path, data: bytes, info: TargetInfo, identifiers: dict[str, Entry],
               headers: dict[str, HeaderEntry], calls: list[Call], user: bool = False,
               notes: list[Note] | None = None, arguments: dict | None = None) -> None:
    """Read one rule pack into the tables.

    ``user`` packs (``--rules``) may redefine names of earlier layers (override) and need
    no ``library`` key; within one file a name is still defined only once.
    """
    p = str(path)
    node = S.compose(path, _decode(path, data))
    if node is None:
        return
    top = dict((k, (v, at)) for k, v, at in S.mapping(p, node, "rule pack"))
    allowed = {"library", "title", "source", "generated", "identifiers", "headers", "calls",
               "present_in_cuda", "notes", "rewrites", "macros", "keep", "checks", "variant",
               "arguments"}
    for key, (_, at) in top.items():
        if key not in allowed:
            raise at.error(f"rule pack: unknown key {key!r} (allowed: {', '.join(sorted(allowed))})")
    if "library" not in top and not user:
        raise S.where(p, node).error("rule pack: missing required key 'library'")
    library = S.identifier(p, top["library"][0], "library") if "library" in top else None
    # The CUDA version whose headers the pack's names were enumerated from (first version
    # unknown): shown by `rules explain` and in findings instead of "CUDA X+".
    present = S.version(p, top["present_in_cuda"][0], "present_in_cuda") \
        if "present_in_cuda" in top else None
    stem = path.stem
    prefix = "user" if user else info.name
    if user and path.parent.parent.name == "frameworks":  # rules/<target>/frameworks/<fw>/
        prefix = f"{info.name}/{path.parent.name}"
    here: dict[str, int] = {}  # names defined in this file -> line

    def define(name: str, at: S.Where, section: str) -> Entry | None:
        """Check that ``name`` may be defined here; return the entry it replaces."""
        if not S.QUALIFIED.match(name):
            raise at.error(f"{section}: {name!r} is not a C/C++ identifier")
        if name in here:
            raise at.error(f"{section}: {name!r} is already defined in this file "
                           f"(line {here[name]})")
        here[name] = at.line
        old = identifiers.get(name)
        if old is not None and not user:
            raise at.error(f"identifier {name!r} is already defined at {old.source}")
        return old

    def lib_for(old: Entry | None, explicit: str | None = None) -> str:
        return explicit or library or (old.library if old else "user")

    def add(name: str, at: S.Where, old: Entry | None, d: dict, kind: str) -> None:
        identifiers[name] = Entry(
            name=name, library=lib_for(old, d.get("library")), kind=d.get("kind", kind),
            main=Mapping(d.get("to"), d.get("to_since"), d.get("to_deprecated"),
                         d.get("to_removed"), d.get("experimental", False),
                         before=d.get("before", ())),
            variants=d.get("variants", {}),
            cuda_since=d.get("cuda_since"), cuda_deprecated=d.get("cuda_deprecated"),
            cuda_changed=d.get("cuda_changed"), cuda_removed=d.get("cuda_removed"),
            cuda_present=present, status=d.get("status"), note=d.get("note"),
            template=d.get("template"), fallback=d.get("fallback"),
            rule_id=f"{prefix}/{stem}:{name}", source=f"{p}:{at.line}", code=d.get("code"),
            lane_mask=d.get("lane_mask"), needs_macro=d.get("needs_macro"),
            runtime_value_since=d.get("runtime_value_since"), inside=d.get("inside"),
            caveat=d.get("caveat"),
        )

    if "identifiers" in top:
        variant = _variants_reader(info, library or "user", S.target_name)
        spec = {
            "kind": lambda a, b, c: S.choice(a, b, c, S.KINDS),
            "to": _target_or_empty, "to_since": S.version, "to_deprecated": S.version,
            "to_removed": S.version, "experimental": S.boolean,
            "cuda_since": S.version, "cuda_deprecated": S.version,
            "cuda_changed": S.version, "cuda_removed": S.version,
            "status": lambda a, b, c: S.choice(a, b, c, S.STATUSES),
            "note": S.text, "template": _template, "variants": variant,
            "library": S.identifier, "fallback": _fallback, "code": _code,
            "before": _before_reader(S.target_name), "lane_mask": _argument_number,
            "needs_macro": _needs_macro, "runtime_value_since": S.version,
            "inside": S.identifier, "caveat": S.text,
        }
        for name, value, at in S.mapping(p, top["identifiers"][0], "identifiers"):
            old = define(name, at, "identifiers")
            if S.is_null(value):
                d: dict = {}
            elif isinstance(value, yaml.ScalarNode):
                d = {"to": S.target_name(p, value, f"identifiers.{name}")}
            else:
                d = S.fields(p, value, f"identifiers.{name}", spec)
                if d.get("to") == "" and d.get("kind") != "macro":
                    raise at.error(f"identifiers.{name}: to: \"\" (removal) is for macros only")
            add(name, at, old, d, "name")
    if "macros" in top:
        # Sugar for identifiers of kind macro: `CUDA_CHECK: MUSA_CHECK` (null: no equivalent).
        for name, value, at in S.mapping(p, top["macros"][0], "macros"):
            old = define(name, at, "macros")
            d = {} if S.is_null(value) else {"to": S.identifier(p, value, f"macros.{name}")}
            add(name, at, old, d, "macro")
    if "keep" in top:
        # Names never touched: not renamed, not reported (even if a built-in rule knows them).
        keep_node = top["keep"][0]
        items = keep_node.value if isinstance(keep_node, yaml.SequenceNode) else [keep_node]
        for item_node in items:
            item = S.identifier(p, item_node, "keep")
            at = S.where(p, item_node)
            old = define(item, at, "keep")
            add(item, at, old, {"to": item}, old.kind if old else "name")
    if "headers" in top:
        variant = _variants_reader(info, library or "user", S.header)
        spec = {"to": _header_or_empty, "main": S.boolean, "note": S.text,
                "variants": variant, "library": S.identifier, "status": S.text,
                "to_since": S.version, "fallback": S.header, "code": _code,
                "before": _before_reader(S.header), "inline": _inline_file(p)}
        seen_headers: set[str] = set()
        for name, value, at in S.mapping(p, top["headers"][0], "headers"):
            if not S.HEADER.match(name):
                raise at.error(f"headers: {name!r} is not a header path")
            old_h = headers.get(name)
            if old_h is not None and (not user or name in seen_headers):
                raise at.error(f"header {name!r} is already defined at {old_h.source}")
            seen_headers.add(name)
            if S.is_null(value):
                d = {}
            elif isinstance(value, yaml.ScalarNode):
                d = {"to": _header_or_empty(p, value, f"headers.{name}")}
            else:
                d = S.fields(p, value, f"headers.{name}", spec)
            headers[name] = HeaderEntry(
                name=name,
                library=d.get("library") or library or (old_h.library if old_h else "user"),
                main=Mapping(d.get("to"), d.get("to_since"), before=d.get("before", ())),
                variants=d.get("variants", {}),
                is_main=d.get("main", old_h.is_main if old_h else False),
                note=d.get("note"), rule_id=f"{prefix}/{stem}:{name}", source=f"{p}:{at.line}",
                fallback=d.get("fallback"), code=d.get("code"), inline=d.get("inline"),
            )
    # ``variant: NAME``: the pack's calls are templates for that library variant
    # (``--blas rocblas``), applied only when it is chosen.
    call_variant = S.identifier(p, top["variant"][0], "variant") if "variant" in top else None
    if call_variant is not None:
        group = next((g for g in info.variant_groups.values() if library in g.libraries), None)
        if group is None or call_variant not in group.choices or call_variant == group.default:
            allowed = ", ".join(c for c in group.choices if c != group.default) if group \
                else "none for this library"
            raise top["variant"][1].error(f"variant: {call_variant!r} is not a non-default "
                                          f"variant of {library} (allowed: {allowed})")
    if "arguments" in top:
        # ``arguments: {CUDA name: target name}``: in the arguments of a call of this
        # library, with this variant chosen, the name is spelled so (rocSPARSE's
        # rocsparse_datatype_f32_r where a cuSPARSE call passes CUDA_R_32F).
        if call_variant is None or user or arguments is None:
            raise top["arguments"][1].error("arguments: only in a built-in pack with 'variant:'")
        names = arguments.setdefault((library, call_variant), {})
        for name, value, at in S.mapping(p, top["arguments"][0], "arguments"):
            if name in names:
                raise at.error(f"arguments: {name!r} is already given at {names[name][2]}")
            names[name] = (S.target_name(p, value, f"arguments.{name}"), f"{prefix}/{stem}:{name}",
                           f"{p}:{at.line}")
    if "calls" in top:
        for name, value, at in S.mapping(p, top["calls"][0], "calls"):
            d = S.fields(p, value, f"calls.{name}",
                         {"template": _template, "by_args": _by_args, "note": S.text,
                          "before": S.version})
            if not S.QUALIFIED.match(name):
                raise at.error(f"calls: {name!r} is not a C/C++ identifier")
            if "template" not in d and "by_args" not in d:
                raise at.error(f"calls.{name}: needs 'template' or 'by_args'")
            if "before" in d and ("template" not in d or "by_args" in d or call_variant):
                raise at.error(f"calls.{name}: 'before' goes with a 'template' of the "
                               "default variant only")
            calls.append(Call(name, d.get("template"), d.get("note"), at, library or "user",
                               f"{prefix}/{stem}:{name}", d.get("by_args", ()), call_variant,
                               d.get("before")))
    generated = "generated" in top and S.boolean(p, top["generated"][0], "generated")
    for section in ("notes", "rewrites"):
        if section not in top or notes is None or S.is_null(top[section][0]):
            continue
        for name, value, at in S.mapping(p, top[section][0], section):
            for choice, text, where_ in S.mapping(p, value, f"{section}.{name}"):
                # (a generated note is a signature difference: the call must be rewritten)
                notes.append(Note(name, choice, S.text(p, text, f"{section}.{name}.{choice}"),
                                  where_, generated, generated or section == "rewrites"))
    if "checks" in top:
        for name, value, at in S.mapping(p, top["checks"][0], "checks"):
            check = _check(p, value, f"checks.{name}")
            if not S.QUALIFIED.match(name):
                raise at.error(f"checks: {name!r} is not a C/C++ identifier")
            old = identifiers.get(name)
            if old is None:  # a name no rule knows: report it, leave it as written
                add(name, at, None, {"to": name}, "name")
                old = identifiers[name]
            identifiers[name] = _replace(old, check=check)


def check_arguments(arguments: dict, identifiers: dict[str, Entry]) -> dict:
    """The ``arguments:`` maps as the table keeps them: (library, variant) -> {name:
    (target name, rule id)}; each name must be an identifier of some pack."""
    out = {}
    for key, names in arguments.items():
        for name, (_to, _rule, where) in names.items():
            if name not in identifiers:
                path, _, line = where.rpartition(":")
                raise S.RuleError(Path(path), int(line),
                                  f"arguments: {name!r} is not an identifier of any rule pack")
        out[key] = {name: (to, rule) for name, (to, rule, _w) in names.items()}
    return out


class Note(NamedTuple):
    name: str
    choice: str  # the target column: a variant, the group's default or "main"
    text: str
    at: S.Where
    generated: bool  # from a generated pack: a signature difference, not advice
    # The translated call does not do what the CUDA one did until rewritten by hand (other
    # arguments): a ``rewrites:`` entry or a generated note, reported as an error (CP120).
    rewrite: bool = False


def apply_notes(identifiers: dict[str, Entry], info: TargetInfo, notes: list[Note]) -> None:
    """``notes: {name: {column: text}}`` attaches a note to one target column of an
    identifier defined in any pack: a variant choice (``rocblas``), the library group's
    default (``miopen``), or ``main`` for libraries without variants.

    A generated note states how two parameter lists differ; where the column has an
    argument template, the template rewrites the call and the note would be stale, so it
    is dropped (the template's own note says what the rewrite changes)."""
    for name, choice, text, at, generated, rewrite in notes:
        entry = identifiers.get(name)
        if entry is None:
            raise at.error(f"notes: {name!r} is not an identifier of any rule pack")
        group = next((g for g in info.variant_groups.values() if entry.library in g.libraries),
                     None)
        allowed = set(group.choices) if group else {"main"}
        if choice not in allowed:
            raise at.error(f"notes.{name}: unknown column {choice!r} "
                           f"(allowed: {', '.join(sorted(allowed))})")
        if choice == "main" or (group and choice == group.default):
            mapping = entry.main
            if generated and (entry.template or entry.by_args):
                continue
            if mapping.to is None:  # no equivalent: the note says what to use instead
                identifiers[name] = _replace(entry, note=text)  # (shown with CP101)
                continue
            identifiers[name] = _replace(entry, main=dataclasses.replace(mapping, note=text,
                                                                         rewrite=rewrite))
        else:
            mapping = entry.variants.get(choice)
            if mapping is None or mapping.to is None:
                raise at.error(f"notes.{name}.{choice}: {name} has no {choice} equivalent "
                               "to annotate")
            if generated and (mapping.template or mapping.by_args):
                continue
            variants = dict(entry.variants)
            variants[choice] = dataclasses.replace(mapping, note=text, rewrite=rewrite)
            identifiers[name] = _replace(entry, variants=variants)


# User check codes: a letter, then letters, digits, '_', '-' or '.'; never cudaport's "CP".
_CHECK_CODE = lazy(r"[A-Za-z][A-Za-z0-9_.-]*\Z")


def _check(path: str, node: yaml.Node, what: str) -> Check:
    d = S.fields(path, node, what, {
        "code": S.text, "severity": lambda a, b, c: S.choice(a, b, c, S.SEVERITIES),
        "message": S.text,
    }, required=("code", "message"))
    at = S.where(path, node)
    code = d["code"]
    if not _CHECK_CODE.match(code):
        raise at.error(f"{what}.code: {code!r} must start with a letter and contain only "
                       "letters, digits, '_', '-' and '.'")
    if code[:2].upper() == "CP":
        raise at.error(f"{what}.code: {code!r}: codes starting with 'CP' are reserved for "
                       "cudaport's own findings; use your own prefix (e.g. ACME001)")
    return Check(code, d.get("severity", "warning"), d["message"], f"{path}:{at.line}")


def _fallback(path: str, node: yaml.Node, what: str) -> Fallback:
    """``fallback: {to | template, note}``: used when the target name is unavailable."""
    d = S.fields(path, node, what, {"to": S.target_name, "template": _template, "note": S.text})
    if "to" not in d and "template" not in d:
        raise S.where(path, node).error(f"{what}: needs 'to' or 'template'")
    return Fallback(d.get("to"), d.get("template"), d.get("note"))


def _before_reader(check_name):
    """``before: {VERSION: NAME | null | {to: NAME, template: T}}``: older generations of
    the target name. Below VERSION the name is NAME (null: no equivalent); the smallest
    VERSION above the selected target version wins. Returned in ascending version order."""

    def read(path: str, node: yaml.Node, what: str) -> tuple:
        out = []
        for key, value, at in S.mapping(path, node, what):
            if not S.VERSION.match(key):
                raise at.error(f"{what}: {key!r} is not a version like 7.0.0")
            if S.is_null(value):
                out.append((key, None, None))
            elif isinstance(value, yaml.ScalarNode):
                out.append((key, check_name(path, value, f"{what}.{key}"), None))
            else:
                d = S.fields(path, value, f"{what}.{key}",
                             {"to": check_name, "template": _template}, required=("to",))
                out.append((key, d["to"], d.get("template")))
        out.sort(key=lambda item: version_tuple(item[0]))
        return tuple(out)

    return read


def _argument_number(path: str, node: yaml.Node, what: str) -> int:
    value = S.scalar(path, node, what)
    if not value.isdigit() or int(value) < 1:
        raise S.where(path, node).error(f"{what}: expected an argument number (1, 2, ...)")
    return int(value)


def _needs_macro(path: str, node: yaml.Node, what: str) -> tuple:
    """``needs_macro: {name: MACRO, since: "6.2.0", before: "7.0.0"}``: the target header
    declares the name only when MACRO is defined, in versions since..before."""
    d = S.fields(path, node, what, {"name": S.identifier, "since": S.version,
                                     "before": S.version}, required=("name",))
    return (d["name"], d.get("since"), d.get("before"))


def _target_or_empty(path: str, node: yaml.Node, what: str) -> str:
    """A target name, or ``""``: the name is removed (a macro the target does without,
    such as the CUDART_CB calling convention)."""
    if isinstance(node, yaml.ScalarNode) and node.value == "":
        return ""
    return S.target_name(path, node, what)


def _inline_file(pack: str):
    """``inline: FILE``: the bytes of FILE, a path relative to the rule pack's folder."""
    def read(path: str, node: yaml.Node, what: str) -> bytes:
        name = S.text(path, node, what)
        file = Path(pack).parent / name
        if Path(name).is_absolute() or ".." in Path(name).parts or not file.is_file():
            raise S.where(path, node).error(f"{what}: no file {name!r} next to the rule pack")
        return file.read_bytes()
    return read


def _header_or_empty(path: str, node: yaml.Node, what: str) -> str:
    value = S.scalar(path, node, what)
    if value == "":
        return ""
    return S.header(path, node, what)


def _by_args(path: str, node: yaml.Node, what: str) -> tuple:
    """``by_args: {COUNT: TEMPLATE}``: the template for calls with exactly COUNT arguments."""
    out = []
    for key, value, at in S.mapping(path, node, what):
        if not re.fullmatch(r"\d+", key):
            raise at.error(f"{what}: {key!r} is not an argument count")
        template = _template(path, value, f"{what}.{key}")
        highest = max((int(n) for n in re.findall(r"\$(\d+)", template)), default=0)
        if highest > int(key):
            raise at.error(f"{what}.{key}: template {template!r} uses ${highest} "
                           f"but the call has {key} arguments")
        out.append((int(key), template))
    if not out:
        raise S.where(path, node).error(f"{what}: needs at least one argument count")
    return tuple(out)


def _template(path: str, node: yaml.Node, what: str) -> str:
    """An argument template: ``name(...)`` with ``$1``.. ``$N`` and ``$*`` placeholders."""
    value = S.scalar(path, node, what)
    at = S.where(path, node)
    if not _TEMPLATE_HEAD.match(value) or not value.rstrip().endswith(")"):
        raise at.error(f"{what}: template {value!r} must look like name(arguments)")
    depth = 0
    for ch in value:
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            break
    if depth != 0:
        raise at.error(f"{what}: template {value!r} has unbalanced parentheses")
    for m in re.finditer(r"\$(\S?)", value):
        if not re.match(r"\d|\*", m.group(1)):
            raise at.error(f"{what}: template {value!r}: '$' must be followed by a number or '*'")
        if m.group(1) == "0":
            raise at.error(f"{what}: template {value!r}: arguments are numbered from $1")
    return value


def check_idempotent(identifiers: dict[str, Entry], info: TargetInfo) -> None:
    """A rename whose result is itself renamed would make translation not idempotent."""
    for entry in identifiers.values():
        for mapping in (entry.main, *entry.variants.values()):
            target = mapping.to
            if not target or target == entry.name:
                continue
            other = identifiers.get(target)
            if other is None:
                continue
            chained = {m.to for m in (other.main, *other.variants.values())} - {None, target}
            if chained:
                raise S.RuleError(entry.source.rsplit(":", 1)[0], int(entry.source.rsplit(":", 1)[1]),
                                  f"{entry.name} -> {target}, but {target} is renamed again "
                                  f"(to {sorted(chained)[0]}, {other.source}): "
                                  "translation would not be idempotent")
