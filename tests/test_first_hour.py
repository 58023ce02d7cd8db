"""A data set's own defaults give a clustering worth reading (``python run.py dataset=X``).

At each table data set's defaults (its sizes, its k, Wang's bandwidth; m = √n Nyström,
float32, seed 0), the sketched run's test accuracy is within 0.05 of exact kernel k-means
run at the same settings, and MNIST at n = 20,000 reaches a test NMI of 0.45 (kernel
k-means on MNIST gives about 0.45–0.52). Both are checked on the rows ``run.py`` writes.
Slow (about 20 s on 2 cores): ``python -m pytest -m slow tests/test_first_hour.py``.
"""

from __future__ import annotations

import pytest

from kktheory.datasets import mnist
from kktheory.run.store import load
from tests.conftest import run_cli
from tests.data_folder import needs_data

pytestmark = pytest.mark.slow

TABLES = {
    "segment": ("uci_segment/segmentation.data", "uci_segment/segmentation.test"),
    "pendigits": ("libsvm/pendigits.scale", "libsvm/pendigits.scale.t"),
    "mushrooms": ("libsvm/mushrooms",),
}


@pytest.mark.parametrize("name", [pytest.param(name, marks=needs_data(*files)) for name, files in TABLES.items()])
def test_sketched_accuracy_is_within_005_of_exact_kernel_kmeans(name, tmp_path):
    done = run_cli("-m", f"dataset={name}", "sketch=nystrom,exact", "reference=none", results_dir=tmp_path)
    assert done.returncode == 0, done.stderr
    acc = load(tmp_path).set_index("sketch.name")["test_accuracy"]
    assert abs(acc["nystrom"] - acc["exact"]) <= 0.05, acc.to_dict()


@needs_data(*(f"mnist/{f}.gz" for f in mnist.MNIST_FILES))
def test_mnist_at_its_defaults_clusters_like_kernel_kmeans(tmp_path):
    done = run_cli("dataset=mnist", "n=20000", "reference=none", results_dir=tmp_path)
    assert done.returncode == 0, done.stderr
    assert load(tmp_path)["test_nmi"].item() >= 0.45
