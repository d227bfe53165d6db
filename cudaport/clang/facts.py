"""What clang knows about one file, reduced to plain data the passes consult.

Offsets are byte offsets in the file as given (libclang parses the same bytes from memory).
"""

from __future__ import annotations

import bisect
import ctypes
import re
from dataclasses import dataclass, field

from .environment import cindex
from ..source.lazy_re import lazy

BALLOTS = frozenset({"__ballot_sync", "__activemask", "__ballot", "__ballot_sync_64"})
LAUNCH_CONFIG = frozenset({"__cudaPushCallConfiguration", "cudaConfigureCall"})


@dataclass(frozen=True)
class Launch:
    """A kernel launch as clang sees it: ``start``/``end`` span the whole launch expression
    (for a launch written in a macro body: the macro's use); ``lt`` is the ``<<<`` offset
    when it is in the file's own text, else -1."""

    start: int
    end: int
    lt: int
    kernel: str
    pointer: bool  # the kernel is a function pointer, not a named kernel
    in_macro: bool
    in_device_code: bool


@dataclass
class Facts:
    mode: str = ""  # header mode used: toolkit, wheels, stub
    ok: bool = False  # parsed with no error in the file or its includes
    failure: str = ""  # why clang did not run at all
    errors: list[tuple[str, int, int, str]] = field(default_factory=list)  # first errors
    fatal: bool = False  # an include was not found or the error limit was hit
    inactive: list[tuple[int, int]] = field(default_factory=list)  # skipped #if ranges
    shadowed: dict[int, str] = field(default_factory=dict)  # offset -> "where declared"
    resolved: set[int] = field(default_factory=set)  # offsets that resolve to CUDA declarations
    launches: list[Launch] = field(default_factory=list)
    ballot_narrow: list[tuple[int, str, str]] = field(default_factory=list)  # offset, var, type
    member_refs: list[tuple[int, str, str]] = field(default_factory=list)  # offset, record, field
    seconds: float = 0.0

    @property
    def parsed(self) -> bool:
        return not self.failure

    def inactive_at(self, offset: int) -> tuple[int, int] | None:
        for start, end in self.inactive:
            if start <= offset < end:
                return start, end
        return None


_RANGE_LIST = []


def _range_list_type(ci):
    if not _RANGE_LIST:
        class RangeList(ctypes.Structure):
            _fields_ = [("count", ctypes.c_uint), ("ranges", ctypes.POINTER(ci.SourceRange))]
        _RANGE_LIST.append(RangeList)
    return _RANGE_LIST[0]


def skipped_ranges(tu, main_file) -> list[tuple[int, int]]:
    """Inactive preprocessor ranges of the main file (clang_getSkippedRanges)."""
    ci = cindex()
    lib = ci.conf.lib
    fn = lib.clang_getSkippedRanges
    fn.restype = ctypes.POINTER(_range_list_type(ci))
    fn.argtypes = [ci.TranslationUnit, ci.File]
    ptr = fn(tu, main_file)
    out = []
    if ptr:
        for i in range(ptr.contents.count):
            r = ptr.contents.ranges[i]
            out.append((r.start.offset, r.end.offset))
        lib.clang_disposeSourceRangeList(ptr)
    return out


def _branch_body(src: bytes, start: int, end: int) -> tuple[int, int]:
    """clang's skipped range spans the opening and closing directives; keep the lines
    between them (the directives themselves are active preprocessor code)."""
    first = src.find(b"\n", start, end)
    last = src.rfind(b"\n", start, end)
    if first < 0 or last <= first:
        return end, end
    return first + 1, last + 1


def extract(tu, path: str, src: bytes, idents: list[tuple[int, bytes, str]],
            launches: list[int], is_cuda_file, facts: Facts,
            device_props: re.Pattern[bytes] | None = None) -> None:
    """Fill ``facts`` from a parsed translation unit."""
    ci = cindex()
    main = tu.get_file(path)
    facts.inactive = [r for r in (_branch_body(src, a, b) for a, b in skipped_ranges(tu, main))
                      if r[0] < r[1]]
    _resolve_names(ci, tu, main, path, idents, is_cuda_file, facts)
    _walk(ci, tu, path, src, candidates(src, launches, device_props), facts)


def _resolve_names(ci, tu, main, path, idents, is_cuda_file, facts: Facts) -> None:
    """Which CUDA-named identifiers clang resolves to CUDA, and which to the user's own code."""
    Cursor, SourceLocation = ci.Cursor, ci.SourceLocation
    for start, name, context in idents:
        if context != "code" or facts.inactive_at(start):
            continue
        cursor = Cursor.from_location(tu, SourceLocation.from_offset(tu, main, start))
        if cursor is None or cursor.kind.is_invalid():
            continue
        text = name.decode()
        decl = None
        if cursor.kind.is_declaration() and cursor.spelling == text and \
                cursor.location.file is not None and cursor.location.file.name == path and \
                cursor.location.offset == start:
            decl = cursor
        else:
            ref = cursor.referenced
            if ref is not None and ref.spelling == text:
                decl = ref
        if decl is None or decl.location.file is None:
            continue
        ext = decl.extent
        if ext.end.offset - ext.start.offset <= len(text):
            continue  # an implicit declaration (a builtin declared at its first use)
        where = decl.location.file.name
        if is_cuda_file(where) or decl.location.is_in_system_header:
            facts.resolved.add(start)
        else:
            facts.shadowed[start] = (f"line {decl.location.line}" if where == path
                                     else f"{where}:{decl.location.line}")


