#!/usr/bin/env python3
"""Write tests/data/libnames/*.cu: every mapped CUDA name that is not a call, used as code uses it.

Usage:
  python tools/gen_lib_names.py [--cuda-include /usr/local/cuda/include]
         [--wheel-include /tmp/nvheaders] [--out tests/data/libnames] [--no-nvcc]

Why: a renamed type, enumerator, macro or struct field is a port only when the target
declares it with a shape the CUDA code's uses still fit, in the library variant and HIP
version the user picks. tools/gen_lib_calls.py does this for functions; this script does
it for the rest. Per library, one CUDA file with one block per mapped name (each block
starts with a ``// name NAME`` line):

- a type: a variable of it, copied from and to a pointer (only the pointer where CUDA's
  type is incomplete: an opaque handle's struct);
- each field of a struct or union type (its anonymous members' fields too): read into a
  variable of the type CUDA declares for it and written back (``// name TYPE::FIELD``);
- an enumerator: assigned to a variable of its enumeration's type and used as a case label;
- a macro: tested with ``#ifndef``, and, where CUDA's expansion is an expression (or a
  type), used as one; a function-like macro is expanded with integer arguments;
- a variable: read (device code for the built-in ones).

tools/lib_calls.py translates these files in every variant and HIP version and compiles
them with ROCm (tests/test_lib_names.py, bench/lib_calls.py --names).

Facts: the CUDA 13 toolkit headers and the include folders of PyPI's nvidia-* wheels as
tools/gen_cuda13_names.py --fetch-wheels unpacks them below ``--wheel-include``, read with
libclang. Which names: every entry of the HIP rule table of kind type, constant, macro,
variable or keyword with a target name in some column (functions are gen_lib_calls.py's).
Each block is checked against CUDA itself, first with libclang (a form CUDA rejects is
replaced by the next one: a macro that is no expression keeps only its ``#ifndef``), then
the whole file with nvcc (``--no-nvcc`` skips that). A name no header declares is listed
in the file's ``// undeclared:`` line, as is a macro the header undefines again at its end.
Rerunning gives an identical output.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

from gen_signature_diffs import CLANG_RESOURCE  # noqa: E402

# file stem -> (rule-table libraries, headers the file includes, own-header pattern or
# None). A library with two files (cuBLAS and cuBLASLt: separate HIP libraries) gives each
# name to the first file whose pattern matches the header declaring it; the file without
# a pattern takes the rest.
FILES: dict[str, tuple[tuple[str, ...], tuple[str, ...], str | None]] = {
    "runtime": (("runtime", "compiler"), ("cuda_runtime.h", "cuda_profiler_api.h",
                                          "math_constants.h"), None),
    "driver": (("driver",), ("cuda.h", "cudaProfiler.h", "cudaTypedefs.h"), None),
    "device": (("device",), ("cuda_runtime.h", "cuda_fp16.h", "cuda_bf16.h", "cuda_fp8.h",
                             "cuda_fp4.h"), None),
    "complex": (("complex",), ("cuComplex.h",), None),
    "cublaslt": (("cublas",), ("cublasLt.h",), r"cublasLt\.h"),
    "cublas": (("cublas",), ("cublas_v2.h",), None),
    "cusparse": (("cusparse",), ("cusparse.h",), None),
    "cusolver": (("cusolver",), ("cusolverDn.h", "cusolverSp.h", "cusolverRf.h"), None),
    "cufft": (("cufft",), ("cufft.h", "cufftXt.h"), None),
    "curand": (("curand",), ("curand.h", "curand_kernel.h"), None),
    "cudnn": (("cudnn",), ("cudnn.h",), None),
    "nvrtc": (("nvrtc",), ("nvrtc.h",), None),
    "nccl": (("nccl",), ("nccl.h",), None),
    "nvml": (("nvml",), ("nvml.h",), None),
    "nvtx": (("nvtx",), ("nvtx3/nvToolsExt.h",), None),
    "cub": (("cub", "cccl"), ("cub/cub.cuh",), None),
}
# Macros nvcc defines itself (CUDA 13.0), which libclang does not.
PREDEFINED = {"__NVCC__": "1", "__CUDACC_VER_MAJOR__": "13", "__CUDACC_VER_MINOR__": "0",
              "__CUDACC_VER_BUILD__": "0"}
KINDS = ("type", "constant", "macro", "variable", "keyword")
MARKER = "// name "
# Keywords: a declaration that uses each.
KEYWORD_FORMS = {
    "__device__": "__device__ int keyword___device__(int a) { return a; }",
    "__host__": "__host__ int keyword___host__(int a) { return a; }",
    "__global__": "__global__ void keyword___global__(int *a) { *a = 0; }",
    "__shared__": "__device__ int keyword___shared__(int a) { __shared__ int s[4]; s[0] = a; "
                  "return s[0]; }",
    "__constant__": "__constant__ int keyword___constant__[4];",
    "__managed__": "__managed__ int keyword___managed__;",
    "__launch_bounds__": "__global__ void __launch_bounds__(256) keyword___launch_bounds__"
                         "(int *a) { *a = 0; }",
}


def clang_args(cuda_include: Path, wheel_include: Path) -> list[str]:
    args = ["-x", "cuda", "-nocudainc", "-nocudalib", f"--cuda-path={cuda_include.parent}",
            "--cuda-host-only", "-D__CUDACC__", "-std=c++17", "-Wno-unknown-cuda-version",
            "-ferror-limit=0", f"-I{cuda_include}", f"-I{cuda_include / 'cccl'}",
            "-include", "cuda_runtime.h"]
    args += [f"-D{name}={value}" for name, value in PREDEFINED.items()]
    args += [f"-I{folder}" for folder in sorted(wheel_include.glob("nvidia_*"))]
    for res in CLANG_RESOURCE[-1:]:
        args += ["-isystem", str(res)]
    return args


class Decl:
    """What CUDA declares for a name: ``kind`` is type, enumerator, macro, variable."""

    def __init__(self, kind: str, where: str, **facts):
        self.kind, self.where, self.facts = kind, where, facts


def _anonymous(spelling: str) -> bool:
    return "(unnamed" in spelling or "(anonymous" in spelling


def _fields(record, prefix: str, out: list[tuple[str, str, str]], depth: int = 0) -> None:
    """(path, field type spelling, form) for each field of a record, its anonymous
    members' fields too: form is value, array, const or anonymous."""
    if depth > 3:
        return
    import clang.cindex as ci
    for f in record.type.get_fields():
        if f.access_specifier not in (ci.AccessSpecifier.PUBLIC, ci.AccessSpecifier.NONE):
            continue  # (__half's storage: a class's own business)
        spelling = f.type.spelling
        member = not f.spelling or _anonymous(f.spelling)  # (an anonymous union member)
        path = prefix + f.spelling if not member else prefix
        if member or _anonymous(spelling):
            decl = f.type.get_declaration()
            if not member:
                out.append((path, spelling, "anonymous"))
            _fields(decl, prefix if member else path + ".", out, depth + 1)
            continue
        canonical = f.type.get_canonical()
        if canonical.kind.name in ("CONSTANTARRAY", "INCOMPLETEARRAY"):
            element = canonical.element_type
            direct = f.type.kind.name in ("CONSTANTARRAY", "INCOMPLETEARRAY")
            if element.kind.name in ("CONSTANTARRAY",) or not direct:
                out.append((path, spelling, "anonymous"))  # (arrays of arrays, typedefs)
            else:
                out.append((path, f.type.element_type.spelling, "array"))
        elif canonical.is_const_qualified():
            out.append((path, spelling, "const"))
        else:
            out.append((path, spelling, "value"))


