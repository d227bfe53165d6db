"""Translate CMake build files (CMakeLists.txt, *.cmake) from CUDA to the target.

Works like the source translator: a small tokenizer that knows CMake's comments, bracket
arguments and quoted arguments, edits on the original bytes, findings for what cannot be
migrated. The mappings are data (rules/<target>/build/cmake.yaml, see rules/README.md);
this module only knows CMake's syntax and a few commands' shapes (project,
enable_language, find_package, file(GLOB), source lists).
"""

from __future__ import annotations

import bisect
import fnmatch
import functools
import hashlib
import os
import posixpath
import re
from dataclasses import dataclass, field
from pathlib import Path

from .build_flags import (FlagTable, Word, load_table, merged_spans, read_rules,  # noqa: F401
                          rules_file, translate_words)
from ..source.edits import Edit, apply, resolve
from ..source.spans import Inside
from ..findings import Finding
from ..options import Options
from ..source.lazy_re import lazy

_TOKEN = lazy(rb"""
  (?P<comment>\#\[(?P<ceq>=*)\[.*?\](?P=ceq)\]|\#[^\r\n]*)
| (?P<bracket>\[(?P<beq>=*)\[.*?\](?P=beq)\])
| (?P<quoted>"(?:[^"\\]|\\.)*")
| (?P<open>\()
| (?P<close>\))
| (?P<space>[ \t\r\n]+)
| (?P<word>(?:[^\s()"\\\#]|\\.)(?:[^\s()"\\]|\\.)*)
""", re.S | re.X)
_IDENT = lazy(rb"[A-Za-z_][A-Za-z0-9_]*")
# Inside an argument: an imported target, a language generator expression, a name.
_PIECE = lazy(rb"(?P<target>\bCUDA::\w+)"
              rb"|\$<(?P<genex>COMPILE_LANGUAGE|LINK_LANGUAGE|COMPILE_LANG_AND_ID"
              rb"|LINK_LANG_AND_ID):(?P<langs>[^>]*)>"
              rb"|(?P<name>(?<![\w:])[A-Za-z_][A-Za-z0-9_]*)")
# NVIDIA GPU architectures as CMake's CUDA_ARCHITECTURES takes them, ;-separated.
_CUDA_ARCHS = lazy(rb"(?:(?:\d{2,3}[af]?(?:-real|-virtual)?|native|all|all-major)(?:;|\Z))+")
_VERSION = lazy(rb"\d+(?:\.\d+)*\Z")
# An if() argument naming a variable, or referring to one: NAME or ${NAME}.
_VARIABLE_OR_REF = lazy(rb"([A-Za-z_][A-Za-z0-9_]*)|\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_COMPARISONS = frozenset({b"VERSION_LESS", b"VERSION_GREATER", b"VERSION_EQUAL",
                          b"VERSION_LESS_EQUAL", b"VERSION_GREATER_EQUAL", b"LESS", b"GREATER",
                          b"EQUAL", b"LESS_EQUAL", b"GREATER_EQUAL", b"STREQUAL"})
# A token of a flag context: flags sit in lists, quoted strings and genexes.
_TOKEN_IN_ARG = lazy(rb"(?:\\[^\r\n]|[^\s;\\])+")  # (a backslash-newline separates)
# Where an option starts inside a token (``$<$<COMPILE_LANGUAGE:CUDA>:-Xptxas``,
# ``SHELL:-Xcudafe``).
_FLAG_START = lazy(rb"(?:\A|(?<=[:>\"]))-{1,2}[A-Za-z]")
# Flag variables holding one string of options (spaces between them, not ';').
_STRING_FLAGS = lazy(rb"CMAKE_\w+_FLAGS(?:_\w+)?\Z")
FLAG_COMMANDS = {b"set", b"string", b"list", b"target_compile_options", b"add_compile_options",
                 b"target_link_options", b"add_link_options", b"set_property",
                 b"set_target_properties", b"set_source_files_properties"}
