"""Build scripts of PyTorch CUDA extensions (``setup.py``) under ``--framework pytorch``,
as the target's ``rules/<target>/frameworks/pytorch/python.yaml`` says.

A target whose PyTorch builds ``CUDAExtension``/``BuildExtension`` as written (ROCm
PyTorch hipifies the sources while building: ``builds_as_written``) gets no rewrite; the
report says so (CP602) and names flags in ``extra_compile_args['nvcc']`` that only nvcc
understands, with the target compiler's equivalent (CP603) or none (CP604), from the
``nvcc_flags`` table.

A target with a ``builder`` of its own (torch_musa's
``torch_musa.utils.musa_extension.MUSAExtension`` and ``BuildExtension``, which compile
``.mu`` sources with mcc and take device flags under the ``"mcc"`` key) gets the import,
the ``CUDAExtension`` calls and the ``"nvcc"`` key rewritten; ``.cu`` source names and
nvcc-only flags are reported (CP605), since whether the files are renamed is the caller's
choice.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

from ..translate.context import LineIndex
from ..source.edits import Edit, apply, resolve
from ..findings import Finding
from ..rules.frameworks import python_facts_in
from ..options import Options
from ..rules.compiled import get_compiled
from ..translate.pipeline import InputError, Result, check_text

CPP_EXTENSION = "torch.utils.cpp_extension"
BUILDERS = {"CUDAExtension", "BuildExtension"}


def python_facts(options) -> dict | None:
    """``python.yaml`` of the options' framework for their target: how the Python side of
    a project ports (device name, the module to import, the extension builder, nvcc flag
    equivalents); None without a framework or when the target gives none."""
    if not options.framework:
        return None
    folder = Path(get_compiled(options).table.files[0]).parent
    return python_facts_in(str(folder), options.framework)


def import_rule(options: Options) -> str:
    """The rule id of the edit importing the target's framework module; shared with
    python_side: one such import suffices."""
    return f"{options.target}/{options.framework}/import"


# Flags (prefixes) only nvcc understands, in the order they are matched; what each becomes
# is the target's fact (``nvcc_flags`` in its python.yaml).
NVCC_ONLY_FLAGS = (
    "--use_fast_math", "-use_fast_math", "-gencode", "--generate-code", "-arch",
    "--gpu-architecture", "-code", "--expt-relaxed-constexpr", "-expt-relaxed-constexpr",
    "--expt-extended-lambda", "--extended-lambda", "-lineinfo", "--ftz=true",
    "--fmad=true", "--default-stream", "-Xcompiler", "--compiler-options", "--threads",
    "-t", "-Xptxas", "--ptxas-options", "-maxrregcount", "--maxrregcount", "-Xfatbin",
    "--resource-usage", "--prec-div", "--prec-sqrt", "-keep",
)


def nvcc_flag(flag: str) -> str | None:
    """The nvcc-only flag ``flag`` is (``-arch=sm_80`` is ``-arch``), or None."""
    for name in NVCC_ONLY_FLAGS:
        if flag == name or flag.startswith(name + "=") or (
                name in ("-arch", "-code") and flag.startswith(name + "sm_")):
            return name
    return None


def is_extension_build_script(src: bytes) -> bool:
    return b"CUDAExtension" in src or b"cpp_extension" in src


def translate_build_script(src: bytes, options: Options | None = None,
                           path: str = "setup.py") -> Result:
    """Report on (PyTorch builds it as written) or rewrite (the target has its own
    builder) an extension's ``setup.py``; without facts for the target it passes through."""
    options = options or Options()
    check_text(src, path)
    index = LineIndex(src)
    facts = python_facts(options) or {}
    builder = facts.get("builder")
    if not builder and not facts.get("builds_as_written"):
        return Result(src, [], [], path, index)
    try:
        tree = ast.parse(src)
    except SyntaxError as exc:
        raise InputError(f"{path}:{exc.lineno or 0}: not valid Python ({exc.msg})") from None
    starts = [0] + [m.end() for m in re.finditer(rb"\n", src)]
    rewrite = builder is not None  # the target has a builder of its own
    setup_rule = f"{options.target}/{options.framework}/setup"
    flags = facts.get("nvcc_flags") or {}
    edits: list[Edit] = []
    findings: list[Finding] = []

    def at(node: ast.AST) -> int:
        return starts[node.lineno - 1] + node.col_offset

    def end(node: ast.AST) -> int:
        return starts[node.end_lineno - 1] + node.end_col_offset

    def find(code: str, node: ast.AST, message: str, ident: str = "") -> None:
        offset = at(node)
        line, col = index.linecol(offset)
        findings.append(Finding(code, message, path, line, col, identifier=ident,
                                library="pytorch", offset=offset))

    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call)
             and _callee(n.func) == "CUDAExtension"]
    ported = rewrite and any(isinstance(n, ast.ImportFrom) and n.module == builder["module"]
                          for n in ast.walk(tree))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == CPP_EXTENSION and rewrite \
                and not ported:
            _rewrite_import(src, node, at, end, edits, find, builder, facts, import_rule(options))
    if calls and not rewrite:
        find("CP602", calls[0], facts["builds_as_written"])
    assigned = _list_assignments(tree)
    for call in calls:
        if rewrite:
            func = call.func
            if isinstance(func, ast.Name):
                edits.append(Edit(at(func), end(func), builder["extension"].encode(), setup_rule))
            else:
                find("CP605", func, f"use {builder['module']}.{builder['extension']} here",
                     "CUDAExtension")
            sources = [s for s in _strings(_keyword(call, "sources") or (
                call.args[1] if len(call.args) > 1 else None), assigned)
                if s.value.endswith(".cu")]
            if sources:
                more = f" and {len(sources) - 1} more" if len(sources) > 1 else ""
                suffix = builder["device_suffix"]
                find("CP605", sources[0], f"{sources[0].value}{more}: {builder['extension']} "
                     f"compiles only {suffix} files as device code; rename the files (.cu -> "
                     f"{suffix}) and these entries", sources[0].value)
        args = _keyword(call, "extra_compile_args")
        if not isinstance(args, ast.Dict):
            continue
        for key, value in zip(args.keys, args.values):
            device_keys = ("nvcc", builder["compiler_key"]) if rewrite else ("nvcc",)
            if not (isinstance(key, ast.Constant) and key.value in device_keys):
                continue
            if rewrite and src[at(key) + 1:end(key) - 1] == b"nvcc":
                edits.append(Edit(at(key) + 1, end(key) - 1, builder["compiler_key"].encode(),
                                  setup_rule))
            for flag in _strings(value, assigned):
                name = nvcc_flag(flag.value)
                if name is None:
                    continue
                equivalent = flags.get(name)
                if rewrite:
                    key_name = builder["compiler_key"]
                    find("CP605", flag, f"{flag.value}: nvcc-only flag, now passed to {key_name}; "
                                        f"check {key_name}'s equivalent", name)
                elif equivalent is None:
                    find("CP604", flag, f"{flag.value}: nvcc-only flag with no "
                                        f"{facts['compiler'].removeprefix('the ')} equivalent; "
                                        f"drop it for {facts['platform']}", name)
                else:
                    find("CP603", flag, f"{flag.value}: nvcc-only flag; with "
                                        f"{facts['compiler']} use {equivalent}", name)
    kept = resolve(edits)
    findings.sort(key=lambda f: (f.offset, f.code))
    return Result(apply(src, kept), kept, findings, path, index)