def declarations(headers: tuple[str, ...], args: list[str]) -> dict[str, Decl]:
    """name -> what the CUDA headers declare for it (the first declaration met)."""
    import clang.cindex as ci
    K = ci.CursorKind
    source = "".join(f"#include <{h}>\n" for h in headers).encode()
    tu = ci.Index.create().parse("names.cu", args=args, unsaved_files=[("names.cu", source)],
                                 options=ci.TranslationUnit.PARSE_SKIP_FUNCTION_BODIES
                                 | ci.TranslationUnit.PARSE_INCOMPLETE
                                 | ci.TranslationUnit.PARSE_DETAILED_PROCESSING_RECORD)
    fatal = [d for d in tu.diagnostics if d.severity >= ci.Diagnostic.Fatal]
    if fatal:
        raise SystemExit(f"error: libclang could not parse {', '.join(headers)}: {fatal[0]}")
    found: dict[str, Decl] = {}
    records: dict[str, object] = {}  # record USR -> its definition cursor

    def where(cursor) -> str:
        f = cursor.location.file
        return Path(f.name).name if f is not None else ""

    def enum_type_name(enum) -> str | None:
        return enum.spelling if enum.spelling and not _anonymous(enum.type.spelling) else None

    typedef_of: dict[str, list[str]] = {}  # USR of an enum or record -> typedefs naming it
    functions: set[str] = set()

    def visit(cursor, scope: str) -> None:
        for child in cursor.get_children():
            k = child.kind
            if k in (K.LINKAGE_SPEC, K.UNEXPOSED_DECL):
                visit(child, scope)
            elif k == K.NAMESPACE:
                if child.spelling in ("std", "__gnu_cxx", "__cxxabiv1") or \
                        child.spelling.startswith("__"):
                    continue
                visit(child, f"{scope}{child.spelling}::")
            elif k == K.MACRO_DEFINITION:
                tokens = [t for t in child.get_tokens()]
                if not tokens:
                    continue
                function_like = len(tokens) > 1 and tokens[1].spelling == "(" and \
                    tokens[1].extent.start.offset == tokens[0].extent.end.offset
                params = 0
                if function_like:
                    inside = []
                    for t in tokens[2:]:
                        if t.spelling == ")":
                            break
                        inside.append(t.spelling)
                    params = len([t for t in inside if t not in (",", "...")])
                    if "..." in inside:  # (the named ones, then one for the rest)
                        params = -(params + 1)
                body = [t.spelling for t in tokens[1:]]
                found.setdefault(child.spelling, Decl("macro", where(child),
                                                      function_like=function_like,
                                                      params=params,
                                                      alias=body[0] if len(body) == 1 else None))
            elif k in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL):
                under = child.underlying_typedef_type.get_canonical().get_declaration()
                if under.kind != K.NO_DECL_FOUND:
                    names = typedef_of.setdefault(under.get_usr(), [])
                    if child.spelling not in names:
                        names.append(child.spelling)
                found.setdefault(scope + child.spelling, Decl("type", where(child),
                                                              cursor=child))
            elif k in (K.STRUCT_DECL, K.UNION_DECL, K.CLASS_DECL, K.ENUM_DECL):
                if child.spelling and not _anonymous(child.type.spelling):
                    name = scope + child.spelling
                    old = found.get(name)
                    if old is None or (child.is_definition() and old.kind == "type"
                                       and not old.facts["cursor"].is_definition()):
                        found[name] = Decl("type", where(child), cursor=child)
                if child.is_definition() and k != K.ENUM_DECL:
                    records.setdefault(child.get_usr(), child)
                if k == K.ENUM_DECL:
                    for e in child.get_children():
                        if e.kind == K.ENUM_CONSTANT_DECL:
                            found.setdefault(scope + e.spelling,
                                             Decl("enumerator", where(e), enum=child))
                elif k in (K.STRUCT_DECL, K.CLASS_DECL) and child.is_definition():
                    for e in child.get_children():  # (enums nested in a class: rare)
                        if e.kind == K.ENUM_DECL:
                            for c in e.get_children():
                                if c.kind == K.ENUM_CONSTANT_DECL:
                                    found.setdefault(c.spelling, Decl("enumerator", where(c),
                                                                      enum=e))
            elif k in (K.FUNCTION_DECL, K.FUNCTION_TEMPLATE):
                functions.add(scope + child.spelling)
            elif k == K.VAR_DECL:
                name = scope + child.spelling
                if name not in found or found[name].kind == "macro":  # (cuda_fp16.h's
                    found[name] = Decl("variable", where(child))  # warpSize, undefined after)

    visit(tu.cursor, "")
    for d in found.values():  # (`#define nvmlInit nvmlInit_v2`: code calls it, never tests it)
        if d.kind == "macro":
            d.facts["function_alias"] = d.facts.pop("alias") in functions
    # Each enumerator's type: the enumeration's tag, or the typedef naming an unnamed one.
    for d in found.values():
        if d.kind == "enumerator":
            enum = d.facts.pop("enum")
            # (the spellings code uses: its typedefs first, then its tag)
            d.facts["types"] = typedef_of.get(enum.get_usr(), []) + \
                [t for t in (enum_type_name(enum),) if t]
        elif d.kind == "type":
            cursor = d.facts.pop("cursor")
            t = cursor.type if cursor.kind not in (K.TYPEDEF_DECL, K.TYPE_ALIAS_DECL) \
                else cursor.underlying_typedef_type
            canonical = t.get_canonical()
            decl = canonical.get_declaration()
            complete = canonical.get_size() >= 0 or canonical.kind.name == "ENUM"
            if decl.kind in (K.STRUCT_DECL, K.UNION_DECL, K.CLASS_DECL) and complete:
                record = records.get(decl.get_usr(), decl)
                fields: list[tuple[str, str, str]] = []
                if record.kind != K.CLASS_DECL:  # (C structs; a C++ class hides its members)
                    _fields(record, "", fields)
                d.facts["fields"] = fields
                d.facts["record"] = decl.get_usr()
            d.facts["complete"] = complete
            d.facts["template"] = cursor.kind in (K.CLASS_TEMPLATE,)
    return found