_KEYWORD = lazy(rb"[A-Z][A-Z0-9_]*")
_OPTIONS_KEYWORD = lazy(rb"(?:OPTIONS|FLAGS)\Z")
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
    table: FlagTable | None  # the nvcc options (rules/<target>/build/flags.yaml)
    unknown: re.Pattern[bytes]
    digest: str
    libraries: dict[bytes, Rule] = field(default_factory=dict)  # plain link library names
    # architectures: the variables/properties naming GPU architectures, and the AMD one
    # their NVIDIA values (70, 80-real, native, all) become (the run's architecture)
    arch_names: frozenset[bytes] = frozenset()
    arch_default: bytes = b""
    switches: re.Pattern[bytes] | None = None  # the project's options selecting the target
    # variables holding CUDA's version, and the value of the CUDA the originals are checked
    # with (cmake.yaml's cuda_versions, target.yaml's cuda_version_values)
    cuda_versions: dict[bytes, bytes] = field(default_factory=dict)


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


@functools.lru_cache(maxsize=8)
def load_rules(options: Options) -> CMakeRules:
    """The target's CMake rules (empty when the target has none)."""
    from ..rules.schema import RuleError

    allowed = {"languages", "packages", "targets", "variables", "commands", "libraries",
               "unknown_patterns", "architectures", "cuda_versions"}
    path = rules_file(options)
    loaded = read_rules(path, allowed, "CMake rules")
    table = load_table(options)
    switches = _switch_pattern(options)
    if loaded is None:
        return CMakeRules({}, {}, {}, {}, {}, table, re.compile(rb"(?!)"), "none",
                          switches=switches)
    doc, raw = loaded
    chosen = {choice for _, choice in options.variants}

    def rule(name: str, value: object, section: str) -> Rule:
        if value is None or isinstance(value, str):
            return Rule(value)
        if not isinstance(value, dict):
            raise RuleError(str(path), 0, f"{section}.{name}: expected a name, null or a mapping")
        keys = {"to", "note", "review", "package", "target", "variants", "anchor"}
        if set(value) - keys:
            raise RuleError(str(path), 0, f"{section}.{name}: unknown key(s) "
                            f"{', '.join(sorted(set(value) - keys))}")
        variants = tuple((k, rule(f"{name}.{k}", v, section))
                         for k, v in (value.get("variants") or {}).items())
        base = Rule(value.get("to"), value.get("note"), bool(value.get("review")),
                    value.get("package"), variants, bool(value.get("anchor")))
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
                      section("commands"), table, unknown,
                      hashlib.sha256(raw).hexdigest()[:16], section("libraries"),
                      frozenset(n.encode() for n in arch.get("variables") or ()),
                      (table.arch_default if table else "").encode(), switches,
                      _cuda_versions(options, doc.get("cuda_versions") or {}, path))


def _cuda_versions(options: Options, parts: dict, path: Path) -> dict[bytes, bytes]:
    """Each of cmake.yaml's ``cuda_versions`` variables and the part of CUDA's version it
    holds, from target.yaml's ``cuda_version_values`` (``__CUDACC_VER_MAJOR__`` ...)."""
    from ..rules.compiled import get_compiled
    from ..rules.schema import RuleError

    values = get_compiled(options).target.extra.get("cuda_version_values") or {}
    major, minor, patch = (values.get(f"__CUDACC_VER_{p}__") for p in ("MAJOR", "MINOR", "BUILD"))
    if major is None or minor is None or patch is None:
        return {}
    known = {"version": f"{major}.{minor}.{patch}", "major.minor": f"{major}.{minor}",
             "major": f"{major}", "minor": f"{minor}", "patch": f"{patch}"}
    out = {}
    for name, part in parts.items():
        if part not in known:
            raise RuleError(str(path), 0, f"cuda_versions.{name}: {part!r} is none of "
                            f"{', '.join(known)}")
        out[name.encode()] = known[part].encode()
    return out