_BALLOT_USE = lazy(rb"(?:__ballot_sync(?<!\w__ballot_sync)|__activemask(?<!\w__activemask)|__ballot(?<!\w__ballot))\s*\(")
_LAUNCH_MACRO = lazy(rb"#[ \t]*define[ \t]+(\w+)(?:\([^)]*\))?(?:[^\n]|\\\n)*?<<<")


def candidates(src: bytes, launches: list[int],
               device_props: re.Pattern[bytes] | None = None) -> list[int]:
    """Offsets the AST walk must reach: launches (also uses of macros that launch), ballots,
    member accesses of cudaDeviceProp fields the target lacks. Subtrees holding none of
    these are not visited, which keeps the walk to a few hundred cursors per file.
    ``device_props`` finds those members (see :func:`cudaport.rules.hazards.device_prop_pattern`)."""
    out = list(launches)
    for m in _LAUNCH_MACRO.finditer(src):
        out += [u.start() for u in re.finditer(rb"\b" + re.escape(m.group(1)) + rb"\b", src)
                if u.start() != m.start(1)]
    out += [m.start() for m in _BALLOT_USE.finditer(src)]
    if b"cudaDeviceProp" in src and device_props is not None:
        out += [m.start(1) for m in device_props.finditer(src)]
    return sorted(set(out))


def _main_file_children(ci, tu) -> list:
    """Top-level cursors written in the main file. The translation unit's children include
    every declaration of the precompiled headers, so the filter runs in a bare ctypes
    callback instead of building a Python Cursor for each."""
    lib = ci.conf.lib
    location_of = lib.clang_getCursorLocation
    from_main = lib.clang_Location_isFromMainFile
    from_main.argtypes = [ci.SourceLocation]
    from_main.restype = ctypes.c_int
    out = []

    def visitor(cursor, _parent, _data):
        if from_main(location_of(cursor)):
            copy = ci.Cursor.from_buffer_copy(cursor)
            copy._tu = tu
            out.append(copy)
        return 1  # CXChildVisit_Continue

    lib.clang_visitChildren(tu.cursor, ci.callbacks["cursor_visit"](visitor), [])
    return out


def _walk(ci, tu, path: str, src: bytes, offsets: list[int], facts: Facts) -> None:
    """Visit the parts of the file's own declarations that hold a candidate offset."""
    if not offsets:
        return
    K = ci.CursorKind
    device_attrs = {K.CUDAGLOBAL_ATTR, K.CUDADEVICE_ATTR}
    host_attr = K.CUDAHOST_ATTR
    functions = {K.FUNCTION_DECL, K.FUNCTION_TEMPLATE, K.CXX_METHOD, K.LAMBDA_EXPR}
    integer_kinds = {ci.TypeKind.INT, ci.TypeKind.UINT, ci.TypeKind.LONG, ci.TypeKind.ULONG,
                     ci.TypeKind.SHORT, ci.TypeKind.USHORT}

    def holds(cursor) -> bool:
        ext = cursor.extent
        i = bisect.bisect_left(offsets, ext.start.offset)
        return i < len(offsets) and offsets[i] <= ext.end.offset

    def is_device(fn) -> bool:
        attrs = {c.kind for c in fn.get_children() if c.kind in device_attrs or c.kind == host_attr}
        return bool(attrs & device_attrs) and host_attr not in attrs

    def visit(cursor, parents: list, device: bool) -> None:
        for child in cursor.get_children():
            if not holds(child):
                continue
            kind = child.kind
            if kind in functions:
                visit(child, parents + [child], is_device(child))
                continue
            if kind == K.CALL_EXPR:
                name = child.spelling
                if name in LAUNCH_CONFIG and parents and parents[-1].kind == K.CALL_EXPR:
                    _launch(parents[-1], child, src, device, facts)
                elif name in BALLOTS:
                    _ballot(child, parents, integer_kinds, src, facts)
            elif kind == K.MEMBER_REF_EXPR:
                ref = child.referenced
                if ref is not None and ref.semantic_parent is not None:
                    record = ref.semantic_parent.spelling
                    if record in ("cudaDeviceProp", "cudaDeviceProp_t"):
                        end = child.extent.end.offset
                        off = end - len(child.spelling)
                        if src[off:end] == child.spelling.encode():
                            facts.member_refs.append((off, record, child.spelling))
            visit(child, parents + [child], device)

    for top in _main_file_children(ci, tu):
        if holds(top):
            visit(top, [top], top.kind in functions and is_device(top))


def _launch(call, config, src: bytes, device: bool, facts: Facts) -> None:
    ext = call.extent
    start, end = ext.start.offset, ext.end.offset
    cfg = config.extent.start.offset
    in_macro = src[cfg:cfg + 3] != b"<<<"
    callee = next(iter(call.get_children()), None)
    pointer = False
    kernel = call.spelling
    if callee is not None:
        ref = callee.referenced
        pointer = ref is None or ref.kind.name not in ("FUNCTION_DECL", "FUNCTION_TEMPLATE",
                                                         "CXX_METHOD")
    facts.launches.append(Launch(start, end, -1 if in_macro else cfg, kernel, pointer,
                                 in_macro, device))


def _ballot(call, parents: list, integer_kinds, src: bytes, facts: Facts) -> None:
    """A ballot whose result initialises a variable narrower than 64 bits (not ``auto``:
    that takes the target's 64-bit return type after translation)."""
    for p in reversed(parents):
        kind = p.kind.name
        if kind == "VAR_DECL":
            written = src[p.extent.start.offset:call.extent.start.offset]
            if re.search(rb"\bauto\b", written):
                return
            t = p.type.get_canonical()
            if t.kind in integer_kinds and t.get_size() == 4:
                facts.ballot_narrow.append((call.extent.start.offset, p.spelling, p.type.spelling))
            return
        if kind.endswith("_STMT") or kind == "COMPOUND_STMT":
            return