def _ident(name: str) -> str:
    return re.sub(r"\W", "_", name)


def forms(name: str, d: Decl, kind: str, mapped: frozenset[str] = frozenset(),
          version_macros: frozenset[str] = frozenset()) -> list[list[str]]:
    """Candidate blocks for a name (``kind``: the rule's; ``mapped``: every name some column
    of the rules maps; ``version_macros``: CUDA's version macros, which translations keep as
    written in conditions), best first; each is a list of lines."""
    n = _ident(name)
    if d.kind == "type":
        if d.facts["complete"]:
            return [[f"void type_{n}({name} *p) {{ {name} v = *p; *p = v; }}"],
                    [f"void type_{n}({name} *p) {{ {name} *q = p; (void)q; }}"]]
        return [[f"void type_{n}({name} *p) {{ {name} *q = p; (void)q; }}"]]
    if d.kind == "enumerator":
        # (its enumeration's spelling the rules map: `cudaError_t`, which code writes,
        # rather than the tag `cudaError`; an enumeration no rule maps, CUctx_flags, is
        # one of flags the target passes as integers: the enumerator is an integer then)
        t = next((t for t in d.facts["types"] if t in mapped), None)
        out = []
        if t:
            out.append([f"void value_{n}({t} *p) {{ {t} v = {name}; *p = v; "
                        f"switch (v) {{ case {name}: break; default: break; }} }}"])
        out.append([f"int value_{n}(int a) {{ auto v = {name}; switch (a) {{ case {name}: "
                    f"return 1; default: return (int)v; }} }}"])
        return out
    if d.kind == "variable":
        return [[f"void value_{n}() {{ auto v = {name}; (void)v; }}"],
                [f"__device__ void value_{n}() {{ auto v = {name}; (void)v; }}"]]
    if d.kind == "macro" and d.facts["function_alias"]:
        return [[f"void value_{n}() {{ auto v = &{name}; (void)v; }}"]]
    if d.kind == "macro":
        guard = [f"#ifndef {name}", f'#error "{name} is not defined"', "#endif"]
        # (a guard for the names the rules call macros: code tests those with #ifdef; a
        # macro the rules treat as a constant or a function may become an enumerator or a
        # function of the target, which no #ifdef sees)
        tested = guard if kind == "macro" and not d.facts["function_like"] \
            and name not in version_macros else []
        if d.facts["function_like"]:
            count = d.facts["params"]
            args = ", ".join(["1"] * count) if count >= 0 else \
                ", ".join(['"%d"'] + ["1"] * (-count - 1))  # (variadic: a format first)
            return [[f"void value_{n}() {{ auto v = {name}({args}); (void)v; }}"],
                    [f"void value_{n}() {{ {name}({args}); }}"],
                    [f"struct {name}({args}) attribute_{n} {{ int a; }};"]]
        out = [tested + [f"void value_{n}() {{ auto v = {name}; (void)v; }}"],
               tested + [f"{name} int attribute_{n}(int a) {{ return a; }}"],
               tested + [f"void type_{n}({name} *p) {{ {name} *q = p; (void)q; }}"]]
        if name.endswith("_BEGIN") or name.endswith("_END"):  # (a namespace's pair)
            stem = name.rsplit("_", 1)[0]
            out.insert(0, tested + [f"{stem}_BEGIN int pair_{n}; {stem}_END"])
        return out + [guard]
    raise ValueError(d.kind)