def _switch_pattern(options: Options) -> re.Pattern[bytes] | None:
    """The target's ``platform_macro_pattern`` (target.yaml): names of a project's own
    switches that select the target (``USE_ROCM``, ``GINKGO_BUILD_HIP``); a CMake option so
    named is on in the project's build for the target, as such a macro is defined."""
    from ..rules.target import read_target

    target = rules_file(options).parent.parent / "target.yaml"
    try:
        info = read_target(target, target.read_bytes())
    except OSError:
        return None
    pattern = info.extra.get("platform_macro_pattern")
    return re.compile(pattern.encode()) if pattern else None


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

    def line_start(self, offset: int) -> int:
        """Where the line holding ``offset`` starts."""
        if self._lines is None:
            self._lines = [0] + [m.end() for m in re.finditer(rb"\n", self.src)]
        return self._lines[bisect.bisect_right(self._lines, offset) - 1]

    def newline_after(self, offset: int) -> int:
        """The offset of the newline ending the line that holds ``offset`` (-1: none)."""
        self.line_start(offset)
        k = bisect.bisect_right(self._lines, offset)
        return self._lines[k] - 1 if k < len(self._lines) else -1

    def find(self, code: str, offset: int, message: str, name: bytes = b"") -> None:
        if self._lines is None:
            self._lines = [0] + [m.end() for m in re.finditer(rb"\n", self.src)]
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
        changed = self._flags(cmd)
        starts = [s for s, _ in changed]
        previous = b""
        answered = self._version_gate(cmd) if cmd.name in (b"if", b"elseif") else set()
        for arg in cmd.args:
            if arg.kind == "bracket" or arg.start in answered:
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
            for m in _PIECE.finditer(value):
                at = base + m.start()
                k = bisect.bisect_right(starts, at) - 1
                if k >= 0 and at < changed[k][1]:
                    continue  # inside an option the flag table rewrote or removed
                if m.group("target"):
                    self._target(m.group("target"), at, packages)
                elif m.group("genex"):
                    self._genex(m, base)
                else:
                    self._name(m.group("name"), at)

    def _version_gate(self, cmd: Command) -> set[int]:
        """A variable holding CUDA's version beside a comparison operator of ``if()``
        (``CUDAToolkit_VERSION VERSION_LESS 11.8``, ``${CUDAToolkit_VERSION_MAJOR} LESS
        13``): empty in a HIP build, which then takes the branch of no CUDA (a project's
        own FATAL_ERROR for an old one). It becomes the value of the CUDA the originals are
        checked with, as a version gate in a source takes that CUDA's branch; CP302 says
        so. Where the arguments it rewrote start."""
        versions = self.rules.cuda_versions
        answered: set[int] = set()
        if not versions:
            return answered
        args = cmd.args
        for i, arg in enumerate(args):
            m = _VARIABLE_OR_REF.fullmatch(arg.value) if arg.kind != "bracket" else None
            if m is None or arg.kind == "quoted" and m.group(2) is None:
                continue  # (a quoted name is a string)
            name = m.group(1) or m.group(2)
            if name not in versions:
                continue
            before = args[i - 1].value if i and args[i - 1].kind == "word" else b""
            after = args[i + 1].value if i + 1 < len(args) and args[i + 1].kind == "word" else b""
            if before not in _COMPARISONS and after not in _COMPARISONS:
                continue
            value = versions[name]
            self.edit(arg.start, arg.end, value, "cuda-version")
            answered.add(arg.start)
            self.find("CP302", arg.start, f"{name.decode()} compared: a HIP build has no CUDA "
                      f"version (the variable is empty there, and the branch for no CUDA is "
                      f"taken); the translation compares {value.decode()}, the version of "
                      f"the CUDA the originals are checked with, so the HIP build takes the "
                      f"branch that CUDA takes (target.yaml's cuda_version_values); compare "
                      f"hip_VERSION where HIP's own version matters", name)
        return answered

    def _flags(self, cmd: Command) -> list[tuple[int, int]]:
        """The nvcc options of the command's flag contexts, by the one flag table
        (cudaport.builds.build_flags); the (start, end) spans it changed, in order. Flags are read
        in the flag commands, and in any other command after a keyword that names options
        (a project's own function: HecBench's add_hecbench_benchmark(... COMPILE_OPTIONS
        -use_fast_math)) up to the next keyword."""
        table = self.rules.table
        if table is None or cmd.name in LANGUAGE_COMMANDS or cmd.name == b"string" and (
                not cmd.args or cmd.args[0].value in (b"REGEX", b"FIND", b"COMPARE")):
            return []  # (a regular expression or a string searched for is no option list)
        words: list[Word] = []
        owner: dict[int, Arg] = {}
        segment = 0
        flags = cmd.name in FLAG_COMMANDS
        for arg in cmd.args:
            if cmd.name not in FLAG_COMMANDS and arg.kind == "word" and _KEYWORD.fullmatch(arg.value):
                flags = _OPTIONS_KEYWORD.search(arg.value) is not None
                continue
            if not flags or arg.kind == "bracket":
                continue
            for m in _TOKEN_IN_ARG.finditer(arg.value):
                token = m.group()
                start = _FLAG_START.search(token)
                begin = start.start() if start is not None else 0
                if b"$<" in token[:begin] or start is None and token.startswith(b"$<"):
                    segment += 1  # (a generator expression opens: options pair inside it)
                word = token[begin:]
                extra = word.count(b">") - word.count(b"$<")  # '>'s closing ones opened before
                end = len(token)
                while extra > 0 and end > begin and token[end - 1:end] == b">":
                    end -= 1
                    extra -= 1
                if end > begin and (start is not None or not token.startswith(b"$")):
                    at = arg.value_start + m.start()
                    words.append(Word(at + begin, at + end,
                                      token[begin:end].decode("utf-8", "surrogateescape"), segment))
                    owner[at + begin] = arg
                if end < len(token):
                    segment += 1
        if not words:
            return []
        arch = f"--offload-arch={table.arch_default}"
        changes, notes, _ = translate_words(words, table, arch)
        spans: list[tuple[int, int]] = []
        removed: list[tuple[int, int, Arg]] = []
        lists: dict[int, bool] = {}
        for change in changes:
            arg = owner.get(change.start) or self._arg_at(cmd, change.start)
            spans.append((change.start, change.end))
            if change.text is None:
                removed.append((change.start, change.end, arg))
            else:
                text = change.text.encode("utf-8", "surrogateescape")
                whole = change.start == arg.value_start and change.end == arg.value_start + len(
                    arg.value) and arg.kind == "word"
                if b" " in text and not whole:
                    if arg.start not in lists:
                        lists[arg.start] = self._list_context(cmd, arg)
                    if lists[arg.start]:
                        text = text.replace(b" ", b";")
                self.edit(change.start, change.end, text, "flag")
        runs = _runs(removed, self.src)
        if runs and _positional(cmd):  # an argument's place counts: it stays, empty
            whole = [r for r in runs if r[0] <= r[2].value_start and
                     r[1] >= r[2].value_start + len(r[2].value)]
            for _, _, arg in whole:
                self.edit(arg.start, arg.end, b'""', "flag")
            runs = [r for r in runs if r not in whole]
        for start, end in merged_spans(self._removal(start, end, arg) for start, end, arg in runs):
            self.edit(*self._whole_line(start, end), b"", "flag")
        for note in notes:
            self.find(_FLAG_CODES[note.outcome], note.offset, note.message, note.shown.encode())
        return sorted(spans)

    def _whole_line(self, start: int, end: int) -> tuple[int, int]:
        """A removal that leaves its line blank takes the line."""
        src = self.src
        line = self.line_start(start)
        newline = self.newline_after(end)
        if line > 0 and newline >= 0 and _blank_back(src, start, line) == line \
                and _blank_forward(src, end, newline, b" \t\r") == newline:
            return line, newline + 1
        return start, end

    @staticmethod
    def _arg_at(cmd: Command, offset: int) -> Arg:
        return next(a for a in cmd.args if a.start <= offset < a.end)

    def _list_context(self, cmd: Command, arg: Arg) -> bool:
        """Whether options in ``arg`` are separated by ';' (a list: compile options, a
        generator expression) rather than spaces (a flag variable's string, ``SHELL:``).
        (A whole unquoted argument is neither: two arguments are two options.)"""
        value_end = arg.value_start + len(arg.value)
        if cmd.name in (b"set", b"string", b"list") and any(
                _STRING_FLAGS.search(a.value) for a in cmd.args[:3]):
            return False
        inside = self.src[arg.value_start:value_end]
        if b"SHELL:" in inside:
            return False
        if arg.kind == "quoted" and re.search(rb"[ \t]", inside):
            return False
        return True

    def _removal(self, start: int, end: int, arg: Arg) -> tuple[int, int]:
        """The span removing the options ``src[start:end]`` of ``arg``: the whole argument
        when they are all of it (with the blanks before it, or after it when it is first on
        its line; the line when nothing else is on it); else with one separator inside the
        argument (blanks or one ';'): the one after them when more follows, else the one
        before."""
        src = self.src
        value_end = arg.value_start + len(arg.value)
        if src[arg.value_start:start] in (b"", b"SHELL:") and not src[end:value_end].strip():
            start, end = arg.value_start, value_end  # (nothing of the argument would stay)
        if start == arg.value_start and end == value_end:  # the whole argument
            begin, stop = arg.start, arg.end
            line = self.line_start(begin)
            after = stop
            while after < len(src) and src[after] in b" \t":
                after += 1
            if _blank_back(src, begin, line) == line:  # first on its line
                if after >= len(src) or src[after] in b"\r\n":  # alone on it: the line goes
                    newline = src.find(b"\n", after)
                    if line > 0 and newline >= 0:
                        return line, newline + 1
                return begin, after
            while begin > 0 and src[begin - 1] in b" \t":
                begin -= 1
            return begin, stop
        after = end
        while after < value_end and src[after] in b" \t\r\n":
            after += 1
        if after == end and after < value_end and src[after] == 0x3B:
            after += 1
        if after < value_end and after > end:
            return start, after
        before = start
        while before > arg.value_start and src[before - 1] in b" \t\r\n":
            before -= 1
        if before == start and before > arg.value_start and src[before - 1] == 0x3B:
            before -= 1
        return before, end

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

    def _missed_mark(self, cmd: Command, arg, value: bytes) -> None:
        """A .cu name given to a project's own function or macro is marked LANGUAGE HIP by
        that name; when no such file sits next to the CMake file, the function makes
        another path of it (BabelStream's ``register_model(cuda CUDA CUDAStream.cu)`` adds
        ``src/cuda/CUDAStream.cu``), the mark reaches nothing, and CMake's HIP language,
        which compiles only ``.hip`` files by their name, leaves the source out: the link
        then fails with no error on it. Said here (CP302), where it can be fixed."""
        folder = os.path.dirname(self.path)
        if b"$" in value or not os.path.isdir(folder or ".") or not os.path.isfile(self.path):
            return  # (a variable, or no file on disk to look beside)
        name = value.decode("utf-8", "surrogateescape")
        if os.path.exists(os.path.join(folder, name)):
            return
        self.find("CP302", arg.value_start, f"{name} given to {cmd.name.decode()}() is marked "
                  f"LANGUAGE HIP by this name, but no {name} is next to this file: if "
                  f"{cmd.name.decode()} makes another path of it, mark that path LANGUAGE HIP "
                  "(CMake's HIP language compiles a .cu file only when it is marked)", value)

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
            if arg.kind == "bracket" or not value.endswith(b".cu") or b"$<" in value:
                continue  # (set_source_files_properties takes no generator expression)
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
                if cmd.name not in SOURCE_LIST_COMMANDS:
                    self._missed_mark(cmd, arg, value)
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
        line_start = self.line_start(offset)
        m = re.match(rb"[ \t]*", self.src[line_start:offset])
        return m.group() if m else b""


