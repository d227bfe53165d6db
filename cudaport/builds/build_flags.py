"""nvcc's command-line options as build files write them, and what the target's compiler
takes instead: one table (``rules/<target>/build/flags.yaml``) for Makefiles and CMake, so
an option means the same in both.

A build file's reader (:mod:`cudaport.builds.makefile`, :mod:`cudaport.builds.cmake`) cuts its flag
contexts into :class:`Word` values, each with the *segment* it belongs to: an option takes
its value from the next word only in the same segment (one shell command, one make
function argument, one CMake command), and a segment gets one architecture flag.
:func:`translate_words` says what becomes of each word (:class:`Change`) and what to report
(:class:`Note`); the reader turns them into edits that keep its own syntax (blanks, line
continuations, quoting, list separators) and into findings with its own codes.

Each option has one of four outcomes:

- mapped: the target's spelling (``-use_fast_math`` -> ``-ffast-math``), reported for review
  where it behaves otherwise (``review: true``);
- removed: the target needs none (``to: ""``; ``--expt-relaxed-constexpr``), an info note;
- dropped with a note: the target has no counterpart and rejects it (``to: null``;
  ``-maxrregcount``), a warning saying what it controlled;
- kept and reported: an output the target cannot make (``keep: true``; ``-ptx``), an error.

Architecture options (``-arch``, ``-gencode``, ...) become the target's architecture flag,
which each reader gives (Makefiles: ``--offload-arch=$(HIP_ARCH)``; CMake: the target's
default architecture): the first of a segment is replaced, the others removed.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

from ..options import Options
from .rule_files import rules_digest, rules_file  # noqa: F401  (the build readers' names)
from ..source.lazy_re import lazy

RULES_FILE = "flags.yaml"


@dataclass(frozen=True)
class FlagRule:
    to: str | None  # None: dropped with a note (or kept, with ``keep``)
    note: str = ""
    value: bool = False  # takes a value (next word, or after '=')
    review: bool = False
    unwrap: bool = False  # -Xcompiler: the value's comma-separated options as they are
    keep: bool = False  # no equivalent: left as written, reported as an error
    only: tuple[str, ...] = ()  # values this rule applies to
    skip_value: str | None = None  # the value that means "off": removed with the option


@dataclass(frozen=True)
class LibraryRule:
    to: str | None  # "" removed, None kept and reported
    note: str = ""
    review: bool = False


@dataclass(frozen=True)
class FlagTable:
    flags: dict[str, FlagRule]
    libraries: dict[str, LibraryRule]
    arch_options: tuple[str, ...]
    arch_default: str


class Word(NamedTuple):
    start: int
    end: int
    text: str
    segment: object  # words pair (option, value) and share one architecture flag only within one


class Change(NamedTuple):
    start: int
    end: int
    text: str | None  # None: the word is removed


class Note(NamedTuple):
    outcome: str  # removed | dropped | kept | review
    offset: int
    shown: str
    message: str


def read_rules(path: Path, allowed: set[str], what: str) -> tuple[dict, bytes] | None:
    """A build-rules YAML file (its mapping and bytes), None when there is none; bad YAML
    or an unknown top-level key is a RuleError naming the file."""
    import yaml

    from ..rules.schema import RuleError, loader

    try:
        raw = path.read_bytes()
    except OSError:
        return None
    try:
        doc = yaml.load(raw, Loader=loader()) or {}  # (the C loader where there is one)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise RuleError(str(path), mark.line + 1 if mark else 0, f"bad YAML: {exc}") from None
    if not isinstance(doc, dict) or set(doc) - allowed:
        extra = sorted(set(doc) - allowed) if isinstance(doc, dict) else ["(not a mapping)"]
        raise RuleError(str(path), 0, f"{what}: unknown key(s) {', '.join(map(str, extra))} "
                        f"(allowed: {', '.join(sorted(allowed))})")
    return doc, raw


@functools.lru_cache(maxsize=8)
def load_table(options: Options) -> FlagTable | None:
    """The target's flag table, or None when it has none."""
    from ..rules.schema import RuleError

    path = rules_file(options, RULES_FILE)
    loaded = read_rules(path, {"arch", "flags", "libraries"}, "nvcc flag rules")
    if loaded is None:
        return None
    doc = loaded[0]
    chosen = {choice for _, choice in options.variants}

    def entry(section: str, name: str, value: object, keys: set[str]) -> dict:
        if value is None or isinstance(value, str):
            return {"to": value}
        if not isinstance(value, dict) or set(value) - keys:
            raise RuleError(str(path), 0, f"{section}.{name}: expected a string, null or a "
                            f"mapping with {', '.join(sorted(keys))}")
        return value

    flags = {}
    for name, value in (doc.get("flags") or {}).items():
        e = entry("flags", name, value, {"to", "note", "value", "review", "unwrap", "keep",
                                         "only", "skip_value"})
        flags[name] = FlagRule(e.get("to"), e.get("note") or "", bool(e.get("value")),
                               bool(e.get("review")), bool(e.get("unwrap")), bool(e.get("keep")),
                               tuple(str(v) for v in e.get("only") or ()),
                               None if e.get("skip_value") is None else str(e.get("skip_value")))
    libraries = {}
    for name, value in (doc.get("libraries") or {}).items():
        e = entry("libraries", name, value, {"to", "note", "review", "variants"})
        to = e.get("to")
        for choice, alternative in (e.get("variants") or {}).items():
            if choice in chosen:
                to = alternative
        libraries[name] = LibraryRule(to, e.get("note") or "", bool(e.get("review")))
    from ..rules.compiled import offload_arch

    arch = doc.get("arch") or {}
    return FlagTable(flags, libraries, tuple(arch.get("options") or ()), offload_arch(options))


