"""Load a target's rule folder into a :class:`Table`, validated and cached.

A target is a folder ``<rules root>/<name>/`` holding ``target.yaml`` and rule packs
(``*.yaml``). Loading validates every file (errors name file and line) and stores the
compiled table in a pickle keyed by the content hash of all files, so a fresh process
pays for YAML parsing only when a rule file changed.
"""

from __future__ import annotations

import contextlib
import dataclasses
import gc
import hashlib
import os
import pickle
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import yaml

from .. import __version__
from . import schema as S
from .model import Check, Entry, Fallback, HeaderEntry, Mapping, Table, TargetInfo, VariantGroup

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
    """Load (or fetch from cache) the table of ``target``, with user rule files on top.

    The built-in table is cached by content hash; user files (small, often edited) are
    layered over a copy of it on every load, so editing them never rebuilds the target.
    """
    builtin, contents, digest = _builtin_sources(target, rules_roots)
    user = list(extra_files or [])
    table = _LOADED.get(digest) if use_cache else None
    if table is None:
        table = _cached(digest) if use_cache else None
        if table is None:
            with gc_paused():
                table = build_table(builtin, contents, digest)
            if use_cache:
                write_cache(f"table-{digest[:32]}", table)
        if use_cache:
            _LOADED[digest] = table
    if user:
        table = layer_user_files(table, user, [_read(path) for path in user])
    return table


def _builtin_sources(target: str, rules_roots: list[Path] | None
                     ) -> tuple[list[Path], list[bytes], str]:
    """The target's own rule files, their bytes and content hash."""
    roots = rules_roots or [default_rules_root()]
    folder = resolve_target_dir(target, roots)
    packs = sorted(p for p in folder.glob("*.yaml") if p.name != "target.yaml")
    builtin = [folder / "target.yaml"] + packs
    contents = [_read(path) for path in builtin]
    hasher = hashlib.sha256(f"{SCHEMA_VERSION}:{__version__}:{MODEL_LAYOUT}".encode())
    for path, data in zip(builtin, contents):
        hasher.update(str(path).encode() + b"\0" + data + b"\0")
    return builtin, contents, hasher.hexdigest()


def table_digest(target: str, rules_roots: list[Path] | None = None,
                 extra_files: list[Path] | None = None) -> str:
    """The digest :func:`load_table` gives the same table, without loading it."""
    _, _, digest = _builtin_sources(target, rules_roots)
    if not extra_files:
        return digest
    hasher = hashlib.sha256(digest.encode())
    for path in extra_files:
        hasher.update(str(path).encode() + b"\0" + _read(path) + b"\0")
    return hasher.hexdigest()


# Built-in tables already loaded by this process, by digest (unpickling a large table costs
# ~0.5 s; every Options variant and every user-rule layering starts from the same one).
_LOADED: dict[str, Table] = {}

# The cached table is pickled model objects: a checkout whose classes have other fields
# (same version number, different code) must not read it.
MODEL_LAYOUT = repr([(cls.__name__, cls.__slots__) for cls in (Entry, Mapping, HeaderEntry,
                                                                Fallback, Check, TargetInfo)])


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise S.RuleError(path, 0, f"cannot read rule file: {exc.strerror or exc}") from None


def _cached(digest: str) -> Table | None:
    table = read_cache(f"table-{digest[:32]}")
    return table if isinstance(table, Table) and table.digest == digest else None


@contextlib.contextmanager
def gc_paused():
    """Building or loading a table creates ~100,000 objects and frees almost none; the
    cyclic GC would scan them dozens of times for nothing (pausing it makes a warm load
    2-3 times faster)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read_cache(name: str) -> object | None:
    """A cached object, or None when missing or unreadable (a corrupt cache is rebuilt)."""
    try:
        with gc_paused(), open(_cache_dir() / f"{name}.pickle", "rb") as fh:
            return pickle.load(fh)
    except Exception:
        return None


def write_cache(name: str, obj: object) -> None:
    _write_cache(_cache_dir() / f"{name}.pickle", obj)


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


def build_table(files: list[Path], contents: list[bytes], digest: str,
                user_from: int | None = None) -> Table:
    """Validate and compile rule files; the first is the target description.

    Files from index ``user_from`` on are user rule files (``--rules``), layered on top.
    Built-in packs may not define a name twice.
    """
    user_from = len(files) if user_from is None else user_from
    info = _read_target(files[0], contents[0])
    identifiers: dict[str, Entry] = {}
    headers: dict[str, HeaderEntry] = {}
    calls: list[_Call] = []
    notes: list[tuple[str, str, str, S.Where]] = []
    for path, data in zip(files[1:user_from], contents[1:user_from]):
        _read_pack(path, data, info, identifiers, headers, calls, notes=notes)
    _apply_calls(identifiers, calls, create=False)
    _apply_notes(identifiers, info, notes)
    _check_idempotent(identifiers, info)
    table = Table(info, identifiers, headers, tuple(str(p) for p in files[:user_from]), digest)
    if user_from < len(files):
        table = layer_user_files(table, files[user_from:], contents[user_from:])
    return table


def layer_user_files(base: Table, files: list[Path], contents: list[bytes]) -> Table:
    """A new table with each user file layered over ``base`` in order.

    A user rule overrides a built-in one and a later user file overrides an earlier one;
    ``base`` is left untouched (it may be cached or shared).
    """
    identifiers = dict(base.identifiers)
    headers = dict(base.headers)
    hasher = hashlib.sha256(base.digest.encode())
    for path, data in zip(files, contents):
        calls: list[_Call] = []
        notes: list[tuple[str, str, str, S.Where]] = []
        _read_pack(path, data, base.target, identifiers, headers, calls, user=True, notes=notes)
        _apply_calls(identifiers, calls, create=True)
        _apply_notes(identifiers, base.target, notes)
        hasher.update(str(path).encode() + b"\0" + data + b"\0")
    _check_idempotent(identifiers, base.target)
    return Table(base.target, identifiers, headers,
                 base.files + tuple(str(p) for p in files), hasher.hexdigest())


@dataclass(frozen=True)
class _Call:
    """A ``calls:`` item, applied once its layer's identifiers are all known."""

    name: str
    template: str
    note: str | None
    at: S.Where
    library: str
    rule_id: str


