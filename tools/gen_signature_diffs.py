#!/usr/bin/env python3
"""List every mapped CUDA function whose HIP translation takes other parameters.

Usage:
  python tools/gen_signature_diffs.py [--cuda-include /usr/local/cuda/include]
         [--libs-include /tmp/cuda-libs/nvidia/cu13/include]
         [--hip-version 7.2] [--rocm-include /var/cache/cudaport/rocm-7.2/usr/include]
         [--cudnn-include /tmp/cuda-libs/nvidia/cudnn/include]
         [--out rules/hip/signature-differences.tsv]

  python tools/gen_signature_diffs.py --hip-version 6.4 \
         --rocm-include /var/cache/cudaport/rocm-6.4/usr/include \
         --out rules/hip/signature-differences-6.4.tsv

Why: a rename is a port only when the target function accepts the arguments the CUDA
call passes. Every function whose parameter list differs must either have an argument
template in the rules (``calls:`` in rules/hip/calls.yaml: template or by_args) or a note
saying why none is needed: a CP108 note the translation reports (no rewrite can be
right), or a harmless difference this script recognises and names in its output
(rules/hip/signature-differences.tsv). It prints, per library, how many differing
signatures have neither.

Facts: the CUDA 13 toolkit headers of nvcc (runtime, driver), the CUDA 13 library headers
(cuBLAS, cuSPARSE, cuRAND, cuFFT, cuSOLVER; cuDNN from the nvidia-cudnn-cu13 wheel, when
``--cudnn-include`` names a folder with its cudnn.h) and the ROCm headers of the HIP version
compared (7.2.4 by default, 6.4.3 with ``--hip-version 6.4``), all read with libclang.
What each CUDA name becomes is the rule table resolved for that version and the default
library variants (hipBLAS 3's plain names on 7.2, its ``_v2`` generation on 6.4; hipSPARSE,
hipRAND, hipFFT, hipSOLVER, MIOpen). A call template may be limited to older versions
(``before:`` in a ``calls:`` entry): the table for 7.2 then shows the plain rename.

Method: every declaration of a function is an overload, the C++ templates at the end of
cuda_runtime.h included. A CUDA overload is covered when some target overload accepts
each argument count it accepts (default arguments widen the range) with each parameter
type equal after renaming CUDA words through the rule table, or equal as canonical types
(integer typedefs fold: ``size_t`` is ``unsigned long``); a template parameter matches
only a template parameter at the same place. Differences of these kinds alone are
harmless and need no note: the target adds ``const`` to a pointee, the target has extra
parameters with defaults, a parameter's type is another typedef of the same type.
Rerunning gives an identical file.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CLANG_RESOURCE = sorted(Path("/usr/lib/llvm-15/lib/clang").glob("*/include"))
WORD = re.compile(r"[A-Za-z_]\w*")

# library id -> (CUDA headers, target headers). cuDNN's are not on this machine by default.
LIBRARIES: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "runtime": (("cuda_runtime.h",), ("hip/hip_runtime_api.h",)),
    "driver": (("cuda.h",), ("hip/hip_runtime_api.h", "hip/hiprtc.h")),
    "cublas": (("cublas_v2.h", "cublasLt.h"), ("hipblas/hipblas.h", "hipblaslt/hipblaslt.h")),
    "cusparse": (("cusparse.h",), ("hipsparse/hipsparse.h",)),
    "curand": (("curand.h", "curand_kernel.h"), ("hiprand/hiprand.h", "hiprand/hiprand_kernel.h")),
    "cufft": (("cufft.h", "cufftXt.h"), ("hipfft/hipfft.h", "hipfft/hipfftXt.h")),
    "cusolver": (("cusolverDn.h", "cusolverSp.h", "cusolverRf.h"),
                 ("hipsolver/hipsolver.h",)),
    "cudnn": (("cudnn.h",), ("miopen/miopen.h",)),
}


@dataclass(frozen=True)
class Param:
    spelling: str  # the type as written, template parameters as $0, $1 ...
    canonical: str
    default: bool
    name: str = ""


@dataclass(frozen=True)
class Overload:
    params: tuple[Param, ...]
    template: bool
    where: str  # header:line

    @property
    def required(self) -> int:
        return sum(1 for p in self.params if not p.default)


def _squash(text: str) -> str:
    """One spelling per type: single spaces only between words, no struct/enum keyword."""
    text = re.sub(r"\b(struct|enum|union)\s+", "", text)
    text = re.sub(r"\s+", " ", text).strip()
    text = re.sub(r"(?<=\W) | (?=\W)", "", text)
    # What a caller sees: an array parameter is a pointer, and a top-level const (on the
    # parameter itself, not on what it points to) does not change the type.
    text = re.sub(r"\[[^\]]*\]", "*", text)
    text = re.sub(r"(?<=[*&])const\Z", "", text)
    if not re.search(r"[*&]", text):
        text = re.sub(r"\bconst\b ?", "", text)
    return text


KERNEL_PARAMS = {"func", "entry", "kernel", "f"}
INTEGERS = {"bool", "char", "signed char", "unsigned char", "short", "unsigned short", "int",
            "unsigned int", "long", "unsigned long", "long long", "unsigned long long"}


def functions(headers: list[str], args: list[str], own: tuple[str, ...]
              ) -> tuple[dict[str, list[Overload]], dict[str, str]]:
    """(name -> overloads, typedef name -> canonical type) declared in files below one of
    the ``own`` folders."""
    import clang.cindex as ci
    K = ci.CursorKind
    index = ci.Index.create()
    source = "".join(f"#include <{h}>\n" for h in headers).encode()
    tu = index.parse("signatures.cpp", args=args, unsaved_files=[("signatures.cpp", source)],
                     options=ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
                     | ci.TranslationUnit.PARSE_INCOMPLETE)
    errors = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Fatal]
    if errors:
        raise SystemExit(f"error: libclang could not parse {', '.join(headers)}: {errors[0]}")
    out: dict[str, list[Overload]] = {}
    typedefs: dict[str, str] = {}
    seen: set[tuple] = set()

    def visit(cursor) -> None:
        for child in cursor.get_children():
            f = child.location.file
            if f is None or not f.name.startswith(own):
                continue
            if child.kind in (K.LINKAGE_SPEC, K.UNEXPOSED_DECL, K.NAMESPACE):
                visit(child)
                continue
            if child.kind == K.TYPEDEF_DECL:
                typedefs[child.spelling] = _squash(
                    child.underlying_typedef_type.get_canonical().spelling)
                continue
            if child.kind not in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE):
                continue
            template = child.kind == K.FUNCTION_TEMPLATE
            # An unnamed parameter (`std::enable_if_t<...>* = nullptr`) keeps its place in
            # the numbering but has no name to replace.
            tparams = [c.spelling for c in child.get_children()
                       if c.kind in (K.TEMPLATE_TYPE_PARAMETER, K.TEMPLATE_NON_TYPE_PARAMETER,
                                     K.TEMPLATE_TEMPLATE_PARAMETER)]
            params = []
            for p in child.get_children():
                if p.kind != K.PARM_DECL:
                    continue
                spelling = p.type.spelling
                canonical = p.type.get_canonical().spelling
                for i, t in enumerate(tparams):
                    if not t:
                        continue
                    spelling = re.sub(rf"\b{re.escape(t)}\b", f"${i}", spelling)
                    canonical = re.sub(rf"\b{re.escape(t)}\b", f"${i}", canonical)
                canonical = re.sub(r"type-parameter-0-(\d+)", r"$\1", canonical)
                default = any(c.kind.is_expression() or c.kind == K.UNEXPOSED_EXPR
                              for c in p.get_children())
                params.append(Param(_squash(spelling), _squash(canonical), default, p.spelling))
            key = (child.spelling, tuple(params), template)
            if key in seen:
                continue
            seen.add(key)
            where = f"{Path(f.name).name}:{child.location.line}"
            out.setdefault(child.spelling, []).append(Overload(tuple(params), template, where))

    visit(tu.cursor)
    # `#define hipKernelNodeAttrID hipLaunchAttributeID`: a macro that names a type.
    for name, other in sorted(aliases(tu, own).items()):
        if other in typedefs:
            typedefs.setdefault(name, typedefs[other])
        elif name not in typedefs:
            typedefs[name] = other
    return out, typedefs


ALIAS = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+([A-Za-z_]\w*)[ \t]*$",
                   re.MULTILINE)


def aliases(tu, own: tuple[str, ...]) -> dict[str, str]:
    """Object-like macros whose whole body is one identifier, in the headers parsed."""
    out: dict[str, str] = {}
    for inc in tu.get_includes():
        path = inc.include.name
        if path.startswith(own):
            for m in ALIAS.finditer(Path(path).read_text(encoding="latin-1")):
                out.setdefault(m.group(1), m.group(2))
    return out


def cuda_args(cuda_include: Path, libs_include: Path, cudnn: Path | None) -> list[str]:
    args = ["-x", "cuda", "-nocudainc", "-nocudalib", f"--cuda-path={cuda_include.parent}",
            "--cuda-host-only", "-D__CUDACC__", "-std=c++17", "-Wno-unknown-cuda-version", "-ferror-limit=0",
            f"-I{libs_include}", f"-I{cuda_include}"]
    if cudnn is not None:
        args.append(f"-I{cudnn}")
    for res in CLANG_RESOURCE[-1:]:
        args += ["-isystem", str(res)]
    return args


def rocm_args(rocm_include: Path) -> list[str]:
    # The ROCm folder is a whole Debian root: its own C and C++ headers go with it.
    # Parsed as HIP (host side), as hipcc does: some C++ overloads exist only under __HIP__.
    args = ["-x", "hip", "--cuda-host-only", "-nogpuinc", "-nogpulib", "-std=c++17",
            "-D__HIP_PLATFORM_AMD__", "-DMIOPEN_BETA_API=1", "-ferror-limit=0",
            f"--sysroot={rocm_include.parent.parent}"]
    # amd_hip_runtime.h includes <include/cuda_wrappers/...>: the resource folder's parent.
    args += [f"-isystem{res.parent}" for res in CLANG_RESOURCE[-1:]]
    for res in CLANG_RESOURCE[-1:]:
        args += ["-isystem", str(res)]
    return args


def _strip_const(text: str) -> str:
    return re.sub(r"\bconst\b ?", "", text)


def param_match(c: Param, h: Param, rename, typedefs: dict[str, str]) -> str | None:
    """How a CUDA parameter type meets the target's: "" (same after renaming), "typedef",
    "const" (the target adds const: harmless), or None (different)."""
    ours = WORD.sub(lambda m: rename(m.group()), c.spelling)
    if ours == h.spelling:
        return ""
    if "$" in h.spelling:
        # A target template parameter is deduced from whatever the call passes there.
        shape = re.escape(h.spelling)
        shape = re.sub(r"\\\$\d+", ".+", shape)
        return "" if re.fullmatch(shape, ours) else None
    if "$" in ours:
        # CUDA's `T*` overloads of data functions: any object pointer converts to void*
        # (not a kernel, which is a function: those parameters are named func or entry).
        if (re.fullmatch(r"\$\d+\*", ours) and h.canonical in ("void*", "constvoid*")
                and c.name not in KERNEL_PARAMS):
            return "void*"
        return None
    if c.canonical == h.canonical:
        return "typedef"
    if h.canonical in ("void*", "constvoid*") and ours.endswith("*") and not "(" in ours \
            and (h.canonical == "constvoid*" or not re.match(r"const\b", ours)):
        return "void*"
    if c.canonical in INTEGERS and h.canonical in INTEGERS:
        return "integer"
    if (c.canonical, h.canonical) == ("float", "double"):
        return "widening"
    # The renamed CUDA type read as the target declares it (cuComplex -> hipFloatComplex,
    # which hipBLAS spells hipComplex: both are HIP_vector_type<float, 2>).
    ours_canon = WORD.sub(lambda m: typedefs.get(m.group(), m.group()), ours)
    if ours_canon == h.canonical:
        return "typedef"
    for a, b in ((ours, h.spelling), (c.canonical, h.canonical), (ours_canon, h.canonical)):
        if _strip_const(a) == _strip_const(b) and a.count("const") < b.count("const"):
            return "const"
    return None


def accepts(c: Overload, h: Overload, count: int, rename, typedefs) -> set[str] | None:
    """The harmless kinds of difference when ``h`` takes ``count`` arguments as ``c`` does."""
    if not h.required <= count <= len(h.params):
        return None
    kinds = set()
    for cp, hp in zip(c.params[:count], h.params[:count]):
        kind = param_match(cp, hp, rename, typedefs)
        if kind is None:
            return None
        if kind:
            kinds.add(kind)
    if len(h.params) > len(c.params):
        kinds.add("defaults")
    return kinds


def show(o: Overload) -> str:
    params = ", ".join(p.spelling + ("=…" if p.default else "") for p in o.params)
    return f"({params}) [{o.where}]"


HARMLESS = {
    "typedef": "a parameter is another typedef of the same type",
    "integer": "an integer parameter has another integer type (converted implicitly)",
    "widening": "a float parameter is double on the target (converted exactly)",
    "const": "the target adds const to a pointee",
    "void*": "the target takes void* where CUDA takes a typed data pointer",
    "defaults": "the target has extra parameters with default values",
}


def compare(cuda: list[Overload], target: list[Overload], rename, typedefs: dict[str, str]
            ) -> tuple[list[tuple[int, str]], set[str]]:
    """(argument count, description) of every CUDA call form no target overload accepts,
    and the harmless kinds of difference (HARMLESS) of the forms some overload accepts."""
    failing = []
    kinds: set[str] = set()
    for c in cuda:
        for count in range(c.required, len(c.params) + 1):
            found = [k for k in (accepts(c, h, count, rename, typedefs) for h in target)
                     if k is not None]
            if found:
                kinds |= min(found, key=lambda k: (len(k), sorted(k)))
                continue
            theirs = "; ".join(show(h) for h in target)
            failing.append((count, f"CUDA {show(c)} with {count} arguments; target: {theirs}"))
    return failing, kinds


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cuda-include", type=Path, default=Path("/usr/local/cuda/include"))
    parser.add_argument("--libs-include", type=Path,
                        default=Path("/tmp/cuda-libs/nvidia/cu13/include"))
    parser.add_argument("--hip-version", default="7.2",
                        help="the HIP version whose translation is compared (default 7.2)")
    parser.add_argument("--rocm-include", type=Path,
                        default=Path("/var/cache/cudaport/rocm-7.2/usr/include"))
    parser.add_argument("--cudnn-include", type=Path,
                        default=Path("/tmp/cuda-libs/nvidia/cudnn/include"),
                        help="folder with cuDNN's cudnn.h (not shipped with the toolkit: "
                             "unzip 'nvidia/cudnn/include/*' of PyPI's nvidia-cudnn-cu13 "
                             "wheel into /tmp/cuda-libs)")
    parser.add_argument("--out", type=Path,
                        default=ROOT / "rules" / "hip" / "signature-differences.tsv")
    args = parser.parse_args(argv)
    for folder in (args.cuda_include, args.libs_include, args.rocm_include):
        if not folder.is_dir():
            raise SystemExit(f"error: {folder}: no such folder")
    rows, counts, missing = differences(args)
    header = ["# Generated by tools/gen_signature_diffs.py. Do not edit: rerun the script.",
              f"# Mapped CUDA functions whose HIP translation (HIP {args.hip_version}, default variants) takes",
              "# other parameters. covered: template (rules/hip/calls.yaml: template or by_args",
              "# for every argument count that differs), note (reported, CP108), harmless (the",
              "# kinds named, which need no change), - (neither: to do).",
              "# library\tCUDA name\ttarget\tcovered\tdifference"]
    args.out.write_text("\n".join(header + rows) + "\n", encoding="utf-8")
    for lib, (total, harmless, open_) in counts.items():
        print(f"{lib}: {total} differing signatures ({harmless} harmless), "
              f"{open_} without a template or a note")
    if missing:
        print(f"not compared (headers not found): {', '.join(missing)}")
    return 0


def declared(found: dict[str, list[Overload]], aliases: dict[str, str], name: str
             ) -> list[Overload] | None:
    """The overloads of ``name``, through macros that rename it (cuda.h's
    ``#define cuMemAlloc cuMemAlloc_v2``, HIP's ``hipGetDeviceProperties``)."""
    for _ in range(4):
        if name in found:
            return found[name]
        if name not in aliases:
            return None
        name = aliases[name]
    return None


def differences(args) -> tuple[list[str], dict[str, list[int]], list[str]]:
    """(TSV rows, library -> [differing, harmless, uncovered], libraries not compared)."""
    from cudaport.options import Options
    from cudaport.rules.compiled import Compiled
    from cudaport.rules.loader import default_rules_root, load_table

    table = load_table("hip", [default_rules_root()], use_cache=False)
    compiled = Compiled(table, Options(target_version=args.hip_version))

    def rename(word: str) -> str:
        r = compiled.identifiers.get(word.encode())
        if r is None or r.replacement is None or r.status not in ("converted", "fallback"):
            return word
        return r.replacement.decode()

    libraries = dict(LIBRARIES)
    cudnn = args.cudnn_include
    if cudnn is None or not (cudnn / "cudnn.h").exists():
        del libraries["cudnn"]
        cudnn = None
    own = (str(args.cuda_include), str(args.libs_include)) + ((str(cudnn),) if cudnn else ())
    cuda, cuda_aliases = functions([h for c, _ in libraries.values() for h in c],
                                   cuda_args(args.cuda_include, args.libs_include, cudnn), own)
    target, typedefs = functions(sorted({h for _, t in libraries.values() for h in t}),
                                 rocm_args(args.rocm_include), (str(args.rocm_include),))
    rows = []
    counts: dict[str, list[int]] = {lib: [0, 0, 0] for lib in libraries}
    for name in sorted(table.identifiers):
        entry = table.identifiers[name]
        if entry.library not in libraries or entry.kind != "function":
            continue
        r = compiled.identifiers[name.encode()]
        if r.status not in ("converted", "fallback") or not r.replacement:
            continue
        to = r.replacement.decode()
        theirs = declared(cuda, cuda_aliases, name) or cuda.get(f"{name}_v2")
        ours = declared(target, typedefs, to)
        if theirs is None or ours is None:
            continue
        failing, kinds = compare(theirs, ours, rename, typedefs)
        if not failing and not kinds:
            continue
        tally = counts[entry.library]
        tally[0] += 1
        if not failing:
            tally[1] += 1
            why = "; ".join(HARMLESS[k] for k in sorted(kinds))
            rows.append(f"{entry.library}\t{name}\t{to}\tharmless\t{why}")
            continue
        if r.template is not None or {n for n, _ in failing} <= {n for n, _ in r.by_args}:
            covered = "template"
        elif r.note:
            covered = "note"
        else:
            covered = "-"
            tally[2] += 1
        why = " | ".join(text for _, text in failing)
        rows.append(f"{entry.library}\t{name}\t{to}\t{covered}\t{why}")
    return rows, counts, sorted(set(LIBRARIES) - set(libraries))


if __name__ == "__main__":
    sys.exit(main())
