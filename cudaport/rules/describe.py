"""What the rule table says about a name, and how much of CUDA it covers.

Shared by ``cudaport rules list|explain|stats`` and by tests: every answer is computed
from a :class:`Compiled` table, so it matches what a translation with the same options
would do.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from .compiled import Compiled
from .model import Entry, Mapping

# Statuses `rules list --status` accepts. Resolution statuses describe the target side
# under the chosen options; deprecated/removed describe the CUDA side.
LIST_STATUSES = ("supported", "converted", "same", "unsupported", "experimental", "version",
                 "deprecated", "removed")


def matches_status(compiled: Compiled, entry: Entry, status: str) -> bool:
    resolved = compiled.identifiers[entry.name.encode()].status
    if status == "supported":
        return resolved in ("converted", "same")
    if status == "deprecated":
        return entry.cuda_deprecated is not None
    if status == "removed":
        return entry.cuda_removed is not None
    return resolved == status


def _column_label(choice: str | None, default: str | None, target: str) -> str:
    """Versions in the HIP column are HIP versions; ROC-library columns use ROCm's."""
    hip_api = choice == "hipdnn" or (choice == default and default != "miopen")
    return target if hip_api else "ROCm"


def _facts(pairs: list[tuple[str, str | None]]) -> list[str]:
    """``[("since HIP", "6.0"), ("removed in", None)]`` -> ``["since HIP 6.0"]``."""
    return [f"{label} {value}" for label, value in pairs if value]


def _mapping_text(mapping: Mapping, target: str) -> str:
    if mapping.to is None:
        return "no equivalent"
    facts = _facts([(f"since {target}", mapping.since), ("deprecated in", mapping.deprecated),
                    ("removed in", mapping.removed)])
    facts += ["experimental"] if mapping.experimental else []
    facts += [f"{to or 'no equivalent'}{f' as {template}' if template else ''} "
              f"before {target} {version}" for version, to, template in mapping.before]
    return f"{mapping.to} ({', '.join(facts)})" if facts else mapping.to


def cuda_history(entry: Entry) -> str:
    product = entry.product
    facts = _facts([(f"since {product}", entry.cuda_since)])
    if entry.cuda_present and not entry.cuda_since:
        facts.append(f"in the CUDA {entry.cuda_present} headers (first version not tabled)")
    facts += _facts([("changed in", entry.cuda_changed), ("deprecated in", entry.cuda_deprecated),
                     ("removed in", entry.cuda_removed)])
    return ", ".join(facts) or "no version facts"


def explain_identifier(compiled: Compiled, name: str) -> list[str]:
    """Lines that say everything the table knows about ``name`` under these options."""
    entry = compiled.table.identifiers[name]
    resolved = compiled.identifiers[name.encode()]
    target = compiled.target.title
    group = compiled.table.library_variant_group(entry.library)
    lines = [f"{name}: {entry.kind} of {entry.library}"]
    outcome = {
        "converted": f"renamed to {resolved.replacement.decode() if resolved.replacement else ''}",
        "same": f"kept: {target} uses the same name",
        "unsupported": f"not renamed, reported (CP101): {resolved.reason or 'no equivalent'}",
        "experimental": f"not renamed without --experimental (CP104): {resolved.reason}",
        "version": f"not renamed (CP107): {resolved.reason}",
        "fallback": f"{resolved.reason}: falls back to "
                    f"{(resolved.template or resolved.replacement or b'').decode()}",
    }.get(resolved.status, resolved.status)
    # The chosen column's templates: a library variant has its own (--blas rocblas ...).
    if resolved.status == "converted" and resolved.template:
        outcome += f"; calls are rewritten as {resolved.template.decode()}"
    if resolved.status == "converted" and resolved.by_args:
        outcome += "".join(f"; calls with {n} arguments are rewritten as {t.decode()}"
                           for n, t in resolved.by_args)
    if entry.fallback is not None:
        fb = entry.fallback
        lines_fallback = [f"  fallback: {fb.template or fb.to} when the target name is "
                          "unavailable" + (f" ({fb.note})" if fb.note else "")]
    else:
        lines_fallback = []
    lines.append(f"  result:   {outcome}")
    product = entry.product
    if entry.cuda_removed:
        lines.append(f"            also reported as removed from {product} "
                     f"{entry.cuda_removed} (CP103)")
    elif entry.cuda_deprecated:
        lines.append(f"            also reported as deprecated since {product} "
                     f"{entry.cuda_deprecated} (CP102)")
    lines.append(f"  {product + ':':9} {cuda_history(entry)}")
    if entry.status:
        lines.append(f"  status:   {entry.status} (set by the rule)")
    if group is None:
        lines.append(f"  {target + ':':9} {_mapping_text(entry.main, target)}")
    else:
        chosen = compiled.chosen_variants[entry.library][0]
        for choice in group.choices:
            mapping = entry.main if choice == group.default else entry.variants.get(choice)
            text = _mapping_text(mapping or Mapping(None),
                                 _column_label(choice, group.default, target))
            marks = [m for m, on in (("default", choice == group.default),
                                     ("selected", choice == chosen)) if on]
            flag = f"--{group.name} {choice}"
            lines.append(f"  {flag + ':':20} {text}" + (f"  [{', '.join(marks)}]" if marks else ""))
    lines += lines_fallback
    if entry.note:
        lines.append(f"  note:     {entry.note}")
    columns = [("main", entry.main)] if group is None else [
        (c, entry.main if c == group.default else entry.variants.get(c)) for c in group.choices]
    for column, mapping in columns:
        if mapping is not None and mapping.note:
            label = "" if group is None else f" ({column})"
            kind = "rewrite" if mapping.rewrite else "note"
            lines.append(f"  {kind}{label}: {mapping.note}")
    if resolved.note and resolved.status in ("converted", "same"):
        lines.append("            with these options the note is reported where the name is "
                     + ("used, as an error: the call must be rewritten (CP120)"
                        if resolved.rewrite else "used (CP108)"))
    if entry.template:
        lines.append(f"  template: {entry.template}")
    for count, template in entry.by_args:
        lines.append(f"  {count} args:   {template}")
    if entry.lane_mask is not None:
        lines.append(f"  mask:     argument {entry.lane_mask} is a warp lane mask: a full-warp "
                     "32-bit mask becomes __activemask(), others are cast to 64 bits (CP219)")
    if entry.needs_macro is not None:
        macro, since, before = entry.needs_macro
        span = " ".join(_facts([("from", since), ("before", before)]))
        lines.append(f"  macro:    {macro} is defined before the first include ({span})")
    if entry.runtime_value_since:
        lines.append(f"  {'':9} a run-time value from {target} {entry.runtime_value_since}, "
                     "not a constant expression (CP220)")
    lines.append(f"  rule:     {entry.rule_id} ({entry.source})")
    return lines