def is_arch_option(table: FlagTable, name: str, text: str) -> bool:
    """``-arch``, ``-gencode=...``, ``-arch=sm_80``, ``-archsm_80``: an architecture option."""
    return name in table.arch_options or any(
        text.startswith(o) and text[len(o):len(o) + 3] in ("sm_", "com")
        for o in ("-arch", "-code"))


def translate_words(words: list[Word], table: FlagTable, arch_flag: str,
                    arch_done: set[object] | None = None
                    ) -> tuple[list[Change], list[Note], bool]:
    """What becomes of ``words`` (changes, in order, never two on one word), what to report,
    and whether an architecture flag was written. ``arch_done``: the segments that have
    their architecture flag already."""
    changes: list[Change] = []
    notes: list[Note] = []
    arch_done = set() if arch_done is None else arch_done
    wrote_arch = False
    i = 0
    n = len(words)
    while i < n:
        w = words[i]
        text = w.text
        nxt = words[i + 1] if i + 1 < n and words[i + 1].segment == w.segment else None
        if text.startswith("-l") and text[2:] in table.libraries:
            _library(w, text[2:], table.libraries[text[2:]], changes, notes)
            i += 1
            continue
        name, value, has_value = text, "", False
        if "=" in text:
            name, value = text.split("=", 1)
            has_value = True
        if is_arch_option(table, name, text):
            attached = has_value or name not in table.arch_options
            if w.segment in arch_done:
                changes.append(Change(w.start, w.end, None))
            else:
                changes.append(Change(w.start, w.end, arch_flag))
                arch_done.add(w.segment)
                wrote_arch = True
            if not attached and nxt is not None:
                changes.append(Change(nxt.start, nxt.end, None))
                i += 1
            i += 1
            continue
        rule = table.flags.get(text)
        if rule is not None and not rule.value and not rule.unwrap:
            _apply(rule, w, None, text, "", changes, notes)
            i += 1
            continue
        rule = table.flags.get(name)
        if rule is None or not (rule.value or rule.unwrap):
            i += 1
            continue
        value_word = None
        if not has_value:
            if nxt is None:  # no value in its segment: `$(addprefix -Xcompiler ,$(FLAGS))`
                if rule.unwrap:  # (the host options follow elsewhere: hipcc takes them)
                    changes.append(Change(w.start, w.end, None))
                i += 1
                continue
            value_word, value = nxt, nxt.text
        if rule.unwrap:
            wrote_arch |= _unwrap(w, value_word, value, changes, notes, table, arch_flag,
                                  arch_done)
        elif rule.only and value not in rule.only:
            pass
        elif rule.skip_value is not None and value == rule.skip_value:
            changes.append(Change(w.start, w.end, None))
            if value_word is not None:
                changes.append(Change(value_word.start, value_word.end, None))
        else:
            shown = text if value_word is None else f"{text} {value}"
            _apply(rule, w, value_word, shown, value, changes, notes)
        i += 1 if value_word is None else 2
    return changes, notes, wrote_arch


# An MSVC option (/wd4819, /W4, /EHsc, /Zc:__cplusplus, /std:c++17), not a path (/usr/x.o)
_MSVC_OPTION = lazy(r"/[A-Za-z][\w:+.=-]*(?:\s+\S+)?$")