# ---------------------------------------------------------------------------------------
# if()/elseif()/else() on the project's own switch for the target: the lines a build for the
# target runs, as #if on a platform macro decides for sources.

_VARIABLE_REF = lazy(rb"\$\{(\w+)\}")


_NOTHING = re.compile(rb"(?!)")
_BRANCH_KINDS = {b"if": b"if", b"elseif": b"elif", b"else": b"else", b"endif": b"endif"}


def _condition(args: list[Arg]) -> bytes:
    """A CMake condition in the form the ``#if`` walker reads (cudaport.preprocessor.platform_branches):
    ``NAME`` or ``!NAME`` for ``if(NAME)``/``if(${NAME})``/``if(NOT NAME)``; anything else
    is not known (``?``)."""
    values = [a.value for a in args]
    negate = False
    while values and values[0] == b"NOT":
        negate = not negate
        values = values[1:]
    if len(values) != 1:
        return b"?"
    ref = _VARIABLE_REF.fullmatch(values[0])
    name = ref.group(1) if ref is not None else values[0]
    if not _IDENT.fullmatch(name):
        return b"?"
    return (b"!" if negate else b"") + name


def _branch_spans(commands: list[Command], switches: re.Pattern[bytes] | None,
                  select) -> list[tuple[int, int]]:
    """Spans of the file's ``if()`` branches whose test ``select`` picks (True: a build for
    the target runs it for certain, False: never, None: not known), nested ones folded:
    the project's switch for the target (a name ``switches`` matches) is on in that build,
    as a platform macro is defined; the same walker as a source's ``#if``."""
    from ..preprocessor.platform_branches import _spans

    switches = switches or _NOTHING
    directives = []
    for cmd in commands:
        kind = _BRANCH_KINDS.get(cmd.name)
        if kind is not None:
            cond = _condition(cmd.args) if kind in (b"if", b"elif") else b""
            directives.append((cmd.start, kind, cond, cmd.end))
    if not directives:
        return []
    return _spans(directives, lambda name: switches.fullmatch(name) is not None, None, select)