def explain_header(compiled: Compiled, name: str) -> list[str]:
    entry = compiled.table.headers[name]
    resolved = compiled.headers[name.encode()]
    target = compiled.target.title
    outcome = {
        "converted": f"include becomes <{(resolved.replacement or b'').decode()}>",
        "same": "include kept",
        "drop": f"include line removed ({target} does not need it)",
        "inline": f"include line replaced by definitions {target} lacks (rules: inline)",
        "unsupported": "no equivalent: reported (CP106)",
        "version": f"not translated (CP107): {resolved.reason}",
    }.get(resolved.status, resolved.status)
    lines = [f"{name}: header of {entry.library}", f"  result:   {outcome}"]
    if entry.main.before:
        lines.append(f"  {target + ':':9} {_mapping_text(entry.main, target)}")
    for choice, mapping in sorted(entry.variants.items()):
        lines.append(f"  variant {choice}: {_mapping_text(mapping, target)}")
    if entry.is_main:
        lines.append(f"  main:     yes (provides the library; counts as including {target}'s "
                     "runtime)")
    if entry.fallback is not None:
        lines.append(f"  fallback: <{entry.fallback}> when --hip-version predates "
                     f"{entry.main.to}")
    if entry.note:
        lines.append(f"  note:     {entry.note}")
    lines.append(f"  rule:     {entry.rule_id} ({entry.source})")
    return lines


@dataclass
class LibraryStats:
    library: str
    names: int = 0
    supported: int = 0  # renamed or same name on the target (default variants)
    unsupported: int = 0
    experimental: int = 0
    deprecated: int = 0
    removed: int = 0
    variant_names: int = 0  # names with an equivalent in a non-default variant
    cuda13_only: int = 0  # names known only from the CUDA 13 headers


def coverage(compiled: Compiled) -> dict[str, LibraryStats]:
    """Per-library counts under the compiled options (default variants unless chosen)."""
    out: dict[str, LibraryStats] = {}
    for name, entry in compiled.table.identifiers.items():
        stats = out.setdefault(entry.library, LibraryStats(entry.library))
        status = compiled.identifiers[name.encode()].status
        stats.names += 1
        if status in ("converted", "same"):
            stats.supported += 1
        elif status == "experimental":
            stats.experimental += 1
        else:
            stats.unsupported += 1
        stats.deprecated += entry.cuda_deprecated is not None
        stats.removed += entry.cuda_removed is not None
        stats.variant_names += any(m.to for m in entry.variants.values())
        stats.cuda13_only += entry.cuda_present is not None
    return dict(sorted(out.items()))


def equivalent_counts(compiled: Compiled) -> dict[str, int]:
    """CUDA names with a HIP-API equivalent vs. a ROC/MIOpen-library equivalent.

    cuDNN's main column is MIOpen (a ROC library) and its hipDNN variant is HIP API; for
    every other library the main column is HIP API and the variants are ROC libraries.
    """
    hip_side = {"hipdnn"}
    counts: Counter[str] = Counter()
    for entry in compiled.table.identifiers.values():
        group = compiled.table.library_variant_group(entry.library)
        default = group.default if group else None
        columns = {default: entry.main, **entry.variants}
        hip = roc = False
        for choice, mapping in columns.items():
            if mapping is None or mapping.to is None:
                continue
            if choice in hip_side or (choice == default and default not in ("miopen",)):
                hip = True
            else:
                roc = True
        counts["cuda"] += 1
        counts["hip"] += hip
        counts["roc"] += roc
    return dict(counts)
