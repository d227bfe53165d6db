"""Headers cudaport writes for clang: stand-ins that make real CUDA 12/13 headers parse, and
a stub CUDA generated from the rule table for machines with no CUDA headers at all.

The stub is deliberately loose (it only has to keep the file parseable so references
resolve and launches stay in the AST): one variadic template prototype per API function,
``int`` for enum-like and handle types, one unnamed enum holding every constant.
The rule table's ``kind`` does not tell enum types from enumerators (HIPIFY lists both as
types), so :func:`classify` guesses from the name.
"""

from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from pathlib import Path

from ..rules.compiled import RUNTIME_LIBRARIES, Compiled
from .environment import cache_dir
from ..source.lazy_re import lazy

STUB_VERSION = "9"  # bump when the generated text changes
MAIN_STUB = "__cudaport_cuda_stub.h"
COMMON_STUB = "__cudaport_stub_common.h"

# Stand-ins for headers the clang wrapper includes but CUDA 12+ no longer ships, and the
# texture-reference template clang's texture intrinsics still name (removed in CUDA 12).
STANDINS = {
    "texture_fetch_functions.h": "/* cudaport: removed from CUDA 12+, included by clang */\n",
    "curand_mtgp32_kernel.h": "/* cudaport: clang force-includes it; not needed to parse */\n",
    "__clang_cuda_texture_intrinsics.h": """\
/* cudaport: CUDA 12 removed texture references; clang's intrinsics still name them. */
#pragma once
#if defined(CUDART_VERSION) && CUDART_VERSION >= 12000
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture { int __cudaport_texture_reference; };
#endif
#include_next <__clang_cuda_texture_intrinsics.h>
/* Cache-hint loads and stores that clang < 16 does not declare (CUDA's sm_32 header is
   skipped by clang's wrapper); generic forms so calls resolve. */
template <class T> __device__ T __ldcs(const T *);
template <class T> __device__ T __ldcg(const T *);
template <class T> __device__ T __ldca(const T *);
template <class T> __device__ T __ldlu(const T *);
template <class T> __device__ T __ldcv(const T *);
template <class T> __device__ void __stcs(T *, T);
template <class T> __device__ void __stcg(T *, T);
template <class T> __device__ void __stwb(T *, T);
template <class T> __device__ void __stwt(T *, T);
""",
}

# Libraries whose functions return a status type (if the table knows the type).
STATUS_TYPES = {
    "runtime": "cudaError_t", "driver": "CUresult", "cublas": "cublasStatus_t",
    "cudnn": "cudnnStatus_t", "cufft": "cufftResult", "curand": "curandStatus_t",
    "cusparse": "cusparseStatus_t", "cusolver": "cusolverStatus_t", "nvrtc": "nvrtcResult",
}
_TYPE_WORDS = lazy(
    r"(?:Kind|Attr|Attribute|Type|Mode|Flags|Format|Limit|Config|Policy|Prop|Props|Params|"
    r"Desc|Descriptor|Info|Value|Location|Properties|Status|Result|Handle|Extent|Pos|Ptr|"
    r"Array|Parms|Options|Error|Struct|Object|Data)$")
_STRUCT_WORDS = lazy(r"(?:Prop|Props|Params|Parms|Desc|Extent|Pos|PitchedPtr|Properties|"
                     r"Info|Location|Struct|Options)$")
_PREDEFINED = {"dim3", "uint3", "threadIdx", "blockIdx", "blockDim", "gridDim", "warpSize"}
_KEYWORDS = {
    "__global__": "__attribute__((global))", "__device__": "__attribute__((device))",
    "__host__": "__attribute__((host))", "__shared__": "__attribute__((shared))",
    "__constant__": "__attribute__((constant))", "__managed__": "__attribute__((managed))",
    "__forceinline__": "inline __attribute__((always_inline))",
    "__noinline__": "__attribute__((noinline))",
    "__launch_bounds__(...)": "__attribute__((launch_bounds(__VA_ARGS__)))",
    "__restrict__": "__restrict",
}


_HANDLE = lazy(r"(?:Handle|Stream|Event|Descriptor|Descr|Desc|Graph|GraphExec|Node|Context|"
               r"Info|Module|Function|Array|Generator|Preference|Layout|Kernel|Library|"
               r"Pool|Plan|Ctx|Texref|Surfref|Resource|Semaphore|Memory)(?:_st)?_t$")
_STRING_FUNCTION = lazy(r"Get(?:Error|Status)?(?:String|Name)$|GetErrorString|ErrorName")


