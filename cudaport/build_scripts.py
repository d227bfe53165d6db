"""Build scripts of PyTorch CUDA extensions (``setup.py``) under ``--framework pytorch``.

HIP: ROCm PyTorch builds ``CUDAExtension``/``BuildExtension`` extensions as written (it
hipifies the sources while building), so nothing is rewritten; the report says so (CP602)
and names flags in ``extra_compile_args['nvcc']`` that only nvcc understands, with the
HIP compiler's (clang's) equivalent (CP603) or none (CP604).

MUSA: torch_musa ships its own builder, ``torch_musa.utils.musa_extension.MUSAExtension``
and ``BuildExtension``, which compiles ``.mu`` sources with mcc and takes device flags
under the ``"mcc"`` key (MooreThreads/torch_musa torch_musa/utils/musa_extension.py; user
projects pass ``extra_compile_args["mcc"]``). The import, the ``CUDAExtension`` calls and
the ``"nvcc"`` key are rewritten; ``.cu`` source names and nvcc-only flags are reported
(CP605), since whether the files are renamed is the caller's choice.
"""

from __future__ import annotations

import ast
import re

from .context import LineIndex
from .edits import Edit, apply, resolve
from .findings import Finding
from .options import Options
from .translate import InputError, Result, check_text

CPP_EXTENSION = "torch.utils.cpp_extension"
MUSA_EXTENSION = "torch_musa.utils.musa_extension"
BUILDERS = {"CUDAExtension", "BuildExtension"}
IMPORT_RULE = "musa/pytorch/import"  # shared with python_side: one torch_musa import suffices

# nvcc-only flag (prefix) -> clang/hipcc equivalent, or None when there is none.
# Equivalents: clang's HIP options (clang.llvm.org/docs/ClangCommandLineReference.html,
# "--offload-arch", "-fgpu-flush-denormals-to-zero", "-fgpu-default-stream") and
# ROCm PyTorch's PYTORCH_ROCM_ARCH for the architectures an extension is built for.
NVCC_FLAGS: tuple[tuple[str, str | None], ...] = (
    ("--use_fast_math", "-ffast-math"),
    ("-use_fast_math", "-ffast-math"),
    ("-gencode", "--offload-arch=gfxNNN (or set PYTORCH_ROCM_ARCH)"),
    ("--generate-code", "--offload-arch=gfxNNN (or set PYTORCH_ROCM_ARCH)"),
    ("-arch", "--offload-arch=gfxNNN (or set PYTORCH_ROCM_ARCH)"),
    ("--gpu-architecture", "--offload-arch=gfxNNN (or set PYTORCH_ROCM_ARCH)"),
    ("-code", "--offload-arch=gfxNNN (or set PYTORCH_ROCM_ARCH)"),
    ("--expt-relaxed-constexpr", "no flag (clang allows constexpr host calls in device code)"),
    ("-expt-relaxed-constexpr", "no flag (clang allows constexpr host calls in device code)"),
    ("--expt-extended-lambda", "no flag (clang accepts __device__ lambdas)"),
    ("--extended-lambda", "no flag (clang accepts __device__ lambdas)"),
    ("-lineinfo", "-gline-tables-only"),
    ("--ftz=true", "-fgpu-flush-denormals-to-zero"),
    ("--fmad=true", "-ffp-contract=fast"),
    ("--default-stream", "-fgpu-default-stream=per-thread"),
    ("-Xcompiler", "the host flags themselves (clang compiles host and device code)"),
    ("--compiler-options", "the host flags themselves (clang compiles host and device code)"),
    ("--threads", None), ("-t", None),
    ("-Xptxas", None), ("--ptxas-options", None), ("-maxrregcount", None),
    ("--maxrregcount", None), ("-Xfatbin", None), ("--resource-usage", None),
    ("--prec-div", None), ("--prec-sqrt", None), ("-keep", None),
)


def nvcc_flag(flag: str) -> tuple[str, str | None] | None:
    """The table row for ``flag`` (``-arch=sm_80`` matches ``-arch``), or None."""
    for name, equivalent in NVCC_FLAGS:
        if flag == name or flag.startswith(name + "=") or (
                name in ("-arch", "-code") and flag.startswith(name + "sm_")):
            return name, equivalent
    return None


def is_extension_build_script(src: bytes) -> bool:
    return b"CUDAExtension" in src or b"cpp_extension" in src


