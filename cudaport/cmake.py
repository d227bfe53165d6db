"""Translate CMake build files (CMakeLists.txt, *.cmake) from CUDA to the target.

Works like the source translator: a small tokenizer that knows CMake's comments, bracket
arguments and quoted arguments, edits on the original bytes, findings for what cannot be
migrated. The mappings are data (rules/<target>/build/cmake.yaml, see rules/README.md);
this module only knows CMake's syntax and a few commands' shapes (project,
enable_language, find_package, file(GLOB), source lists).
"""

from __future__ import annotations

import fnmatch
import functools
import hashlib
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from .edits import Edit, apply, resolve
from .findings import Finding
from .options import Options

_TOKEN = re.compile(rb"""
  (?P<comment>\#\[(?P<ceq>=*)\[.*?\](?P=ceq)\]|\#[^\r\n]*)
| (?P<bracket>\[(?P<beq>=*)\[.*?\](?P=beq)\])
| (?P<quoted>"(?:[^"\\]|\\.)*")
| (?P<open>\()
| (?P<close>\))
| (?P<space>[ \t\r\n]+)
| (?P<word>(?:[^\s()"\\\#]|\\.)(?:[^\s()"\\]|\\.)*)
""", re.S | re.X)
_IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
# Inside an argument: an imported target, a language generator expression, a name.
_PIECE = re.compile(rb"(?P<target>\bCUDA::\w+)"
                    rb"|\$<(?P<genex>COMPILE_LANGUAGE|LINK_LANGUAGE|COMPILE_LANG_AND_ID"
                    rb"|LINK_LANG_AND_ID):(?P<langs>[^>]*)>"
                    rb"|(?P<name>(?<![\w:])[A-Za-z_][A-Za-z0-9_]*)")
# NVIDIA GPU architectures as CMake's CUDA_ARCHITECTURES takes them, ;-separated.
_CUDA_ARCHS = re.compile(rb"(?:(?:\d{2,3}[af]?(?:-real|-virtual)?|native|all|all-major)(?:;|\Z))+")
_VERSION = re.compile(rb"\d+(?:\.\d+)*\Z")
# A command-line flag inside an argument (flags sit in lists, quoted strings, genexes).
_FLAG = re.compile(rb"(?<![^\s;\">:])-{1,2}[A-Za-z][\w\-+.,]*(?:=[^\s;\"$<>]*)?")
FLAG_COMMANDS = {b"set", b"string", b"list", b"target_compile_options", b"add_compile_options",
                 b"target_link_options", b"add_link_options", b"set_property",
                 b"set_target_properties", b"set_source_files_properties"}
_KEYWORD = re.compile(rb"[A-Z][A-Z0-9_]*")
_OPTIONS_KEYWORD = re.compile(rb"(?:OPTIONS|FLAGS)\Z")
SOURCE_LIST_COMMANDS = {b"add_executable", b"add_library", b"target_sources", b"set",
                        b"list", b"cuda_add_executable", b"cuda_add_library"}
LANGUAGE_COMMANDS = {b"project", b"enable_language", b"check_language"}
# Commands whose .cu arguments are not sources of a target being defined. Any other
# command's .cu arguments are marked LANGUAGE HIP after it: a project's own function that
# calls add_executable (CUDALibrarySamples' add_cublas_example(... gemm.cu)) passes sources
# CMake's HIP language does not recognise by their .cu extension ("Cannot determine link
# language"); source properties are read at generate time, so marking them after the call
# in the same folder works.
NOT_SOURCE_COMMANDS = {
    b"message", b"install", b"configure_file", b"string", b"if", b"elseif", b"else",
    b"endif", b"while", b"option", b"get_filename_component", b"file", b"include",
    b"add_custom_command", b"add_custom_target", b"execute_process", b"add_test",
    b"set_source_files_properties", b"get_source_file_property", b"source_group",
    b"set_property", b"get_property", b"cmake_path", b"foreach", b"return", b"function",
    b"macro", b"find_file", b"find_path", b"try_compile", b"try_run",
}