def never_run_spans(commands: list[Command], switches: re.Pattern[bytes] | None
                    ) -> list[tuple[int, int]]:
    """Byte spans of the branches a build for the target never runs: the ``else()`` of the
    project's ``if(ENABLE_ROCM)``, the body of ``if(NOT USE_HIP)``."""
    return _branch_spans(commands, switches, lambda test: test is False)



_DEFINE = lazy(rb"[-/]D([A-Za-z_]\w*)(?:=(\S*))?\Z")
_NAME_VALUE = lazy(rb"(?:-D)?([A-Za-z_]\w*)(?:=(.*))?\Z", re.S)
_DEFINITION_KEYWORDS = frozenset({b"PUBLIC", b"PRIVATE", b"INTERFACE"})


def hip_build_defines(src: bytes, options: Options | None = None) -> dict[str, str]:
    """The macros a build of this project for the target defines, by this CMake file: the
    ``-D`` of ``add_definitions``, ``add_compile_definitions``,
    ``target_compile_definitions``, compile options and ``CMAKE_<LANG>_FLAGS`` in commands
    the build runs for certain: outside every ``if()``, or only inside branches the
    project's own switch for the target selects (``if(ENABLE_ROCM)``
    ``add_definitions(-DUSE_AMD_ROCM)``: ``{"USE_AMD_ROCM": "1"}``). Name -> value (``"1"``
    for ``-DNAME``, as the compiler defines it); a value or name that a variable or
    generator expression gives is left out. A file that does not parse defines nothing."""
    rules = load_rules(options or Options())
    try:
        commands = parse(src)
    except CMakeSyntaxError:
        return {}
    uncertain = Inside(_branch_spans(commands, rules.switches, lambda test: test is not True))
    found: dict[str, str] = {}
    for cmd in commands:
        if uncertain(cmd.start):
            continue
        for name, value in _definitions(cmd):
            if b"$" in value or b"$" in name:
                continue
            found[name.decode()] = value.decode("utf-8", "replace")
    return found