def classify(name: str, kind: str) -> str:
    """``function``, ``string_function``, ``struct``, ``handle`` (an opaque pointer),
    ``type`` (an int typedef), ``constant`` or ``skip``."""
    if name in _PREDEFINED or kind in ("keyword", "namespace", "macro"):
        return "skip"
    if not re.fullmatch(r"[A-Za-z_]\w*", name):
        return "skip"
    if kind == "function":
        return "string_function" if _STRING_FUNCTION.search(name) else "function"
    if kind == "variable":
        return "constant"
    if kind == "type":
        if _HANDLE.search(name) and name != "cufftHandle_t":
            return "handle"
        if name.endswith(("_t", "_st")) or name.isidentifier() and name[:1].isupper() and \
                re.fullmatch(r"CU[a-z]\w*", name):
            return "type"
        if re.match(r"cudaError[A-Z]", name) or name.isupper():
            return "constant"
        if _STRUCT_WORDS.search(name):
            return "struct"
        if _TYPE_WORDS.search(name):
            return "type"
        return "constant"
    return "constant"


LIBRARY_PREFIXES = {"cublas": "cublas", "cudnn": "cudnn", "cufft": "cufft", "curand": "curand",
                    "cusparse": "cusparse", "cusolver": "cusolver", "nvrtc": "nvrtc"}


def library_text(compiled: Compiled, library: str, own: bool = True) -> str:
    """Declarations for the names of one library: with ``own``, those carrying the library's
    prefix (safe next to a real toolkit), else the rest (shared CUDA types; stub mode only)."""
    table = compiled.table
    prefix = LIBRARY_PREFIXES.get(library)
    kinds: dict[str, list[str]] = defaultdict(list)  # classify() result -> names
    for name, entry in table.identifiers.items():
        if entry.library != library:
            continue
        if prefix is not None and name.lower().startswith(prefix) != own:
            continue
        kinds[classify(name, entry.kind)].append(name)
    types, structs, constants = kinds["type"], kinds["struct"], kinds["constant"]
    functions, strings, handles = kinds["function"], kinds["string_function"], kinds["handle"]
    status = STATUS_TYPES.get(library)
    if status not in table.identifiers or not own:
        status = None
    guard = f"__CUDAPORT_STUB_{library.upper()}{'' if own else '_EXTRA'}"
    out = [f"#ifndef {guard}", f"#define {guard}", f'#include "{COMMON_STUB}"']
    out += [f"typedef int {n};" for n in sorted(types)]
    out += [f"typedef struct __cudaport_{n} *{n};" for n in sorted(handles)]
    out += [f"struct {n} {{ __cudaport_any __cudaport_field; }};" for n in sorted(structs)]
    if constants:
        out.append(f"enum __cudaport_{library}{'' if own else '_extra'}_constants : int {{")
        out += [f"  {n}," for n in sorted(constants)]
        out.append("};")
    ret = (status if own else None) or ("double" if library == "device" else "__cudaport_any")
    out += [f"template <class... A> __cudaport_hd {ret} {n}(A&&...);" for n in sorted(functions)]
    out += [f"template <class... A> __cudaport_hd const char *{n}(A&&...);"
            for n in sorted(strings)]
    out.append(f"#endif /* {guard} */")
    return "\n".join(out) + "\n"


# Just enough cooperative groups for code that uses them to parse in stub mode.
_CG_NAMES = ("thread_group", "thread_block", "grid_group", "multi_grid_group",
             "coalesced_group", "cluster_group")
COOPERATIVE_GROUPS = {
    "cooperative_groups.h": "#pragma once\n#include \"__cudaport_stub_common.h\"\n"
    "namespace cooperative_groups {\n"
    + "".join(f"struct {n} {{ template <class... A> __cudaport_hd __cudaport_any "
              f"operator()(A&&...) const; }};\n" for n in _CG_NAMES)
    + "template <unsigned N, class P = void> struct thread_block_tile : thread_group {};\n"
    "template <class... A> __cudaport_hd __cudaport_any this_thread_block(A&&...);\n"
    "template <class... A> __cudaport_hd __cudaport_any this_grid(A&&...);\n"
    "template <unsigned N, class... A> __cudaport_hd thread_block_tile<N> "
    "tiled_partition(A&&...);\n"
    "template <class... A> __cudaport_hd __cudaport_any tiled_partition(A&&...);\n"
    "template <class... A> __cudaport_hd __cudaport_any reduce(A&&...);\n"
    "template <class T> struct plus {}; template <class T> struct greater {};\n"
    "template <class T> struct less {};\n"
    "}\n",
    "cooperative_groups/reduce.h": "#pragma once\n#include <cooperative_groups.h>\n",
    "cooperative_groups/scan.h": "#pragma once\n#include <cooperative_groups.h>\n",
    "cooperative_groups/memcpy_async.h": "#pragma once\n#include <cooperative_groups.h>\n",
}

