"""Rename CUDA identifiers, apply argument templates, and report what stays unmapped."""

from __future__ import annotations

import functools

from ...source import lexer
from ...symbols import latent
from ...symbols import polyfills
from ...symbols import scopes
from ..context import FileContext
from ...source.edits import Edit, new_edit
from ...rules.frameworks import FRAMEWORK_LIBRARY, is_framework_qualified
from ...rules.compiled import Resolved
from ...symbols.host import host_library_call
from ...symbols.unknown import own_unknown_names
from .registry import register
from ...source.lazy_re import lazy

_KERNEL_LANGUAGE = frozenset(("keyword", "variable"))  # __global__, threadIdx (extra.yaml)
_PLACEHOLDER = lazy(rb"\$(\d+|\*)")
_REST_WITH_COMMA = lazy(rb",\s*\$\*")


@register(10, "identifiers")
def identifiers(ctx: FileContext) -> None:
    lookup = ctx.compiled.identifiers
    namespaces = ctx.compiled.namespace_names
    src = ctx.src
    add_edit = ctx.edits.append
    dropped: list[int] = []  # case labels of constants the target lacks, removed
    tags = ctx.compiled.derived("_struct_tags", lambda: {
        k.encode(): v.encode()
        for k, v in (ctx.compiled.target.extra.get("struct_tags") or {}).items()})
    by_library = ctx.compiled.argument_names
    inside: list[tuple[int, dict]] = []  # (end, names) of the calls whose arguments we are in
    not_api: list[int] = []  # namespace names used as something else (`struct wmma {`),
    # functions the target lacks or names otherwise that the file defines itself
    own: dict[bytes, int] | None = None  # (found at the first such name)
    legacy = _legacy_cublas(ctx)
    # (a name in the body of a macro this file never expands asks for no header here: the
    # file that expands it does, as the original relied on nvcc's own include there)
    unexpanded = latent.unexpanded_macro_body(ctx.code)
    # (nor a name the translation spells as a macro the compiler itself defines)
    compiler_macros = ctx.compiled.derived("_compiler_macros", lambda: frozenset(
        n.encode() for n in ctx.compiled.target.extra.get("compiler_macros") or ()))
    may_be_own = _may_be_own_names(ctx.compiled)
    for start, name, context in ctx.scan.idents:
        r = lookup[name]
        if legacy and r.entry is not None and r.entry.library == "cublas" \
                and r.status in ("converted", "fallback", "same"):
            _keep_legacy_cublas(ctx, start, name, context, r)
            not_api.append(start)
            continue
        if name in namespaces and not _api_namespace_use(ctx, start, name, r.entry):
            not_api.append(start)
            continue
        if context == "code" and name in may_be_own:
            if own is None:
                own = _own_functions(ctx)
            if name in own:
                _kept_as_own(ctx, start, name, own[name])
                not_api.append(start)
                continue
        if inside:
            while inside and start >= inside[-1][0]:
                inside.pop()
            r = next((names[name] for _end, names in reversed(inside) if name in names), r)
        if by_library and context == "code" and r.entry is not None \
                and r.entry.library in by_library:
            parsed = lexer.call_arguments(src, start + len(name), ctx.brackets)
            if parsed is not None:
                inside.append((parsed[1], by_library[r.entry.library]))
        if src[start - 2:start] == b"::" and r.entry is not None \
                and r.entry.library != FRAMEWORK_LIBRARY and is_framework_qualified(src, start):
            continue  # at::cuda::X, c10::cuda::X: PyTorch's names, not CUDA API
        if r.renames:
            end = start + len(name)
            if r.template is None and not r.by_args and name not in namespaces:
                new = r.replacement
                if new in tags and _after_struct_keyword(src, start):
                    new = tags[new]  # `struct cudaGraphicsResource` -> the target's tag
                add_edit(new_edit(start, end, new, r.entry.rule_id))  # hot path
            elif name not in namespaces or _is_namespace_use(src, start, end):
                edits = None
                if (r.template is not None or r.by_args) and context == "code":
                    edits = _template_call(ctx, start, end, r.template, r.by_args,
                                           r.entry.rule_id)
                if edits is not None:
                    ctx.edits += edits
                elif r.replacement != name:
                    add_edit(new_edit(start, end, r.replacement, r.entry.rule_id))
        if context == "code":
            # (once the flags this use could set are set, the tests that decide whether it
            # sets them are not asked again: most uses of a file come after its first)
            if r.runtime and not (ctx.uses_runtime and (
                    ctx.uses_device or r.entry.kind not in _KERNEL_LANGUAGE)) \
                    and r.replacement not in compiler_macros \
                    and not host_library_call(ctx, start, name, r.entry) \
                    and not unexpanded(start):
                ctx.uses_runtime = True
                if r.entry.kind in _KERNEL_LANGUAGE:
                    ctx.uses_device = True
            if r.reportable:
                if r.status == "unsupported" and _drop_case_label(ctx, start, name, r):
                    dropped.append(start)
                    continue
                _report(ctx, start, name, r)
    if dropped or not_api:
        gone = set(dropped) | set(not_api)
        ctx.scan.idents[:] = [i for i in ctx.scan.idents if i[0] not in gone]
    if ctx.scan.unknown:  # the project's own CUDA_CHECK, cudaDev & co. are not CUDA API,
        # nor is a member (`x.cudaConn`, `p->cudaPtr`): CUDA's names are never reached
        # through an object
        own = own_unknown_names(src, ctx.scan.unknown)
        ctx.own_names = ctx.own_names | frozenset(u[1] for u in ctx.scan.unknown if u[1] in own)
        ctx.scan.unknown[:] = [u for u in ctx.scan.unknown
                               if u[1] not in own and not scopes.is_member(src, u[0])]
    libraries = ctx.compiled.target.extra.get("unknown_libraries") or {}
    for start, name, context in ctx.scan.unknown:
        if context == "code":
            ident = name.decode()
            library = next((title for prefix, title in libraries.items()
                            if ident.startswith(prefix)), None)
            if library:
                ctx.find("CP105", start, f"{ident} belongs to {library}, which the "
                         f"{ctx.compiled.target.title} rule table does not cover: left unchanged",
                         ident)
            else:
                ctx.find("CP105", start, f"{ident} has a CUDA-like name but is not CUDA API "
                         "(no public name of the CUDA 13 headers): left unchanged", ident)