def project_hip_defines(paths, options: Options | None = None) -> dict[str, str]:
    """:func:`hip_build_defines` of several CMake files (a project's ``CMakeLists.txt`` and
    ``*.cmake``), together; a file that cannot be read defines nothing."""
    found: dict[str, str] = {}
    for path in paths:
        try:
            data = Path(path).read_bytes()
        except OSError:
            continue
        found.update(hip_build_defines(data, options))
    return found


def _definitions(cmd: Command):
    """(name, value) of each macro a command defines."""
    values = [a.value for a in cmd.args if a.kind != "bracket"]
    if cmd.name in (b"add_compile_definitions", b"target_compile_definitions"):
        items = values[1:] if cmd.name == b"target_compile_definitions" else values
        for item in items:
            for part in item.split(b";"):
                m = _NAME_VALUE.match(part)
                if part not in _DEFINITION_KEYWORDS and m is not None:
                    yield m.group(1), m.group(2) if m.group(2) is not None else b"1"
        return
    if cmd.name in (b"add_definitions", b"add_compile_options", b"target_compile_options") or (
            cmd.name in (b"set", b"string", b"list")
            and any(_STRING_FLAGS.search(v) for v in values[:3])):
        for item in values:
            for token in re.split(rb"[\s;]+", item):
                m = _DEFINE.match(token)
                if m is not None:
                    yield m.group(1), m.group(2) if m.group(2) is not None else b"1"