def field_forms(owner: str, path: str, spelling: str, form: str) -> list[list[str]]:
    n = _ident(f"{owner}_{path}")
    if form == "value":
        return [[f"void field_{n}({owner} *p) {{ {spelling} v = p->{path}; p->{path} = v; }}"],
                [f"void field_{n}({owner} *p) {{ auto v = p->{path}; p->{path} = v; }}"],
                [f"void field_{n}({owner} *p) {{ auto &v = p->{path}; (void)v; }}"]]
    if form == "array":
        return [[f"void field_{n}({owner} *p) {{ {spelling} *v = p->{path}; "
                 f"p->{path}[0] = v[0]; }}"],
                [f"void field_{n}({owner} *p) {{ auto &v = p->{path}; (void)v; }}"]]
    if form == "const":
        return [[f"void field_{n}({owner} *p) {{ {spelling} v = p->{path}; (void)v; }}"],
                [f"void field_{n}({owner} *p) {{ auto &v = p->{path}; (void)v; }}"]]
    return [[f"void field_{n}({owner} *p) {{ auto &v = p->{path}; (void)v; }}"]]


ERROR = re.compile(r"^names\.cu:(?P<line>\d+):\d+: (?:fatal )?error: (?P<msg>.*)$", re.MULTILINE)


def cuda_errors(text: str, args: list[str]) -> dict[int, str]:
    """line -> first error of the text parsed as CUDA (host side) by libclang."""
    import clang.cindex as ci
    tu = ci.Index.create().parse("names.cu", args=args, unsaved_files=[("names.cu", text)])
    out: dict[int, str] = {}
    for d in tu.diagnostics:
        if d.severity >= ci.Diagnostic.Error and d.location.file is not None \
                and d.location.file.name == "names.cu":
            out.setdefault(d.location.line, d.spelling)
    return out


