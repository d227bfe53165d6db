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
SOURCE_SUFFIXES = (".cu", ".cpp", ".cc", ".hip")
HEADER_SUFFIXES = (".cuh", ".h", ".hpp")
CHECKS = ("compile", "text", "fails")
KEYS = {"about", "args", "check", "why", "compile_flags", "expect"}


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

    @property
    def expected_root(self) -> Path:
        return self.root / "expected" / "hip"

    def sources(self) -> list[Path]:
        """Every CUDA file of the example, relative to its folder (expected/ excluded)."""
        return sorted(p.relative_to(self.root) for p in self.root.rglob("*")
                      if p.is_file() and p.suffix in SOURCE_SUFFIXES + HEADER_SUFFIXES
                      and "expected" not in p.relative_to(self.root).parts)

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

    def options(self):
        """The translation options its ``args`` select, parsed by the real CLI."""
        from cudaport.cli import build_options, translate

        ctx = translate.make_context("translate", list(self.args) + ["input.cu"])
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
    if example.check != "compile" and not example.why:
        raise ValueError(f"{config}: check: {example.check} needs a `why`")
    return example


def all_examples() -> list[Example]:
    return [load(p) for p in sorted(HERE.iterdir())
            if p.is_dir() and not p.name.startswith((".", "_"))]


def translate_example(example: Example) -> dict[Path, bytes]:
    from cudaport import translate_bytes

    options = example.options()
    return {rel: translate_bytes((example.root / rel).read_bytes(), options, str(rel)).output
            for rel in example.sources()}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = 0
    for example in all_examples():
        for rel, output in translate_example(example).items():
            target = example.expected_root / rel
            if target.exists() and target.read_bytes() == output:
                continue
            stale += 1
            print(f"{'stale' if check else 'wrote'}: {target.relative_to(HERE)}")
            if not check:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(output)
    return 1 if check and stale else 0


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    sys.exit(main(sys.argv[1:]))
