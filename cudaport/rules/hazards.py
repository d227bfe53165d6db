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
    """``.field``/``->field`` for the cudaDeviceProp members the target version lacks (CP214);
    read once per table (``False`` kept for none)."""
    def build():
        facts = target_facts(compiled.target).get("device_properties") or {}
        missing = lacking(facts, "missing", compiled.version)
        return names_pattern(rb"(?:\.|->)\s*", missing, rb"\b") if missing else False

    return compiled.derived("_device_prop_pattern", build) or None


def struct_member_facts(compiled) -> tuple[tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]], ...]:
    """(CUDA struct, its CUDA spellings, ((member path, what the target has or ""), ...))
    for the members of ``struct_members`` the target version lacks or declares otherwise
    (CP214), from the target's hazards facts; cached per compiled table."""
    cached = _MEMBER_CACHE.get(id(compiled))
    if cached is not None and cached[0] is compiled:
        return cached[1]
    out = []
    for struct, fact in (target_facts(compiled.target).get("struct_members") or {}).items():
        members = tuple((m, "") for m in lacking(fact, "missing", compiled.version))
        members += tuple((m, why) for m, why in (fact.get("differs") or {}).items())
        if members:
            out.append((struct, tuple(fact.get("types") or (struct,)), members))
    result = tuple(out)
    if len(_MEMBER_CACHE) > 64:
        _MEMBER_CACHE.clear()
    _MEMBER_CACHE[id(compiled)] = (compiled, result)
    return result


_MEMBER_CACHE: dict[int, tuple] = {}
_TYPES_CACHE: dict[int, tuple] = {}


def struct_member_types(compiled) -> frozenset[bytes]:
    """Every CUDA spelling of the structs of :func:`struct_member_facts`: a file that
    names none of them needs no look at each struct."""
    facts = struct_member_facts(compiled)
    cached = _TYPES_CACHE.get(id(facts))
    if cached is None or cached[0] is not facts:
        if len(_TYPES_CACHE) > 64:
            _TYPES_CACHE.clear()
        cached = _TYPES_CACHE[id(facts)] = (facts, frozenset(
            t.encode() for _, types, _ in facts for t in types))
    return cached[1]


@functools.cache
def declared_objects_pattern(types: tuple[str, ...]) -> re.Pattern[bytes]:
    """``TYPE [const] [*&]... NAME``: a variable, parameter or array the file declares with
    one of ``types`` (group 1: the type, group 2: its name)."""
    # (each type its own literal alternative, tested after it for what stands before it:
    # the search skips to the types' first letters instead of trying every byte)
    words = b"|".join(re.escape(t) + rb"(?<![\w$.>:]" + re.escape(t) + rb")"
                      for t in sorted((t.encode() for t in types), key=len, reverse=True))
    return re.compile(rb"(" + words + rb")\b\s*(?:const\b\s*)?(?:[*&]\s*(?:const\b\s*)?)*"
                      rb"([A-Za-z_]\w*)\s*(?=[\[;,=)({:])")


@functools.cache
def member_use_pattern(paths: tuple[str, ...]) -> re.Pattern[bytes]:
    """``NAME[...].member.path`` / ``NAME->member`` for the member paths given (group 1:
    the name, for the caller to look up among its objects; group 2: the path). (The file's
    objects as literal alternatives would let the search skip ahead, but an alternation of
    n names is tried name by name: quadratic in a file declaring many objects.)"""
    # (the name and the blanks after it are taken possessively: what may follow them, a
    # bracket, dot or arrow, is neither a word byte nor a blank, so giving bytes back never
    # makes a match, and trying each shorter name cost most of the search)
    return re.compile(rb"(?<![\w$.>])([A-Za-z_]\w*+)\s*+(?:\[[^\]\n]*\]\s*)?"
                      + _member_tail(paths))


def _member_tail(paths: tuple[str, ...]) -> bytes:
    members = b"|".join(rb"\s*\.\s*".join(re.escape(part.encode()) for part in path.split("."))
                        for path in sorted(paths, key=len, reverse=True))
    return rb"(?:\.|->)\s*(" + members + rb")(?![\w$])"


@functools.cache
def member_access_pattern(paths: tuple[str, ...]) -> re.Pattern[bytes]:
    """The ``.member.path`` / ``->member`` every match of :func:`member_use_pattern` ends
    with: a file where this finds nothing has no such use, and the search, which starts
    at a dot or an arrow, costs a fraction of the other's, which starts at every word."""
    return re.compile(_member_tail(paths))
