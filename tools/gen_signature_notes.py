#!/usr/bin/env python3
"""Compare CUDA library prototypes with their ROC-library equivalents; note the differences.

Usage:
  python tools/gen_signature_notes.py [--wheel-include /tmp/nvheaders]
         [--miopen /work/.mirror/ROCm+MIOpen/repo] [--rocblas /work/.mirror/ROCm+rocBLAS/repo]
         [--out rules/hip]

Why: a rename is only a port when the target function takes the same arguments in the
same order. rocBLAS, MIOpen, rocSPARSE and rocRAND often do not (``rocblas_gemm_ex``
has more arguments than ``cublasGemmEx``; ``miopenConvolutionForward`` puts the
workspace last). Such calls are still renamed, but every use is reported (CP108) with
the target's parameter list, so nobody trusts a rename that cannot be right.

Facts: the libraries' own public headers. CUDA: cuDNN and cuBLAS, cuSPARSE, cuRAND from
PyPI's nvidia-* wheels (see tools/gen_cuda13_names.py --fetch-wheels). Targets: MIOpen
``include/miopen/miopen.h`` and rocBLAS ``library/include/internal/*.h`` read from git
snapshots (ROCm/MIOpen, ROCm/rocBLAS; MIT), rocSPARSE and rocRAND from Debian's
librocsparse-dev and librocrand-dev.

Method: prototypes are read with a regex from comment-stripped headers (C APIs, one
declaration per function). Two parameter lists agree when they have the same length,
the same pointer/value shape, and their types, after mapping CUDA type names through
the rule table and folding integer typedefs, are not a permutation of each other.
Anything else gets a note: a different count, or another order. Rerunning gives
identical files.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

COMMENT = re.compile(r"/\*.*?\*/|//[^\n]*", re.DOTALL)
PROTOTYPE = re.compile(
    r"\b([A-Za-z_]\w*)\s*\(([^;{}]*?)\)\s*(?:[A-Z_][A-Z0-9_]*(?:\([^()]*\))?\s*)?;")
WORD = re.compile(r"[A-Za-z_]\w*")
QUALIFIERS = {"const", "struct", "enum", "restrict", "__restrict__", "volatile"}
INTEGERS = {"rocblas_int": "int", "rocsparse_int": "int", "int32_t": "int",
            "rocblas_stride": "int64", "int64_t": "int64", "longlong": "int64",
            "rocblas_float": "float", "rocblas_double": "double", "unsignedint": "unsigned",
            "uint32_t": "unsigned", "unsignedlonglong": "uint64", "uint64_t": "uint64"}

# (column, CUDA library, CUDA headers (wheel folder, globs), target headers loader key)
PAIRS = (
    ("rocblas", "cublas", ("nvidia_cublas", ("cublas_api.h", "cublasLt.h")), "rocblas"),
    ("miopen", "cudnn", ("nvidia_cudnn_cu13", ("cudnn*.h",)), "miopen"),
    ("rocsparse", "cusparse", ("nvidia_cusparse", ("cusparse.h",)), "rocsparse"),
    ("rocrand", "curand", ("nvidia_curand", ("curand.h",)), "rocrand"),
)


def prototypes(texts: list[str]) -> dict[str, list[str]]:
    """name -> parameter texts of every function declared in ``texts``."""
    out: dict[str, list[str]] = {}
    for text in texts:
        text = COMMENT.sub(" ", text)
        text = re.sub(r"^\s*#.*?(?<!\\)$", " ", text, flags=re.MULTILINE)
        for m in PROTOTYPE.finditer(text):
            name, params = m.group(1), m.group(2)
            if "(" in params or name in ("if", "while", "for", "return", "sizeof"):
                continue
            items = [p.strip() for p in params.split(",")] if params.strip() else []
            if items == ["void"]:
                items = []
            out.setdefault(name, items)
    return out


def split_param(param: str) -> tuple[str, str]:
    """(type, name) of one parameter text; unnamed parameters get an empty name."""
    param = param.split("=")[0].strip()
    array = param.endswith("]")
    param = re.sub(r"\[[^\]]*\]", "", param).strip()
    words = WORD.findall(param)
    named = len([w for w in words if w not in QUALIFIERS]) >= 2 and re.search(r"\w\Z", param)
    name = words[-1] if named else ""
    type_text = param[: param.rfind(name)] if name else param
    return type_text + ("*" if array else ""), name


def normal_type(type_text: str, rename) -> str:
    words = [rename(w) for w in WORD.findall(type_text) if w not in QUALIFIERS]
    base = "".join(words)
    return INTEGERS.get(base, base) + "*" * type_text.count("*")


def compare(cuda: list[str], target: list[str], rename) -> str | None:
    """Why the lists differ ("count" or "order"), or None when a rename is enough."""
    if len(cuda) != len(target):
        return "count"
    ct = [normal_type(split_param(p)[0], rename) for p in cuda]
    tt = [normal_type(split_param(p)[0], lambda w: w) for p in target]
    if [t.count("*") for t in ct] != [t.count("*") for t in tt]:
        return "order"
    if ct != tt and sorted(ct) == sorted(tt):
        return "order"
    return None


def read_wheel(wheel_include: Path, folder: str, globs: tuple[str, ...]) -> list[str]:
    base = wheel_include / folder
    if not base.is_dir():
        raise SystemExit(f"error: {base} not found (tools/gen_cuda13_names.py --fetch-wheels)")
    return [p.read_text(encoding="latin-1") for g in globs for p in sorted(base.glob(g))]


def git_files(git_dir: Path, paths: list[str]) -> list[str]:
    out = []
    for path in paths:
        out.append(subprocess.run(["git", "--git-dir", str(git_dir), "show", f"HEAD:{path}"],
                                  check=True, capture_output=True, text=True).stdout)
    return out


def git_head(git_dir: Path) -> str:
    return subprocess.run(["git", "--git-dir", str(git_dir), "rev-parse", "HEAD"], check=True,
                          capture_output=True, text=True).stdout.strip()[:12]


def target_sources(key: str, args) -> tuple[list[str], str]:
    if key == "rocblas":
        files = ["library/include/internal/rocblas-functions.h",
                 "library/include/internal/rocblas-auxiliary.h",
                 "library/include/internal/rocblas-beta.h"]
        return git_files(args.rocblas, files), f"ROCm/rocBLAS {files[0]} (+auxiliary, beta) " \
                                                f"at {git_head(args.rocblas)}"
    if key == "miopen":
        return (git_files(args.miopen, ["include/miopen/miopen.h"]),
                f"ROCm/MIOpen include/miopen/miopen.h at {git_head(args.miopen)}")
    folder = Path("/usr/include") / key
    texts = [p.read_text(encoding="latin-1") for p in sorted(folder.rglob("*.h"))]
    return texts, f"Debian lib{key}-dev headers (/usr/include/{key})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--wheel-include", type=Path, default=Path("/tmp/nvheaders"))
    parser.add_argument("--miopen", type=Path, default=Path("/work/.mirror/ROCm+MIOpen/repo"))
    parser.add_argument("--rocblas", type=Path, default=Path("/work/.mirror/ROCm+rocBLAS/repo"))
    parser.add_argument("--out", type=Path, default=ROOT / "rules" / "hip")
    args = parser.parse_args(argv)

    from cudaport.rules import load_table

    for old in args.out.glob("notes-*.yaml"):
        old.unlink()
    table = load_table("hip", [args.out.parent], use_cache=False)
    for column, library, (folder, globs), key in PAIRS:
        cuda = prototypes(read_wheel(args.wheel_include, folder, globs))
        texts, source = target_sources(key, args)
        target = prototypes(texts)
        group = table.library_variant_group(library)

        def rename(word: str) -> str:
            entry = table.identifiers.get(word)
            if entry is None:
                return word
            if group is not None and entry.library in group.libraries:
                m = entry.main if column == group.default else entry.variants.get(column)
            else:
                m = entry.main
            return m.to if m is not None and m.to else word

        notes = []
        for name in sorted(table.identifiers):
            entry = table.identifiers[name]
            if entry.library != library:
                continue
            mapping = entry.main if column == group.default else entry.variants.get(column)
            if mapping is None or not mapping.to or mapping.to not in target:
                continue
            theirs = cuda.get(name) or cuda.get(f"{name}_v2")
            if theirs is None:
                continue
            ours = target[mapping.to]
            why = compare(theirs, ours, rename)
            if why is None:
                continue
            params = ", ".join(split_param(p)[1] or "?" for p in ours)
            cparams = ", ".join(split_param(p)[1] or "?" for p in theirs)
            if why == "count":
                text = (f"{mapping.to} takes {len(ours)} arguments ({params}), {name} "
                        f"takes {len(theirs)} ({cparams}): rewrite the call")
            else:
                text = (f"{mapping.to} takes its arguments in another order or form "
                        f"({params}; CUDA: {cparams}): rewrite the call")
            notes.append(f"  {name}: {{{column}: \"{text}\"}}")
        body = [
            "# Generated by tools/gen_signature_notes.py. Do not edit: rerun the script.",
            f"# Facts: CUDA prototypes from PyPI's nvidia-* wheel headers; {column}'s from",
            f"# {source}.",
            f"library: {library}",
            f'title: "{library} calls whose {column} equivalent takes other arguments"',
            f'source: "{source}"',
            "generated: true",
            "notes:",
        ] + notes
        if notes:
            (args.out / f"notes-{column}.yaml").write_text("\n".join(body) + "\n",
                                                          encoding="utf-8")
        print(f"notes-{column}.yaml: {len(notes)} notes ({len(cuda)} CUDA and {len(target)} "
              f"{column} prototypes read)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