def choose(head: list[str], candidates: dict[str, list[list[str]]], args: list[str]
           ) -> tuple[dict[str, list[str]], dict[str, str]]:
    """The first form of each name that CUDA accepts in the whole file (a block can break
    the ones after it: an unbalanced macro body); names whose every form fails, with the
    first error."""
    rejected: dict[str, str] = {}
    current = {name: 0 for name in candidates}
    while True:
        lines = list(head)
        owner: list[tuple[int, str]] = []
        for name, i in current.items():
            owner.append((len(lines) + 1, name))
            lines.append(MARKER + name)
            lines += candidates[name][i]
        errors = cuda_errors("\n".join(lines) + "\n", args)
        bad: dict[str, str] = {}
        for line, message in errors.items():
            who = None
            for start, name in owner:
                if start > line:
                    break
                who = name
            if who is None:
                raise SystemExit(f"error: the headers alone do not compile: {message}")
            bad.setdefault(who, message)
        if not bad:
            return {name: candidates[name][i] for name, i in current.items()}, rejected
        for name, message in bad.items():
            if current[name] + 1 < len(candidates[name]):
                current[name] += 1
            else:
                rejected[name] = message
                del current[name]


def mapped_names(table, libraries: tuple[str, ...]) -> list[str]:
    """Names of the libraries' non-function entries that some column of the table maps."""
    out = []
    for name, entry in table.identifiers.items():
        if entry.library not in libraries or entry.kind not in KINDS:
            continue
        if entry.main.to or any(m is not None and m.to for m in entry.variants.values()) \
                or entry.template:
            out.append(name)
    return sorted(out)


def render(stem: str, headers: tuple[str, ...], order: list[str],
           chosen: dict[str, list[str]], undeclared: list[str], rejected: dict[str, str]
           ) -> str:
    lines = [f"// Generated by tools/gen_lib_names.py from the CUDA 13 headers. Do not edit: "
             f"rerun the script.",
             f"// Each mapped CUDA name of {stem} that is not a function, used as CUDA code "
             f"uses it."]
    if undeclared:
        lines.append("// undeclared: " + " ".join(undeclared))
    if rejected:  # (names CUDA itself accepts in none of the forms: none expected)
        lines.append("// no form: " + " ".join(sorted(rejected)))
    lines += [f"#include <{h}>" for h in headers]
    for name in order:
        if name in chosen:
            lines.append(MARKER + name)
            lines += chosen[name]
    return "\n".join(lines) + "\n"