def _apply_calls(identifiers: dict[str, Entry], calls: list[_Call], create: bool) -> None:
    """Attach templates; in user files a call may also introduce a new name."""
    for call in calls:
        entry = identifiers.get(call.name)
        if entry is None:
            if not create:
                raise call.at.error(f"calls: {call.name!r} is not an identifier of any rule pack")
            head = _TEMPLATE_HEAD.match(call.template).group().rstrip(" (")
            head = re.sub(r"\s*<.*", "", head)
            entry = Entry(name=call.name, library=call.library, kind="function",
                          main=Mapping(head), rule_id=call.rule_id,
                          source=f"{call.at.path}:{call.at.line}")
        identifiers[call.name] = _replace(entry, template=call.template,
                                          note=call.note or entry.note)


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
        "experimental": S.boolean, "warp_sizes": anything,
        "unknown_libraries": extensions,
        "portable_guards": lambda a, b, c: S.string_list(a, b, c),
        "portable_headers": lambda a, b, c: S.string_list(a, b, c),
        "portable_prefixes": lambda a, b, c: S.string_list(a, b, c),
        "api_namespaces": lambda a, b, c: S.string_list(a, b, c),
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
        extra={k: d[k] for k in ("compiler", "header_extensions", "description", "source",
                                 "experimental", "warp_sizes", "unknown_libraries",
                                 "portable_guards", "portable_headers", "portable_prefixes",
                                 "api_namespaces")
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
               headers: dict[str, HeaderEntry], calls: list[_Call], user: bool = False,
               notes: list[tuple[str, str, str, S.Where]] | None = None) -> None:
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
               "present_in_cuda", "notes", "macros", "keep", "checks"}
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
                         d.get("to_removed"), d.get("experimental", False)),
            variants=d.get("variants", {}),
            cuda_since=d.get("cuda_since"), cuda_deprecated=d.get("cuda_deprecated"),
            cuda_changed=d.get("cuda_changed"), cuda_removed=d.get("cuda_removed"),
            cuda_present=present, status=d.get("status"), note=d.get("note"),
            template=d.get("template"), fallback=d.get("fallback"),
            rule_id=f"{prefix}/{stem}:{name}", source=f"{p}:{at.line}",
        )

    if "identifiers" in top:
        variant = _variants_reader(info, library or "user", S.target_name)
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
            old = define(name, at, "identifiers")
            if S.is_null(value):
                d: dict = {}
            elif isinstance(value, yaml.ScalarNode):
                d = {"to": S.target_name(p, value, f"identifiers.{name}")}
            else:
                d = S.fields(p, value, f"identifiers.{name}", spec)
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
                "to_since": S.version, "fallback": S.header}
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
                main=Mapping(d.get("to"), d.get("to_since")), variants=d.get("variants", {}),
                is_main=d.get("main", old_h.is_main if old_h else False),
                note=d.get("note"), rule_id=f"{prefix}/{stem}:{name}", source=f"{p}:{at.line}",
                fallback=d.get("fallback"),
            )
    if "calls" in top:
        for name, value, at in S.mapping(p, top["calls"][0], "calls"):
            d = S.fields(p, value, f"calls.{name}", {"template": _template, "note": S.text},
                         required=("template",))
            if not S.QUALIFIED.match(name):
                raise at.error(f"calls: {name!r} is not a C/C++ identifier")
            calls.append(_Call(name, d["template"], d.get("note"), at, library or "user",
                               f"{prefix}/{stem}:{name}"))
    if "notes" in top and notes is not None and not S.is_null(top["notes"][0]):
        for name, value, at in S.mapping(p, top["notes"][0], "notes"):
            for choice, text, where_ in S.mapping(p, value, f"notes.{name}"):
                notes.append((name, choice, S.text(p, text, f"notes.{name}.{choice}"), where_))
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


# User check codes: a letter, then letters, digits, '_', '-' or '.'; never cudaport's "CP".
_CHECK_CODE = re.compile(r"[A-Za-z][A-Za-z0-9_.-]*\Z")


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