def _unwrap(w: Word, value_word: Word | None, value: str, changes: list[Change],
            notes: list[Note], table: FlagTable, arch_flag: str, arch_done: set[object]
            ) -> bool:
    """``-Xcompiler A,B``: the host options as they are (hipcc takes them itself), each
    read as hipcc's command line reads it once it stands there (a host option spelled like
    an nvcc one, ``-Xcompiler -fPIC,-arch=sm_70``, is translated now: a second pass would
    otherwise do it). Whether an architecture flag was written. An MSVC option
    (``-Xcompiler "/wd 4819"``, a Windows Makefile's) is dropped with a note: hipcc's clang
    takes GCC-style options and would read ``/wd 4819`` as an input file."""
    quoted = len(value) > 1 and value[0] == value[-1] and value[0] in "\"'"
    inner = value[1:-1] if quoted else value
    parts = [p for p in _split_commas(inner) if p]
    one_part = len(parts) == 1
    msvc = [p for p in parts if _MSVC_OPTION.match(p)]
    parts = [p for p in parts if not _MSVC_OPTION.match(p)]
    if quoted:  # unquoted below, a part's blanks split it: each word is an option there
        words = [part.split() for part in parts]
        msvc += [split[0] for split in words if split and _MSVC_OPTION.match(split[0])]
        parts = [word for split in words for word in
                 (split[1:] if split and _MSVC_OPTION.match(split[0]) else split)]
    if msvc:
        shown = w.text if value_word is None else f"{w.text} {value}"
        notes.append(Note("dropped", w.start, shown, f"nvcc option {shown}: MSVC host option "
                          f"{', '.join(msvc)} dropped: hipcc's clang takes GCC-style host "
                          "options (a Windows build gives clang's own, if it needs one)"))
    words, at = [], 0
    for part in parts:
        words.append(Word(at, at + len(part), part, w.segment))
        at += len(part) + 1
    inner_changes, inner_notes, wrote = translate_words(words, table, arch_flag, arch_done)
    notes.extend(n._replace(offset=w.start) for n in inner_notes)
    changed = {c.start: c.text for c in inner_changes}
    kept = [changed.get(word.start, word.text) for word in words]
    translated = [text for text in kept if text is not None]
    if value_word is None:  # -Xcompiler=A,B: one word
        changes.append(Change(w.start, w.end, " ".join(translated) or None))
        return wrote
    changes.append(Change(w.start, w.end, None))
    if msvc or translated != parts or not (one_part or len(parts) == 1):
        # (one part as it was, quoted: left so, `-Xcompiler "-Wall -Werror"`)
        changes.append(Change(value_word.start, value_word.end, " ".join(translated) or None))
    return wrote


def _split_commas(text: str) -> list[str]:
    """``text`` cut at its commas outside references and generator expressions
    (``-fPIC,$(if $(D),-g,-O2)``: two options)."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c in "({<":
            depth += 1
        elif c in ")}>" and depth:
            depth -= 1
        elif c == "," and not depth:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return parts


def _apply(rule: FlagRule, w: Word, value_word: Word | None, shown: str, value: str,
           changes: list[Change], notes: list[Note]) -> None:
    if rule.keep:
        notes.append(Note("kept", w.start, shown, f"nvcc option {shown}: {rule.note}"))
        return
    if rule.to is None:
        changes.append(Change(w.start, w.end, None))
        if value_word is not None:
            changes.append(Change(value_word.start, value_word.end, None))
        notes.append(Note("dropped", w.start, shown, f"nvcc option {shown} dropped: {rule.note}"))
        return
    to = rule.to.replace("{value}", value)
    if not to:
        changes.append(Change(w.start, w.end, None))
        if value_word is not None:
            changes.append(Change(value_word.start, value_word.end, None))
        notes.append(Note("removed", w.start, shown, f"nvcc option {shown} removed: "
                          f"{rule.note or 'hipcc does without it'}"))
        return
    changes.append(Change(w.start, w.end, to))
    if value_word is not None:
        changes.append(Change(value_word.start, value_word.end, None))
    if rule.review:
        notes.append(Note("review", w.start, shown, f"nvcc option {shown} -> {to}: {rule.note}"))


def _library(w: Word, name: str, rule: LibraryRule, changes: list[Change],
             notes: list[Note]) -> None:
    if rule.to is None:
        notes.append(Note("kept", w.start, w.text, f"library -l{name}: "
                          f"{rule.note or 'no equivalent'}"))
    elif rule.to == "":
        changes.append(Change(w.start, w.end, None))
    else:
        changes.append(Change(w.start, w.end, "-l" + rule.to))
        if rule.review:
            notes.append(Note("review", w.start, w.text,
                              f"library -l{name} -> -l{rule.to}: {rule.note}"))


def merged_spans(spans) -> list[tuple[int, int]]:
    """Removal spans, overlapping ones joined: two removals may share a run of blanks, and
    edits never overlap."""
    out: list[tuple[int, int]] = []
    for s, e in sorted(spans):
        if out and s <= out[-1][1]:
            out[-1] = (out[-1][0], max(e, out[-1][1]))
        else:
            out.append((s, e))
    return out
