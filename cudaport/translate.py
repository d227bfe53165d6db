"""Translate one source: scan, run the passes, splice the edits."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import edits as E
from .context import FileContext
from .findings import Finding, Reference
from .options import Options
from .passes import passes
from .rules.compiled import Compiled, get_compiled
from .scan import scan


class InputError(Exception):
    """The input is not C/C++ text; the message says which file and why."""


@dataclass
class Result:
    output: bytes
    edits: list[E.Edit] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    path: str = "<stdin>"

    @property
    def changed(self) -> bool:
        return bool(self.edits)

    @property
    def text(self) -> str:
        """The output decoded as UTF-8 (undecodable bytes kept as surrogate escapes)."""
        return self.output.decode("utf-8", "surrogateescape")


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
    options = options or Options()
    check_text(src, path)
    compiled = compiled or get_compiled(options)
    ctx = FileContext(src, path, compiled, options,
                      scan(src, compiled, options.rewrite_comments, options.rewrite_strings))
    if options.clang:
        from .clang.apply import after_passes, before_passes

        before_passes(ctx)
    for _name, run in passes():
        run(ctx)
    if ctx.clang is not None:
        after_passes(ctx)
    kept = E.resolve(ctx.edits)
    output = E.apply(src, kept)
    ctx.findings.sort(key=lambda f: (f.offset, f.code))
    return Result(output, kept, ctx.references, ctx.findings, path)


def translate_fragment(parent: FileContext, start: int, end: int) -> bytes:
    """Translate ``parent.src[start:end]`` with the identifier-level passes only.

    Compound edits (argument templates, launches) use this for the pieces they rebuild,
    so names inside them are translated exactly as elsewhere in the file.
    """
    piece = parent.src[start:end]
    compiled = parent.compiled
    ctx = FileContext(piece, parent.path, compiled, parent.options,
                      scan(piece, compiled), fragment=True)
    for _name, run in passes(fragment=True):
        run(ctx)
    return E.apply(piece, E.resolve(ctx.edits))


def translate_source(source: str | bytes, target: str = "hip", **kwargs: object) -> Result:
    """Translate CUDA source text; the public entry point of the library.

    ``source`` may be ``str`` (encoded as UTF-8 with surrogate escapes, so text decoded
    that way round-trips) or ``bytes``. Keyword arguments are :class:`Options` fields.
    """
    options = Options(target=target, **kwargs)  # type: ignore[arg-type]
    data = source.encode("utf-8", "surrogateescape") if isinstance(source, str) else source
    return translate_bytes(data, options)
