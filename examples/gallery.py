"""The examples gallery: load each example's settings, translate it, refresh expected output.

Used by tests/test_examples.py and bench scripts; run it to rewrite every
``expected/hip/`` tree after a deliberate change to the translator:

    python examples/gallery.py            # rewrite expected outputs
    python examples/gallery.py --check    # exit 1 if any expected output is stale
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
SOURCE_SUFFIXES = (".cu", ".cpp", ".cc", ".c", ".hip")
HEADER_SUFFIXES = (".cuh", ".h", ".hpp")
CHECKS = ("compile", "text", "fails")
KEYS = {"about", "args", "check", "why", "compile_flags", "expect", "build"}
BUILDS = (None, "make", "cmake")


@dataclass
class Example:
    name: str
    root: Path
    about: str = ""
    args: list[str] = field(default_factory=list)  # `cudaport translate` options
    check: str = "compile"  # compile | text (library not in Debian) | fails (must not verify)
    why: str = ""
    compile_flags: list[str] = field(default_factory=list)  # -I relative to the example
    expect: list[str] = field(default_factory=list)  # text the translation must contain
    build: str | None = None  # make | cmake: the translation is built with ROCm 7.2

    def build_files(self) -> list[Path]:
        """The example's Makefiles and CMake files (translated too), relative to its folder."""
        from cudaport.run.kinds import kind_of

        return sorted(p.relative_to(self.root) for p in self.root.rglob("*")
                      if p.is_file() and kind_of(p.name) in ("make", "cmake")
                      and not any(part == "expected" or part.startswith("expected-")
                                  for part in p.relative_to(self.root).parts))

    @property
    def expected_root(self) -> Path:
        return self.root / "expected" / "hip"

    def expected_root_for(self, version: str | None) -> Path:
        """Where the output for ``--hip-version version`` is: ``expected-5.2/hip/`` when it
        differs from the default's ``expected/hip/`` (None: the default version)."""
        versioned = self.root / f"expected-{version}" / "hip"
        return versioned if version and versioned.is_dir() else self.expected_root

    def sources(self) -> list[Path]:
        """Every CUDA file of the example, relative to its folder (expected*/ excluded)."""
        return sorted(p.relative_to(self.root) for p in self.root.rglob("*")
                      if p.is_file() and p.suffix in SOURCE_SUFFIXES + HEADER_SUFFIXES
                      and not any(part == "expected" or part.startswith("expected-")
                                  for part in p.relative_to(self.root).parts))

    def units(self) -> list[Path]:
        """The translation units (headers are compiled through them)."""
        return [p for p in self.sources() if p.suffix in SOURCE_SUFFIXES]

    def flags(self, base: Path) -> list[str]:
        """compile_flags with relative -I folders resolved against ``base``."""
        out = []
        for flag in self.compile_flags:
            if flag.startswith("-I") and not Path(flag[2:]).is_absolute():
                flag = f"-I{base / flag[2:]}"
            out.append(flag)
        return out

    def options(self, version: str | None = None):
        """The translation options its ``args`` select (and ``--hip-version version``),
        parsed by the real CLI."""
        from cudaport.cli.main import build_options, translate

        extra = ["--hip-version", version] if version else []
        ctx = translate.make_context("translate", list(self.args) + extra + ["input.cu"])
        params = {k: v for k, v in ctx.params.items()
                  if k not in ("inputs", "output", "out_dir", "in_place", "report_file",
                               "fail_on", "quiet")}
        return build_options(params)


def load(folder: Path) -> Example:
    settings = {}
    config = folder / "example.yaml"
    if config.exists():
        settings = yaml.safe_load(config.read_text(encoding="utf-8")) or {}
    unknown = set(settings) - KEYS
    if unknown:
        raise ValueError(f"{config}: unknown keys {sorted(unknown)}")
    example = Example(folder.name, folder, **settings)
    if example.check not in CHECKS:
        raise ValueError(f"{config}: check must be one of {CHECKS}")
    if example.build not in BUILDS:
        raise ValueError(f"{config}: build must be make or cmake")
    if example.check != "compile" and not example.why:
        raise ValueError(f"{config}: check: {example.check} needs a `why`")
    return example


def all_examples() -> list[Example]:
    return [load(p) for p in sorted(HERE.iterdir())
            if p.is_dir() and not p.name.startswith((".", "_"))]


# Older HIP versions the tests compile with (Debian 12's HIP 5.2): where an example's output
# for one differs from the default's, it is kept in expected-<version>/hip/.
OLDER_VERSIONS = ("6.4", "5.2")


def translate_example(example: Example, version: str | None = None) -> dict[Path, bytes]:
    from cudaport import translate_bytes
    from cudaport.run.kinds import kind_of, translate_file

    options = example.options(version)
    out = {rel: translate_bytes((example.root / rel).read_bytes(), options, str(rel)).output
           for rel in example.sources()}
    for rel in example.build_files():
        out[rel] = translate_file((example.root / rel).read_bytes(), kind_of(rel.name), options,
                                  str(rel), named=True)[0]
    return out


def expected_outputs(example: Example) -> dict[Path, bytes]:
    """Every expected file of the example: the default's, and each older version's tree
    when its output differs."""
    default = translate_example(example)
    out = {example.expected_root / rel: data for rel, data in default.items()}
    for version in OLDER_VERSIONS:
        older = translate_example(example, version)
        if older != default:
            root = example.root / f"expected-{version}" / "hip"
            out.update({root / rel: data for rel, data in older.items()})
    return out


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = 0
    for example in all_examples():
        wanted = expected_outputs(example)
        for target, output in wanted.items():
            if target.exists() and target.read_bytes() == output:
                continue
            stale += 1
            print(f"{'stale' if check else 'wrote'}: {target.relative_to(HERE)}")
            if not check:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(output)
        for version in OLDER_VERSIONS:  # a version tree no longer needed
            root = example.root / f"expected-{version}"
            for path in sorted(root.rglob("*")) if root.is_dir() else ():
                if path.is_file() and path not in wanted:
                    stale += 1
                    print(f"{'stale' if check else 'removed'}: {path.relative_to(HERE)}")
                    if not check:
                        path.unlink()
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    sys.exit(main(sys.argv[1:]))