def translate_build_script(src: bytes, options: Options | None = None,
                           path: str = "setup.py") -> Result:
    """Report (HIP) or rewrite (MUSA) an extension's ``setup.py``; others pass through."""
    options = options or Options()
    check_text(src, path)
    index = LineIndex(src)
    if options.framework != "pytorch" or options.target not in ("hip", "musa"):
        return Result(src, [], [], path, index)
    try:
        tree = ast.parse(src)
    except SyntaxError as exc:
        raise InputError(f"{path}:{exc.lineno or 0}: not valid Python ({exc.msg})") from None
    starts = [0] + [m.end() for m in re.finditer(rb"\n", src)]
    musa = options.target == "musa"
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
    ported = any(isinstance(n, ast.ImportFrom) and n.module == MUSA_EXTENSION
                 for n in ast.walk(tree))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == CPP_EXTENSION and musa \
                and not ported:
            _rewrite_import(src, node, at, end, edits, find)
    if calls and not musa:
        find("CP602", calls[0], "ROCm PyTorch builds CUDAExtension/BuildExtension as written "
                                "(it hipifies the sources while building); no change needed")
    assigned = _list_assignments(tree)
    for call in calls:
        if musa:
            func = call.func
            if isinstance(func, ast.Name):
                edits.append(Edit(at(func), end(func), b"MUSAExtension", "musa/pytorch/setup"))
            else:
                find("CP605", func, "use torch_musa.utils.musa_extension.MUSAExtension here",
                     "CUDAExtension")
            sources = [s for s in _strings(_keyword(call, "sources") or (
                call.args[1] if len(call.args) > 1 else None), assigned)
                if s.value.endswith(".cu")]
            if sources:
                more = f" and {len(sources) - 1} more" if len(sources) > 1 else ""
                find("CP605", sources[0], f"{sources[0].value}{more}: MUSAExtension compiles "
                     "only .mu files as device code; rename the files (.cu -> .mu) and these "
                     "entries", sources[0].value)
        args = _keyword(call, "extra_compile_args")
        if not isinstance(args, ast.Dict):
            continue
        for key, value in zip(args.keys, args.values):
            device_keys = ("nvcc", "mcc") if musa else ("nvcc",)
            if not (isinstance(key, ast.Constant) and key.value in device_keys):
                continue
            if musa and src[at(key) + 1:end(key) - 1] == b"nvcc":
                edits.append(Edit(at(key) + 1, end(key) - 1, b"mcc", "musa/pytorch/setup"))
            for flag in _strings(value, assigned):
                row = nvcc_flag(flag.value)
                if row is None:
                    continue
                name, equivalent = row
                if musa:
                    find("CP605", flag, f"{flag.value}: nvcc-only flag, now passed to mcc; "
                                        "check mcc's equivalent", name)
                elif equivalent is None:
                    find("CP604", flag, f"{flag.value}: nvcc-only flag with no HIP compiler "
                                        "equivalent; drop it for ROCm", name)
                else:
                    find("CP603", flag, f"{flag.value}: nvcc-only flag; with the HIP "
                                        f"compiler use {equivalent}", name)
    kept = resolve(edits)
    findings.sort(key=lambda f: (f.offset, f.code))
    return Result(apply(src, kept), kept, findings, path, index)


def _rewrite_import(src: bytes, node: ast.ImportFrom, at, end, edits: list[Edit], find) -> None:
    """``from torch.utils.cpp_extension import CUDAExtension, BuildExtension`` -> torch_musa's."""
    names = {a.name for a in node.names}
    if "CUDAExtension" not in names:
        return
    if names <= BUILDERS and all(a.asname is None for a in node.names):
        wanted = ["MUSAExtension" if a.name == "CUDAExtension" else a.name for a in node.names]
        text = f"from {MUSA_EXTENSION} import {', '.join(wanted)}"
        edits.append(Edit(at(node), end(node), text.encode(), IMPORT_RULE))
        return
    # Other names (CUDA_HOME, CppExtension) still come from PyTorch: import torch_musa's
    # builders on the next line, so they shadow PyTorch's.
    line_end = src.find(b"\n", end(node))
    pos = len(src) if line_end < 0 else line_end + 1
    eol = b"\r\n" if src[line_end - 1:line_end] == b"\r" else b"\n"
    indent = b" " * node.col_offset
    prefix = eol if line_end < 0 else b""
    text = f"from {MUSA_EXTENSION} import MUSAExtension, BuildExtension".encode()
    edits.append(Edit(pos, pos, prefix + indent + text + eol, IMPORT_RULE))
    if "CUDA_HOME" in names:
        find("CP605", node, "CUDA_HOME is not set for MUSA builds; check how it is used",
             "CUDA_HOME")


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
    """``pyproject.toml`` of an extension: for MUSA, a build that requires ``torch`` needs
    ``torch_musa`` too (its builder imports it); reported, not edited (CP605)."""
    import tomllib

    options = options or Options()
    check_text(src, path)
    index = LineIndex(src)
    result = Result(src, [], [], path, index)
    if options.framework != "pytorch" or options.target != "musa":
        return result
    try:
        data = tomllib.loads(src.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"{path}: not valid TOML ({exc})") from None
    requires = data.get("build-system", {}).get("requires", [])
    names = {re.split(r"[\s<>=!~;\[]", r, 1)[0].lower() for r in requires if isinstance(r, str)}
    if "torch" in names and "torch_musa" not in names and "torch-musa" not in names:
        m = re.search(rb"""["']torch\b""", src)
        offset = m.start() + 1 if m else 0
        line, col = index.linecol(offset)
        result.findings.append(Finding(
            "CP605", "build-system requires torch: MUSAExtension also needs torch_musa "
            "installed in the build environment", path, line, col, identifier="torch",
            library="pytorch", offset=offset))
    return result
