"""A rule table resolved for one set of options: byte-keyed dicts for the scanner.

Resolution decides, once per run, what every CUDA name becomes under the chosen library
variants, target version and experimental policy, so the hot loop is one dict lookup.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..source import lexer
from ..options import Options
from .frameworks import framework_packs
from ..source.gc_pause import gc_paused
from .loader import (default_rules_root, load_table, read_cache, resolve_target_dir,
                     table_digest, write_cache)
from .model import Entry, HeaderEntry, Mapping, Table, TargetInfo, version_tuple
from ..source.lazy_re import lazy

# Libraries whose use means the file needs the target's main runtime header.
RUNTIME_LIBRARIES = frozenset({"runtime", "driver", "device", "complex"})


@dataclass(slots=True)
class Resolved:
    """What one CUDA name becomes: ``replacement`` is None when it stays unchanged."""

    entry: Entry | None
    status: str  # converted, same, fallback, unsupported, experimental, version
    replacement: bytes | None
    reason: str = ""
    note: str | None = None  # the entry's note and the chosen target column's, reported as CP108
    template: bytes | None = None  # argument template to apply at call sites
    by_args: tuple = ()  # ((argument count, template bytes), ...): overrides ``template``
    rewrite: bool = False  # ``note`` says how a call must be rewritten by hand (CP120)
    # Precomputed for the hot loop: does a use need an edit, and does it need a finding?
    renames: bool = False
    reportable: bool = False
    runtime: bool = False  # its use means the file needs the target's main header

    def __post_init__(self) -> None:
        entry = self.entry
        name = entry.name.encode() if entry else b""
        renames = self.status in ("converted", "fallback") and (
            self.template is not None or bool(self.by_args) or self.replacement != name)
        reportable = self.status not in ("converted", "same") or entry is not None and bool(
            entry.cuda_deprecated or entry.cuda_removed or self.note or entry.caveat)
        object.__setattr__(self, "renames", renames)
        object.__setattr__(self, "reportable", reportable)
        object.__setattr__(self, "runtime", entry is not None and entry.library in RUNTIME_LIBRARIES)


def _restore_resolved(values: tuple) -> Resolved:
    """Unpickle without __init__/__post_init__: the derived fields are stored too."""
    r = object.__new__(Resolved)
    (r.entry, r.status, r.replacement, r.reason, r.note, r.template, r.by_args, r.rewrite,
     r.renames, r.reportable, r.runtime) = values
    return r


def _reduce_resolved(self: Resolved):
    return _restore_resolved, ((self.entry, self.status, self.replacement, self.reason,
                                self.note, self.template, self.by_args, self.rewrite,
                                self.renames, self.reportable, self.runtime),)


Resolved.__reduce__ = _reduce_resolved  # the cached compiled table holds ~12,000 of these


@dataclass(frozen=True, slots=True)
class ResolvedHeader:
    entry: HeaderEntry
    status: str  # converted, same, drop, inline (definitions replace it), unsupported, version
    replacement: bytes | None
    reason: str = ""  # status version: what it needs ("X needs HIP 10.0.0")


def _short(version: str) -> str:
    """7.2.0 -> 7.2 (a version as users write it); 7.2.1 stays."""
    return version[:-2] if version.count(".") == 2 and version.endswith(".0") else version


class Compiled:
    def __init__(self, table: Table, options: Options) -> None:
        self.table = table
        self.options = options
        info = table.target
        self.target = info
        _check_target_options(info, options)
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
        # No --hip-version: the target's default version (target.yaml `version`). A version
        # above the newest the tables describe (`newest_described`, else `version`; its
        # patch releases count as it) is refused: nothing says which names changed there.
        newest = info.newest_described or info.version
        if (options.target_version and newest
                and (version_tuple(options.target_version) + (0,))[:2]
                > (version_tuple(newest) + (0,))[:2]):
            raise ValueError(
                f"--hip-version {options.target_version}: the {info.title} rule tables describe "
                f"versions up to {_short(newest)} (default {_short(info.version or newest)})")
        tv = version_tuple(options.target_version or info.version)
        self.version = tv
        self.identifiers: dict[bytes, Resolved] = {}
        for name, entry in table.identifiers.items():
            self.identifiers[name.encode()] = self._resolve(entry, entry.main, entry.variants, tv)
        self.names: dict[bytes, bytes] = {name: name for name in self.identifiers}
        # library -> {CUDA name: what it becomes in the arguments of that library's calls},
        # for the chosen non-default variants whose packs give ``arguments:``.
        self.argument_names: dict[str, dict[bytes, Resolved]] = {}
        for (library, choice), names in table.arguments.items():
            if chosen.get(library) == (choice, True):
                self.argument_names[library] = {
                    name.encode(): _argument_rule(table.identifiers[name], to, rule_id)
                    for name, (to, rule_id) in names.items()}
        # Macros some names need defined at this version (HIP_ENABLE_WARP_SYNC_BUILTINS).
        # (Only the main header's: a project header that may use them makes a file that
        # includes the main header need them too. MIOPEN_BETA_API is miopen.h's own.)
        self.version_macros = sorted({
            e.needs_macro[0].encode() for e in table.identifiers.values()
            if e.needs_macro is not None and tv is not None
            and e.library in RUNTIME_LIBRARIES
            and (not e.needs_macro[1] or tv >= version_tuple(e.needs_macro[1]))
            and (not e.needs_macro[2] or tv < version_tuple(e.needs_macro[2]))})
        self.headers: dict[bytes, ResolvedHeader] = {}
        for name, hentry in table.headers.items():
            r = self._resolve_mapping(hentry.library, hentry.main, hentry.variants, tv)
            if r.status in ("version", "unsupported") and hentry.fallback:
                r = Resolved(None, "converted", hentry.fallback.encode())
            elif r.status in ("version", "unsupported") and hentry.inline is not None:
                r = Resolved(None, "inline", None)
            if r.status == "converted" and r.replacement == b"":
                status = "drop"
            elif r.status == "converted" and r.replacement == name.encode():
                status = "same"
            else:
                status = r.status
            self.headers[name.encode()] = ResolvedHeader(hentry, status, r.replacement, r.reason)
        # `cutlass/: {...}` rules every header below a folder no exact entry names.
        self.header_folders = sorted(((name, h) for name, h in self.headers.items()
                                      if name.endswith(b"/")), key=lambda item: -len(item[0]))
        # Every header a translation can produce: not the project's own headers.
        self.target_headers = frozenset(h.replacement for h in self.headers.values()
                                        if h.replacement) | {info.main_header.encode()}
        self.main_headers = {info.main_header.encode()} | {
            h.replacement for h in self.headers.values()
            if h.entry.is_main and h.replacement
        }
        self.unknown = re.compile(
            ("|".join(f"(?:{p})" for p in info.unknown_patterns) or r"(?!)").encode())
        # Scanner candidates: the names that may need an edit or a finding, plus the
        # keywords and built-ins whose presence marks CUDA device code; and every table
        # name that shares their shortest distinctive prefix (so __popc counts as device
        # use, as __syncthreads does).
        wanted = [name for name, r in self.identifiers.items()
                  if r.status != "same" or r.entry is not None and (
                      r.note or r.entry.kind in ("keyword", "variable")
                      or r.entry.check is not None or r.entry.needs_macro is not None)]
        wanted += _literal_prefixes(info.unknown_patterns)
        shared = tuple(candidate_prefixes(wanted, 2))
        recognized = [name for name in self.identifiers if name.startswith(shared)]
        # (and the functions whose calls need a header the target's main one lacks)
        companions = info.extra.get("main_header_companions") or {}
        self.marked_words = MARKED_WORDS.union(
            n.encode() for names in companions.values() for n in names).difference(recognized)
        self.scanner = lexer.scanner(candidate_prefixes(
            recognized + _literal_prefixes(info.unknown_patterns) + sorted(self.marked_words)))
        self.namespace_names = {name for name, r in self.identifiers.items()
                                if r.entry is not None and r.entry.kind == "namespace"}

    # What resolved this table (rule files' digest and resolving options): two Compiled
    # objects with one key scan alike (see scan.keep_scan).
    key: str = ""

    def derived(self, key: str, build):
        """``build()``, made once per table: what passes derive from the table (encoded
        names, patterns) is not rebuilt for every file."""
        found = self.__dict__.get(key)
        if found is None:
            found = self.__dict__[key] = build()
        return found

    def header(self, name: bytes) -> ResolvedHeader | None:
        """The rule for an included header: its own entry, else its deepest folder's."""
        r = self.headers.get(name)
        if r is None and self.header_folders:
            # A project's own headers miss every folder rule, and are included by many
            # files: the walk over the folder rules is remembered per name.
            memo = self.__dict__.setdefault("_folder_memo", {})
            if name in memo:
                return memo[name]
            r = next((h for folder, h in self.header_folders if name.startswith(folder)), None)
            if len(memo) < 100_000:
                memo[name] = r
        return r

    def _resolve(self, entry: Entry, main: Mapping, variants: dict[str, Mapping],
                 tv: tuple[int, ...] | None) -> Resolved:
        if entry.status == "unsupported":
            return Resolved(entry, "unsupported", None, "no equivalent on the target")
        r = self._resolve_mapping(entry.library, main, variants, tv)
        fb = entry.fallback
        if r.status in ("version", "unsupported") and fb is not None:
            return Resolved(entry, "fallback", (fb.to or entry.name).encode(), r.reason,
                            fb.note, fb.template.encode() if fb.template else None)
        note = "; ".join(n for n in (entry.note, r.note) if n) or None
        # An entry's templates are written for the default column: a chosen non-default
        # variant (--blas rocblas) calls another function, so it uses only its own
        # (``calls:`` packs with ``variant:``), else the plain rename.
        own_template, own_by_args, column = entry.template, entry.by_args, main
        if self.chosen_variants.get(entry.library, (None, False))[1]:
            chosen = variants.get(self.chosen_variants[entry.library][0])
            own_template, own_by_args = (chosen.template, chosen.by_args) if chosen else (None, ())
            column = chosen or main
        converted = r.status == "converted"
        template = r.template or (_callee(own_template, column, r.replacement)
                                  if converted and own_template else None)
        by_args = tuple((n, _callee(t, column, r.replacement)) for n, t in own_by_args) \
            if converted else ()
        if r.replacement == entry.name.encode() and template is None and not by_args:
            return Resolved(entry, "same", r.replacement, r.reason, note, rewrite=r.rewrite)
        return Resolved(entry, r.status, r.replacement, r.reason, note, template, by_args,
                        r.rewrite)

    def _resolve_mapping(self, library: str, main: Mapping, variants: dict[str, Mapping],
                         tv: tuple[int, ...] | None) -> Resolved:
        choice, non_default = self.chosen_variants.get(library, (None, False))
        mapping = main
        if non_default:
            mapping = variants.get(choice) or Mapping(None)
        template = None
        if tv is not None and mapping.before:
            older = next((b for b in mapping.before if tv < version_tuple(b[0])), None)
            if older is not None:  # an older generation of the target name
                template = older[2].encode() if older[2] else None
                mapping = Mapping(older[1], mapping.since, mapping.deprecated, None,
                                  mapping.experimental, mapping.note, rewrite=mapping.rewrite)
        if mapping.to is None:
            where = f" for the {choice} variant" if non_default else ""
            return Resolved(None, "unsupported", None, f"no equivalent{where}")
        if mapping.removed and (tv is None or tv >= version_tuple(mapping.removed)):
            return Resolved(None, "unsupported", None,
                            f"{mapping.to} was removed in {self.target.title} {mapping.removed}")
        if mapping.experimental and not self.options.experimental:
            return Resolved(None, "experimental", None, f"{mapping.to} is experimental")
        if tv is not None and mapping.since and version_tuple(mapping.since) > tv:
            return Resolved(None, "version", None,
                            f"{mapping.to} needs {self.target.title} {mapping.since}")
        return Resolved(None, "converted", mapping.to.encode(), note=mapping.note,
                        template=template, rewrite=mapping.rewrite)