def nvcc_check(path: Path, cuda_include: Path, wheel_include: Path) -> None:
    nvcc = cuda_include.parent / "bin" / "nvcc"
    flags = [f"-I{folder}" for folder in sorted(wheel_include.glob("nvidia_*"))]
    with tempfile.TemporaryDirectory(prefix="libnames-") as tmp:
        proc = subprocess.run([str(nvcc), "-std=c++17", "-c", "-w", "-arch=sm_90", *flags,
                               str(path), "-o", str(Path(tmp) / "out.o")],
                              capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"error: nvcc rejects {path}:\n{proc.stdout[-3000:]}"
                         f"{proc.stderr[-3000:]}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--cuda-include", type=Path, default=Path("/usr/local/cuda/include"))
    ap.add_argument("--wheel-include", type=Path, default=Path("/tmp/nvheaders"))
    ap.add_argument("--out", type=Path, default=ROOT / "tests" / "data" / "libnames")
    ap.add_argument("--no-nvcc", action="store_true", help="skip the nvcc check")
    ap.add_argument("--only", action="append", help="file stem (repeatable)")
    args = ap.parse_args(argv)
    from cudaport.rules.loader import default_rules_root, load_table
    table = load_table("hip", [default_rules_root()], use_cache=False)
    base = clang_args(args.cuda_include, args.wheel_include)
    args.out.mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    mapped = frozenset(n for n, e in table.identifiers.items()
                       if e.main.to or any(m is not None and m.to for m in e.variants.values()))
    version_macros = frozenset(table.target.extra.get("cuda_version_macros") or ())
    # (files with a pattern first: the one without takes the rest of its libraries)
    for stem in sorted(FILES, key=lambda s: FILES[s][2] is None):
        libraries, headers, own = FILES[stem]
        if args.only and stem not in args.only:
            continue
        names = [n for n in mapped_names(table, libraries) if n not in taken]
        found = declarations(headers, base)
        if own is not None:
            pattern = re.compile(rf"\A{own}\Z")
            names = [n for n in names if n in found and pattern.search(found[n].where)]
        taken.update(names)
        candidates: dict[str, list[list[str]]] = {}
        order: list[str] = []
        undeclared = []
        record_owner: dict[str, str] = {}
        for name in names:
            entry = table.identifiers[name]
            if entry.kind == "keyword":
                if name in KEYWORD_FORMS:
                    candidates[name] = [[KEYWORD_FORMS[name]]]
                    order.append(name)
                else:
                    undeclared.append(name)
                continue
            d = found.get(name)
            if d is None and name in PREDEFINED:
                d = Decl("macro", "nvcc", function_like=False, params=0, function_alias=False)
            if d is None:
                undeclared.append(name)
                continue
            candidates[name] = forms(name, d, entry.kind, mapped, version_macros)
            order.append(name)
            record = d.facts.get("record") if d.kind == "type" else None
            if record is not None and record not in record_owner:
                record_owner[record] = name  # (a struct's tag and typedef: fields once)
                for path, spelling, form in d.facts["fields"]:
                    key = f"{name}::{path}"
                    candidates[key] = field_forms(name, path, spelling, form)
                    order.append(key)
        head = [f"#include <{h}>" for h in headers]
        chosen, rejected = choose(head, candidates, base)
        # (a macro CUDA's header undefines again at its end, cusparse.h's
        # CUSPARSE_DEPRECATED: no code after the include can use it)
        for name in [n for n, why in rejected.items() if why == f'"{n} is not defined"']:
            undeclared.append(name)
            del rejected[name]
        text = render(stem, headers, order, chosen, undeclared, rejected)
        path = args.out / f"{stem}.cu"
        path.write_text(text, encoding="utf-8")
        if not args.no_nvcc:
            nvcc_check(path, args.cuda_include, args.wheel_include)
        fields = sum(1 for n in chosen if "::" in n and n.split("::")[0] in names)
        print(f"{stem}: {len(chosen) - fields} names, {fields} fields, "
              f"{len(undeclared)} undeclared, {len(rejected)} without a form")
    return 0


if __name__ == "__main__":
    sys.exit(main())
