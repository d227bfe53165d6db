"""Where targets are: the built-in rule folder, extra roots, target names and aliases,
and what every target offers as library variants (``--blas`` & co. derive from it)."""

from __future__ import annotations

import functools
import os
from pathlib import Path

from . import schema as S
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
    for root in roots:
        if not root.is_dir():
            continue
        for target_yaml in sorted(root.glob("*/target.yaml")):
            folder = target_yaml.parent
            found[folder.name] = folder
            node = S.compose(target_yaml)
            if node is None:
                continue
            for key, value, _ in S.mapping(str(target_yaml), node, "target"):
                if key == "aliases":
                    for alias in S.string_list(str(target_yaml), value, "target.aliases"):
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
    for root in roots or (default_rules_root(),):
        for path in sorted(Path(root).glob("*/target.yaml")):
            info = read_target(path, path.read_bytes())
            for name, group in info.variant_groups.items():
                choices = groups.setdefault(name, [])
                for choice in (group.default, *group.choices):
                    if choice not in choices:
                        choices.append(choice)
    return {name: tuple(choices) for name, choices in groups.items()}
