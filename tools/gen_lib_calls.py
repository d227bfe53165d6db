#!/usr/bin/env python3
"""Write tests/data/libcalls/*.cu: one call of every CUDA library function the HIP rules map.

Usage:
  python tools/gen_lib_calls.py [--cuda-include /usr/local/cuda/include]
         [--wheel-include /tmp/nvheaders] [--out tests/data/libcalls]

Why: a rename (or an argument template) is a port only when the target function accepts
what the CUDA call passes, in the library variant and HIP version the user picks. This
script writes, per library, a CUDA file with one function per mapped CUDA function (one
per non-template overload), whose parameters have the types the CUDA 13 header declares
and which passes them, in order, to the call. tools/lib_calls.py translates these files in
every variant and HIP version and compiles them with ROCm (tests/test_lib_calls.py,
bench/lib_calls.py).

Facts: the CUDA 13 toolkit headers (runtime, driver) and the include folders of PyPI's
nvidia-* wheels as tools/gen_cuda13_names.py --fetch-wheels unpacks them below
``--wheel-include`` (cuBLAS, cuSPARSE, cuSOLVER, cuFFT, cuRAND, cuDNN), read with libclang.
Which names are mapped: every function-kind entry of the HIP rule table with a target
name in some column. A mapped name no header declares (a removed name) is listed in the
file's ``// undeclared:`` line instead. Rerunning gives an identical output.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from gen_signature_diffs import CLANG_RESOURCE, _squash, aliases  # noqa: E402

# file stem -> (rule-table library, headers the file includes, wheel folder or "toolkit",
# own-header pattern). A library whose names live in two header families gets two files
# (cuBLAS and cuBLASLt: their HIP forms are separate libraries).
FILES: dict[str, tuple[str, tuple[str, ...], str, str]] = {
    "runtime": ("runtime", ("cuda_runtime.h",), "toolkit",
                r"(cuda_runtime(_api)?|cuda_profiler_api)\.h"),
    "driver": ("driver", ("cuda.h", "cudaProfiler.h"), "toolkit", r"(cuda|cudaProfiler)\.h"),
    "cublas": ("cublas", ("cublas_v2.h",), "nvidia_cublas", r"cublas_(api|v2)\.h"),
    "cublaslt": ("cublas", ("cublasLt.h",), "nvidia_cublas", r"cublasLt\.h"),
    "cusparse": ("cusparse", ("cusparse.h",), "nvidia_cusparse", r"cusparse\.h"),
    "cusolver": ("cusolver", ("cusolverDn.h", "cusolverSp.h", "cusolverRf.h"), "nvidia_cusolver",
                 r"cusolver\w*\.h"),
    "cufft": ("cufft", ("cufft.h", "cufftXt.h"), "nvidia_cufft", r"(cufft|cufftXt|cudalibxt)\.h"),
    "curand": ("curand", ("curand.h", "curand_kernel.h"), "nvidia_curand", r"curand\w*\.h"),
    "cudnn": ("cudnn", ("cudnn.h",), "nvidia_cudnn_cu13", r"cudnn\w*\.h"),
}
MARKER = "// call "


def _args(cuda_include: Path, wheel_include: Path) -> list[str]:
    args = ["-x", "cuda", "-nocudainc", "-nocudalib", f"--cuda-path={cuda_include.parent}",
            "--cuda-host-only", "-D__CUDACC__", "-std=c++17", "-Wno-unknown-cuda-version",
            "-ferror-limit=0", f"-I{cuda_include}"]
    args += [f"-I{folder}" for folder in sorted(wheel_include.glob("nvidia_*"))]
    for res in CLANG_RESOURCE[-1:]:
        args += ["-isystem", str(res)]
    return args


def declarations(headers: tuple[str, ...], args: list[str], own: re.Pattern[str]
                 ) -> tuple[dict[str, list[tuple[tuple[str, ...], bool]]], dict[str, str]]:
    """(name -> [(parameter types, device-only)] for every non-template, non-variadic
    overload declared in an own header; macro aliases of those headers)."""
    import clang.cindex as ci
    K = ci.CursorKind
    source = "".join(f"#include <{h}>\n" for h in headers).encode()
    tu = ci.Index.create().parse("calls.cu", args=args, unsaved_files=[("calls.cu", source)],
                                 options=ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
                                 | ci.TranslationUnit.PARSE_INCOMPLETE)
    fatal = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Fatal]
    if fatal:
        raise SystemExit(f"error: libclang could not parse {', '.join(headers)}: {fatal[0]}")
    found: dict[str, list[tuple[tuple[str, ...], bool]]] = {}
    owned = set()

    def visit(cursor) -> None:
        for child in cursor.get_children():
            f = child.location.file
            if f is None or not own.search(Path(f.name).name):
                continue
            if child.kind in (K.LINKAGE_SPEC, K.UNEXPOSED_DECL, K.NAMESPACE):
                visit(child)
                continue
            if child.kind != K.FUNCTION_DECL or child.type.is_function_variadic():
                continue
            kinds = {c.kind for c in child.get_children()}
            device = K.CUDADEVICE_ATTR in kinds and K.CUDAHOST_ATTR not in kinds
            params = tuple(_squash(p.type.spelling) for p in child.get_children()
                           if p.kind == K.PARM_DECL)
            overloads = found.setdefault(child.spelling, [])
            if (params, device) not in overloads:
                overloads.append((params, device))

    visit(tu.cursor)
    owned |= {inc.include.name for inc in tu.get_includes()
              if own.search(Path(inc.include.name).name)}
    return found, aliases(tu, tuple(sorted(owned)))


def parameter(spelling: str, name: str) -> str:
    """A parameter declaration of type ``spelling`` named ``name``."""
    if "(*)" in spelling:  # a function pointer: the name goes inside
        return spelling.replace("(*)", f"(*{name})", 1)
    return f"{spelling} {name}"


def mapped_names(table, library: str) -> list[str]:
    """CUDA function names of ``library`` that some column of the table maps."""
    out = []
    for name, entry in table.identifiers.items():
        if entry.library != library or entry.kind != "function":
            continue
        if entry.main.to or any(m is not None and m.to for m in entry.variants.values()) \
                or entry.template:
            out.append(name)
    return sorted(out)


def render(stem: str, headers: tuple[str, ...], names: list[str],
           found: dict[str, list], alias: dict[str, str]) -> tuple[str, list[str]]:
    lines = [f"// Generated by tools/gen_lib_calls.py from the CUDA 13 headers. Do not edit: "
             f"rerun the script.",
             f"// One call of each mapped CUDA function ({stem}), with parameters of the "
             f"declared types."]
    lines += [f"#include <{h}>" for h in headers]
    undeclared, taken = [], []
    for name in names:
        target = name
        for _ in range(4):  # cuda.h's `#define cuMemAlloc cuMemAlloc_v2`
            if target in found or target not in alias:
                break
            target = alias[target]
        overloads = found.get(target) or found.get(name + "_v2")
        if not overloads:
            undeclared.append(name)
            continue
        for i, (params, device) in enumerate(overloads):
            suffix = f"_{i + 1}" if len(overloads) > 1 else ""
            decl = ", ".join(parameter(p, f"a{j}") for j, p in enumerate(params, 1))
            call = ", ".join(f"a{j}" for j in range(1, len(params) + 1))
            qual = "__device__ " if device else ""
            lines.append(f"{MARKER}{name}")
            lines.append(f"{qual}void call_{name}{suffix}({decl}) {{ (void){name}({call}); }}")
        taken.append(name)
    if undeclared:
        lines.insert(2, "// undeclared: " + " ".join(undeclared))
    return "\n".join(lines) + "\n", taken


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cuda-include", type=Path, default=Path("/usr/local/cuda/include"))
    ap.add_argument("--wheel-include", type=Path, default=Path("/tmp/nvheaders"))
    ap.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "libcalls")
    args = ap.parse_args(argv)
    from cudaport.rules.loader import default_rules_root, load_table
    table = load_table("hip", [default_rules_root()], use_cache=False)
    clang_args = _args(args.cuda_include, args.wheel_include)
    args.out.mkdir(parents=True, exist_ok=True)
    by_library: dict[str, list[str]] = {}
    for stem, (library, headers, _where, own) in FILES.items():
        names = by_library.setdefault(library, mapped_names(table, library))
        found, alias = declarations(headers, clang_args, re.compile(rf"\A{own}\Z"))
        # A library split over two files: each file takes the names its headers declare
        # (the last file of the library also takes the undeclared rest).
        last = stem == [s for s, v in FILES.items() if v[0] == library][-1]
        mine = [n for n in names if last or n in found or n + "_v2" in found
                or alias.get(n) in found]
        text, taken = render(stem, headers, mine, found, alias)
        by_library[library] = [n for n in names if n not in mine]
        (args.out / f"{stem}.cu").write_text(text, encoding="utf-8")
        print(f"{stem}: {len(taken)} functions, {len(mine) - len(taken)} undeclared")
    return 0


if __name__ == "__main__":
    sys.exit(main())
