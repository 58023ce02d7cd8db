"""Registries load their folder once, whoever asks first: threads that ask together all see
every registration (a Dask worker's first kernel blocks come from several threads)."""

from __future__ import annotations

import threading

from kktheory.registry import Registry


def test_threads_asking_together_all_see_the_folder(monkeypatch):
    """Eight threads ask a fresh registry at once while its import is slow: every one finds
    the names (none sees a half-loaded registry), and the folder is imported once."""
    import kktheory.registry as registry

    reg: Registry[int] = Registry("demo_group", ("demo.package",))
    imports = []

    def slow_import(package: str) -> None:
        imports.append(package)
        threading.Event().wait(0.2)  # the other threads arrive while this one imports
        for name in ("a", "b"):
            reg._entries[name] = registry.Entry(name, 1, object)

    monkeypatch.setattr(registry, "import_submodules", slow_import)
    barrier, seen = threading.Barrier(8), []

    def ask() -> None:
        barrier.wait()
        seen.append(reg.names())

    threads = [threading.Thread(target=ask) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert seen == [["a", "b"]] * 8 and imports == ["demo.package"]


def test_a_failed_import_is_raised_again_not_hidden(monkeypatch):
    import kktheory.registry as registry

    reg: Registry[int] = Registry("demo_group2", ("demo.package",))
    calls = []

    def failing(package: str) -> None:
        calls.append(package)
        raise ImportError("no module demo")

    monkeypatch.setattr(registry, "import_submodules", failing)
    for _ in range(2):
        try:
            reg.names()
        except ImportError:
            pass
    assert len(calls) == 2  # not marked loaded after a failure


def test_kernel_blocks_from_several_threads_in_a_fresh_process():
    """The kernel families register on first use: blocks computed by eight threads at once
    in a fresh interpreter all succeed (the state of a Dask worker)."""
    import subprocess
    import sys

    code = (
        "import threading, numpy as np\n"
        "from kktheory.kernels.functions import Kernel\n"
        "X = np.random.default_rng(0).standard_normal((20, 3)); out, b = [], threading.Barrier(8)\n"
        "def go():\n    b.wait(); out.append(float(Kernel('gaussian', sigma=1.0)(X, X).sum()))\n"
        "ts = [threading.Thread(target=go) for _ in range(8)]\n"
        "[t.start() for t in ts]; [t.join() for t in ts]\n"
        "assert len(out) == 8 and len(set(out)) == 1, out\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