COMMON_TEXT = """\
/* cudaport stub: generated from the rule table; not CUDA. */
#pragma once
#define __cudaport_hd __attribute__((host)) __attribute__((device))
struct __cudaport_any {
  template <class T> __cudaport_hd operator T() const;
};
"""


def _vector_types() -> list[str]:
    out = []
    for base, ctype in (("char", "signed char"), ("uchar", "unsigned char"), ("short", "short"),
                        ("ushort", "unsigned short"), ("int", "int"), ("uint", "unsigned"),
                        ("long", "long"), ("ulong", "unsigned long"), ("longlong", "long long"),
                        ("ulonglong", "unsigned long long"), ("float", "float"),
                        ("double", "double")):
        for n in range(1, 5):
            if f"{base}{n}" == "uint3":
                continue
            fields = ", ".join("xyzw"[:n])
            out.append(f"struct {base}{n} {{ {ctype} {fields}; }};")
    return out


def main_stub_text(compiled: Compiled) -> str:
    """The force-included stub: keywords, dim3, launch configuration, runtime-level names."""
    out = ["/* cudaport stub CUDA runtime: generated from the rule table; not CUDA. */",
           "#pragma once", f'#include "{COMMON_STUB}"',
           "#include <stddef.h>"]
    for key, value in _KEYWORDS.items():
        out.append(f"#define {key} {value}")
    out += [
        "#define CUDART_VERSION 12000",
        "#define __CUDACC_VER_MAJOR__ 12",
        "struct uint3 { unsigned x, y, z; };",
        *_vector_types(),
        "struct dim3 { unsigned x, y, z;",
        "  __cudaport_hd dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}",
        "  __cudaport_hd dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {} };",
        '#include "__clang_cuda_builtin_vars.h"',
        "extern const __attribute__((device)) int warpSize;",
        "typedef struct __cudaport_stream_st *__cudaport_stream;",
        "extern \"C\" int cudaConfigureCall(dim3, dim3, size_t = 0, __cudaport_stream = 0);",
        "extern \"C\" unsigned __cudaPushCallConfiguration(dim3, dim3, size_t = 0, "
        "__cudaport_stream = 0);",
    ]
    out += [f'#include "__cudaport_lib_{lib}.h"' for lib in sorted(RUNTIME_LIBRARIES)]
    out += [f'#include "__cudaport_lib_{lib}_extra.h"' for lib in sorted(LIBRARY_PREFIXES)]
    return "\n".join(out) + "\n"


def support_dir(compiled: Compiled) -> Path:
    """A folder (cached by rule-table digest) with ``standin/`` and ``stub/`` headers."""
    digest = hashlib.sha256(
        f"{STUB_VERSION}:{compiled.table.digest}".encode()).hexdigest()[:20]
    root = cache_dir() / f"headers-{digest}"
    if (root / "complete").is_file():
        return root
    files: dict[str, str] = {f"standin/{k}": v for k, v in STANDINS.items()}
    files[f"stub/{COMMON_STUB}"] = COMMON_TEXT
    files[f"stub/{MAIN_STUB}"] = main_stub_text(compiled)
    libraries = {e.library for e in compiled.table.identifiers.values()}
    for lib in sorted(libraries):
        files[f"stub/__cudaport_lib_{lib}.h"] = library_text(compiled, lib)
    for lib in LIBRARY_PREFIXES:
        files[f"stub/__cudaport_lib_{lib}_extra.h"] = library_text(compiled, lib, own=False)
    for header, text in COOPERATIVE_GROUPS.items():
        files[f"stub/{header}"] = text
    for header, hentry in compiled.table.headers.items():
        if ".." in header or header.startswith("/") or header.endswith("/"):
            continue  # (a folder entry rules headers below it; it is no header itself)
        lib = hentry.library
        body = "" if lib in RUNTIME_LIBRARIES or lib not in libraries else \
            f'#include "__cudaport_lib_{lib}.h"\n'
        files[f"stub/{header}"] = f"/* cudaport stub for <{header}> ({lib}) */\n#pragma once\n{body}"
    for rel, text in files.items():
        _write(root / rel, text)
    _write(root / "complete", "")
    return root


def _write(path: Path, text: str) -> None:
    from ..run.runner.io import write_output

    write_output(path, text.encode(), durable=False)
