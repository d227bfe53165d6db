"""Load a target's rule folder into a :class:`Table`, validated and cached.

A target is a folder ``<rules root>/<name>/`` holding ``target.yaml`` and rule packs
(``*.yaml``). Loading validates every file (errors name file and line) and stores the
compiled table in a pickle keyed by the content hash of all files, so a fresh process
pays for YAML parsing only when a rule file changed.

Finding targets is :mod:`.roots`, reading ``target.yaml`` :mod:`.target`, reading one
rule pack :mod:`.pack`, the cache folder :mod:`.cache`; this module puts them together.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING

from ..version import __version__
from . import schema as S
from ..source.gc_pause import gc_paused
from .cache import _cache_dir, read_cache, write_cache  # noqa: F401  (re-exported)
from .model import Check, Entry, Fallback, HeaderEntry, Mapping, Table, TargetInfo
from .roots import default_rules_root, resolve_target_dir, target_names  # noqa: F401
from .target import read_target as _read_target

if TYPE_CHECKING:
    from .pack import Call, Note

SCHEMA_VERSION = 10  # 10: caveat; 7: the scanner also looks for names with needs_macro; 8: generated notes give way to templates; 9: variant packs' arguments


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
    # (ports/: which construct becomes which form, beside the portable header)
    packs = sorted(p for p in folder.glob("*.yaml") if p.name != "target.yaml") \
        + sorted(folder.glob("ports/*.yaml"))
    builtin = [folder / "target.yaml"] + packs
    contents = [_read(path) for path in builtin]
    hasher = hashlib.sha256(f"{SCHEMA_VERSION}:{__version__}:{MODEL_LAYOUT}".encode())
    for path, data in zip(builtin, contents):
        hasher.update(str(path).encode() + b"\0" + data + b"\0")
    for path in sorted(folder.glob("ports/*.h")):  # (what translations copy from it)
        hasher.update(str(path).encode() + b"\0" + _read(path) + b"\0")
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


def build_table(files: list[Path], contents: list[bytes], digest: str,
                user_from: int | None = None) -> Table:
    """Validate and compile rule files; the first is the target description.

    Files from index ``user_from`` on are user rule files (``--rules``), layered on top.
    Built-in packs may not define a name twice.
    """
    # (the pack reader is imported here: a run whose table comes from the cache reads none)
    from .pack import apply_calls, apply_notes, check_arguments, check_idempotent, read_pack

    user_from = len(files) if user_from is None else user_from
    info = _read_target(files[0], contents[0])
    identifiers: dict[str, Entry] = {}
    headers: dict[str, HeaderEntry] = {}
    calls: list[Call] = []
    notes: list[Note] = []
    arguments: dict = {}
    for path, data in zip(files[1:user_from], contents[1:user_from]):
        read_pack(path, data, info, identifiers, headers, calls, notes=notes,
                  arguments=arguments)
    apply_calls(identifiers, calls, create=False)
    apply_notes(identifiers, info, notes)
    check_idempotent(identifiers, info)
    table = Table(info, identifiers, headers, tuple(str(p) for p in files[:user_from]), digest,
                  check_arguments(arguments, identifiers))
    if user_from < len(files):
        table = layer_user_files(table, files[user_from:], contents[user_from:])
    return table


def layer_user_files(base: Table, files: list[Path], contents: list[bytes]) -> Table:
    """A new table with each user file layered over ``base`` in order.

    A user rule overrides a built-in one and a later user file overrides an earlier one;
    ``base`` is left untouched (it may be cached or shared).
    """
    from .pack import apply_calls, apply_notes, check_idempotent, read_pack

    identifiers = dict(base.identifiers)
    headers = dict(base.headers)
    hasher = hashlib.sha256(base.digest.encode())
    for path, data in zip(files, contents):
        calls: list[Call] = []
        notes: list[Note] = []
        read_pack(path, data, base.target, identifiers, headers, calls, user=True, notes=notes)
        apply_calls(identifiers, calls, create=True)
        apply_notes(identifiers, base.target, notes)
        hasher.update(str(path).encode() + b"\0" + data + b"\0")
    check_idempotent(identifiers, base.target)
    return Table(base.target, identifiers, headers,
                 base.files + tuple(str(p) for p in files), hasher.hexdigest(), base.arguments)