# Words some pass looks for that no rule names (inline assembly, texture references,
# libcu++'s and Thrust's namespaces, qualifiers a string may touch): the scan records
# where they occur in code, so no pass searches a file's bytes for them. (Only words
# whose first letter starts some rule name already: a new first letter, `register`'s r,
# slows the scan more than one search.)
MARKED_WORDS = frozenset((b"asm", b"__asm", b"__asm__", b"texture", b"surface", b"cuda",
                          b"thrust", b"__forceinline__", b"__noinline__"))


# Words so common in C/C++ that a scanner prefix they start with would stop the scanner at
# almost every identifier; prefixes are lengthened until no such word starts with them.
COMMON_WORDS = tuple(w.encode() for w in """
int float double char long short unsigned signed void auto bool const constexpr static
struct class template typename namespace using return if for while do else switch case
break continue default enum union true false nullptr new delete this public private
protected virtual operator friend inline extern volatile sizeof typedef decltype noexcept
static_assert register mutable explicit goto size_t std min max abs printf fprintf malloc
memcpy memset free assert index input output result value data count offset size stride
""".split())


# Every prefix of every common word: a set lookup instead of a scan of the words per
# name (that scan was a third of the start-up of every run).
_COMMON_PREFIXES = frozenset(w[:k] for w in COMMON_WORDS for k in range(1, len(w) + 1))


