"""A target's facts for the hazard checks (CP2xx), from the ``hazards:`` block of its
target.yaml, with the patterns built from them (cached)."""

from __future__ import annotations

import functools
import re


def target_facts(target) -> dict:
    """The target's ``hazards:`` facts from its target.yaml (empty when it gives none)."""
    return target.extra.get("hazards") or {}


@functools.cache
def names_pattern(prefix: bytes, names: tuple[str, ...], suffix: bytes) -> re.Pattern[bytes]:
    """``prefix(name|name...)suffix``, longest names first; never matches without names."""
    words = b"|".join(sorted((n.encode() for n in names), key=len, reverse=True)) or b"(?!)"
    return re.compile(prefix + b"(" + words + b")" + suffix)


def device_prop_pattern(target) -> re.Pattern[bytes] | None:
    """``.field``/``->field`` for the cudaDeviceProp members the target lacks (CP214)."""
    missing = (target_facts(target).get("device_properties") or {}).get("missing")
    return names_pattern(rb"(?:\.|->)\s*", tuple(missing), rb"\b") if missing else None
