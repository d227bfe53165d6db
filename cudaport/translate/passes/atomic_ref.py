"""``cuda::atomic_ref<T, cuda::thread_scope_S>`` becomes HIP's scoped atomic builtins.

libcu++'s atomic_ref (CUDA C++ Standard Library, ``cuda::atomic_ref``) applies atomic
operations to an object it refers to, at a thread scope; each operation takes a
``memory_order`` (``seq_cst`` when none is given). clang's ``__hip_atomic_*`` builtins take
the same operation, a C11 memory order and a HIP memory scope, so a reference whose every
use is such an operation is rewritten exactly:

    cuda::atomic_ref<int, cuda::thread_scope_device> r(x[i]);   ->   int* const r = &(x[i]);
    r.fetch_add(1, cuda::memory_order_relaxed);   ->   __hip_atomic_fetch_add(r, 1,
                                                        __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);

The object is named once, where the reference is made, as atomic_ref does. Supported:
load, store, exchange, fetch_add/sub/and/or/xor/min/max, compare_exchange_strong/weak
(the failure order from the success order as C++ derives it, or given). A reference used
any other way (passed on, copied, ``operator+=``, a scope or order spelled otherwise) is
left as it is and reported (CP110).
"""

from __future__ import annotations

import re

from ...source import lexer
from ..context import FileContext
from ...source.lazy_re import lazy

_CUDA = rb"(?:::[ \t]*)?cuda[ \t]*::[ \t]*"
_DECLARATION = lazy(_CUDA + rb"atomic_ref[ \t]*<")
_SCOPES = {b"thread": "__HIP_MEMORY_SCOPE_SINGLETHREAD", b"block": "__HIP_MEMORY_SCOPE_WORKGROUP",
           b"device": "__HIP_MEMORY_SCOPE_AGENT", b"system": "__HIP_MEMORY_SCOPE_SYSTEM"}
_SCOPE = lazy(rb"\s*" + _CUDA + rb"thread_scope_(thread|block|device|system)\s*\Z")
_ORDER = lazy(rb"\s*" + _CUDA + rb"(?:std[ \t]*::[ \t]*)?memory_order_"
              rb"(relaxed|acquire|release|acq_rel|seq_cst|consume)\s*\Z")
_ORDERS = {b"relaxed": "__ATOMIC_RELAXED", b"consume": "__ATOMIC_ACQUIRE",  # (as clang does)
           b"acquire": "__ATOMIC_ACQUIRE", b"release": "__ATOMIC_RELEASE",
           b"acq_rel": "__ATOMIC_ACQ_REL", b"seq_cst": "__ATOMIC_SEQ_CST"}
_FAILURE = {"__ATOMIC_ACQ_REL": "__ATOMIC_ACQUIRE", "__ATOMIC_RELEASE": "__ATOMIC_RELAXED"}
_VALUE_OPS = {b"store": ("__hip_atomic_store", 1), b"exchange": ("__hip_atomic_exchange", 1),
              b"fetch_add": ("__hip_atomic_fetch_add", 1), b"fetch_sub": ("__hip_atomic_fetch_sub", 1),
              b"fetch_and": ("__hip_atomic_fetch_and", 1), b"fetch_or": ("__hip_atomic_fetch_or", 1),
              b"fetch_xor": ("__hip_atomic_fetch_xor", 1), b"fetch_min": ("__hip_atomic_fetch_min", 1),
              b"fetch_max": ("__hip_atomic_fetch_max", 1), b"load": ("__hip_atomic_load", 0)}
_EXCHANGES = {b"compare_exchange_strong": "__hip_atomic_compare_exchange_strong",
              b"compare_exchange_weak": "__hip_atomic_compare_exchange_weak"}


def plan(ctx: FileContext) -> list[tuple[int, int, tuple]]:
    """(start, end, replacement parts) of every rewrite a provable atomic_ref needs."""
    src = ctx.src
    if b"atomic_ref" not in src:
        return []
    code = ctx.code
    out: list[tuple[int, int, tuple]] = []
    for decl in _DECLARATION.finditer(code):
        if decl.start() and code[decl.start() - 1:decl.start()] in (b".", b">") or \
                decl.start() and (code[decl.start() - 1:decl.start()].isalnum()
                                  or code[decl.start() - 1] in b"_$"):
            continue
        found = _declaration(ctx, code, decl)
        if found is not None:
            out.extend(found)
    return out