_HEAD = lazy(r"\s*([A-Za-z_]\w*)\s*\(")


def _argument_rule(entry: Entry, to: str, rule_id: str) -> Resolved:
    """What ``entry``'s name becomes inside the arguments of a call whose variant pack
    spells it ``to`` (its CUDA versions and kind stay the entry's)."""
    from .pack import _replace

    return Resolved(_replace(entry, main=Mapping(to), variants={}, rule_id=rule_id, note=None,
                             template=None, by_args=(), fallback=None), "converted", to.encode())


def _callee(template: str, main: Mapping, replacement: bytes | None) -> bytes:
    """``template`` as bytes; when it calls the entry's own target name (any generation of
    it: ``hipblasCgetriBatched_v2`` is the name below hipBLAS 3), the name resolved for
    the selected --hip-version replaces it."""
    m = _HEAD.match(template)
    names = {main.to} | {b[1] for b in main.before}
    if m and replacement and m.group(1) in names:
        return replacement + template[m.end(1):].encode()
    return template.encode()


# Candidates are looked up in the table one by one in Python, so a prefix is kept long
# enough that few other words share it ("uint2" not "ui", which every uint32_t starts
# with); the scanning regex costs the same for 40 prefixes as for 400.
PREFIX_LENGTH = 5


def candidate_prefixes(names: list[bytes], length: int = PREFIX_LENGTH) -> list[bytes]:
    """The prefix of each name (``length`` bytes or more, or the whole name) that no common
    word starts with."""
    out = set()
    for name in names:
        n = min(length, len(name))
        while n < len(name) and name[:n] in _COMMON_PREFIXES:
            n += 1
        out.add(name[:n])
    # A prefix that another prefix already covers is redundant.
    return sorted(p for p in out if not any(p != q and p.startswith(q) for q in out))


