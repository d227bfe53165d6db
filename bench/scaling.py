#!/usr/bin/env python3
"""CPU time of each input shape of ``tests/scaling_shapes.py`` at two sizes (2 MB and 20 MB
by default), and their ratio: a linear pass keeps it near 10 (the speed issue's bound is 11).

    python bench/scaling.py [--small-mb 2] [--growth 10] [--only NAME ...]

One process, one core: each size is built, then translated once (``check`` for the shapes
that run through it); the rule tables are loaded before any timing.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from cudaport import translate_bytes  # noqa: E402
from cudaport.run.check import check_paths  # noqa: E402
from tests.scaling_shapes import SHAPES  # noqa: E402


def _time(src: bytes, options, check: bool, folder: Path) -> float:
    if check:
        path = folder / f"input-{len(src)}.cu"
        path.write_bytes(src)
        run = lambda: check_paths([str(path)], options)  # noqa: E731
    else:
        run = lambda: translate_bytes(src, options)  # noqa: E731
    start = time.process_time()
    run()
    return time.process_time() - start


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small-mb", type=float, default=2.0)
    parser.add_argument("--growth", type=int, default=10)
    parser.add_argument("--only", nargs="*", default=None)
    args = parser.parse_args(argv)
    print(f"{'shape':45s} {'MB':>6s} {'CPU s':>8s} {'MB':>6s} {'CPU s':>8s} {'ratio':>6s}")
    worst = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (shape, options, check) in SHAPES.items():
            if args.only and name not in args.only:
                continue
            translate_bytes(b"k<<<1,1>>>();", options)
            n = max(1, int(args.small_mb * 1e6 / len(shape(1))))
            small = shape(n)
            t_small = _time(small, options, check, Path(tmp))
            big = shape(n * args.growth)
            t_big = _time(big, options, check, Path(tmp))
            ratio = t_big / max(t_small, 1e-6)
            worst = max(worst, ratio)
            print(f"{name:45s} {len(small) / 1e6:6.2f} {t_small:8.2f} {len(big) / 1e6:6.2f} "
                  f"{t_big:8.2f} {ratio:6.1f}", flush=True)
    print(f"worst ratio: {worst:.1f} (bound: {args.growth * 1.1:.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