@dataclass(frozen=True)
class Rule:
    to: str | None
    note: str | None = None
    review: bool = False
    package: str | None = None
    variants: tuple[tuple[str, "Rule"], ...] = ()
    anchor: bool = False  # packages: library packages are added after this find_package
    value: bool = False  # flags: the flag takes the next word as its value (`-Xptxas -v`)


@dataclass
class CMakeRules:
    languages: dict[bytes, bytes]
    packages: dict[bytes, Rule]
    targets: dict[bytes, Rule]
    variables: dict[bytes, Rule]
    commands: dict[bytes, Rule]
    flags: dict[bytes, Rule]
    unknown: re.Pattern[bytes]
    digest: str
    libraries: dict[bytes, Rule] = field(default_factory=dict)  # plain link library names
    # architectures: the variables/properties naming GPU architectures, and the AMD one
    # their NVIDIA values (70, 80-real, native, all) become
    arch_names: frozenset[bytes] = frozenset()
    arch_default: bytes = b""


@dataclass
class CMakeResult:
    output: bytes
    findings: list[Finding] = field(default_factory=list)
    edits: list[Edit] = field(default_factory=list)
    uses_cuda: bool = False


@dataclass
class Arg:
    kind: str  # word, quoted, bracket
    start: int
    end: int
    text: bytes

    @property
    def value(self) -> bytes:
        return self.text[1:-1] if self.kind == "quoted" else self.text

    @property
    def value_start(self) -> int:
        return self.start + (1 if self.kind == "quoted" else 0)


@dataclass
class Command:
    name: bytes
    start: int
    end: int  # after the closing parenthesis
    args: list[Arg]


class CMakeSyntaxError(Exception):
    def __init__(self, offset: int, message: str) -> None:
        super().__init__(message)
        self.offset = offset


def rules_file(options: Options, name: str = "cmake.yaml") -> Path:
    """The target's build-file rules ``name`` (``cmake.yaml``, ``make.yaml``)."""
    from .rules.loader import default_rules_root, resolve_target_dir

    roots = [Path(p) for p in options.rules_dirs] + [default_rules_root()]
    return resolve_target_dir(options.target, roots) / "build" / name


def rules_digest(options: Options) -> str:
    """Of the target's CMake and Makefile rules together (the cache key of build files)."""
    digest = hashlib.sha256()
    for name in ("cmake.yaml", "make.yaml"):
        try:
            digest.update(rules_file(options, name).read_bytes())
        except OSError:
            digest.update(b"none")
    return digest.hexdigest()[:16]


def read_rules(path: Path, allowed: set[str], what: str) -> tuple[dict, bytes] | None:
    """A build-rules YAML file (its mapping and bytes), None when there is none; bad YAML
    or an unknown top-level key is a RuleError naming the file."""
    import yaml

    from .rules.schema import RuleError

    try:
        raw = path.read_bytes()
    except OSError:
        return None
    try:
        doc = yaml.safe_load(raw) or {}
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        raise RuleError(str(path), mark.line + 1 if mark else 0, f"bad YAML: {exc}") from None
    if not isinstance(doc, dict) or set(doc) - allowed:
        extra = sorted(set(doc) - allowed) if isinstance(doc, dict) else ["(not a mapping)"]
        raise RuleError(str(path), 0, f"{what}: unknown key(s) {', '.join(map(str, extra))} "
                        f"(allowed: {', '.join(sorted(allowed))})")
    return doc, raw


