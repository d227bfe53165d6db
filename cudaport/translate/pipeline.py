"""Translate one source: scan, run the passes, splice the edits."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..source import edits as E
from . import collisions
from ..source import encodings
from . import fixes
from ..preprocessor import platform_branches
from ..preprocessor import portability_layers
from .passes import target_headers
from ..symbols import project_names
from .context import FileContext, LineIndex
from ..findings import Finding, Reference
from ..source.gc_pause import gc_paused
from ..options import Options
from .passes import final_steps, passes
from ..rules.compiled import Compiled, get_compiled
from ..symbols import latent
from ..source.scan import Scan, kept_scan, scan


class InputError(Exception):
    """The input is not C/C++ text; the message says which file and why."""


@dataclass
class Result:
    output: bytes
    edits: list[E.Edit] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    path: str = "<stdin>"
    lines: LineIndex | None = field(default=None, repr=False)
    # Raw material for ``references``, kept so they are built only when read: the scan's
    # identifier hits (resolved through ``lookup``) and the passes' extra (offset, name,
    # context, resolved) tuples.
    scan: Scan | None = field(default=None, repr=False)
    lookup: dict | None = field(default=None, repr=False)
    extra_references: list[tuple] = field(default_factory=list, repr=False)
    _references: list[Reference] | None = field(default=None, repr=False)
    own_names: frozenset[bytes] = frozenset()  # see FileContext.own_names
    # Includes in the branches the target's compiler selects (FileContext.portable_includes):
    # not in ``scan.includes``, yet a build for the target includes them
    portable_includes: tuple = ()

    @property
    def changed(self) -> bool:
        return bool(self.edits)

    @property
    def text(self) -> str:
        """The output decoded as UTF-8 (undecodable bytes kept as surrogate escapes)."""
        return self.output.decode("utf-8", "surrogateescape")

    @property
    def references(self) -> list[Reference]:
        """Every CUDA name found, translated or not, in file order (built on first read)."""
        if self._references is None:
            raw = list(self.extra_references)
            if self.scan is not None:
                lookup = self.lookup or {}
                raw += [(s, n, c, lookup.get(n)) for s, n, c in self.scan.idents]
                raw += [(s, n, c, None) for s, n, c in self.scan.unknown]
            raw.sort(key=lambda item: item[0])
            self._references = [self._reference(*item) for item in raw]
        return self._references

    def _reference(self, offset: int, name: bytes, context: str, r) -> Reference:
        line, col = self.lines.linecol(offset) if self.lines else (0, 0)
        shown = name.decode(errors="replace")  # (an #include's header name is any bytes)
        if r is None:
            return Reference(shown, "", "unknown", None, "", self.path, line, col,
                             context, offset)
        entry = r.entry
        replaced = r.status in ("converted", "fallback") and r.replacement is not None
        return Reference(shown, entry.library, r.status,
                         r.replacement.decode() if replaced else None, entry.rule_id,
                         self.path, line, col, context, offset)


def check_text(data: bytes, path: str) -> None:
    """Refuse input that is not 8-bit text (binary, UTF-16/32)."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise InputError(f"{path}: UTF-16/32 text is not supported; convert it to UTF-8")
    nul = data.find(b"\0")
    if nul >= 0:
        line = data.count(b"\n", 0, nul) + 1
        raise InputError(f"{path}:{line}: binary file (NUL byte at offset {nul}); not translated")


def translate_bytes(src: bytes, options: Options | None = None, path: str = "<stdin>",
                    compiled: Compiled | None = None) -> Result:
    with gc_paused():  # a file's findings are many small objects and no cycles
        return _translate_bytes(src, options or Options(), path, compiled)


def _translate_bytes(src: bytes, options: Options, path: str,
                     compiled: Compiled | None) -> Result:
    check_text(src, path)
    compiled = compiled or get_compiled(options)
    original = src
    src, restore = encodings.mask(src, options.encoding)  # the passes read the mask
    scanned = None if options.rewrite_comments or options.rewrite_strings else \
        kept_scan(src, compiled)
    ctx = FileContext(src, path, compiled, options, scanned or scan(
        src, compiled, options.rewrite_comments, options.rewrite_strings))
    portable = portability_layers.before_passes(ctx)
    if options.clang:
        from ..clang.apply import after_passes, before_passes, parsed_by_clang

        before_passes(ctx)
        if parsed_by_clang(ctx):  # (its AST binds the names it sees: the model takes them)
            ctx.symbols.adopt_clang(ctx.clang.shadowed, ctx.clang.resolved)
    project_names.before_passes(ctx)
    platform_branches.before_passes(ctx)
    for _name, run in passes():
        run(ctx)
    for _name, run in final_steps():
        run(ctx)
    fixes.apply_fixes(ctx)
    if ctx.clang is not None:
        after_passes(ctx)
    portability_layers.after_passes(ctx, portable)
    target_headers.absent_headers(ctx)  # (a HIP branch's includes too: after the above)
    platform_branches.retired(ctx)
    kept = collisions.check(ctx, E.resolve(ctx.edits, src))
    output = E.apply(src, kept)
    if restore is not None:
        output = output.translate(restore)
        kept = [e._replace(replacement=e.replacement.translate(restore)) for e in kept]
        src = original
    platform_branches.reached_errors(ctx)
    platform_branches.drop_other_platform(ctx)
    latent.soften(ctx)
    ctx.findings.sort(key=lambda f: (f.offset, f.code))
    return Result(output, kept, ctx.findings, path, ctx.lines or LineIndex(src),
                  ctx.scan, compiled.identifiers, ctx.references, own_names=ctx.own_names,
                  portable_includes=tuple(ctx.portable_includes))


def translate_source(source: str | bytes, target: str = "hip", **kwargs: object) -> Result:
    """Translate CUDA source text; the public entry point of the library.

    ``source`` may be ``str`` (encoded as UTF-8 with surrogate escapes, so text decoded
    that way round-trips) or ``bytes``. Keyword arguments are :class:`Options` fields.
    """
    options = Options(target=target, **kwargs)  # type: ignore[arg-type]
    data = source.encode("utf-8", "surrogateescape") if isinstance(source, str) else source
    return translate_bytes(data, options)
