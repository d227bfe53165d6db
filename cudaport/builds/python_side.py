"""The Python side of a PyTorch project (``--framework pytorch``), as the target's
``rules/<target>/frameworks/pytorch/python.yaml`` says.

A target with a ``device`` of its own (torch_musa registers ``musa`` next to PyTorch's
``cuda``) ports Python code by renaming: ``torch.cuda.*`` -> ``torch.musa.*``, ``x.cuda()``
-> ``x.musa()``, device strings ``"cuda"``/``"cuda:N"`` -> ``"musa"``/``"musa:N"``, and
``import torch_musa`` (the ``import`` fact) after the first module-level ``import torch``
(importing it is what registers the device). The file is read with Python's own
:mod:`tokenize`, so comments and strings that are not exactly a device string stay as
written. A target without one (ROCm PyTorch keeps ``torch.cuda`` and the ``cuda`` device)
leaves the file unchanged.
"""

from __future__ import annotations

import ast
import io
import tokenize

from .build_scripts import import_rule, python_facts
from ..translate.context import LineIndex
from ..source.edits import Edit, apply, resolve
from ..findings import Finding
from ..options import Options
from ..translate.pipeline import InputError, Result, check_text
from ..source.lazy_re import lazy

_DEVICE = lazy(r"(?P<prefix>[rRbBuU]{0,2})(?P<quote>['\"])cuda(?P<index>:\d+)?(?P=quote)\Z")


def translate_python(src: bytes, options: Options | None = None,
                     path: str = "<stdin>") -> Result:
    """Translate one Python file; edits are byte offsets into ``src``."""
    options = options or Options()
    check_text(src, path)
    facts = python_facts(options) or {}
    device = facts.get("device")
    if not device:
        return Result(src, [], [], path, LineIndex(src))
    module = facts["import"]
    notes = facts.get("notes") or {}
    rule = f"{options.target}/{options.framework}/python"
    text = src.decode("utf-8", "surrogateescape")
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line.encode("utf-8", "surrogateescape")))

    def offset(row: int, col: int) -> int:
        return starts[row - 1] + len(lines[row - 1][:col].encode("utf-8", "surrogateescape")) \
            if row - 1 < len(lines) else starts[-1]

    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError) as exc:
        raise InputError(f"{path}: not valid Python ({exc})") from None
    code = [t for t in tokens if t.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE,
                                                tokenize.INDENT, tokenize.DEDENT)]
    edits: list[Edit] = []
    findings: list[Finding] = []
    index = LineIndex(src)

    def find(code_: str, tok: tokenize.TokenInfo, message: str) -> None:
        at = offset(*tok.start)
        line, col = index.linecol(at)
        findings.append(Finding(code_, message, path, line, col, identifier=tok.string,
                                library="pytorch", offset=at))

    def rename(tok: tokenize.TokenInfo, new: str) -> None:
        edits.append(Edit(offset(*tok.start), offset(*tok.end), new.encode(), rule))

    for i, tok in enumerate(code):
        prev = code[i - 1] if i else None
        before = code[i - 2] if i > 1 else None
        nxt = code[i + 1] if i + 1 < len(code) else None
        if tok.type == tokenize.NAME and prev is not None and prev.string == ".":
            if tok.string == "cuda":
                if before is not None and before.string == "torch" \
                        or nxt is not None and nxt.string == "(":
                    rename(tok, device)  # torch.cuda.X, tensor.cuda(...)
                else:
                    find("CP606", tok, "`.cuda` attribute left as written: check whether it "
                                       "refers to torch.cuda")
            elif tok.string == "cudnn" and before is not None and before.string == "backends" \
                    and notes.get("cudnn"):
                find("CP601", tok, notes["cudnn"])
            elif tok.string == "is_cuda" and notes.get("is_cuda"):
                find("CP606", tok, notes["is_cuda"])
        elif tok.type == tokenize.STRING:
            m = _DEVICE.match(tok.string)
            if m and "b" not in m.group("prefix").lower():
                quote = m.group("quote")
                rename(tok, f"{m.group('prefix')}{quote}{device}{m.group('index') or ''}{quote}")
    insert = _import_position(text, offset, module)
    if insert is not None:
        line = f"import {module}".encode() + _eol(src)
        if insert == len(src) and src and not src.endswith(b"\n"):
            line = _eol(src) + line  # the import of torch ends the file without a newline
        edits.append(Edit(insert, insert, line, import_rule(options)))
    kept = resolve(edits)
    findings.sort(key=lambda f: (f.offset, f.code))
    return Result(apply(src, kept), kept, findings, path, index)


def _import_position(text: str, offset, module: str) -> int | None:
    """Where ``import <module>`` goes: after the first module-level statement importing
    torch, unless the file already imports ``module``."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    first = None
    for node in ast.walk(tree):
        names = []
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        if any(n == module or n.startswith(module + ".") for n in names):
            return None
    for node in tree.body:
        if isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        else:
            continue
        if any(n == "torch" or n.startswith("torch.") for n in names):
            first = node
            break
    if first is None:
        return None
    return offset(first.end_lineno + 1, 0)


def _eol(src: bytes) -> bytes:
    i = src.find(b"\n")
    return b"\r\n" if i > 0 and src[i - 1:i] == b"\r" else b"\n"


def translate_python_file(src: bytes, options: Options | None = None,
                          path: str = "<stdin>") -> Result:
    """A Python-side file of a PyTorch project: ``setup.py`` and ``pyproject.toml`` are
    build files (see :mod:`cudaport.builds.build_scripts`), any other file Python code."""
    from .build_scripts import (is_extension_build_script, translate_build_script,
                                translate_pyproject)

    options = options or Options()

    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    if name == "pyproject.toml":
        return translate_pyproject(src, options, path)
    python = translate_python(src, options, path)
    if name != "setup.py" or not is_extension_build_script(src):
        return python
    build = translate_build_script(src, options, path)
    # Both sets of edits are on ``src``. The target builder's import already imports its
    # module (torch_musa), so the plain ``import torch_musa`` is not added next to it.
    rule = import_rule(options)
    extra = [e for e in python.edits
             if not (e.rule_id == rule and any(b.rule_id == rule for b in build.edits))]
    kept = resolve(build.edits + extra)
    findings = sorted(build.findings + python.findings, key=lambda f: (f.offset, f.code))
    return Result(apply(src, kept), kept, findings, path, build.lines)
