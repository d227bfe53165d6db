"""A target's facts for the hazard checks (CP2xx), from the ``hazards:`` block of its
target.yaml, with the patterns built from them (cached)."""

from __future__ import annotations

import functools
import re

from .model import version_tuple


def target_facts(target) -> dict:
    """The target's ``hazards:`` facts from its target.yaml (empty when it gives none)."""
    return target.extra.get("hazards") or {}


@functools.cache
def names_pattern(prefix: bytes, names: tuple[str, ...], suffix: bytes) -> re.Pattern[bytes]:
    """``prefix(name|name...)suffix``, longest names first; never matches without names."""
    words = b"|".join(sorted((n.encode() for n in names), key=len, reverse=True)) or b"(?!)"
    return re.compile(prefix + b"(" + words + b")" + suffix)


def lacking(facts: dict, key: str, version: tuple) -> tuple[str, ...]:
    """The names of ``facts[key]`` the target lacks at ``version``: those without a
    ``present_since`` version at or below it."""
    since = facts.get("present_since") or {}
    return tuple(n for n in facts.get(key) or ()
                 if n not in since or version < version_tuple(since[n]))


def device_prop_pattern(compiled) -> re.Pattern[bytes] | None:
    """``.field``/``->field`` for the cudaDeviceProp members the target version lacks (CP214)."""
    facts = target_facts(compiled.target).get("device_properties") or {}
    missing = lacking(facts, "missing", compiled.version)
    return names_pattern(rb"(?:\.|->)\s*", missing, rb"\b") if missing else None
