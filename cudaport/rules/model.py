"""The compiled rule table: plain data classes and dicts, built once per target."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


def fast_pickle(cls):
    """Pickle as ``cls(*fields)``: a table holds tens of thousands of these, and the
    default slots-dataclass state protocol makes loading the cached table several times
    slower. (Entries are not frozen for the same reason, construction cost; treat them as
    immutable all the same.)"""
    names = cls.__slots__

    def __reduce__(self):
        return cls, tuple(getattr(self, name) for name in names)

    cls.__reduce__ = __reduce__
    return cls


def version_tuple(text: str | None) -> tuple[int, ...] | None:
    """``"6.1.0"`` -> ``(6, 1)``: trailing zeros dropped, so 6.1 and 6.1.0 compare equal."""
    if not text:
        return None
    parts = [int(part) for part in text.split(".")]
    while len(parts) > 1 and parts[-1] == 0:
        parts.pop()
    return tuple(parts)


@fast_pickle
@dataclass(slots=True)
class Mapping:
    """A target-side name with its metadata (the main column or one library variant)."""

    to: str | None  # None: no equivalent
    since: str | None = None
    deprecated: str | None = None
    removed: str | None = None
    experimental: bool = False
    note: str | None = None  # a difference specific to this target name (argument order ...)
    # Older generations of the target name: ((version, to, template), ...) in ascending
    # version order; below ``version`` the target name is ``to`` (None: none) and the
    # argument template ``template`` (None: the entry's own). See rules/README.md.
    before: tuple = ()
    # Argument templates that apply when this column is chosen (a ``calls:`` pack with
    # ``variant: NAME``); a chosen non-default variant never uses the entry's own template.
    template: str | None = None
    by_args: tuple = ()
    rewrite: bool = False  # ``note`` says how the call must be rewritten (see rules/pack.py)


@fast_pickle
@dataclass(slots=True)
class Check:
    """A check-only rule: report ``code`` wherever the name is used, change nothing.

    Codes come from the user's YAML and may never start with ``CP`` (cudaport's own
    namespace), so a user code can never be mistaken for a built-in one.
    """

    code: str
    severity: str  # error, warning, info
    message: str
    source: str = ""  # "path:line" of the rule


@fast_pickle
@dataclass(slots=True)
class Fallback:
    """What to emit when the target equivalent is unavailable (too new, or absent)."""

    to: str | None = None
    template: str | None = None
    note: str | None = None


# The tables give cuDNN's own release numbers for cuDNN names, CUDA's for the rest.
VERSIONED_BY = {"cudnn": "cuDNN"}


@fast_pickle
@dataclass(slots=True)
class Entry:
    """One CUDA identifier and what it becomes on the target."""

    name: str
    library: str
    kind: str
    main: Mapping
    variants: dict[str, Mapping] = field(default_factory=dict)
    cuda_since: str | None = None
    cuda_deprecated: str | None = None
    cuda_changed: str | None = None
    cuda_removed: str | None = None
    cuda_present: str | None = None  # "13": found in the CUDA 13 headers (pack-level fact)
    status: str | None = None  # explicit status from the file; derived when None
    note: str | None = None
    template: str | None = None
    fallback: Fallback | None = None
    rule_id: str = ""
    source: str = ""  # "path:line" of the entry, for `rules explain`
    check: Check | None = None  # a user check-only rule attached to this name
    code: str | None = None  # the CP1xx code reported when unsupported (default CP101)
    lane_mask: int | None = None  # the argument (1-based) that is a warp lane mask
    # A macro the target header needs defined to declare this name, and the target
    # versions that need it: (macro, from_version, before_version or None).
    needs_macro: tuple | None = None
    # From this target version the name is a run-time value, no longer a constant
    # expression (HIP 7's warpSize): uses that need a constant are reported (CP220).
    runtime_value_since: str | None = None
    # Argument templates chosen by the call's argument count: ((count, template), ...);
    # a call with another count gets ``template`` (None: the plain rename).
    by_args: tuple = ()
    # A namespace nested in another API namespace (``wmma`` in ``nvcuda``): CUDA's only
    # where reached through it (``nvcuda::wmma::``) or in a file that names the outer one
    # (``using namespace nvcuda;``); elsewhere the name is the project's own.
    inside: str | None = None
    # What the translation keeps but loses (an algorithm choice, overlap): reported as a
    # warning (CP171) where the name is ported; the result does not depend on it.
    caveat: str | None = None

    @property
    def product(self) -> str:
        """Whose release numbers cuda_since/deprecated/removed are: cuDNN's for cuDNN names."""
        return VERSIONED_BY.get(self.library, "CUDA")


@fast_pickle
@dataclass(slots=True)
class HeaderEntry:
    name: str
    library: str
    main: Mapping  # Mapping.to == "" means: drop the include
    variants: dict[str, Mapping] = field(default_factory=dict)
    is_main: bool = False  # a CUDA main header (its target replacement provides the runtime)
    note: str | None = None
    rule_id: str = ""
    source: str = ""
    fallback: str | None = None  # the header to use when ``main`` is too new or absent
    code: str | None = None  # the CP1xx code reported when unsupported (default CP106)
    # Where the target has no such header: definitions (the bytes of a file next to the
    # rule pack) that replace the include line, guarded so that they are compiled once.
    inline: bytes | None = None


@dataclass(frozen=True, slots=True)
class VariantGroup:
    name: str  # e.g. "blas"
    libraries: tuple[str, ...]
    default: str
    choices: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class TargetInfo:
    name: str
    title: str
    aliases: tuple[str, ...]
    version: str | None
    warp_size: int
    main_header: str
    launch_function: str | None
    launch_template_wrapper: str | None
    extensions: dict[str, str]
    variant_groups: dict[str, VariantGroup]
    unknown_patterns: tuple[str, ...]
    extra: dict[str, object]  # further keys other issues add (compiler, ...), validated there
    # The newest target version the tables describe (``version`` is the default one);
    # None: ``version`` is both.
    newest_described: str | None = None


@dataclass(slots=True)
class Table:
    """Everything one target knows, keyed for O(1) lookup."""

    target: TargetInfo
    identifiers: dict[str, Entry]
    headers: dict[str, HeaderEntry]
    files: tuple[str, ...]  # the rule files it was built from
    digest: str  # content hash of those files
    # ``arguments:`` of variant packs: (library, variant) -> {CUDA name: (target name,
    # rule id)}, the names a call of that library takes in that variant's own spelling.
    arguments: dict = field(default_factory=dict)

    def library_variant_group(self, library: str) -> VariantGroup | None:
        for group in self.target.variant_groups.values():
            if library in group.libraries:
                return group
        return None

    def unknown_regex(self) -> re.Pattern[str]:
        return re.compile("|".join(f"(?:{p})" for p in self.target.unknown_patterns) or r"(?!)")
