"""One model for everything cudaport reports, and the registry of stable codes.

Codes are never reused. Every code has a title, a default severity and an explanation in
three parts (what, why, what to do) that ``cudaport explain`` and SARIF rule help use.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

SEVERITIES = ("error", "warning", "info")
SEVERITY_RANK = {"info": 0, "warning": 1, "error": 2}


@dataclass(frozen=True)
class Code:
    code: str
    name: str
    severity: str
    title: str
    explanation: str


CODES: dict[str, Code] = {}


def register(code: str, name: str, severity: str, title: str, explanation: str) -> Code:
    if code in CODES:
        raise ValueError(f"code {code} registered twice")
    if severity not in SEVERITIES:
        raise ValueError(f"{code}: bad severity {severity}")
    CODES[code] = Code(code, name, severity, title, explanation.strip())
    return CODES[code]


register("CP101", "unmapped-api", "error", "CUDA API with no equivalent on the target", """
What: the identifier is a known CUDA API, but the target has no equivalent for it (for the
selected library variant and target version).
Why: the translated file still names the CUDA API and will not compile on the target.
Fix: rewrite the code around the missing API (for example with a portable fallback under
`#ifdef __HIP_PLATFORM_AMD__`), or pick another library variant (`--blas rocblas`).
""")
register("CP102", "deprecated-api", "warning", "CUDA API is deprecated", """
What: the CUDA API was deprecated in the CUDA version named in the message.
Why: deprecated APIs often have no, or only partial, equivalents on other targets and
disappear from newer CUDA releases.
Fix: move to the replacement CUDA recommends; cudaport still translates it where it can.
""")
register("CP103", "removed-api", "warning", "CUDA API was removed", """
What: the CUDA API was removed in the CUDA version named in the message.
Why: the code only builds with old CUDA toolkits; the target may still provide a name.
Fix: move to the current CUDA API.
""")
register("CP104", "experimental-api", "warning", "target equivalent is experimental", """
What: the target's equivalent of this API is marked experimental, so cudaport left it
unchanged.
Why: experimental APIs may change or behave differently.
Fix: pass `--experimental` to translate it anyway, and test the result.
""")
register("CP105", "unknown-cuda-name", "warning", "CUDA-looking name not in the rule table", """
What: the identifier looks like CUDA API (by its prefix) but no rule knows it.
Why: it may be a newer CUDA API the rule table lacks, or the project's own name.
Fix: if it is CUDA API, add a rule (`--rules FILE.yaml`); if it is your own name, ignore it.
""")
register("CP106", "unmapped-header", "error", "CUDA header with no equivalent on the target", """
What: the included CUDA header has no equivalent on the target.
Why: the include will fail to resolve when compiling for the target.
Fix: remove the include or guard it, and replace what it provided.
""")
register("CP107", "target-too-old", "error", "equivalent needs a newer target version", """
What: the target provides an equivalent only from a version newer than the one selected
with `--hip-version`.
Why: the translated code would not compile with the selected target version.
Fix: raise the target version, or avoid the API.
""")
register("CP108", "needs-review", "info", "translated, but behaviour may differ", """
What: the API was translated, and the rule table carries a note about a difference
(argument order, descriptor layout, semantics).
Why: a rename alone may not preserve behaviour.
Fix: read the note and check the call site.
""")
register("CP109", "launch-not-rewritten", "warning", "kernel launch left as written", """
What: a `<<<...>>>` launch could not be parsed, so it was not rewritten to the target's
launch function.
Why: unbalanced brackets or an unusual kernel expression.
Fix: simplify the launch expression, or keep `--launch cuda` (HIP accepts `<<<>>>`).
""")
register("CP901", "unreadable-file", "error", "file could not be read", """
What: the input could not be read (missing, permission denied, or not a regular file).
Fix: check the path and permissions.
""")
register("CP902", "binary-file", "error", "file is not text", """
What: the input contains NUL bytes or a UTF-16/32 byte-order mark, so it is not C/C++ text.
Fix: pass source files only; binary files are skipped.
""")
# CP150-CP169: targets as data and user rules (issue 8). User check-only rules report under
# the user's own code from the YAML, which may never start with "CP" (see rules/README.md).
register("CP150", "experimental-target", "warning", "the target's rule tables are experimental", """
What: the selected target (for example `--target maca`) ships only the names that could be
verified in public sources; every other CUDA name is reported as unmapped or unknown.
Why: the translation is partial by design, and the verified names come from vendor samples
rather than a complete API table.
Fix: review the output, add the names you know with `--rules FILE.yaml`, and prefer a
complete target (hip, musa) where one exists.
""")

# CP910-CP929: configuration and suppression problems (cudaport check).
register("CP910", "unused-suppression", "warning", "suppression comment matched no finding", """
What: a `// cudaport: ignore[...]` comment names codes (or all codes) but no finding on
its line, or on the line after it when the comment stands alone, was suppressed.
Why: a stale suppression hides nothing today and would silently hide a real problem
added to that line later.
Fix: delete the comment, or narrow it to the codes that still fire there. Reported only
with `--warn-unused-ignores`.
""")
register("CP911", "bad-suppression", "warning", "suppression comment names an unknown code", """
What: a `// cudaport: ignore[...]` comment lists something that is not a cudaport code
or code prefix (for example a typo such as `CP1O1`).
Why: the comment suppresses nothing for that entry, so the finding it meant to hide is
still reported, and readers are misled.
Fix: use codes shown by `cudaport check` or `cudaport explain`, for example
`// cudaport: ignore[CP101]`.
""")


# Build files (CP300-CP399) and tree/file-system notes (CP930-CP949): issue 6.
register("CP301", "cmake-no-equivalent", "error", "CMake construct with no equivalent on the target", """
What: a CMake command, package, imported target or variable is CUDA-specific and the target
has no equivalent (for example FindCUDA's `cuda_add_executable`, or `CUDA::nvjpeg`).
Why: the translated build still asks for CUDA and will fail to configure or link.
Fix: rewrite that part by hand: plain `add_executable` with `.hip` sources (or
`LANGUAGE HIP`), and the target library's own package.
""")
register("CP302", "cmake-needs-review", "warning", "CMake setting left as written; check it", """
What: a CUDA build setting such as `CUDA_SEPARABLE_COMPILATION` or
`CUDA_RESOLVE_DEVICE_SYMBOLS` has no one-to-one HIP counterpart, so it was kept and reported.
Why: the setting changes how device code is compiled or linked; HIP does it differently
(for example relocatable device code with `-fgpu-rdc`).
Fix: read the message and port the setting by hand.
""")
register("CP303", "cmake-unknown-cuda-name", "warning", "CUDA-looking CMake name no rule knows", """
What: a name such as `CMAKE_CUDA_...`, `CUDA::...` or `CUDAToolkit_...` appears in a build
file but no CMake rule knows it.
Why: it is probably CUDA-specific and will not mean anything when building for the target.
Fix: port it by hand, or add a rule to the CMake rule file.
""")
register("CP304", "cmake-added-package", "info", "CMake file needs an extra find_package", """
What: an imported target was mapped to a target library (for example `CUDA::cublas` to
`roc::hipblas`) that comes from its own CMake package, and this file has no
`find_package(CUDAToolkit)` where cudaport could add it.
Why: the target library is not found unless its package is looked up somewhere.
Fix: add `find_package(NAME REQUIRED)` where the project finds its dependencies.
""")
register("CP305", "cmake-parse-error", "error", "build file could not be parsed", """
What: the CMake file has an unterminated command, string or bracket argument.
Why: cudaport cannot tell code from text, so the file is left unchanged.
Fix: check that the file configures with CMake; report a bug if it does.
""")
register("CP930", "skipped-binary", "info", "binary file with a source extension skipped", """
What: a file named like C/C++/CUDA source contains NUL bytes or a UTF-16/32 byte-order mark.
Why: it is not text, so it is not translated (with `--copy-all` it is copied unchanged).
Fix: nothing to do, unless the file is source in another encoding: convert it to UTF-8.
""")
register("CP931", "symlink-outside-root", "warning", "symbolic link leaving the tree not followed", """
What: a symbolic link below the translated folder points outside it (or is broken).
Why: following it could translate, or write next to, files that are not part of the tree.
Fix: translate the link's target separately if it is yours.
""")
register("CP932", "symlinked-folder", "info", "symbolic link to a folder not followed", """
What: a symbolic link to a folder inside the tree was not descended into.
Why: the folder is translated through its real path; following links could visit files
twice or loop.
Fix: nothing to do.
""")
register("CP933", "stale-mirror", "error", "translated mirror is out of date", """
What: the committed translation of a source file is missing or differs from what cudaport
produces now.
Why: the HIP mirror no longer matches its CUDA source.
Fix: rerun `cudaport translate SRC --out-dir MIRROR` and commit the result.
""")
# CP501-CP519: `cudaport verify` (the HIP compiler's verdict on translated code).
register("CP501", "does-not-compile", "error", "translated code does not compile for the target", """
What: the HIP compiler rejected the translated file; the message is the compiler's, the
location is the line of the original CUDA file it came from.
Why: a CUDA API left untranslated (see CP101/CP105), a construct HIP lacks, or a
difference in a header's declarations.
Fix: read the compiler's message; `cudaport verify -v` prints its full output with
locations mapped to the CUDA sources.
""")
register("CP502", "compiler-warning", "warning", "the HIP compiler warns about translated code", """
What: the HIP compiler accepted the translated file but printed a warning there.
Why: warnings often point at behaviour that differs on the target (deprecated HIP API,
implicit conversions of vector types).
Fix: read the warning; silence it in the CUDA source if it does not apply.
""")
register("CP503", "inline-ptx", "error", "inline PTX assembly", """
What: an `asm("...")` statement whose text is PTX, NVIDIA's virtual instruction set.
Why: AMD GPUs cannot assemble PTX; a syntax check does not look inside the string, so the
failure would only show when device code is generated.
Fix: replace it with a HIP intrinsic (`__lane_id()`, `__clock64()`, `__shfl_*`) or portable
C++, keeping the PTX under `#ifdef __CUDA_ARCH__` / `#if !defined(__HIP_PLATFORM_AMD__)`.
""")
register("CP504", "header-not-found", "error", "a header the translation includes is missing", """
What: the HIP compiler could not find a header the translated file includes.
Why: the target library is not installed (the message names the package when cudaport
knows it), or a project include folder was not passed (`-I`, `-p compile_commands.json`).
Fix: install the library, or pass the include folders.
""")
register("CP505", "compiler-failed", "error", "the HIP compiler failed without a diagnostic", """
What: the compiler exited with an error but printed no error cudaport could map (a crash,
a timeout, a bad flag).
Fix: run `cudaport verify -v` to see its output and the command line.
""")

register("CP600", "framework-header-unmapped", "error",
         "framework CUDA header with no known equivalent on the target", """
What: the file includes one of PyTorch's own CUDA headers (`ATen/cuda/...`, `c10/cuda/...`)
and cudaport knows no header of the target's PyTorch port that replaces it.
Why: the include will not resolve when building against the target's PyTorch.
Fix: include the matching header of the port (for torch_musa, below `torch_musa/csrc/`),
or add a `headers:` rule with `--rules`.
""")
register("CP601", "cudnn-backend-flag", "warning", "torch.backends.cudnn is CUDA-only", """
What: the Python code reads or sets `torch.backends.cudnn` settings.
Why: on the target these settings have no effect (torch_musa uses muDNN), so code that
relies on them (determinism, benchmark mode) may behave differently.
Fix: check what the setting was for and use the target's equivalent, if any.
""")
register("CP602", "extension-builds-as-is", "info",
         "ROCm PyTorch builds this CUDA extension as written", """
What: the build script uses `torch.utils.cpp_extension.CUDAExtension`/`BuildExtension`.
Why: ROCm builds of PyTorch hipify the extension's sources while building it, so the
build script needs no change; only compiler flags meant for nvcc may need attention.
Fix: nothing, unless another finding names a flag.
""")
register("CP603", "nvcc-flag-equivalent", "warning", "nvcc-only flag with a HIP equivalent", """
What: `extra_compile_args['nvcc']` holds a flag only nvcc understands; the message names
what to use with the HIP compiler instead.
Why: on ROCm these flags reach hipcc/clang, which rejects or ignores them.
Fix: use the named equivalent (for example under `if torch.version.hip:`).
""")
register("CP604", "nvcc-flag-unmapped", "warning", "nvcc-only flag with no HIP equivalent", """
What: `extra_compile_args['nvcc']` holds a flag only nvcc understands and the HIP compiler
has no equivalent for.
Why: the flag is rejected or ignored on the target.
Fix: drop the flag for the target build, and check what it was tuning.
""")
register("CP605", "extension-build-review", "warning", "build script needs a manual change", """
What: a part of the extension's build script that cudaport did not rewrite for the target
(a compiler-argument key, source file names, a CUDA-only helper).
Why: the build would still ask for CUDA tools or files.
Fix: change it as the message says.
""")
register("CP606", "python-cuda-only", "warning", "CUDA-only Python API left as written", """
What: a `torch` Python attribute that exists for CUDA only (such as `Tensor.is_cuda`) or a
CUDA name cudaport does not rewrite in Python.
Why: on the target it reports or does something CUDA-specific.
Fix: use the target's equivalent (torch_musa: `is_musa`, `torch.musa`).
""")

@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    path: str = "<stdin>"
    line: int = 0
    col: int = 0
    severity: str = ""
    identifier: str = ""
    library: str = ""
    engine: str = "lexical"
    offset: int = -1

    def __post_init__(self) -> None:
        if not self.severity:
            object.__setattr__(self, "severity", CODES[self.code].severity)

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("offset")
        return d


@dataclass(frozen=True)
class Reference:
    """One occurrence of a CUDA name, translated or not."""

    identifier: str
    library: str
    status: str  # converted, same, unsupported, experimental, version, unknown
    replacement: str | None
    rule_id: str
    path: str = "<stdin>"
    line: int = 0
    col: int = 0
    context: str = "code"  # code, comment, string, include
    offset: int = -1

    def to_dict(self) -> dict:
        d = asdict(self)
        d.pop("offset")
        return d


@dataclass
class FileReport:
    path: str
    references: list[Reference] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    changed: bool = False
