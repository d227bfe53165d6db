"""Validation of rule YAML against the documented schema (``rules/README.md``).

Files are composed into PyYAML nodes (safe loader, no object construction) so that every
error can name the file and line. Scalars are kept as the strings written: ``12.0`` is a
version, not a float.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, NamedTuple
from ..source.lazy_re import lazy


class _LazyYaml:
    """PyYAML, imported on its first use: a run whose rule table comes from the cache
    reads no YAML, and importing it took 27 ms of a one-file ``check``'s start."""

    def __getattr__(self, name: str) -> Any:
        import yaml as module

        return getattr(module, name)


yaml: Any = _LazyYaml()


def loader() -> type:
    """PyYAML's C loader, several times faster; its pure-Python one where PyYAML was
    built without it."""
    return getattr(yaml, "CSafeLoader", None) or yaml.SafeLoader


class RuleError(Exception):
    """A rule file is malformed; the message names the file and line."""

    def __init__(self, path: str | Path, line: int, message: str) -> None:
        super().__init__(f"{path}:{line}: {message}")
        self.path = str(path)
        self.line = line
        self.detail = message


IDENTIFIER = lazy(r"[A-Za-z_$][\w$]*\Z")
QUALIFIED = re.compile(r"[A-Za-z_$][\w$]*(?:::[A-Za-z_$][\w$]*)*\Z")
# What a CUDA name may become: a (qualified) name, a template-id or a simple type.
# (or the type of a function's address, decltype(&hipFoo): driver entry-point pointer types)
TARGET_NAME = re.compile(r"(?:[A-Za-z_$][\w$]*(?:::[A-Za-z_$][\w$]*)*(?:<[\w$:, ]*>)?(?:\s*\*)*"
                         r"|decltype\(&[A-Za-z_]\w*\))\Z")
VERSION = re.compile(r"\d+(?:\.\d+){0,3}\Z")
HEADER = re.compile(r"[\w.+\-/]+\Z")
KINDS = frozenset(
    {"function", "type", "constant", "macro", "keyword", "variable", "namespace", "name"}
)
STATUSES = frozenset({"supported", "unsupported", "deprecated", "removed", "experimental"})
SEVERITIES = frozenset({"error", "warning", "info"})


class Where(NamedTuple):
    """A file and line (a tuple: tens of thousands are made per table build)."""

    path: str
    line: int

    def error(self, message: str) -> RuleError:
        return RuleError(self.path, self.line, message)


def compose(path: Path, text: str | None = None) -> yaml.Node | None:
    """Parse a YAML file into nodes, turning YAML syntax errors into RuleError."""
    try:
        data = path.read_text(encoding="utf-8") if text is None else text
    except (OSError, UnicodeDecodeError) as exc:
        raise RuleError(path, 0, f"cannot read rule file: {exc}") from None
    try:
        return yaml.compose(data, Loader=loader())
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else 0
        raise RuleError(path, line, f"invalid YAML: {exc.problem or exc}") from None
    except yaml.YAMLError as exc:
        raise RuleError(path, 0, f"invalid YAML: {exc}") from None


def where(path: str, node: yaml.Node) -> Where:
    return Where(path, node.start_mark.line + 1)


def mapping(path: str, node: yaml.Node, what: str) -> list[tuple[str, yaml.Node, Where]]:
    """Items of a mapping node; duplicate or non-string keys are errors."""
    if not isinstance(node, yaml.MappingNode):
        raise where(path, node).error(f"{what} must be a mapping")
    seen: dict[str, int] = {}
    items = []
    for key_node, value_node in node.value:
        at = where(path, key_node)
        if not isinstance(key_node, yaml.ScalarNode):
            raise at.error(f"{what}: keys must be plain names")
        key = key_node.value
        if key in seen:
            raise at.error(f"{what}: duplicate key {key!r} (first on line {seen[key]})")
        seen[key] = at.line
        items.append((key, value_node, at))
    return items


def scalar(path: str, node: yaml.Node, what: str) -> str:
    if not isinstance(node, yaml.ScalarNode):
        raise where(path, node).error(f"{what} must be a single value")
    return node.value


def is_null(node: yaml.Node) -> bool:
    return (
        isinstance(node, yaml.ScalarNode)
        and node.tag == "tag:yaml.org,2002:null"
        or (isinstance(node, yaml.ScalarNode) and node.value in ("", "~", "null") and not node.style)
    )


def string(path: str, node: yaml.Node, what: str, pattern: re.Pattern[str] | None = None,
           described: str = "") -> str:
    value = scalar(path, node, what)
    if pattern is not None and not pattern.match(value):
        raise where(path, node).error(f"{what}: {value!r} is not {described or 'valid'}")
    return value


def boolean(path: str, node: yaml.Node, what: str) -> bool:
    value = scalar(path, node, what).lower()
    if value in ("true", "yes", "on"):
        return True
    if value in ("false", "no", "off"):
        return False
    raise where(path, node).error(f"{what} must be true or false, not {value!r}")


def choice(path: str, node: yaml.Node, what: str, allowed: frozenset[str]) -> str:
    value = scalar(path, node, what)
    if value not in allowed:
        raise where(path, node).error(
            f"{what}: {value!r} is not one of {', '.join(sorted(allowed))}"
        )
    return value


def string_list(path: str, node: yaml.Node, what: str,
                check: Callable[[str, yaml.Node, str], Any] | None = None) -> list[str]:
    if isinstance(node, yaml.ScalarNode):
        return [check(path, node, what) if check else node.value]
    if not isinstance(node, yaml.SequenceNode):
        raise where(path, node).error(f"{what} must be a list")
    return [check(path, item, what) if check else scalar(path, item, what) for item in node.value]


def fields(path: str, node: yaml.Node, what: str,
           spec: dict[str, Callable[[str, yaml.Node, str], Any]],
           required: tuple[str, ...] = ()) -> dict[str, Any]:
    """Read a mapping whose keys are fixed by ``spec``; unknown keys are errors."""
    out: dict[str, Any] = {}
    for key, value, at in mapping(path, node, what):
        reader = spec.get(key)
        if reader is None:
            raise at.error(f"{what}: unknown key {key!r} (allowed: {', '.join(sorted(spec))})")
        out[key] = reader(path, value, f"{what}.{key}")
    for key in required:
        if key not in out:
            raise where(path, node).error(f"{what}: missing required key {key!r}")
    return out


def version(path: str, node: yaml.Node, what: str) -> str:
    return string(path, node, what, VERSION, "a version like 12.0 or 5.2.0")


def identifier(path: str, node: yaml.Node, what: str) -> str:
    return string(path, node, what, QUALIFIED, "a C/C++ identifier")


def target_name(path: str, node: yaml.Node, what: str) -> str:
    return string(path, node, what, TARGET_NAME, "a C/C++ name or type")


def header(path: str, node: yaml.Node, what: str) -> str:
    return string(path, node, what, HEADER, "a header path")


def text(path: str, node: yaml.Node, what: str) -> str:
    return scalar(path, node, what)
