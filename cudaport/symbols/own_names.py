"""CUDA-looking names a project defines for itself, followed across its files.

A header's ``#define CUDA_CHECK(x) ...`` or ``extern int cudaDev;`` makes the name the
project's own in every file that includes it, but each file is translated alone and text
cannot follow includes. So a tree run collects every file's own names (found by the
identifiers pass) and drops the CP105 "unknown CUDA name" findings and references for
them in all files.
"""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from ..findings import Finding, Reference

UNKNOWN_NAME = "CP105"


def union(name_sets: Iterable[frozenset[bytes]]) -> frozenset[str]:
    """Every file's own names, decoded as findings spell them."""
    return frozenset(name.decode("utf-8", "replace") for names in name_sets for name in names)


def is_own(finding: Finding, own: frozenset[str]) -> bool:
    return finding.code == UNKNOWN_NAME and finding.identifier in own


def other_references(references: list[Reference], own: frozenset[str]) -> list[Reference]:
    """``references`` without the unknown ones that are ``own`` names."""
    return [r for r in references if not (r.status == "unknown" and r.identifier in own)]


def drop_from_outcome(outcome, own: frozenset[str]) -> None:
    """Remove a driver Outcome's CP105 findings and unknown references for ``own`` names
    (new lists, so cached outcomes shared with the cache stay as they were)."""
    kept = [f for f in outcome.findings if not is_own(f, own)]
    removed = len(outcome.findings) - len(kept)
    if removed:
        outcome.findings = kept
        tally = Counter(outcome.tally)
        tally[("", "unknown")] -= removed
        if tally[("", "unknown")] <= 0:
            del tally[("", "unknown")]
        outcome.tally = tally
    if outcome.references:
        outcome.references = other_references(outcome.references, own)