def _rewrite_import(src: bytes, node: ast.ImportFrom, at, end, edits: list[Edit], find,
                    builder: dict, facts: dict, rule: str) -> None:
    """``from torch.utils.cpp_extension import CUDAExtension, BuildExtension`` -> the
    target builder's (torch_musa's)."""
    names = {a.name for a in node.names}
    if "CUDAExtension" not in names:
        return
    if names <= BUILDERS and all(a.asname is None for a in node.names):
        wanted = [builder["extension"] if a.name == "CUDAExtension" else a.name
                  for a in node.names]
        text = f"from {builder['module']} import {', '.join(wanted)}"
        edits.append(Edit(at(node), end(node), text.encode(), rule))
        return
    # Other names (CUDA_HOME, CppExtension) still come from PyTorch: import the target's
    # builders on the next line, so they shadow PyTorch's.
    line_end = src.find(b"\n", end(node))
    pos = len(src) if line_end < 0 else line_end + 1
    eol = b"\r\n" if src[line_end - 1:line_end] == b"\r" else b"\n"
    indent = b" " * node.col_offset
    prefix = eol if line_end < 0 else b""
    text = f"from {builder['module']} import {builder['extension']}, BuildExtension".encode()
    edits.append(Edit(pos, pos, prefix + indent + text + eol, rule))
    if "CUDA_HOME" in names:
        find("CP605", node, f"CUDA_HOME is not set for {facts['title']} builds; check how it "
             "is used", "CUDA_HOME")


def _callee(func: ast.AST) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _keyword(call: ast.Call, name: str) -> ast.AST | None:
    return next((k.value for k in call.keywords if k.arg == name), None)


def _list_assignments(tree: ast.Module) -> dict[str, list[ast.AST]]:
    """Values assigned (``=``, ``+=``, ``.append``/``.extend``) to each simple name."""
    out: dict[str, list[ast.AST]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    out.setdefault(target.id, []).append(node.value)
        elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name):
            out.setdefault(node.target.id, []).append(node.value)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("append", "extend", "insert") \
                and isinstance(node.func.value, ast.Name):
            out.setdefault(node.func.value.id, []).extend(node.args)
    return out


def _strings(node: ast.AST | None, assigned: dict[str, list[ast.AST]],
             seen: frozenset[str] = frozenset()) -> list[ast.Constant]:
    """String constants an expression is built from, following simple names."""
    if node is None:
        return []
    out: list[ast.Constant] = []
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            out.append(sub)
        elif isinstance(sub, ast.Name) and sub.id in assigned and sub.id not in seen:
            for value in assigned[sub.id]:
                out += _strings(value, assigned, seen | {sub.id})
    return out


def translate_pyproject(src: bytes, options: Options | None = None,
                        path: str = "pyproject.toml") -> Result:
    """``pyproject.toml`` of an extension: for a target with its own builder (MUSA), a
    build that requires ``torch`` needs the builder's package (``torch_musa``) too (the
    builder imports it); reported, not edited (CP605)."""
    import tomllib

    options = options or Options()
    check_text(src, path)
    index = LineIndex(src)
    result = Result(src, [], [], path, index)
    builder = (python_facts(options) or {}).get("builder")
    if not builder or not builder.get("requires"):
        return result
    needed = builder["requires"]
    try:
        data = tomllib.loads(src.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"{path}: not valid TOML ({exc})") from None
    requires = data.get("build-system", {}).get("requires", [])
    names = {re.split(r"[\s<>=!~;\[]", r, 1)[0].lower() for r in requires if isinstance(r, str)}
    if "torch" in names and needed not in names and needed.replace("_", "-") not in names:
        m = re.search(rb"""["']torch\b""", src)
        offset = m.start() + 1 if m else 0
        line, col = index.linecol(offset)
        result.findings.append(Finding(
            "CP605", f"build-system requires torch: {builder['extension']} also needs {needed} "
            "installed in the build environment", path, line, col, identifier="torch",
            library="pytorch", offset=offset))
    return result
