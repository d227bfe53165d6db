"""Translation options: one frozen value per run, hashable so compiled tables can be cached."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

LAUNCH_STYLES = ("cuda", "hip")

_HASHES: dict[int, tuple[object, int]] = {}


@dataclass(frozen=True)
class Options:
    target: str = "hip"
    launch: str = "cuda"  # keep <<<>>> ("cuda") or rewrite to the target's launch function
    rewrite_comments: bool = False
    rewrite_strings: bool = False
    variants: tuple[tuple[str, str], ...] = ()  # (group, choice), e.g. ("blas", "rocblas")
    experimental: bool = False
    target_version: str | None = None
    insert_main_header: bool = True
    # When the main header is added: "needed" (a file that uses runtime or device code and
    # includes none) or "always" (also every CUDA source, .cu/.cuh, that the translation
    # changes, e.g. one that uses only a library: hipify-clang's habit).
    main_header: str = "needed"
    rules_dirs: tuple[str, ...] = ()  # extra rule roots searched before the built-in one
    rule_files: tuple[str, ...] = ()  # user rule packs layered on the target's
    framework: str | None = None  # e.g. "pytorch": layer rules/<target>/frameworks/<name>/
    extra: tuple[tuple[str, object], ...] = field(default=())  # options added by later passes
    # clang semantic layer (cudaport/clang): off unless asked for
    clang: bool = False
    header_mode: str = "auto"  # auto, toolkit, wheels, stub
    cuda_path: str | None = None
    compile_commands: str | None = None  # folder with compile_commands.json (-p)
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    std: str | None = None
    clang_args: tuple[str, ...] = ()  # extra clang arguments (after --)
    inactive_branches: str = "translate"  # translate or keep code clang found inactive
    warp_size: int | None = None  # None: the target's warp_size
    # Portability-hazard analysis (CP2xx, cudaport/translate/passes/hazards.py). On by default; the
    # translation itself never depends on it, so --no-hazards only drops those findings.
    hazards: bool = True
    # Fixes of CP2xx findings applied to the output (cudaport/translate/fixes.py): none, safe (--fix)
    # or unsafe (--unsafe-fixes: safe ones too).
    fix: str = "none"
    # Source encoding: "auto" detects GBK/GB18030, Big5 and Shift-JIS files, whose second
    # bytes may be backslashes (cudaport/source/encodings.py); a codec name says what files are.
    encoding: str = "auto"
    # The GPU architecture (gfx942, gfx90a, ...) that translated Makefiles and CMake files
    # build for and that `verify` compiles for; None: the target's `offload_arch`
    # (rules/<target>/target.yaml). See :func:`offload_arch`.
    offload_arch: str | None = None

    def __hash__(self) -> int:
        """The hash the dataclass would give (its fields'), kept per object: a run's
        ``extra`` holds the run's names, thousands over a large one, and each file's table
        lookup (``get_compiled``) hashed them all again."""
        found = _HASHES.get(id(self))
        if found is not None and found[0] is self:
            return found[1]
        value = hash(tuple(getattr(self, f.name) for f in fields(self)))
        if len(_HASHES) >= 64:
            _HASHES.clear()
        _HASHES[id(self)] = (self, value)  # (kept alive with it: the id stays its)
        return value

    def variant(self, group: str) -> str | None:
        return dict(self.variants).get(group)