@functools.lru_cache(maxsize=8)
def load_rules(options: Options) -> CMakeRules:
    """The target's CMake rules (empty when the target has none)."""
    allowed = {"languages", "packages", "targets", "variables", "commands", "flags",
               "libraries", "unknown_patterns", "architectures"}
    loaded = read_rules(rules_file(options), allowed, "CMake rules")
    if loaded is None:
        return CMakeRules({}, {}, {}, {}, {}, {}, re.compile(rb"(?!)"), "none")
    doc, raw = loaded
    chosen = {choice for _, choice in options.variants}

    def rule(name: str, value: object, section: str) -> Rule:
        if value is None or isinstance(value, str):
            return Rule(value)
        if not isinstance(value, dict):
            raise RuleError(str(path), 0, f"{section}.{name}: expected a name, null or a mapping")
        keys = {"to", "note", "review", "package", "target", "variants", "anchor", "value"}
        if set(value) - keys:
            raise RuleError(str(path), 0, f"{section}.{name}: unknown key(s) "
                            f"{', '.join(sorted(set(value) - keys))}")
        variants = tuple((k, rule(f"{name}.{k}", v, section))
                         for k, v in (value.get("variants") or {}).items())
        base = Rule(value.get("to"), value.get("note"), bool(value.get("review")),
                    value.get("package"), variants, bool(value.get("anchor")),
                    bool(value.get("value")))
        for choice, alternative in variants:  # the selected library variant wins
            if choice in chosen:
                return Rule(alternative.to, alternative.note or base.note,
                            alternative.review, alternative.package)
        return base

    def section(name: str) -> dict[bytes, Rule]:
        return {k.encode(): rule(k, v, name) for k, v in (doc.get(name) or {}).items()}

    arch = doc.get("architectures") or {}
    patterns = doc.get("unknown_patterns") or []
    unknown = re.compile(("|".join(f"(?:{p})" for p in patterns) or "(?!)").encode())
    return CMakeRules({k.encode(): v.encode() for k, v in (doc.get("languages") or {}).items()},
                      section("packages"), section("targets"), section("variables"),
                      section("commands"), section("flags"), unknown,
                      hashlib.sha256(raw).hexdigest()[:16], section("libraries"),
                      frozenset(n.encode() for n in arch.get("variables") or ()),
                      str(arch.get("default", "")).encode())


def parse(src: bytes) -> list[Command]:
    """Top-level command invocations of a CMake file."""
    commands: list[Command] = []
    pos, n = 0, len(src)
    pending: tuple[bytes, int] | None = None
    while pos < n:
        m = _TOKEN.match(src, pos)
        if m is None:
            raise CMakeSyntaxError(pos, "unterminated string or bracket argument")
        kind = m.lastgroup
        if kind == "open" and pending is not None:
            args, pos = _arguments(src, m.end())
            commands.append(Command(pending[0].lower(), pending[1], pos, args))
            pending = None
            continue
        if kind == "word" and _IDENT.fullmatch(m.group()):
            pending = (m.group(), m.start())
        elif kind not in ("space", "comment"):
            pending = None
        pos = m.end()
    return commands


def _arguments(src: bytes, pos: int) -> tuple[list[Arg], int]:
    args: list[Arg] = []
    depth = 1
    while True:
        m = _TOKEN.match(src, pos)
        if m is None:
            raise CMakeSyntaxError(pos, "unterminated command (missing ')')"
                                   if pos >= len(src) else "unterminated string")
        kind = m.lastgroup
        if kind == "open":
            depth += 1
        elif kind == "close":
            depth -= 1
            if depth == 0:
                return args, m.end()
        elif kind in ("word", "quoted", "bracket"):
            args.append(Arg(kind, m.start(), m.end(), m.group()))
        pos = m.end()


