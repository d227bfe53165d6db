"""Project configuration: ``[tool.cudaport]`` in ``pyproject.toml`` or a ``.cudaport.toml``.

Found the way ruff finds its settings: walk up from the first path given until a folder
holds ``.cudaport.toml`` (settings at top level) or a ``pyproject.toml`` with a
``[tool.cudaport]`` table. Paths and globs in the file are relative to its folder.
Command-line flags override the file. Unknown keys and bad values are errors that name the
file, the line and the key, so a typo never silently does nothing.
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from ..source.lazy_re import lazy

CONFIG_NAME = ".cudaport.toml"
PYPROJECT = "pyproject.toml"
FAIL_LEVELS = ("error", "warning", "info", "never")
LAUNCH_STYLES = ("cuda", "hip")
# A selector: ALL, a cudaport code or prefix (CP, CP1, CP101), or a code (prefix) of a user
# check rule, which never starts with "CP" (ACME, ACME-002).
CODE_SELECTOR = lazy(r"^(?:ALL|CP\d{0,3}|(?![Cc][Pp])[A-Za-z][A-Za-z0-9_.-]*)$")


class ConfigError(Exception):
    """The configuration file is unreadable or has a bad key or value."""


@dataclass(frozen=True)
class Config:
    """Settings from one file; ``None`` means "not set here, use the command's default"."""

    path: Path | None = None  # the file the settings came from
    root: Path = field(default_factory=Path.cwd)  # globs and relative paths start here
    target: str | None = None
    launch: str | None = None
    rewrite_comments: bool | None = None
    rewrite_strings: bool | None = None
    encoding: str | None = None
    experimental: bool | None = None
    target_version: str | None = None
    variants: tuple[tuple[str, str], ...] = ()
    rules: tuple[Path, ...] = ()
    rules_dirs: tuple[Path, ...] = ()
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    per_path_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    fail_on: str | None = None
    warn_unused_ignores: bool | None = None
    framework: str | None = None
    portable_guards: tuple[str, ...] = ()
    respect_layers: bool | None = None
    fix: bool | None = None
    unsafe_fixes: bool | None = None
    main_header: str | None = None
    offload_arch: str | None = None

    def option_defaults(self) -> dict[str, object]:
        """Values for the translation options, keyed like ``cli.build_options``'s kwargs."""
        out: dict[str, object] = {}
        for key in ("target", "launch", "rewrite_comments", "rewrite_strings", "encoding",
                    "experimental", "target_version", "framework", "respect_layers", "fix",
                    "unsafe_fixes", "main_header", "offload_arch"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        for group, choice in self.variants:
            out[f"variant_{group}"] = choice
        if self.rules:
            out["rule_files"] = self.rules
        if self.rules_dirs:
            out["rules_dirs"] = self.rules_dirs
        out["portable_guards"] = self.portable_guards
        return out

    def relative(self, path: Path) -> str | None:
        """``path`` relative to the config folder (POSIX form), or None when outside it."""
        try:
            return path.resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return None

    def is_excluded(self, path: Path) -> bool:
        if not self.exclude:
            return False
        rel = self.relative(path)
        return rel is not None and any(glob_match(p, rel) for p in self.exclude)

    def ignores_for(self, path: Path) -> tuple[str, ...]:
        """Codes ignored for ``path`` by ``per-path-ignores``."""
        if not self.per_path_ignores:
            return ()
        rel = self.relative(path)
        if rel is None:
            return ()
        return tuple(code for pattern, codes in self.per_path_ignores
                     if glob_match(pattern, rel) for code in codes)


def glob_match(pattern: str, rel: str) -> bool:
    """Gitignore-like glob: ``**`` spans folders, ``*`` does not; a pattern without ``/``
    matches any path component; a match on a folder covers everything below it."""
    while pattern.startswith("./"):
        pattern = pattern[2:]
    regex = _glob_regex(pattern.strip("/") if "/" in pattern.rstrip("/") else pattern.rstrip("/"))
    parts = rel.split("/")
    if "/" not in pattern.rstrip("/"):
        return any(regex.fullmatch(part) for part in parts)
    return any(regex.fullmatch("/".join(parts[:i])) for i in range(1, len(parts) + 1))


def _glob_regex(pattern: str) -> re.Pattern[str]:
    out = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return re.compile("".join(out))


def find_config(start: Path) -> Path | None:
    """The nearest ``.cudaport.toml`` or ``pyproject.toml`` with ``[tool.cudaport]``."""
    folder = start.resolve()
    if not folder.is_dir():
        folder = folder.parent
    for candidate in (folder, *folder.parents):
        own = candidate / CONFIG_NAME
        if own.is_file():
            return own
        pyproject = candidate / PYPROJECT
        if pyproject.is_file() and _has_tool_table(pyproject):
            return pyproject
    return None


def _has_tool_table(path: Path) -> bool:
    try:
        if b"cudaport" not in path.read_bytes():  # cheap test before parsing
            return False
    except OSError:
        return False
    return "cudaport" in _parse(path).get("tool", {})


def load_config(paths: list[str] | tuple[str, ...] = (), config_file: Path | None = None) -> Config:
    """The configuration for a run over ``paths``: ``config_file`` if given, else the one
    found by walking up from the first path (or the current folder); an empty Config when
    there is none."""
    if config_file is None:
        real = [Path(p) for p in paths if p != "-"]
        config_file = find_config(real[0] if real else Path.cwd())
        if config_file is None:
            return Config()
    elif not config_file.is_file():
        raise ConfigError(f"{config_file}: no such configuration file")
    data = _parse(config_file)
    nested = isinstance(data.get("tool"), dict) and "cudaport" in data["tool"]
    if config_file.name == PYPROJECT or (nested and set(data) == {"tool"}):
        # pyproject.toml; a .cudaport.toml written with the same [tool.cudaport] header
        # means the same thing.
        table = data.get("tool", {}).get("cudaport", {})
        prefix = "[tool.cudaport] "
    else:
        table, prefix = data, ""
    return _build(config_file, table, prefix)


def _parse(path: Path) -> dict:
    # (imported here: a run with no configuration file parses no TOML)
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover
        import tomli as tomllib

    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except UnicodeDecodeError as exc:  # TOML is UTF-8 by definition
        data = path.read_bytes()
        line = data.count(b"\n", 0, exc.start) + 1
        raise ConfigError(f"{path}:{line}: not UTF-8 (byte 0x{data[exc.start]:02x}); TOML files "
                          "must be UTF-8") from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None


_KEYS = {
    "target": str, "launch": str, "rewrite-comments": bool, "rewrite-strings": bool,
    "encoding": str,
    "experimental": bool, "hip-version": str, "target-version": str, "variants": dict,
    "rules": list, "rules-dir": list, "select": list, "ignore": list, "exclude": list,
    "per-path-ignores": dict, "fail-on": str, "warn-unused-ignores": bool,
    "framework": str, "portable-guards": list, "respect-layers": bool, "fix": bool,
    "unsafe-fixes": bool, "main-header": str, "offload-arch": str,
}
_TYPE_NAMES = {str: "a string", bool: "true or false", dict: "a table", list: "a list"}


def _build(path: Path, table: dict, prefix: str) -> Config:
    def fail(key: str, what: str) -> ConfigError:
        line = _line_of(path, key)
        return ConfigError(f"{path}{f':{line}' if line else ''}: {prefix}{key}: {what}")

    if not isinstance(table, dict):
        raise ConfigError(f"{path}: {prefix.strip() or 'settings'} must be a table")
    for key, value in table.items():
        expected = _KEYS.get(key)
        if expected is None:
            hint = f" (did you mean {key.replace('_', '-')!r}?)" if key.replace("_", "-") in _KEYS else ""
            raise fail(key, f"unknown key{hint}; known keys: {', '.join(sorted(_KEYS))}")
        if not isinstance(value, expected):
            raise fail(key, f"expected {_TYPE_NAMES[expected]}, got {type(value).__name__}")
    get = table.get
    root = path.parent.resolve()

    def strings(key: str) -> tuple[str, ...]:
        items = get(key, [])
        if not all(isinstance(x, str) for x in items):
            raise fail(key, "expected a list of strings")
        return tuple(items)

    def codes(key: str, items: tuple[str, ...]) -> tuple[str, ...]:
        for item in items:
            if not CODE_SELECTOR.match(item):
                raise fail(key, f"{item!r} is not a code or code prefix (like CP101 or CP1)")
        return items

    def choice(key: str, choices: tuple[str, ...]) -> str | None:
        value = get(key)
        if value is not None and value not in choices:
            raise fail(key, f"{value!r} is not one of {', '.join(choices)}")
        return value

    version = get("hip-version", get("target-version"))
    if version is not None and not all(part.isdigit() for part in version.split(".")):
        raise fail("hip-version" if "hip-version" in table else "target-version",
                   f"{version!r}: expected a version like 5.2 or 6.1.0")
    variants = []
    for group, value in get("variants", {}).items():
        from ..rules.roots import variant_options

        groups = variant_options()
        if group not in groups:
            raise fail("variants", f"unknown library group {group!r}; "
                                   f"known: {', '.join(groups)}")
        if value not in groups[group]:
            raise fail("variants", f"{group} = {value!r} is not one of "
                                   f"{', '.join(groups[group])}")
        variants.append((group, value))
    per_path = []
    for pattern, listed in get("per-path-ignores", {}).items():
        if isinstance(listed, str):
            listed = [listed]
        if not isinstance(listed, list) or not all(isinstance(x, str) for x in listed):
            raise fail("per-path-ignores", f"{pattern!r}: expected a list of codes")
        per_path.append((pattern, codes("per-path-ignores", tuple(listed))))
    select = get("select")
    return Config(
        path=path, root=root, target=get("target"), launch=choice("launch", LAUNCH_STYLES),
        rewrite_comments=get("rewrite-comments"), rewrite_strings=get("rewrite-strings"),
        encoding=get("encoding"),
        experimental=get("experimental"), target_version=version,
        variants=tuple(variants),
        rules=tuple(root / p for p in strings("rules")),
        rules_dirs=tuple(root / p for p in strings("rules-dir")),
        select=codes("select", strings("select")) if select is not None else None,
        ignore=codes("ignore", strings("ignore")), exclude=strings("exclude"),
        per_path_ignores=tuple(per_path), fail_on=choice("fail-on", FAIL_LEVELS),
        warn_unused_ignores=get("warn-unused-ignores"),
        framework=_framework(get("framework"), fail),
        portable_guards=strings("portable-guards"), respect_layers=get("respect-layers"),
        fix=get("fix"), unsafe_fixes=get("unsafe-fixes"),
        main_header=choice("main-header", ("needed", "always")),
        offload_arch=get("offload-arch"),
    )


def _framework(value: str | None, fail) -> str | None:
    from ..rules.frameworks import FRAMEWORKS

    if value is not None and value not in FRAMEWORKS:
        raise fail("framework", f"{value!r} is not one of {', '.join(FRAMEWORKS)}")
    return value


def _line_of(path: Path, key: str) -> int:
    """Best-effort line number of ``key`` in the file, for error messages (0 if unknown)."""
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return 0
    quoted = r'["\']?' + re.escape(key) + r'["\']?'
    pattern = re.compile(r"^\s*(?:" + quoted + r"\s*[=.]|\[\s*(?:[\w.-]+\.)?" + quoted + r"\s*\])")
    for number, line in enumerate(lines, 1):
        if pattern.match(line):
            return number
    return 0