def _check_target_options(info: TargetInfo, options: Options) -> None:
    """Options that the selected target cannot honour are usage errors, not silent no-ops."""
    for group_name, choice in options.variants:
        if group_name not in info.variant_groups:
            raise ValueError(f"--{group_name} {choice}: target {info.name} has no "
                             f"{group_name} library variants")
    if options.launch != "cuda" and not info.launch_function:
        raise ValueError(f"--launch {options.launch}: target {info.name} has no launch "
                         "function; it keeps the <<<...>>> syntax (use --launch cuda)")


def _literal_prefixes(patterns: tuple[str, ...]) -> list[bytes]:
    """Leading literal characters of each unknown-name pattern (for the scanner)."""
    out = []
    for pattern in patterns:
        m = re.match(r"[A-Za-z_$]+", pattern)
        if not m or len(m.group()) < 2:
            raise ValueError(f"unknown_patterns entry {pattern!r} must start with two literal letters")
        out.append(m.group().encode())
    return out


@lru_cache(maxsize=1)
def _code_digest() -> str:
    """The code that builds a table (this module, the scanner regex, the rule model, the
    pack and target.yaml readers): a cached table made by other code is not reused."""
    hashed = hashlib.sha256()
    here = Path(__file__)
    for module in (__file__, lexer.__file__, here.with_name("model.py"),
                   here.with_name("pack.py"), here.with_name("target.py")):
        hashed.update(Path(module).read_bytes())
    return hashed.hexdigest()


@lru_cache(maxsize=16)
def get_compiled(options: Options) -> Compiled:
    """The compiled table for ``options``, loaded once per process.

    The resolved table is cached on disk next to the table itself, keyed by the rule
    files' hash and the options that change resolution, so a fresh process with a warm
    cache reads one pickle and resolves nothing."""
    roots = [Path(p) for p in options.rules_dirs] + [default_rules_root()]
    # Framework packs go under the user's files, so ``--rules`` still overrides them.
    framework = framework_packs(resolve_target_dir(options.target, roots), options.framework)
    extra = framework + [Path(p) for p in options.rule_files]
    digest = table_digest(options.target, roots, extra)
    key = hashlib.sha256(repr((digest, _code_digest(), Resolved.__slots__, options.target_version,
                               options.experimental, options.launch,
                               sorted(options.variants))).encode()).hexdigest()[:32]
    cached = read_cache(f"compiled-{key}")
    if isinstance(cached, Compiled) and cached.table.digest == digest:
        cached.options = options
        cached.key = key
        return cached
    table = load_table(options.target, roots, extra)
    with gc_paused():
        compiled = Compiled(table, options)
    write_cache(f"compiled-{key}", compiled)
    compiled.key = key
    return compiled


def offload_arch(options: Options) -> str:
    """The one GPU architecture of a run: ``--offload-arch`` / ``offload-arch`` of the
    configuration, else the target's default (``offload_arch`` in its target.yaml; "" for
    a target that names none). Makefiles, CMake files and ``verify`` all use it."""
    if options.offload_arch:
        return options.offload_arch
    return str(get_compiled(options).target.extra.get("offload_arch") or "")