class _Translator:
    def __init__(self, src: bytes, rules: CMakeRules, path: str, rename: dict[str, str],
                 rel: str = "", renamed: frozenset[str] | None = None) -> None:
        self.src, self.rules, self.path, self.rename = src, rules, path, rename
        self.folder = posixpath.dirname(rel)
        self.renamed = renamed
        self.edits: list[Edit] = []
        self.findings: list[Finding] = []
        self.newline = b"\r\n" if b"\r\n" in src else b"\n"
        self._lines: list[int] | None = None
        self._consumed: set[int] = set()  # arguments a removed flag took as its value
        self._removed_to = 0  # where the last flag removed from a string ended

    def find(self, code: str, offset: int, message: str, name: bytes = b"") -> None:
        if self._lines is None:
            self._lines = [0] + [m.end() for m in re.finditer(rb"\n", self.src)]
        import bisect

        line = bisect.bisect_right(self._lines, offset)
        col = offset - self._lines[line - 1] + 1
        self.findings.append(Finding(code, message, self.path, line, col,
                                     identifier=name.decode("utf-8", "replace"),
                                     library="cmake", offset=offset))

    def edit(self, start: int, end: int, text: bytes, rule: str) -> None:
        self.edits.append(Edit(start, end, text, f"cmake:{rule}"))

    def rule_outcome(self, rule: Rule, start: int, end: int, name: bytes, what: str) -> None:
        """Apply a rename or report what cannot be renamed."""
        shown = name.decode("utf-8", "replace")
        if rule.to is None:
            code = "CP302" if rule.review else "CP301"
            self.find(code, start, f"{what} {shown}: " + (rule.note or "no equivalent on the target"),
                      name)
            return
        self.edit(start, end, rule.to.encode(), shown)
        if rule.review:
            self.find("CP302", start, f"{what} {shown} -> {rule.to}: {rule.note}", name)

    def run(self, commands: list[Command]) -> None:
        marked = self._already_marked(commands)
        toolkit: Command | None = None
        packages: list[str] = []
        for cmd in commands:
            rule = self.rules.commands.get(cmd.name)
            if rule is not None:
                self.rule_outcome(rule, cmd.start, cmd.start + len(cmd.name),
                                  self.src[cmd.start:cmd.start + len(cmd.name)], "command")
            if cmd.name in LANGUAGE_COMMANDS:
                for arg in cmd.args[1 if cmd.name == b"project" else 0:]:
                    to = self.rules.languages.get(arg.value)
                    if to is not None:
                        self.edit(arg.value_start, arg.value_start + len(arg.value),
                                  to + self._host_language(cmd, arg), "language")
            if cmd.name == b"find_package" and cmd.args:
                anchor = self._find_package(cmd)
                toolkit = toolkit or anchor
            self._arguments(cmd, packages)
            self._architectures(cmd)
            self._sources(cmd, marked)
        needed = sorted(set(packages))
        if needed and toolkit is not None:
            indent = self._indent(toolkit.start)
            text = b"".join(self.newline + indent + b"find_package(" + p.encode() + b" REQUIRED)"
                            for p in needed)
            self.edit(toolkit.end, toolkit.end, text, "package")
        elif needed:
            for p in needed:
                self.find("CP304", 0, f"add find_package({p} REQUIRED) for the mapped "
                          "imported targets", p.encode())

    def _host_language(self, cmd: Command, arg: Arg) -> bytes:
        """`` CXX`` after the target language in a ``project()`` that names languages but
        neither C nor C++: ROCm's hip package (``find_package(hip)``) needs one of them
        (FindThreads: "only works if either C or CXX language is enabled"), and
        ``project(p LANGUAGES CUDA)`` enables none."""
        if cmd.name != b"project":
            return b""
        values = [a.value for a in cmd.args[1:]]
        keywords = {b"VERSION", b"DESCRIPTION", b"HOMEPAGE_URL"}
        languages = [v for i, v in enumerate(values)
                     if v != b"LANGUAGES" and v not in keywords and (i == 0 or values[i - 1]
                                                                      not in keywords)]
        if arg.kind == "quoted" or any(v in (b"C", b"CXX", b"NONE") for v in languages):
            return b""
        return b" CXX"

    def _find_package(self, cmd: Command) -> Command | None:
        first = cmd.args[0]
        rule = self.rules.packages.get(first.value)
        if rule is None:
            return None
        self.rule_outcome(rule, first.value_start, first.value_start + len(first.value),
                          first.value, "package")
        if rule.to is None or not rule.anchor:
            return None
        if len(cmd.args) > 1 and _VERSION.match(cmd.args[1].value):
            self.edit(first.end, cmd.args[1].end, b"", "package-version")
        return cmd

    def _arguments(self, cmd: Command, packages: list[str]) -> None:
        previous = b""
        # Flags are read in the flag commands, and in any other command after a keyword
        # that names options (a project's own function: HecBench's
        # add_hecbench_benchmark(... COMPILE_OPTIONS -use_fast_math)) up to the next keyword.
        flags = cmd.name in FLAG_COMMANDS
        for index, arg in enumerate(cmd.args):
            if cmd.name not in FLAG_COMMANDS and arg.kind == "word" and _KEYWORD.fullmatch(arg.value):
                flags = _OPTIONS_KEYWORD.search(arg.value) is not None
            if arg.kind == "bracket" or arg.start in self._consumed:
                continue
            value, base = arg.value, arg.value_start
            library = self.rules.libraries.get(value)
            if library is not None and cmd.name not in LANGUAGE_COMMANDS:
                self.rule_outcome(library, base, base + len(value), value, "library")
                if library.to is not None and library.package:
                    packages.append(library.package)
                continue
            if previous in (b"LANGUAGE", b"LINKER_LANGUAGE") and value in self.rules.languages:
                self.edit(base, base + len(value), self.rules.languages[value], "language")
            previous = value
            if cmd.name in LANGUAGE_COMMANDS or (cmd.name == b"find_package" and arg is cmd.args[0]):
                continue
            if flags and self.rules.flags:
                for m in _FLAG.finditer(value):
                    self._flag(m.group(), base + m.start(), arg, cmd.args[index + 1:])
            for m in _PIECE.finditer(value):
                if m.group("target"):
                    self._target(m.group("target"), base + m.start(), packages)
                elif m.group("genex"):
                    self._genex(m, base)
                else:
                    self._name(m.group("name"), base + m.start())

    def _architectures(self, cmd: Command) -> None:
        """NVIDIA architecture values after an architectures variable or property
        (``set(CMAKE_CUDA_ARCHITECTURES 70 80)``, ``CUDA_ARCHITECTURES "75;86"``) become the
        target's default: HIP's compiler rejects them ("unsupported HIP gpu architecture")."""
        if not self.rules.arch_default or cmd.name not in FLAG_COMMANDS:
            return
        args = cmd.args
        for i, arg in enumerate(args):
            if arg.value not in self.rules.arch_names:
                continue
            values = []
            for value in args[i + 1:]:
                if value.kind == "bracket" or not _CUDA_ARCHS.fullmatch(value.value):
                    break
                values.append(value)
            if values:
                first, last = values[0], values[-1]
                start = first.value_start
                end = last.value_start + len(last.value)
                self.edit(start, end, self.rules.arch_default, "architectures")

    def _target(self, name: bytes, start: int, packages: list[str]) -> None:
        rule = self.rules.targets.get(name)
        if rule is None:
            self.find("CP303", start, f"imported target {name.decode()} has no CMake rule", name)
            return
        self.rule_outcome(rule, start, start + len(name), name, "imported target")
        if rule.to is not None and rule.package:
            packages.append(rule.package)

    def _flag(self, flag: bytes, start: int, arg: Arg, following: list[Arg]) -> None:
        rule = self.rules.flags.get(flag)
        if rule is None:
            rule = self.rules.flags.get(flag.split(b"=", 1)[0])
            if rule is None:
                return
            if rule.to:  # a renamed option keeps its own value: report only
                rule = Rule(None, f"use {rule.to}", True)
        if rule.to == "":
            self._remove_flag(rule, flag, start, arg, following)
            return
        self.rule_outcome(rule, start, start + len(flag), flag, "nvcc flag")

    def _remove_flag(self, rule: Rule, flag: bytes, start: int, arg: Arg,
                     following: list[Arg]) -> None:
        """Remove a flag HIP's compiler does without (and, for a flag that takes a value,
        ``-Xptxas -v``, that value: the next word of the string or the next argument),
        with the blanks after it in a string of flags, or the whole argument it is."""
        end = start + len(flag)
        value_end = arg.value_start + len(arg.value)
        shown = flag.decode("utf-8", "replace")
        if rule.value and b"=" not in flag:
            word = re.compile(rb"[ \t]+[^\s;\"]+").match(self.src, end, value_end)
            if word is not None:
                end = word.end()
                shown += " " + word.group().strip().decode("utf-8", "replace")
            elif end == value_end and following and following[0].kind != "bracket":
                self._consumed.add(following[0].start)
                self.edit(arg.end, following[0].end, b"", "flag")
                shown += " " + following[0].value.decode("utf-8", "replace")
        if start == arg.value_start and end == value_end:  # the whole argument
            begin, stop = arg.start, arg.end
            while begin > 0 and self.src[begin - 1] in b" \t":
                begin -= 1
            if begin == 0 or self.src[begin - 1] in b"\r\n":  # first on its line:
                begin = arg.start  # keep the indentation, drop the blanks after it
                stop = re.compile(rb"[ \t]*").match(self.src, stop).end()
            self.edit(begin, stop, b"", "flag")
        else:
            blanks = re.compile(rb"[ \t]*").match(self.src, end, value_end).end()
            begin = start
            if blanks == value_end:  # the last flag of the string: the blanks before it
                while begin > max(arg.value_start, self._removed_to) \
                        and self.src[begin - 1] in b" \t":
                    begin -= 1
            self.edit(begin, blanks, b"", "flag")
            self._removed_to = blanks
        self.find("CP306", start, f"nvcc flag {shown} removed: {rule.note or 'HIP does without it'}",
                  flag)

    def _genex(self, m: re.Match[bytes], base: int) -> None:
        langs_start = base + m.start("langs")
        for piece in re.finditer(rb"[^,]+", m.group("langs")):
            to = self.rules.languages.get(piece.group())
            if to is not None:
                s = langs_start + piece.start()
                self.edit(s, s + len(piece.group()), to, "language")
        if m.group("genex").endswith(b"_AND_ID") and b"NVIDIA" in m.group("langs"):
            self.find("CP302", base + m.start(), "compiler id NVIDIA never matches the HIP "
                      "compiler (Clang)", m.group("genex"))

    def _name(self, name: bytes, start: int) -> None:
        rule = self.rules.variables.get(name)
        if rule is not None:
            self.rule_outcome(rule, start, start + len(name), name, "variable")
        elif self.rules.unknown.fullmatch(name) and name not in self.rules.commands:
            self.find("CP303", start, f"{name.decode()} looks CUDA-specific but no CMake "
                      "rule knows it", name)

    def _sources(self, cmd: Command, marked: set[bytes]) -> None:
        """.cu sources: renamed with --rename, else marked LANGUAGE HIP after the command."""
        globbing = cmd.name == b"file" and cmd.args and cmd.args[0].value.startswith(b"GLOB")
        if cmd.name not in SOURCE_LIST_COMMANDS and not globbing and (
                cmd.name in NOT_SOURCE_COMMANDS or not self.rules.languages.get(b"CUDA")):
            return
        suffixes = [(s.encode(), t.encode()) for s, t in self.rename.items() if s != t]
        unmarked: list[bytes] = []
        kept_globs = False
        for arg in cmd.args[1:]:
            value = arg.value
            if arg.kind == "bracket" or not value.endswith(b".cu"):
                continue
            pattern = globbing or b"*" in value
            renamed = False
            for old, new in suffixes:
                if value.endswith(old) and self._renamed(value, cmd.args[0].value
                                                         if globbing else b""):
                    end = arg.value_start + len(value)
                    self.edit(end - len(old), end, new, "rename")
                    renamed = True
                    break
            if renamed:
                continue
            if pattern:
                kept_globs = kept_globs or globbing
            elif value not in marked:
                unmarked.append(value)
        if not self.rules.languages.get(b"CUDA"):
            return
        language = self.rules.languages[b"CUDA"]
        if kept_globs:
            variable = cmd.args[1].value if len(cmd.args) > 1 else b""
            ref = b"${" + variable + b"}"
            if variable and ref not in marked:
                unmarked.append(ref)
        if unmarked:
            indent = self._indent(cmd.start)
            line = (self.newline + indent + b"set_source_files_properties(" + b" ".join(unmarked)
                    + b" PROPERTIES LANGUAGE " + language + b")")
            self.edit(cmd.end, cmd.end, line, "source-language")

    def _renamed(self, value: bytes, glob: bytes) -> bool:
        """Whether the source path (or file(GLOB) pattern) ``value`` names a file this run
        renames: a path relative to this file's folder (or after
        ``${CMAKE_CURRENT_SOURCE_DIR}/``, ``${CMAKE_CURRENT_LIST_DIR}/``) that stays inside
        the tree. Absolute paths, other variables, paths out of the tree and files that
        are not translated are left as they are. Without the run's list (``renamed`` None,
        a lone CMake file), every path inside its folder counts."""
        text = value.decode("utf-8", "surrogateescape")
        for prefix in ("${CMAKE_CURRENT_SOURCE_DIR}/", "${CMAKE_CURRENT_LIST_DIR}/"):
            if text.startswith(prefix):
                text = text[len(prefix):].lstrip("/")
                break
        if not text or text.startswith("/") or "$" in text or "\\" in text:
            return False
        full = posixpath.normpath(posixpath.join(self.folder, text))
        if full == ".." or full.startswith("../"):
            return False
        if self.renamed is None:
            return True
        if not glob:
            return full in self.renamed
        if glob == b"GLOB_RECURSE":
            base, name = posixpath.split(full)
            return any(fnmatch.fnmatchcase(posixpath.basename(r), name)
                       and (not base or r.startswith(base + "/")) for r in self.renamed)
        return any(fnmatch.fnmatchcase(r, full) for r in self.renamed)

    def _already_marked(self, commands: list[Command]) -> set[bytes]:
        marked: set[bytes] = set()
        language = self.rules.languages.get(b"CUDA")
        for cmd in commands:
            if cmd.name != b"set_source_files_properties":
                continue
            values = [a.value for a in cmd.args]
            if b"PROPERTIES" in values:
                at = values.index(b"PROPERTIES")
                props = values[at + 1:]
                if any(props[i] == b"LANGUAGE" and props[i + 1] in (language, b"CUDA")
                       for i in range(len(props) - 1)):
                    marked.update(values[:at])
        return marked

    def _indent(self, offset: int) -> bytes:
        line_start = self.src.rfind(b"\n", 0, offset) + 1
        m = re.match(rb"[ \t]*", self.src[line_start:offset])
        return m.group() if m else b""


def translate_cmake(src: bytes, options: Options | None = None, path: str = "CMakeLists.txt",
                    rename: bool = False, rel: str = "",
                    renamed: frozenset[str] | None = None) -> CMakeResult:
    """Translate one CMake file; a file that cannot be parsed is returned unchanged with a
    CP305 finding. ``rename``: give ``.cu`` sources the target's extension, only those
    in ``renamed`` (paths below the tree root, as is ``rel``, this file's path) when
    given; the sources left as they are get ``LANGUAGE`` marks instead."""
    from .rules import get_compiled

    options = options or Options()
    rules = load_rules(options)
    extension_map = get_compiled(options).target.extensions if rename else {}
    translator = _Translator(src, rules, path, dict(extension_map), rel, renamed)
    try:
        commands = parse(src)
    except CMakeSyntaxError as exc:
        translator.find("CP305", exc.offset, str(exc))
        return CMakeResult(src, translator.findings, [], True)
    translator.run(commands)
    kept = resolve(translator.edits)
    translator.findings.sort(key=lambda f: (f.offset, f.code))
    return CMakeResult(apply(src, kept), translator.findings, kept,
                       bool(kept or translator.findings))
