"""Load a target's rule folder into a :class:`Table`, validated and cached.

A target is a folder ``<rules root>/<name>/`` holding ``target.yaml`` and rule packs
(``*.yaml``). Loading validates every file (errors name file and line) and stores the
compiled table in a pickle keyed by the content hash of all files, so a fresh process
pays for YAML parsing only when a rule file changed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import pickle
import re
import tempfile
from pathlib import Path

import yaml

from .. import __version__
from . import schema as S
from .model import Entry, Fallback, HeaderEntry, Mapping, Table, TargetInfo, VariantGroup

SCHEMA_VERSION = 3
_TEMPLATE_HEAD = re.compile(r"\s*[A-Za-z_][\w:]*\s*(?:<[^;{}]*>\s*)?\(")
_PLACEHOLDER = re.compile(r"\$(\d+|\*)")


def default_rules_root() -> Path:
    """The rule folder shipped with cudaport (``rules/`` in a checkout)."""
    env = os.environ.get("CUDAPORT_RULES_DIR")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent.parent
    for candidate in (here.parent / "rules", here / "_rules"):
        if (candidate / "hip" / "target.yaml").is_file():
            return candidate
    raise FileNotFoundError("cudaport's rule folder was not found (set CUDAPORT_RULES_DIR)")


def target_names(roots: list[Path]) -> dict[str, Path]:
    """Map every target name and alias to its folder; later roots override earlier ones."""
    found: dict[str, Path] = {}
    for root in roots:
        if not root.is_dir():
            continue
        for target_yaml in sorted(root.glob("*/target.yaml")):
            folder = target_yaml.parent
            found[folder.name] = folder
            node = S.compose(target_yaml)
            if node is None:
                continue
            for key, value, _ in S.mapping(str(target_yaml), node, "target"):
                if key == "aliases":
                    for alias in S.string_list(str(target_yaml), value, "target.aliases"):
                        found.setdefault(alias, folder)
    return found


def resolve_target_dir(name: str, roots: list[Path]) -> Path:
    names = target_names(roots)
    if name not in names:
        known = ", ".join(sorted(names)) or "none"
        raise S.RuleError(roots[0] if roots else "rules", 0,
                          f"unknown target {name!r} (known: {known})")
    return names[name]


def load_table(target: str = "hip", rules_roots: list[Path] | None = None,
               extra_files: list[Path] | None = None, use_cache: bool = True) -> Table:
    """Load (or fetch from cache) the table of ``target``."""
    roots = rules_roots or [default_rules_root()]
    folder = resolve_target_dir(target, roots)
    files = [folder / "target.yaml"] + sorted(
        p for p in folder.glob("*.yaml") if p.name != "target.yaml"
    ) + list(extra_files or [])
    contents = []
    for path in files:
        try:
            contents.append(path.read_bytes())
        except OSError as exc:
            raise S.RuleError(path, 0, f"cannot read rule file: {exc.strerror or exc}") from None
    hasher = hashlib.sha256(f"{SCHEMA_VERSION}:{__version__}".encode())
    for path, data in zip(files, contents):
        hasher.update(str(path).encode() + b"\0" + data + b"\0")
    digest = hasher.hexdigest()
    cache_file = _cache_dir() / f"table-{digest[:32]}.pickle" if use_cache else None
    if cache_file is not None:
        try:
            with open(cache_file, "rb") as fh:
                table = pickle.load(fh)
            if isinstance(table, Table) and table.digest == digest:
                return table
        except Exception:  # a missing or corrupt cache is simply rebuilt
            pass
    table = build_table(files, contents, digest)
    if cache_file is not None:
        _write_cache(cache_file, table)
    return table


def _cache_dir() -> Path:
    base = os.environ.get("CUDAPORT_CACHE_DIR") or os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base else Path.home() / ".cache"
    return (root if os.environ.get("CUDAPORT_CACHE_DIR") else root / "cudaport")


def _write_cache(cache_file: Path, table: Table) -> None:
    try:
        cache_file.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=cache_file.parent, prefix=".table-")
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(table, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, cache_file)
    except OSError:  # a read-only home must not stop translation
        pass


def build_table(files: list[Path], contents: list[bytes], digest: str) -> Table:
    """Validate and compile rule files; the first is the target description."""
    info = _read_target(files[0], contents[0])
    identifiers: dict[str, Entry] = {}
    headers: dict[str, HeaderEntry] = {}
    calls: list[tuple[str, str, str | None, S.Where]] = []
    notes: list[tuple[str, str, str, S.Where]] = []
    for path, data in zip(files[1:], contents[1:]):
        _read_pack(path, data, info, identifiers, headers, calls, notes)
    for name, template, note, at in calls:
        entry = identifiers.get(name)
        if entry is None:
            raise at.error(f"calls: {name!r} is not an identifier of any rule pack")
        identifiers[name] = _replace(entry, template=template, note=note or entry.note)
    _apply_notes(identifiers, info, notes)
    _check_idempotent(identifiers, info)
    return Table(info, identifiers, headers, tuple(str(p) for p in files), digest)


def _replace(entry: Entry, **changes: object) -> Entry:
    values = {f: getattr(entry, f) for f in Entry.__slots__}  # type: ignore[attr-defined]
    values.update(changes)
    return Entry(**values)


def _decode(path: Path, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise S.RuleError(path, line, "rule files must be UTF-8") from None


def _read_target(path: Path, data: bytes) -> TargetInfo:
    p = str(path)
    node = S.compose(path, _decode(path, data))
    if node is None:
        raise S.RuleError(p, 1, "target.yaml is empty")

    def variants(pth: str, n: yaml.Node, what: str) -> dict[str, VariantGroup]:
        groups = {}
        for gname, gnode, at in S.mapping(pth, n, what):
            g = S.fields(pth, gnode, f"{what}.{gname}", {
                "libraries": lambda a, b, c: S.string_list(a, b, c),
                "default": S.text,
                "choices": lambda a, b, c: S.string_list(a, b, c),
            }, required=("libraries", "default", "choices"))
            if g["default"] not in g["choices"]:
                raise at.error(f"{what}.{gname}: default {g['default']!r} is not among the choices")
            groups[gname] = VariantGroup(gname, tuple(g["libraries"]), g["default"],
                                         tuple(g["choices"]))
        return groups

    def launch(pth: str, n: yaml.Node, what: str) -> dict[str, str]:
        return S.fields(pth, n, what, {"function": S.identifier, "template_wrapper": S.identifier})

    def extensions(pth: str, n: yaml.Node, what: str) -> dict[str, str]:
        return {k: S.scalar(pth, v, f"{what}.{k}") for k, v, _ in S.mapping(pth, n, what)}

    def patterns(pth: str, n: yaml.Node, what: str) -> list[str]:
        out = S.string_list(pth, n, what)
        for item in out:
            try:
                re.compile(item)
            except re.error as exc:
                raise S.where(pth, n).error(f"{what}: bad regular expression {item!r}: {exc}")
        return out

    def integer(pth: str, n: yaml.Node, what: str) -> int:
        value = S.scalar(pth, n, what)
        if not value.isdigit():
            raise S.where(pth, n).error(f"{what} must be a whole number")
        return int(value)

    def anything(pth: str, n: yaml.Node, what: str) -> object:
        return yaml.load(yaml.serialize(n), Loader=S._Loader)

    spec = {
        "name": S.identifier, "title": S.text, "description": S.text,
        "aliases": lambda a, b, c: S.string_list(a, b, c), "version": S.version,
        "warp_size": integer, "main_header": S.header, "launch": launch,
        "extensions": extensions, "variants": variants, "unknown_patterns": patterns,
        "source": S.text, "compiler": anything, "header_extensions": anything,
    }
    d = S.fields(p, node, "target", spec, required=("name", "main_header"))
    if d["name"] != path.parent.name:
        raise S.where(p, node).error(
            f"target name {d['name']!r} differs from its folder {path.parent.name!r}")
    launch_d = d.get("launch", {})
    return TargetInfo(
        name=d["name"], title=d.get("title", d["name"]), aliases=tuple(d.get("aliases", ())),
        version=d.get("version"), warp_size=d.get("warp_size", 32),
        main_header=d["main_header"], launch_function=launch_d.get("function"),
        launch_template_wrapper=launch_d.get("template_wrapper"),
        extensions=d.get("extensions", {}), variant_groups=d.get("variants", {}),
        unknown_patterns=tuple(d.get("unknown_patterns", ())),
        extra={k: d[k] for k in ("compiler", "header_extensions", "description", "source")
               if k in d},
    )


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
        })
        return Mapping(d.get("to"), d.get("to_since"), d.get("to_deprecated"),
                       d.get("to_removed"), d.get("experimental", False), d.get("note"))

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


def _read_pack(path: Path, data: bytes, info: TargetInfo, identifiers: dict[str, Entry],
               headers: dict[str, HeaderEntry],
               calls: list[tuple[str, str, str | None, S.Where]],
               notes: list[tuple[str, str, str, S.Where]] | None = None) -> None:
    p = str(path)
    node = S.compose(path, _decode(path, data))
    if node is None:
        return
    top = dict((k, (v, at)) for k, v, at in S.mapping(p, node, "rule pack"))
    allowed = {"library", "title", "source", "generated", "identifiers", "headers", "calls",
               "present_in_cuda", "notes"}
    for key, (_, at) in top.items():
        if key not in allowed:
            raise at.error(f"rule pack: unknown key {key!r} (allowed: {', '.join(sorted(allowed))})")
    if "library" not in top:
        raise S.where(p, node).error("rule pack: missing required key 'library'")
    library = S.identifier(p, top["library"][0], "library")
    # The CUDA version whose headers the pack's names were enumerated from (first version
    # unknown): shown by `rules explain` and in findings instead of "CUDA X+".
    present = S.version(p, top["present_in_cuda"][0], "present_in_cuda") \
        if "present_in_cuda" in top else None
    stem = path.stem
    if "identifiers" in top:
        variant = _variants_reader(info, library, S.target_name)
        spec = {
            "kind": lambda a, b, c: S.choice(a, b, c, S.KINDS),
            "to": S.target_name, "to_since": S.version, "to_deprecated": S.version,
            "to_removed": S.version, "experimental": S.boolean,
            "cuda_since": S.version, "cuda_deprecated": S.version,
            "cuda_changed": S.version, "cuda_removed": S.version,
            "status": lambda a, b, c: S.choice(a, b, c, S.STATUSES),
            "note": S.text, "template": _template, "variants": variant,
            "library": S.identifier, "fallback": _fallback,
        }
        for name, value, at in S.mapping(p, top["identifiers"][0], "identifiers"):
            if not S.QUALIFIED.match(name):
                raise at.error(f"identifiers: {name!r} is not a C/C++ identifier")
            if name in identifiers:
                raise at.error(f"identifier {name!r} is already defined at {identifiers[name].source}")
            if S.is_null(value):
                d: dict = {}
            elif isinstance(value, yaml.ScalarNode):
                d = {"to": S.target_name(p, value, f"identifiers.{name}")}
            else:
                d = S.fields(p, value, f"identifiers.{name}", spec)
            lib = d.get("library", library)
            identifiers[name] = Entry(
                name=name, library=lib, kind=d.get("kind", "name"),
                main=Mapping(d.get("to"), d.get("to_since"), d.get("to_deprecated"),
                             d.get("to_removed"), d.get("experimental", False)),
                variants=d.get("variants", {}),
                cuda_since=d.get("cuda_since"), cuda_deprecated=d.get("cuda_deprecated"),
                cuda_changed=d.get("cuda_changed"), cuda_removed=d.get("cuda_removed"),
                cuda_present=present, status=d.get("status"), note=d.get("note"),
                template=d.get("template"), fallback=d.get("fallback"),
                rule_id=f"{info.name}/{stem}:{name}", source=f"{p}:{at.line}",
            )
    if "headers" in top:
        variant = _variants_reader(info, library, S.header)
        spec = {"to": _header_or_empty, "main": S.boolean, "note": S.text,
                "variants": variant, "library": S.identifier, "status": S.text}
        for name, value, at in S.mapping(p, top["headers"][0], "headers"):
            if not S.HEADER.match(name):
                raise at.error(f"headers: {name!r} is not a header path")
            if name in headers:
                raise at.error(f"header {name!r} is already defined at {headers[name].source}")
            if S.is_null(value):
                d = {}
            elif isinstance(value, yaml.ScalarNode):
                d = {"to": _header_or_empty(p, value, f"headers.{name}")}
            else:
                d = S.fields(p, value, f"headers.{name}", spec)
            headers[name] = HeaderEntry(
                name=name, library=d.get("library", library), main=Mapping(d.get("to")),
                variants=d.get("variants", {}), is_main=d.get("main", False),
                note=d.get("note"), rule_id=f"{info.name}/{stem}:{name}", source=f"{p}:{at.line}",
            )
    if "calls" in top:
        for name, value, at in S.mapping(p, top["calls"][0], "calls"):
            d = S.fields(p, value, f"calls.{name}", {"template": _template, "note": S.text},
                         required=("template",))
            calls.append((name, d["template"], d.get("note"), at))
    if "notes" in top and notes is not None and not S.is_null(top["notes"][0]):
        for name, value, at in S.mapping(p, top["notes"][0], "notes"):
            for choice, text, where_ in S.mapping(p, value, f"notes.{name}"):
                notes.append((name, choice, S.text(p, text, f"notes.{name}.{choice}"), where_))


def _apply_notes(identifiers: dict[str, Entry], info: TargetInfo,
                 notes: list[tuple[str, str, str, S.Where]]) -> None:
    """``notes: {name: {column: text}}`` attaches a note to one target column of an
    identifier defined in any pack: a variant choice (``rocblas``), the library group's
    default (``miopen``), or ``main`` for libraries without variants."""
    for name, choice, text, at in notes:
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
            if mapping.to is None:
                raise at.error(f"notes.{name}.{choice}: {name} has no equivalent to annotate")
            identifiers[name] = _replace(entry, main=dataclasses.replace(mapping, note=text))
        else:
            mapping = entry.variants.get(choice)
            if mapping is None or mapping.to is None:
                raise at.error(f"notes.{name}.{choice}: {name} has no {choice} equivalent "
                               "to annotate")
            variants = dict(entry.variants)
            variants[choice] = dataclasses.replace(mapping, note=text)
            identifiers[name] = _replace(entry, variants=variants)


def _fallback(path: str, node: yaml.Node, what: str) -> Fallback:
    """``fallback: {to | template, note}``: used when the target name is unavailable."""
    d = S.fields(path, node, what, {"to": S.target_name, "template": _template, "note": S.text})
    if "to" not in d and "template" not in d:
        raise S.where(path, node).error(f"{what}: needs 'to' or 'template'")
    return Fallback(d.get("to"), d.get("template"), d.get("note"))


def _header_or_empty(path: str, node: yaml.Node, what: str) -> str:
    value = S.scalar(path, node, what)
    if value == "":
        return ""
    return S.header(path, node, what)


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


def _check_idempotent(identifiers: dict[str, Entry], info: TargetInfo) -> None:
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
