"""The pass list is loaded once, and every caller sees all of it."""

import subprocess
import sys

_RACE = r"""
import threading
from cudaport.translate import passes as registry

seen = []
start = threading.Barrier(8)

def worker():
    start.wait()
    seen.append(len(registry.passes()))

threads = [threading.Thread(target=worker) for _ in range(8)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(sorted(set(seen)), len(registry.passes()))
"""


def test_threads_loading_passes_together_all_see_the_full_list():
    out = subprocess.run([sys.executable, "-c", _RACE], capture_output=True, text=True,
                         check=True).stdout.split()
    full = int(out[-1])
    assert full > 10
    assert out[0] == f"[{full}]"


def test_passes_run_in_registered_order():
    from cudaport.translate.passes import registry, passes

    names = [name for name, _fn in passes()]
    orders = [order for order, _name, _fn in registry._PASSES]
    assert orders == sorted(orders)
    assert len(names) == len(set(names))
