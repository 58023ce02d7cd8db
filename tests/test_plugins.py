"""Plugins (kktheory/plugins.py): the example package examples/kktheory-example-plugin joins the
registries of the processes that see it — one run, a ``-m`` sweep and the judge of its claim
carry its sketch and data set like built-ins — and a plugin that cannot join (a clashing name,
a failed import, a config that does not type-check) ends with one line naming its package and
entry point, exit status 2 and nothing written.

The example is built offline (``pip install --no-build-isolation --no-deps --no-index``) from a
copy in a temporary folder and installed into another one (``--target``), put on the
subprocesses' PYTHONPATH: only the test's own processes see the plugin, so the registries of
the test processes beside it (pytest-xdist workers, whose golden rows and docs/schema.md list
every registered option) and of anyone else using the environment stay kktheory's own, there is
nothing to uninstall when the test stops early, and the build's files (build/, *.egg-info)
land in the copy, not in the repository. The error cases are distributions made of a
``.dist-info`` folder and a module on PYTHONPATH — what importlib.metadata reads of any
installed package.
"""

from __future__ import annotations

import copy
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hydra.core.config_store import ConfigStore

from kktheory.judge.judging import EXIT_STATUS
from kktheory.plugins import PluginError, PluginRegistry
from kktheory.run.store import load
from tests.conftest import ROOT

EXAMPLE = ROOT / "examples" / "kktheory-example-plugin"
CLAIM = EXAMPLE / "claim.yaml"


def call(args: list[str], site: Path) -> subprocess.CompletedProcess:
    """``python <args>`` in the repository with ``site`` first on the import path."""
    path = os.pathsep.join(p for p in (str(site), os.environ.get("PYTHONPATH", "")) if p)
    env = dict(os.environ, PYTHONPATH=path, KKTHEORY_PROGRESS="0")
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def repository_state() -> set[str]:
    """``git status`` of the repository, ignored files included, but what other processes
    sharing the checkout write meanwhile (results/, caches of bytecode and pytest)."""
    out = subprocess.run(["git", "status", "--porcelain", "--ignored", "--untracked-files=all"], cwd=ROOT,
                         capture_output=True, text=True, check=True).stdout
    return {line for line in out.splitlines()
            if not any(part in line for part in ("__pycache__", ".pytest_cache", " results/"))}


@pytest.fixture(scope="module")
def example_site(tmp_path_factory) -> Path:
    """The example plugin, built from a copy and installed into a folder of its own."""
    tmp = tmp_path_factory.mktemp("plugin")
    source, site = tmp / "source", tmp / "site"
    shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
                           "--target", str(site), str(source)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return site


def test_the_example_plugin_runs_sweeps_and_its_claim_is_judged(example_site, tmp_path):
    before = repository_state()
    results = tmp_path / "results"
    one = call(["run.py", "sketch=sparse_sign", "dataset=spheres", "n=200", "seed=0", f"results_dir={results}"],
               example_site)
    assert one.returncode == 0, one.stderr
    row = load(results).iloc[0]
    assert (row["sketch.name"], row["sketch.zeta"], row["dataset.name"], row["dataset.dim"]) == \
        ("sparse_sign", 8, "spheres", 3)

    sweep = call(["run.py", "-m", "sketch=sparse_sign", "dataset=spheres", "n=200", "seed=0", "sketch.zeta=4,8",
                  f"results_dir={results}"], example_site)
    assert sweep.returncode == 0, sweep.stderr
    rows = load(results)
    assert sorted(rows["sketch.zeta"]) == [4, 8] and rows.run_id.is_unique  # zeta=8 was the run above

    claims = tmp_path / "claims"
    judged = call(["-m", "kktheory.judge", str(CLAIM.relative_to(ROOT)), "--results-dir", str(claims)],
                  example_site)
    verdict = judged.stdout.strip().splitlines()[-1]
    assert verdict.startswith("sparse_sign_vs_gaussian: "), judged.stdout + judged.stderr
    status = verdict.split(": ", 1)[1].split(" — ")[0]
    assert judged.returncode == EXIT_STATUS[status] and status in ("reproduced", "not reproduced", "inconclusive")
    assert set(load(claims)["sketch.name"]) == {"sparse_sign", "gaussian"}
    assert (claims / "claims" / "sparse_sign_vs_gaussian.md").is_file()
    assert repository_state() == before


def fake_distribution(site: Path, name: str, entry: str, files: dict[str, str]) -> None:
    """An installed distribution ``name`` 1.0 with one entry point (``group: name = module``) and
    the files of its modules, as a .dist-info folder beside them in ``site``."""
    info = site / f"{name.replace('-', '_')}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    group, _, point = entry.partition(": ")
    (info / "entry_points.txt").write_text(f"[{group}]\n{point}\n")
    for path, text in files.items():
        (site / path).parent.mkdir(parents=True, exist_ok=True)
        (site / path).write_text(text)