def _legacy_cublas(ctx: FileContext) -> bool:
    """The file includes cuBLAS's legacy header (cublas.h) and not cublas_v2.h: its cuBLAS
    calls are the handle-less ones (``cublasSscal(n, alpha, x, incx)``), which no hipBLAS
    or rocBLAS function takes (they all take a handle first)."""
    if not ctx.scan.includes:
        return False
    names = {inc.name.rsplit(b"/", 1)[-1] for inc in ctx.scan.includes}
    return b"cublas.h" in names and not names & {b"cublas_v2.h", b"cublasXt.h"}


def _keep_legacy_cublas(ctx: FileContext, start: int, name: bytes, context: str, r) -> None:
    """A cuBLAS name in a legacy-API file stays as written (as the cublas.h include does:
    renamed, the calls would not compile) and each function is reported (CP130)."""
    ident = name.decode()
    kept = Resolved(r.entry, "unsupported", None, "legacy cuBLAS API (cublas.h)")
    ctx.references.append((start, name, context, kept))
    if context == "code" and r.entry.kind == "function":
        ctx.find("CP130", start, f"{ident}: legacy cuBLAS API (cublas.h, no handle), which "
                 f"{ctx.compiled.target.title} lacks: left as written; move the file to "
                 "cublas_v2.h (create a cublasHandle_t and pass it first to each call), then "
                 "translate it", ident, "cublas")


_STRUCT_KEYWORD = lazy(rb"(?<![\w$])(?:struct|class|union|enum)[ \t\r\n]+\Z")


def _after_struct_keyword(src: bytes, start: int) -> bool:
    """``struct NAME`` / ``class NAME`` / ``enum NAME``: an elaborated type specifier."""
    return _STRUCT_KEYWORD.search(src, max(0, start - 32), start) is not None


_CASE_BEFORE = lazy(rb"\bcase[ \t]+\Z")
_CASE_AFTER = lazy(rb"[ \t]*:(?!:)")


