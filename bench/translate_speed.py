#!/usr/bin/env python3
"""Throughput and memory of the lexical engine on one core.

Prints MB/s on a generated ~20 MB CUDA file and on every source under examples/, and
the peak memory of translating the generated file (Python allocations via tracemalloc,
and the process's peak RSS), relative to the input size.

    python bench/translate_speed.py [--size-mb 20] [--repeat 3] [--corpus DIR ...]

``--corpus`` also times every source file below the given folders (real code, e.g.
fetched clones of cuda-samples or llm.c), file by file as a user would translate them,
and, in the same run, a bare regex tokenizing pass over the same bytes (every comment,
literal, identifier, number and punctuator matched once): the floor any tokenizer in
Python pays, so the ratio to it is what the engine costs beyond reading the tokens.

Linearity: the generated input is also translated at a tenth of its size; the printed
ratio of the two CPU times should stay near 10 (at most 11).

``--by-step`` (with ``--corpus``) also prints the CPU time of each step of the default
pipeline over the corpus: the scan, every pass and final step, and the steps around them.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import random
import re
import resource
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cudaport import Options, translate_bytes  # noqa: E402
from cudaport.rules import get_compiled  # noqa: E402

SOURCE_EXTENSIONS = {".cu", ".cuh", ".h", ".hpp", ".cpp", ".cc"}

# Pieces of realistic CUDA code; the generator fills the {placeholders} at random.
SNIPPETS = [
    "// {word} {word} {word}: compute the {word} of each element\n",
    "/* {word} {word} {word}\n * {word} {word} cudaMemcpy {word}\n */\n",
    "__global__ void {name}_kernel(const float* __restrict__ in, float* out, int n) {{\n"
    "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "  if (i < n) out[i] = in[i] * {num}.0f + __expf(in[i]);\n}}\n",
    "template <typename T, int BLOCK>\n__device__ T {name}_reduce(T v) {{\n"
    "  for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);\n"
    "  return v;\n}}\n",
    "static void {name}(float* d, const float* h, size_t bytes, cudaStream_t s) {{\n"
    "  CHECK(cudaMemcpyAsync(d, h, bytes, cudaMemcpyHostToDevice, s));\n"
    "  {name}_kernel<<<(n + 255) / 256, 256, 0, s>>>(d, d, n);\n"
    "  CHECK(cudaGetLastError());\n  CHECK(cudaStreamSynchronize(s));\n}}\n",
    "int {name}_setup(int dev) {{\n  cudaDeviceProp prop;\n"
    "  cudaGetDeviceProperties(&prop, dev);\n  printf(\"%s: %d SMs\\n\", prop.name, "
    "prop.multiProcessorCount);\n  return prop.major * 10 + prop.minor;\n}}\n",
    "struct {Name}Config {{\n  int {word}_{word} = {num};\n  float {word} = {num}.5f;\n"
    "  std::vector<int> {word}s;\n}};\n",
    "#define {NAME}_CHECK(x) do {{ cudaError_t e = (x); if (e != cudaSuccess) "
    "{{ fprintf(stderr, \"%s\\n\", cudaGetErrorString(e)); abort(); }} }} while (0)\n",
    "void {name}_blas(cublasHandle_t h, const float* a, const float* b, float* c, int m) {{\n"
    "  const float one = 1.0f, zero = 0.0f;\n"
    "  cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, m, m, &one, a, m, b, m, &zero, c, m);\n}}\n",
    "for (int {word} = 0; {word} < {num}; ++{word}) {{ acc += table[{word}] * {num}; }}\n",
]
WORDS = ("value tile index block grid warp lane buffer stride offset count scale input "
         "output result weight bias norm mean sum").split()


# The floor: one regex over C++ tokens. Comments and literals are single tokens, as in
# any real tokenizer; every match is produced as a match object (the loop is the cost).
FLOOR_TOKEN = re.compile(
    rb"//[^\n]*|/\*(?s:.*?)\*/|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'"
    rb"|[A-Za-z_]\w*|\.?\d(?:[eEpP][+-]|[\w.])*|\S")


def tokenize_floor(files: list[bytes]) -> float:
    """CPU seconds of the bare regex tokenizing pass over ``files``."""
    start = time.process_time()
    for data in files:
        for _match in FLOOR_TOKEN.finditer(data):
            pass
    return time.process_time() - start


@contextlib.contextmanager
def step_timers():
    """Count the CPU time of every step of a translation while inside (a Counter by step
    name); the translator is restored after."""
    from cudaport.translate import passes, pipeline as translate
    from cudaport.translate.passes import registry

    spent: collections.Counter = collections.Counter()

    def timed(name, fn):
        def run(*args, **kwargs):
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - start
        return run

    passes.passes()  # (loads the registry)
    saved_passes, saved_final = list(registry._PASSES), list(registry._FINAL)
    around = [(translate, "scan"), (translate.collisions, "check"),
              (translate.project_names, "before_passes"),
              (translate.portability_layers, "before_passes"),
              (translate.platform_branches, "drop_other_platform"),
              (translate.platform_branches, "before_passes"),
              (translate.platform_branches, "reached_errors"),
              (translate.platform_branches, "retired"),
              (translate.portability_layers, "after_passes"),
              (translate.latent, "soften"), (translate.fixes, "apply_fixes")]
    saved_around = [getattr(module, name) for module, name in around]
    registry._PASSES[:] = [(o, n, timed(f"pass {n}", f)) for o, n, f in saved_passes]
    registry._FINAL[:] = [(n, timed(f"final {n}", f)) for n, f in saved_final]
    for (module, name), fn in zip(around, saved_around):
        setattr(module, name, timed(f"{module.__name__.split('.')[-1]}.{name}", fn))
    try:
        yield spent
    finally:
        registry._PASSES[:], registry._FINAL[:] = saved_passes, saved_final
        for (module, name), fn in zip(around, saved_around):
            setattr(module, name, fn)


def generate(size: int, seed: int = 1) -> bytes:
    rng = random.Random(seed)
    parts = ["#include <cstdio>\n#include <vector>\n#include <cuda_runtime.h>\n"
             "#include <cublas_v2.h>\n"]
    total = len(parts[0])
    counter = 0
    while total < size:
        counter += 1
        text = rng.choice(SNIPPETS).format_map(_Fill(rng, counter))
        parts.append(text)
        total += len(text)
    return "".join(parts).encode()


class _Fill(dict):
    def __init__(self, rng: random.Random, counter: int) -> None:
        super().__init__()
        self.rng = rng
        self.counter = counter

    def __missing__(self, key: str) -> str:
        word = self.rng.choice(WORDS)
        if key == "name":
            return f"{word}_{self.counter}"
        if key == "Name":
            return f"{word.title()}{self.counter}"
        if key == "NAME":
            return f"{word.upper()}{self.counter}"
        if key == "num":
            return str(self.rng.randint(1, 999))
        return word


def mbps(data: bytes, options: Options, repeat: int) -> tuple[float, float, float]:
    """Best-of-``repeat`` throughput by CPU time (one core, robust to a busy machine)
    and by wall time."""
    best_cpu = best_wall = float("inf")
    for _ in range(repeat):
        wall, cpu = time.perf_counter(), time.process_time()
        translate_bytes(data, options)
        best_cpu = min(best_cpu, time.process_time() - cpu)
        best_wall = min(best_wall, time.perf_counter() - wall)
    return len(data) / 1e6 / best_cpu, best_cpu, len(data) / 1e6 / best_wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size-mb", type=float, default=20.0)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--corpus", nargs="*", type=Path, default=[],
                        help="folders of real CUDA code to time as well")
    parser.add_argument("--by-step", action="store_true",
                        help="with --corpus: CPU time of each pipeline step")
    args = parser.parse_args()
    options = Options()
    get_compiled(options)  # load the table outside the timing

    data = generate(int(args.size_mb * 1e6))
    rate, secs, wall_rate = mbps(data, options, args.repeat)
    secs_full = secs
    print(f"generated input: {len(data) / 1e6:.1f} MB, best of {args.repeat}: "
          f"{secs:.2f} s CPU = {rate:.1f} MB/s (wall clock: {wall_rate:.1f} MB/s), "
          "with the hazard analysis")
    lexical = Options(hazards=False)
    get_compiled(lexical)
    rate, secs, wall_rate = mbps(data, lexical, args.repeat)
    print(f"  translation alone (--no-hazards): {secs:.2f} s CPU = {rate:.1f} MB/s "
          f"(wall clock: {wall_rate:.1f} MB/s)")

    examples = b"".join(p.read_bytes() for p in sorted((ROOT / "examples").rglob("*"))
                        if p.suffix in SOURCE_EXTENSIONS and "expected" not in p.parts)
    if examples:
        # Small inputs: repeat them so the timer sees at least ~5 MB.
        times = max(1, int(5e6 // len(examples)))
        # (the findings-dense measure: the same bytes through the bare tokenizing
        # pass, the floor the translation is compared with)
        floor = min(tokenize_floor([examples] * times) for _ in range(args.repeat))
        for label, opts in (("with hazards", options), ("--no-hazards", lexical)):
            start = time.process_time()
            for _ in range(times):
                translate_bytes(examples, opts)
            elapsed = time.process_time() - start
            print(f"examples/: {len(examples) / 1e3:.0f} kB x {times}, {label}: "
                  f"{len(examples) * times / 1e6 / elapsed:.1f} MB/s (CPU time) = "
                  f"{elapsed / floor:.1f}x the tokenizing pass over the same bytes "
                  f"({floor:.2f} s)")

    small = data[: len(data) // 10]
    _, small_secs, _ = mbps(small, options, args.repeat)
    print(f"linearity: {len(data) / 1e6:.1f} MB costs {secs_full / small_secs:.1f}x the CPU time "
          f"of {len(small) / 1e6:.1f} MB (linear: 10)")

    if args.corpus:
        corpus = [p.read_bytes() for d in args.corpus for p in sorted(d.rglob("*"))
                  if p.suffix in SOURCE_EXTENSIONS and p.is_file() and not p.is_symlink()]
        corpus = [d for d in corpus if b"\0" not in d]
        size = sum(map(len, corpus))
        floor = min(tokenize_floor(corpus) for _ in range(args.repeat))
        print(f"corpus: {len(corpus)} files, {size / 1e6:.1f} MB; bare regex tokenizing pass: "
              f"{floor:.2f} s CPU = {size / 1e6 / floor:.1f} MB/s")
        for label, opts in (("full default pipeline (hazards on)", options),
                            ("text engine (--no-hazards)", lexical)):
            elapsed = float("inf")
            for _ in range(args.repeat):
                start = time.process_time()
                for data_file in corpus:
                    translate_bytes(data_file, opts)
                elapsed = min(elapsed, time.process_time() - start)
            print(f"  {label}: {elapsed:.2f} s CPU = {size / 1e6 / elapsed:.1f} MB/s per core"
                  f" = {elapsed / floor:.2f}x the tokenizing pass")
        if args.by_step:
            with step_timers() as spent:
                for data_file in corpus:
                    translate_bytes(data_file, options)
            print("  by step (full pipeline, CPU s):")
            for name, secs in spent.most_common():
                if secs >= 0.005:
                    print(f"    {secs:6.3f}  {name}")

    tracemalloc.start()
    result = translate_bytes(data, lexical)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    print(f"peak Python allocations translating {len(data) / 1e6:.1f} MB (--no-hazards): "
          f"{peak / 1e6:.1f} MB = {peak / len(data):.2f}x input "
          f"(edits {len(result.edits)}, references {len(result.references)})")
    print(f"peak RSS of this process (includes the generator and timing runs): {rss / 1e6:.0f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