def _declaration(ctx: FileContext, code: bytes, decl: re.Match) -> list | None:
    args = lexer.template_arguments(code, decl.end() - 1)
    if args is None or len(args) != 2:
        return None
    (ta, tb), (sa, sb) = args
    scope = _SCOPE.match(code, sa, sb)
    if scope is None:
        return None
    where = _SCOPES[scope.group(1)]
    m = re.compile(rb"\s*>\s*([A-Za-z_]\w*)\s*([({])").match(code, sb)
    if m is None:
        return _temporary(ctx, code, decl.start(), sb, where)
    name = m.group(1)
    parsed = lexer.split_arguments(ctx.src, m.end() - 1, b")" if m.group(2) == b"(" else b"}",
                                   brackets=ctx.brackets)
    if parsed is None or len(parsed[0]) != 1:
        return None
    ((oa, ob),), close = parsed
    semi = lexer.next_token(ctx.src, close)
    if semi is None or semi.text != b";":
        return None
    type_text = ctx.src[ta:tb].strip()
    edits = [(decl.start(), semi.end, (type_text + b"* const " + name + b" = &(", (oa, ob),
                                       b");"))]
    uses = {u.start() for u in re.finditer(rb"(?<![\w$.>:])" + re.escape(name) + rb"(?![\w$])",
                                            code)}
    uses.discard(m.start(1))
    call = re.compile(re.escape(name) + rb"[ \t]*\.[ \t]*(\w+)[ \t]*\(")
    for at in sorted(uses):
        c = call.match(code, at)
        if c is None or not ctx.in_code(at, c.end()):
            return None
        rewrite = _method(ctx, (name + b", ",), c.start(), c, where)
        if rewrite is None:
            return None
        edits.append(rewrite)
    return edits if uses else None


def _order(ctx: FileContext, span: tuple[int, int]) -> str | None:
    m = _ORDER.match(ctx.code, *span)
    return _ORDERS[m.group(1)] if m is not None else None


_TEMPORARY = lazy(rb"\s*>\s*([({])")
_CALL = lazy(rb"\s*\.\s*(\w+)\s*\(")


def _temporary(ctx: FileContext, code: bytes, start: int, args_end: int,
               where: str) -> list | None:
    """``cuda::atomic_ref<T, S>{obj}.op(...)`` (or ``(obj)``): one operation on a reference
    made for it, ``__hip_atomic_op(&(obj), ...)``."""
    m = _TEMPORARY.match(code, args_end)
    if m is None:
        return None
    parsed = lexer.split_arguments(ctx.src, m.end() - 1, b")" if m.group(1) == b"(" else b"}",
                                   brackets=ctx.brackets)
    if parsed is None or len(parsed[0]) != 1:
        return None
    ((oa, ob),), close = parsed
    c = _CALL.match(code, close)
    if c is None or not ctx.in_code(start, c.end()):
        return None
    rewrite = _method(ctx, (b"&(", (oa, ob), b"), "), start, c, where)
    return [rewrite] if rewrite is not None else None


def _method(ctx: FileContext, head: tuple, start: int, call: re.Match,
            where: str) -> tuple | None:
    """The builtin call for ``call`` (``.op(``), from ``start`` to its ``)``; ``head``: the
    parts naming the object's address and a comma."""
    parsed = lexer.split_arguments(ctx.src, call.end() - 1, brackets=ctx.brackets)
    if parsed is None:
        return None
    args, close = parsed
    args = [a for a in args if a[1] > a[0]]
    method = call.group(1)
    if method in _VALUE_OPS:
        builtin, values = _VALUE_OPS[method]
        if len(args) not in (values, values + 1):
            return None
        order = _order(ctx, args[values]) if len(args) > values else "__ATOMIC_SEQ_CST"
        if order is None:
            return None
        parts = (builtin.encode() + b"(", *head, *[p for a in args[:values] for p in (a, b", ")],
                 f"{order}, {where})".encode())
        return start, close, parts
    if method in _EXCHANGES:
        if len(args) not in (2, 3, 4):
            return None
        success = _order(ctx, args[2]) if len(args) > 2 else "__ATOMIC_SEQ_CST"
        failure = _order(ctx, args[3]) if len(args) > 3 else _FAILURE.get(success, success)
        if success is None or failure is None:
            return None
        parts = (_EXCHANGES[method].encode() + b"(", *head, b"&(", args[0], b"), ", args[1],
                 f", {success}, {failure}, {where})".encode())
        return start, close, parts
    return None