def _drop_case_label(ctx: FileContext, start: int, name: bytes, r) -> bool:
    """``case CUFFT_MISSING_DEPENDENCY:`` where the target's enum has no such value: no
    value can reach the label there, so removing it keeps the switch's meaning (a body
    shared with other labels still runs for them; one of its own becomes dead code), and
    the file compiles. helper_cuda.h's error-name switches are the common case."""
    if r.entry is None or r.entry.kind not in ("constant", "enum"):
        return False
    src = ctx.src
    before = _CASE_BEFORE.search(src, max(0, start - 16), start)
    after = _CASE_AFTER.match(src, start + len(name))
    if before is None or after is None:
        return False
    begin, end = before.start(), after.end()
    line = src.rfind(b"\n", 0, begin) + 1
    stop = src.find(b"\n", end)
    stop = len(src) if stop < 0 else stop + 1
    if not src[line:begin].strip() and not src[end:stop].strip():
        begin, end = line, stop  # the label is its line: remove the line
    else:
        while src[end:end + 1] in (b" ", b"\t"):
            end += 1
    ctx.edits.append(Edit(begin, end, b"", r.entry.rule_id))
    dropped = Resolved(r.entry, "drop", b"", "no such value on the target")
    ctx.references.append((start, name, "code", dropped))
    ctx.find(r.entry.code or "CP101", start, f"{name.decode()} has no "
             f"{ctx.compiled.target.title} equivalent, so no value reaches this case label "
             f"there: the label is removed", name.decode(), r.entry.library, "info")
    return True


def _report(ctx: FileContext, offset: int, name: bytes, r) -> None:
    """The findings a use of ``name`` resolved to ``r`` gets."""
    entry = r.entry
    target = ctx.compiled.target.title
    ident = name.decode()

    def find(code: str, message: str) -> None:
        ctx.find(code, offset, message, ident, entry.library)

    since = f" (CUDA {entry.cuda_since}+)" if entry.cuda_since else ""
    if r.status == "unsupported":
        why = f": {r.reason}" if r.reason and "variant" in r.reason else ""
        if entry.note:  # what to use instead
            why = f"; {entry.note}"
        find(entry.code or "CP101", f"{ident} has no {target} equivalent{since}{why}")
    elif r.status == "experimental":
        find("CP104", f"{ident}: {r.reason}; not translated without --experimental")
    elif r.status == "version":
        find("CP107", f"{ident}: {r.reason}, newer than the selected version")
    if entry.cuda_removed:
        find("CP103", f"{ident} was removed in {entry.product} {entry.cuda_removed}")
    elif entry.cuda_deprecated:
        find("CP102", f"{ident} is deprecated since {entry.product} {entry.cuda_deprecated}")
    if r.status == "fallback":
        find("CP108", f"{ident}: {r.reason}; used the fallback: {r.note or 'check the call'}")
    elif r.note and r.status in ("converted", "same"):
        find("CP120" if r.rewrite else "CP108", f"{ident}: {r.note}")
    if entry.caveat and r.status in ("converted", "same"):
        find("CP171", f"{ident}: {entry.caveat}")


_ALIAS_TARGET = lazy(rb"\bnamespace\s+[A-Za-z_]\w*\s*=\Z")  # namespace my = cub;


def _is_namespace_use(src: bytes, start: int, end: int) -> bool:
    """A namespace name is renamed only in ``name::`` or ``namespace name``, but not
    where ``namespace name = ...;`` declares an alias of that name: code with its own
    ROCm branch has ``namespace cub = hipcub;``, and renaming it would alias hipcub to
    itself, which does not compile."""
    if src[end:end + 2] == b"::":  # (the common case, without reading a token)
        return True
    after = lexer.next_token(src, end)
    if after is not None and after.text == b"::":
        return True
    before = src[max(0, start - 64):start].rstrip()
    if before.endswith(b"namespace"):
        return after is None or after.text != b"="
    return before.endswith(b"using") or _ALIAS_TARGET.search(before) is not None


def _may_be_own(r, name: bytes) -> bool:
    """A CUDA function the target lacks, or spells otherwise: a file that defines one
    itself calls its own definition (renaming that definition would redefine the
    target's function)."""
    return r.entry is not None and r.entry.kind == "function" and (
        r.status == "unsupported" or r.renames and r.replacement != name)


def _may_be_own_names(compiled) -> frozenset[bytes]:
    """The table's names :func:`_may_be_own` holds for, found once per table (a set lookup
    per use instead of a call)."""
    return compiled.derived("_may_be_own", lambda: frozenset(
        n for n, r in compiled.identifiers.items() if _may_be_own(r, n)))


def _own_functions(ctx: FileContext) -> dict[bytes, int]:
    """Such functions the file defines itself (cudaport/symbols/polyfills.py)."""
    may_be_own = _may_be_own_names(ctx.compiled)
    names = {n for _, n, c in ctx.scan.idents if c == "code" and n in may_be_own}
    return polyfills.defined_functions(ctx, names)


def _kept_as_own(ctx: FileContext, start: int, name: bytes, definition: int) -> None:
    if start == definition:
        ctx.find("CP164", start, f"{name.decode()} is the project's own (defined in this "
                 "file, which calls that definition), not CUDA's: left unchanged",
                 name.decode())


