"""A rule table resolved for one set of options: byte-keyed dicts for the scanner.

Resolution decides, once per run, what every CUDA name becomes under the chosen library
variants, target version and experimental policy, so the hot loop is one dict lookup.
"""

from __future__ import annotations

import hashlib
import re
import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from .. import lexer
from ..options import Options
from .loader import default_rules_root, load_table, read_cache, table_sources, write_cache
from .model import Entry, HeaderEntry, Mapping, Table, fast_pickle, version_tuple

# Libraries whose use means the file needs the target's main runtime header.
RUNTIME_LIBRARIES = frozenset({"runtime", "driver", "device", "complex"})


@fast_pickle
@dataclass(slots=True)
class Resolved:
    """What one CUDA name becomes: ``replacement`` is None when it stays unchanged."""

    entry: Entry | None
    status: str  # converted, same, unsupported, experimental, version
    replacement: bytes | None
    reason: str = ""
    note: str | None = None  # the entry's note and the chosen target column's, reported as CP108


@dataclass(frozen=True, slots=True)
class ResolvedHeader:
    entry: HeaderEntry
    status: str  # converted, same, drop, unsupported
    replacement: bytes | None


class Compiled:
    def __init__(self, table: Table, options: Options) -> None:
        self.table = table
        self.options = options
        info = table.target
        self.target = info
        chosen = {}
        for group in info.variant_groups.values():
            choice = options.variant(group.name) or group.default
            if choice not in group.choices:
                raise ValueError(
                    f"--{group.name} {choice}: not a choice for target {info.name} "
                    f"({', '.join(group.choices)})")
            for library in group.libraries:
                chosen[library] = (choice, choice != group.default)
        self.chosen_variants = chosen
        tv = version_tuple(options.target_version) if options.target_version else None
        self.identifiers: dict[bytes, Resolved] = {}
        for name, entry in table.identifiers.items():
            self.identifiers[name.encode()] = self._resolve(entry, entry.main, entry.variants, tv)
        self.headers: dict[bytes, ResolvedHeader] = {}
        for name, hentry in table.headers.items():
            status, replacement, _, _ = self._resolve_mapping(hentry.library, hentry.main,
                                                               hentry.variants, tv)
            if status == "converted" and replacement == b"":
                status = "drop"
            elif status == "converted" and replacement == name.encode():
                status = "same"
            self.headers[name.encode()] = ResolvedHeader(hentry, status, replacement)
        self.main_headers = {info.main_header.encode()} | {
            h.replacement for h in self.headers.values()
            if h.entry.is_main and h.replacement
        }
        self.unknown = re.compile(
            ("|".join(f"(?:{p})" for p in info.unknown_patterns) or r"(?!)").encode())
        # Scanner candidates: two-byte prefixes of every name that may need an edit or a
        # finding, plus names whose presence marks CUDA code (they may map to themselves).
        prefixes = {name[:2] for name, r in self.identifiers.items()
                    if r.status != "same" or r.entry and r.entry.library in RUNTIME_LIBRARIES}
        prefixes |= {p for p in (lit[:2] for lit in _literal_prefixes(info.unknown_patterns))}
        prefixes = {p for p in prefixes if len(p) == 2}
        self.scanner = lexer.scanner(sorted(prefixes))
        self.namespace_names = {name for name, r in self.identifiers.items()
                                if r.entry is not None and r.entry.kind == "namespace"}

    def _resolve(self, entry: Entry, main: Mapping, variants: dict[str, Mapping],
                 tv: tuple[int, ...] | None) -> Resolved:
        if entry.status == "unsupported":
            return Resolved(entry, "unsupported", None, "no equivalent on the target")
        status, replacement, reason, note = self._resolve_mapping(entry.library, main,
                                                                  variants, tv)
        if entry.note:
            note = f"{entry.note}; {note}" if note else entry.note
        if replacement is not None and replacement == entry.name.encode():
            status = "same"
        # Reasons repeat ("no equivalent for the rocblas variant"): one string each keeps
        # the cached table small.
        return Resolved(entry, status, replacement, sys.intern(reason), note)

    def _resolve_mapping(self, library: str, main: Mapping, variants: dict[str, Mapping],
                         tv: tuple[int, ...] | None
                         ) -> tuple[str, bytes | None, str, str | None]:
        """(status, replacement, reason, note) of the column the options select."""
        choice, non_default = self.chosen_variants.get(library, (None, False))
        mapping = main
        if non_default:
            mapping = variants.get(choice) or Mapping(None)
        if mapping.to is None:
            where = f" for the {choice} variant" if non_default else ""
            return "unsupported", None, f"no equivalent{where}", None
        if mapping.removed and (tv is None or tv >= version_tuple(mapping.removed)):
            return ("unsupported", None,
                    f"{mapping.to} was removed in {self.target.name} {mapping.removed}", None)
        if mapping.experimental and not self.options.experimental:
            return "experimental", None, f"{mapping.to} is experimental", None
        if tv is not None and mapping.since and version_tuple(mapping.since) > tv:
            return "version", None, f"{mapping.to} needs {self.target.name} {mapping.since}", None
        return "converted", mapping.to.encode(), "", mapping.note

    def rename_only(self, name: bytes) -> bytes | None:
        r = self.identifiers.get(name)
        return r.replacement if r is not None and r.status == "converted" else None


def _literal_prefixes(patterns: tuple[str, ...]) -> list[bytes]:
    """Leading literal characters of each unknown-name pattern (for the scanner)."""
    out = []
    for pattern in patterns:
        m = re.match(r"[A-Za-z_$]+", pattern)
        if not m or len(m.group()) < 2:
            raise ValueError(f"unknown_patterns entry {pattern!r} must start with two literal letters")
        out.append(m.group().encode())
    return out


def compile_table(table: Table, options: Options) -> Compiled:
    return Compiled(table, options)


@lru_cache(maxsize=16)
def get_compiled(options: Options) -> Compiled:
    """The compiled table for ``options``, loaded once per process.

    The resolved table is cached on disk next to the table itself, keyed by the rule
    files' hash and the options that change resolution, so a fresh process with a warm
    cache reads one pickle and resolves nothing."""
    roots = [Path(p) for p in options.rules_dirs] + [default_rules_root()]
    extra = [Path(p) for p in options.rule_files]
    _, _, digest = table_sources(options.target, roots, extra)
    key = hashlib.sha256(repr((digest, options.target_version, options.experimental,
                               sorted(options.variants))).encode()).hexdigest()[:32]
    cached = read_cache(f"compiled-{key}")
    if isinstance(cached, Compiled) and cached.table.digest == digest:
        cached.options = options
        return cached
    compiled = Compiled(load_table(options.target, roots, extra), options)
    write_cache(f"compiled-{key}", compiled)
    return compiled