SKETCH_MODULE = '''
from dataclasses import dataclass
from kktheory.embeddings import SKETCHES, Sketch, SketchConfig

@dataclass
class Config(SketchConfig):
    name: str = "{name}"
    zeta: int = 8  # nonzeros per column

SKETCHES.register("{name}", Config)(type("Fake", (Sketch,), {{}}))
'''
#: case → (the distribution, its entry point, its files, the end of the line)
BROKEN = {
    "clash": ("fake-clash", "kktheory.sketches: ros = fake_clash", {},
              "its name clashes with the built-in sketch 'ros'; rename the entry point and its option"),
    "import": ("fake-import", "kktheory.sketches: unmet = fake_import",
               {"fake_import.py": "import a_dependency_not_installed\n"},
               "fails to import: ModuleNotFoundError: No module named 'a_dependency_not_installed'"),
    "config": ("fake-config", "kktheory.sketches: badcfg = fake_config.badcfg",
               {"fake_config/__init__.py": "", "fake_config/badcfg.py": SKETCH_MODULE.format(name="badcfg"),
                "fake_config/configs/sketch/badcfg.yaml": "defaults:\n  - badcfg_schema\n  - _self_\n"
                                                          "name: badcfg\nzeta: many\n"},
               "its config does not type-check: config error: sketch.zeta='many': Value 'many' of type 'str' "
               "could not be converted to Integer"),
}


@pytest.mark.parametrize("case", BROKEN)
def test_a_plugin_that_cannot_join_is_one_line_naming_it(case, tmp_path):
    dist, entry, files, problem = BROKEN[case]
    site = tmp_path / "site"
    fake_distribution(site, dist, entry, files)
    results = tmp_path / "results"
    done = call(["run.py", "n=100", "n_test=50", "k=2", f"results_dir={results}"], site)
    group, _, point = entry.partition(": ")
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == f"plugin error: package {dist} 1.0, entry point {group}: {point}: {problem}"
    assert not results.exists()


#: every command that composes configs besides run.py, with the folders it would write under tmp
COMMANDS = {
    "judge": lambda tmp: ["-m", "kktheory.judge", str(CLAIM.relative_to(ROOT)), "--results-dir", str(tmp / "r")],
    "reproduce": lambda tmp: ["-m", "kktheory.reproduce", "yin_fig1", "--results-dir", str(tmp / "r"),
                              "--out", str(tmp / "o")],
    "timing": lambda tmp: ["-m", "kktheory.timing", "yin_table2", "--scale", "small", "--results-dir", str(tmp / "r")],
}


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_a_plugin_that_cannot_join_in_one_line(command, tmp_path):
    dist, entry, files, problem = BROKEN["clash"]
    site = tmp_path / "site"
    fake_distribution(site, dist, entry, files)
    done = call(COMMANDS[command](tmp_path), site)
    assert done.returncode == 2 and done.stderr.strip().endswith(problem) and len(done.stderr.splitlines()) == 1
    assert not (tmp_path / "r").exists() and not (tmp_path / "o").exists()


#: the registry of :func:`test_a_refused_plugin_is_refused_again_with_the_same_line` (its fake
#: plugin registers here)
DEMO: PluginRegistry[type] = PluginRegistry("demo_plugin", (), ("kktheory.demo_plugins",))


def test_a_refused_plugin_is_refused_again_with_the_same_line(tmp_path, monkeypatch):
    """A plugin whose option does not type-check stays refused: the registry is not loaded, and
    asking again gives the same line (not a clash of the plugin with itself)."""
    monkeypatch.setattr(ConfigStore.instance(), "repo", copy.deepcopy(ConfigStore.instance().repo))
    module = SKETCH_MODULE.format(name="again").replace(
        "from kktheory.embeddings import SKETCHES, Sketch, SketchConfig",
        "from kktheory.embeddings import Sketch, SketchConfig\nfrom tests.test_plugins import DEMO as SKETCHES")
    fake_distribution(tmp_path, "fake-again", "kktheory.demo_plugins: again = fake_again.again",
                      {"fake_again/__init__.py": "", "fake_again/again.py": module,
                       "fake_again/configs/demo_plugin/again.yaml": "name: again\nzeta: many\n"})
    monkeypatch.syspath_prepend(str(tmp_path))
    lines = []
    for _ in range(2):
        with pytest.raises(PluginError) as refused:
            DEMO.names()
        lines.append(str(refused.value))
    assert lines[0] == lines[1] and "demo_plugin.zeta='many'" in lines[0] and not DEMO._loaded