# What each outcome of the flag table is reported as in a CMake file.
_FLAG_CODES = {"removed": "CP306", "dropped": "CP311", "kept": "CP301", "review": "CP302"}


def _runs(removed: list[tuple[int, int, Arg]], src: bytes) -> list[tuple[int, int, Arg]]:
    """Removed options of one argument with only separators (blanks, ';') between them,
    joined into one run, removed as one option is."""
    out: list[tuple[int, int, Arg]] = []
    for start, end, arg in sorted(removed, key=lambda r: r[0]):
        if out and out[-1][2] is arg and not src[out[-1][1]:start].strip(b" \t\r\n;"):
            out[-1] = (out[-1][0], end, arg)
        else:
            out.append((start, end, arg))
    return out


_PROPERTY_PAIRS = frozenset({b"set_target_properties", b"set_source_files_properties",
                             b"set_tests_properties", b"set_directory_properties"})
_GROWING = frozenset({b"APPEND", b"PREPEND", b"REMOVE_ITEM"})


def _positional(cmd: Command) -> bool:
    """Whether removing an argument of ``cmd`` would shift the meaning of the others:
    ``string(REPLACE "-G" "" ...)``, property pairs, ``set(VAR "-Xptxas -v")`` (which would
    unset VAR)."""
    if cmd.name in _PROPERTY_PAIRS:
        return True
    first = cmd.args[0].value if cmd.args else b""
    if cmd.name in (b"string", b"list"):
        return first not in _GROWING
    if cmd.name == b"set":
        values = [a for a in cmd.args[1:] if a.value not in (b"CACHE", b"PARENT_SCOPE")]
        return len(values) == 1
    return False


def _blank_back(src: bytes, i: int, stop: int) -> int:
    while i > stop and src[i - 1] in b" \t":
        i -= 1
    return i


def _blank_forward(src: bytes, i: int, stop: int, blanks: bytes = b" \t") -> int:
    while i < stop and src[i] in blanks:
        i += 1
    return i


def translate_cmake(src: bytes, options: Options | None = None, path: str = "CMakeLists.txt",
                    rename: bool = False, rel: str = "",
                    renamed: frozenset[str] | None = None) -> CMakeResult:
    """Translate one CMake file; a file that cannot be parsed is returned unchanged with a
    CP305 finding. ``rename``: give ``.cu`` sources the target's extension, only those
    in ``renamed`` (paths below the tree root, as is ``rel``, this file's path) when
    given; the sources left as they are get ``LANGUAGE`` marks instead."""
    from ..rules import get_compiled

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
    dead = never_run_spans(commands, rules.switches)
    if dead:  # (findings where a build for the target never goes are not its problems)
        inside = Inside(dead)
        translator.findings = [f for f in translator.findings if not inside(f.offset)]
    kept = resolve(translator.edits)
    translator.findings.sort(key=lambda f: (f.offset, f.code))
    return CMakeResult(apply(src, kept), translator.findings, kept,
                       bool(kept or translator.findings))
