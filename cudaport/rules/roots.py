"""Where targets are: the built-in rule folder, extra roots, target names and aliases,
and what every target offers as library variants (``--blas`` & co. derive from it)."""

from __future__ import annotations

import functools
import hashlib
import os
from pathlib import Path

from . import schema as S
from .cache import read_cache, write_cache
from . import target as T
from .target import read_target


def default_rules_root() -> Path:
    """The rule folder shipped with cudaport (``rules/`` in a checkout)."""
    env = os.environ.get("CUDAPORT_RULES_DIR")
    if env:
        return Path(env)
    here = Path(__file__).resolve().parent.parent
    for candidate in (here.parent / "rules", here / "_rules"):
        if (candidate / "hip" / "target.yaml").is_file():
            return candidate
    raise FileNotFoundError("cudaport's rule folder was not found (set CUDAPORT_RULES_DIR)")


def target_names(roots: list[Path]) -> dict[str, Path]:
    """Map every target name and alias to its folder; later roots override earlier ones."""
    found: dict[str, Path] = {}
    for target_yaml, aliases, _groups in _summaries(tuple(roots)):
        folder = target_yaml.parent
        found[folder.name] = folder
        for alias in aliases:
            found.setdefault(alias, folder)
    return found


def resolve_target_dir(name: str, roots: list[Path]) -> Path:
    names = target_names(roots)
    if name not in names:
        known = ", ".join(sorted(names)) or "none"
        raise S.RuleError(roots[0] if roots else "rules", 0,
                          f"unknown target {name!r} (known: {known})")
    return names[name]


@functools.lru_cache(maxsize=None)
def variant_options(roots: tuple[Path, ...] | None = None) -> dict[str, tuple[str, ...]]:
    """Every library variant group the targets under ``roots`` (default: the built-in rule
    folder) declare in ``variants:`` of their ``target.yaml``, with its choices, the
    default first; groups of the same name in two targets merge their choices. This is
    what the ``--blas``-style options and the configuration's ``variants`` accept."""
    groups: dict[str, list[str]] = {}
    for path, _aliases, declared in _summaries(tuple(roots or (default_rules_root(),))):
        if declared is None:
            read_target(path, path.read_bytes())  # (raises the RuleError that says why)
        for name, default, choices in declared or ():
            merged = groups.setdefault(name, [])
            for choice in (default, *choices):
                if choice not in merged:
                    merged.append(choice)
    return {name: tuple(choices) for name, choices in groups.items()}


def _summaries(roots: tuple[Path, ...]) -> tuple[tuple[Path, tuple[str, ...], tuple], ...]:
    """(target.yaml, its aliases, its variant groups as (name, default, choices)) of every
    target under ``roots``, in order. Every command needs them before it reads a file
    (the options, the target's folder): composing the YAML of each target.yaml took more
    of a one-file ``check`` than the file did, so the summaries are kept in the user cache,
    keyed by the files' bytes and the code that reads them."""
    paths = [p for root in roots if Path(root).is_dir()
             for p in sorted(Path(root).glob("*/target.yaml"))]
    contents = [p.read_bytes() for p in paths]
    hashed = hashlib.sha256()
    for module in (__file__, S.__file__, T.__file__):
        hashed.update(Path(module).read_bytes())
    for path, data in zip(paths, contents):
        hashed.update(str(path).encode() + b"\0" + data + b"\0")
    name = f"targets-{hashed.hexdigest()[:32]}"
    cached = read_cache(name)
    if isinstance(cached, tuple) and len(cached) == len(paths):
        return cached
    out = []
    for path, data in zip(paths, contents):
        node = S.compose(path)
        aliases: tuple[str, ...] = ()
        if node is not None:
            for key, value, _ in S.mapping(str(path), node, "target"):
                if key == "aliases":
                    aliases = tuple(S.string_list(str(path), value, "target.aliases"))
        try:
            info = read_target(path, data)
        except (S.RuleError, ValueError, TypeError, KeyError):  # (variant_options says it)
            out.append((path, aliases, None))
            continue
        out.append((path, aliases, tuple((g, group.default, tuple(group.choices))
                                         for g, group in info.variant_groups.items())))
    result = tuple(out)
    write_cache(name, result)
    return result