def _api_namespace_use(ctx: FileContext, start: int, name: bytes, entry) -> bool:
    """Whether this use of a namespace rule's name is the API's namespace: used as a
    namespace (``wmma::``, ``using namespace wmma``), and for a nested one (``inside``)
    reached through its outer namespace or in a file that names that (aiter's own
    ``struct wmma`` and ``wmma<...>`` are not nvcuda::wmma)."""
    if not _is_namespace_use(ctx.src, start, start + len(name)):
        return False
    if entry is None or not entry.inside:
        return True
    outer = entry.inside.encode()
    before = ctx.src[max(0, start - 64):start].rstrip()
    if before.endswith(b"::"):
        return before[:-2].rstrip().endswith(outer)
    return outer in ctx.names


@functools.cache
def _wrapping_shape(template: bytes) -> tuple[bytes, list[tuple[bytes, bytes]], bool] | None:
    """``NEW(p1$1s1, p2$2s2, ..., $*)`` as (NEW, [(p1, s1), (p2, s2), ...], has $*): a
    template that keeps every argument in place, maybe wrapped (``HIP_SYMBOL($1)``,
    ``reinterpret_cast<const void*>($1)``). Such a call is rewritten keeping its own
    layout (line breaks, comments between arguments); None for other templates
    (arguments dropped, reordered or added)."""
    shape = None
    open_paren = template.find(b"(")
    parsed = lexer.split_arguments(template, open_paren) if open_paren > 0 else None
    if parsed is not None and parsed[1] == len(template):
        wraps: list[tuple[bytes, bytes]] = []
        rest = False
        for i, (a, b) in enumerate(parsed[0]):
            item = template[a:b]
            marks = list(_PLACEHOLDER.finditer(item))
            if rest or len(marks) != 1:
                break
            if item == b"$*":
                rest = True
            elif marks[0].group(1) == str(len(wraps) + 1).encode():
                wraps.append((item[:marks[0].start()], item[marks[0].end():]))
            else:
                break
        else:
            shape = (template[:open_paren], wraps, rest)
    return shape


def _template_call(ctx: FileContext, start: int, end: int, template: bytes | None,
                   by_args: tuple, rule_id: str) -> list[tuple] | None:
    """Edits that rewrite ``name(args)`` with an argument template; None if it is not a
    call. A template that keeps every argument in place (maybe wrapped) becomes edits at
    the boundaries: the new name, and the wrappers inserted around the arguments; the call
    keeps its own layout (line breaks, comments between arguments). Any other template
    rebuilds the call from its arguments' spans (see ``edits.Replacement``). Either way
    the names inside the arguments keep their own rename edits. ``by_args`` picks the
    template by the number of arguments (``template`` for other counts, maybe None)."""
    src = ctx.src
    parsed = ctx.call_arguments(start, end)
    if parsed is None:
        return None
    args, close = parsed
    template = next((t for n, t in by_args if n == len(args)), template)
    if template is None or lexer.contains_directive(src, start, close):
        return None  # the plain rename still applies
    numbered = [int(m.group(1)) for m in _PLACEHOLDER.finditer(template) if m.group(1) != b"*"]
    highest = max(numbered, default=0)
    if highest > len(args):
        return None
    shape = _wrapping_shape(template)
    if shape is not None and (len(args) == len(shape[1]) or shape[2] and len(args) >= len(shape[1])):
        name, wraps, _rest = shape
        edits = [new_edit(start, end, name, rule_id)] if name != src[start:end] else []
        for (a, b), (prefix, suffix) in zip(args, wraps):
            if prefix:
                edits.append(new_edit(a, a, prefix, rule_id))
            if suffix:
                edits.append(new_edit(b, b, suffix, rule_id))
        return edits
    rest = None  # the arguments $* stands for, if there are any
    if len(args) > highest and args[highest][0] < args[-1][1]:
        rest = (args[highest][0], args[-1][1])
    body = template if rest else _REST_WITH_COMMA.sub(b"", template).replace(b"$*", b"")
    parts: list = []
    pos = 0
    for m in _PLACEHOLDER.finditer(body):
        if m.start() > pos:
            parts.append(body[pos:m.start()])
        key = m.group(1)
        parts.append(rest if key == b"*" else args[int(key) - 1])
        pos = m.end()
    if pos < len(body):
        parts.append(body[pos:])
    return [new_edit(start, close, tuple(parts), rule_id)]
