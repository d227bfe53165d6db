"""A cuBLAS GEMM compute type held in a ``cudaDataType`` variable, converted for the target.

cuBLAS keeps, for C++, overloads of ``cublasGemmEx``, ``cublasGemmBatchedEx`` and
``cublasGemmStridedBatchedEx`` whose compute type is a ``cudaDataType`` (the pre-CUDA 11
form): ``cublasMigrateComputeType`` in CUDA 13's cublas_api.h turns ``CUDA_R_32F`` and
``CUDA_C_32F`` into ``CUBLAS_COMPUTE_32F``, the 64-bit types into ``CUBLAS_COMPUTE_64F``,
``CUDA_R_16F`` into ``CUBLAS_COMPUTE_16F`` and ``CUDA_R_32I`` into ``CUBLAS_COMPUTE_32I``
(the ``_PEDANTIC`` ones under ``CUBLAS_PEDANTIC_MATH``). The target's call takes only its
compute type (hipBLAS's ``hipblasGemmEx_v2``: ``hipblasComputeType_t``). A literal data type
there becomes the compute type the overload would pass (``CUDA_R_32F`` ->
``HIPBLAS_COMPUTE_32F``; one the overload rejects, ``CUDA_C_16F``, or a target that lacks
the names, is reported: CP216); a variable the file declares as ``cudaDataType``
(Learn-CUDA's cublasGemmEx.cu: ``cudaDataType TYPE_A, TYPE_B, TYPE_C;`` and ``TYPE_C`` as the
compute type) becomes the same mapping as an expression on that variable, in target names.
"""

from __future__ import annotations

import re

from ...source import lexer
from ..context import FileContext
from ...source.edits import Edit
from ...rules.hazards import target_facts
from .hazards import _COMPUTE_TYPE_ARG, _DATA_TYPE, _GEMM_EX, _GEMMS_EX
from .registry import register
from ...source.lazy_re import lazy

_IDENT = lazy(rb"[A-Za-z_]\w*\Z")
# compute type <- data types, in the order the expression tests them (32F is the rest)
_MIGRATION = ((b"64F", (b"CUDA_R_64F", b"CUDA_C_64F")), (b"16F", (b"CUDA_R_16F",)),
              (b"32I", (b"CUDA_R_32I",)))


@register(43, "gemm-compute-type")
def gemm_compute_type(ctx: FileContext) -> None:
    gemm = target_facts(ctx.compiled.target).get("gemm_compute_type")
    src = ctx.src
    if not gemm or ctx.names.isdisjoint(_GEMMS_EX) or not all(
            ctx.options.variant(group) in (None, choice)
            for group, choice in (gemm.get("variant") or {}).items()):
        return
    names = _target_names(ctx)
    for m in _GEMM_EX.finditer(src):
        if not ctx.in_code(m.start(), m.end()):
            continue
        parsed = lexer.split_arguments(src, m.end() - 1, brackets=ctx.brackets)
        index = _COMPUTE_TYPE_ARG[m.group(1)]
        if parsed is None or len(parsed[0]) <= index:
            continue
        start, end = parsed[0][index]
        var = src[start:end]
        if _DATA_TYPE.match(var):
            _literal(ctx, m.group(1).decode(), start, end, names, gemm)
            continue
        if names is None or not _IDENT.match(var) or not _declared_data_type(src, var, start):
            continue
        text = b"("
        for compute, types in _MIGRATION:
            text += b" || ".join(var + b" == " + names[t] for t in types)
            text += b" ? " + names[compute] + b" : "
        text += names[b"32F"] + b")"
        ctx.edits.append(Edit(start, end, text, f"{ctx.compiled.target.name}/gemm-compute-type"))
        ctx.find("CP108", start, f"{m.group(1).decode()} gets its compute type from the "
                 f"cudaDataType variable {var.decode()}: cuBLAS converts it through a C++ "
                 f"compatibility overload, {gemm['library']}'s call takes only a "
                 f"{gemm['type']}, so the conversion is written out (as under CUBLAS_DEFAULT_MATH: "
                 "no _PEDANTIC compute types)", var.decode(), "cublas", "info")


def _literal(ctx: FileContext, call: str, start: int, end: int,
             names: dict[bytes, bytes] | None, gemm: dict) -> None:
    """A data type literal as the compute type: the compute type cuBLAS's overload turns it
    into, in the target's name, in place of the identifier pass's rename of the literal."""
    given = ctx.src[start:end]
    compute = next((c for c, types in _MIGRATION if given in types),
                   b"32F" if given in (b"CUDA_R_32F", b"CUDA_C_32F") else None)
    shown = given.decode()
    if names is None or compute is None:
        instead = f"CUBLAS_COMPUTE_{shown[7:]}"
        ctx.find("CP216", start, f"{call} gets the data type {shown} as its compute type: "
                 f"cuBLAS accepts that through a C++ compatibility overload, {gemm['library']}'s "
                 f"_v2 call takes only a {gemm['type']}; pass {instead} (it becomes "
                 f"{gemm['prefix']}{shown[7:]})" if compute is not None else
                 f"{call} gets the data type {shown} as its compute type: cuBLAS's "
                 "compatibility overload rejects it (CUBLAS_STATUS_NOT_SUPPORTED)", call, "cublas")
        return
    ctx.edits[:] = [e for e in ctx.edits if (e.start, e.end) != (start, end)]
    ctx.edits.append(Edit(start, end, names[compute], f"{ctx.compiled.target.name}/gemm-compute-type"))
    ctx.find("CP108", start, f"{call} gets the data type {shown} as its compute type: cuBLAS "
             f"converts it through a C++ compatibility overload to CUBLAS_COMPUTE_"
             f"{compute.decode()}, {gemm['library']}'s call takes only a {gemm['type']}, so that "
             "is written (as under CUBLAS_DEFAULT_MATH: no _PEDANTIC compute types)", shown,
             "cublas", "info")


def _target_names(ctx: FileContext) -> dict[bytes, bytes] | None:
    """The target's spellings of the data types and compute types the mapping uses."""
    out: dict[bytes, bytes] = {}
    wanted = [t for _c, types in _MIGRATION for t in types] + [
        b"CUBLAS_COMPUTE_" + c for c in (b"64F", b"16F", b"32I", b"32F")]
    for name in wanted:
        r = ctx.compiled.identifiers.get(name)
        if r is None or r.status != "converted":
            return None
        out[name.removeprefix(b"CUBLAS_COMPUTE_")] = r.replacement
    return out


def _declared_data_type(src: bytes, var: bytes, before: int) -> bool:
    """``cudaDataType[_t] a, b, VAR`` (a declaration list or a parameter) before the call."""
    pattern = re.compile(rb"\bcudaDataType(?:_t)?\s+(?:\w+\s*(?:=[^,;(){}]*)?,\s*)*"
                         + re.escape(var) + rb"\b")
    return pattern.search(src, 0, before) is not None
