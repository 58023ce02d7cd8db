"""Augmented MNIST: the deformation against a loop brute force, determinism, storage, memory."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kktheory.datasets import DATASETS, augmented_mnist as am, base, mnist
from kktheory.errors import ConfigError, DataError

ROOT = Path(__file__).resolve().parents[1]
SHARED = base.default_data_dir()
pytestmark = pytest.mark.skipif(
    not all((SHARED / "mnist" / f"{f}.gz").is_file() for f in mnist.MNIST_FILES),
    reason=f"MNIST IDX files not in {SHARED / 'mnist'}",
)


@pytest.fixture(scope="module")
def mnist_data() -> tuple[np.ndarray, np.ndarray]:
    images, labels, _ = mnist.mnist_arrays(None, download=False)
    return images, labels


def gaussian_smooth_brute(u: np.ndarray, sigma: float) -> np.ndarray:
    """Separable Gaussian correlation with zero padding, radius ⌊4σ + 0.5⌋, explicit loops."""
    radius = int(4 * sigma + 0.5)
    w = np.exp(-0.5 * (np.arange(-radius, radius + 1) / sigma) ** 2)
    w /= w.sum()
    n = u.shape[0]
    tmp = np.zeros_like(u)
    out = np.zeros_like(u)
    for r in range(n):
        for c in range(n):
            tmp[r, c] = sum(w[t + radius] * u[r, c + t] for t in range(-radius, radius + 1) if 0 <= c + t < n)
    for r in range(n):
        for c in range(n):
            out[r, c] = sum(w[t + radius] * tmp[r + t, c] for t in range(-radius, radius + 1) if 0 <= r + t < n)
    return out


def bilinear_brute(img: np.ndarray, pr: float, pc: float) -> float:
    r0, c0 = int(np.floor(pr)), int(np.floor(pc))
    fr, fc = pr - r0, pc - c0
    value = 0.0
    for dr, wr in ((0, 1 - fr), (1, fr)):
        for dc, wc in ((0, 1 - fc), (1, fc)):
            r, c = r0 + dr, c0 + dc
            if 0 <= r < 28 and 0 <= c < 28:
                value += wr * wc * img[r, c]
    return value


def test_deformation_equals_loop_brute_force(mnist_data):
    images, _ = mnist_data
    p = am.AugmentedMnistConfig(augment_seed=3)
    i = 60007  # second pass over the training set: source image 7
    got = am.deform(images[:60000], np.array([i]), p)[0].reshape(28, 28)
    draw = np.random.default_rng([am.STREAM_TAG, 3, i]).uniform(-1, 1, 2 * 784 + 4)
    u = draw[:1568].reshape(2, 28, 28)
    dr_field, dc_field = (p.alpha * gaussian_smooth_brute(u[a], p.sigma) for a in (0, 1))
    theta = np.deg2rad(p.max_rotation) * draw[1568]
    s = 1 + p.max_scale * draw[1569]
    t = p.max_shift * draw[1570:1572]
    src = images[7].reshape(28, 28) / 255.0
    for r in range(28):
        for c in range(28):
            a, b = r - 13.5 - t[0], c - 13.5 - t[1]
            pr = (np.cos(theta) * a + np.sin(theta) * b) / s + 13.5 + dr_field[r, c]
            pc = (-np.sin(theta) * a + np.cos(theta) * b) / s + 13.5 + dc_field[r, c]
            assert abs(got[r, c] - bilinear_brute(src, pr, pc)) < 1e-6
    assert got.min() >= 0 and got.max() <= 1


def test_batch_equals_one_at_a_time(mnist_data):
    images, _ = mnist_data
    p = am.AugmentedMnistConfig()
    idx = np.array([0, 59999, 60000, 123456])
    batch = am.deform(images[:60000], idx, p)
    for row, i in enumerate(idx):
        assert am.deform(images[:60000], np.array([i]), p)[0].tobytes() == batch[row].tobytes()


def sha(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_generation_reproducible_across_chunks_and_workers(mnist_data, tmp_path: Path):
    images, _ = mnist_data
    src = images[:60000]
    a = am.generate(src, am.AugmentedMnistConfig(cache_dir=str(tmp_path / "a"), chunk_size=7), 150)
    b = am.generate(src, am.AugmentedMnistConfig(cache_dir=str(tmp_path / "b"), chunk_size=64, n_jobs=2), 150)
    c = am.generate(src, am.AugmentedMnistConfig(cache_dir=str(tmp_path / "c"), augment_seed=1), 150)
    assert not a.reused and a.bytes_on_disk == 150 * 784 * 4 + np.load(a.path, mmap_mode="r").offset
    assert sha(a.path) == sha(b.path) and sha(a.path) != sha(c.path)
    meta = json.loads(Path(a.path).with_suffix(".json").read_text())
    assert meta["n"] == 150 and meta["images_per_s"] > 0
    assert not list((tmp_path / "a").glob(".*tmp"))


def test_loader_memmap_labels_prefix_reuse_and_test_set(mnist_data, tmp_path: Path):
    images, labels = mnist_data
    entry = DATASETS.get("augmented_mnist")
    cfg = entry.config_cls(cache_dir=str(tmp_path))
    big = entry.impl(cfg, 130, 50, 10, np.random.default_rng(0))
    assert isinstance(big.X_train, np.memmap) and big.X_train.dtype == np.float32
    assert big.X_train.shape == (130, 784) and 0 <= big.X_train.min() and big.X_train.max() <= 1
    assert np.array_equal(big.y_train, labels[np.arange(130) % 60000])
    assert big.info["augment_reused"] is False and big.info["augment_images_per_s"] > 0
    assert big.test_idx.min() >= 60000 and np.array_equal(big.X_test, images[big.test_idx] / 255.0)
    assert np.array_equal(big.y_test, labels[big.test_idx])
    small = entry.impl(cfg, 60, 50, 10, np.random.default_rng(0))
    assert small.info["augment_reused"] is True and small.info["augment_path"] == big.info["augment_path"]
    assert np.array_equal(small.X_train, big.X_train[:60])
    assert np.array_equal(small.test_idx, big.test_idx)
    assert np.array_equal(big.X_train[:3], am.deform(images[:60000], np.arange(3), cfg))
    assert len(list(tmp_path.glob("*.npy"))) == 1


def test_errors(mnist_data, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    images, _ = mnist_data
    with pytest.raises(ConfigError):
        am.generate(images[:60000], am.AugmentedMnistConfig(cache_dir=str(tmp_path), sigma=0.0), 10)
    with pytest.raises(ConfigError):
        am.generate(images[:60000], am.AugmentedMnistConfig(cache_dir=str(tmp_path), max_scale=1.0), 10)

    class Tiny:
        free = 1000

    monkeypatch.setattr(am.shutil, "disk_usage", lambda path: Tiny)
    with pytest.raises(DataError, match="only 1000 B free"):
        am.generate(images[:60000], am.AugmentedMnistConfig(cache_dir=str(tmp_path)), 10)


RSS_SCRIPT = """
import json, sys
from kktheory.datasets.augmented_mnist import AugmentedMnistConfig, generate
from kktheory.datasets.mnist import mnist_arrays
from kktheory.memory import peak_rss_mb
images, _, _ = mnist_arrays(None, False)
report = generate(images[:60000], AugmentedMnistConfig(cache_dir=sys.argv[2]), int(sys.argv[1]))
print(json.dumps({"peak_rss_bytes": peak_rss_mb() * 2**20,
                  "path": report.path, "images_per_s": report.images_per_s, "bytes": report.bytes_on_disk}))
"""


@pytest.mark.slow
def test_200k_reproducible_and_memory_bounded(tmp_path: Path):
    """Two generations of 200,000 images in fresh processes: identical bytes, peak RSS ≪ data."""
    results = []
    for run in ("a", "b"):
        out = subprocess.run([sys.executable, "-c", RSS_SCRIPT, "200000", str(tmp_path / run)],
                             cwd=ROOT, capture_output=True, text=True, check=True)
        results.append(json.loads(out.stdout.strip().splitlines()[-1]))
    data = 200000 * 784 * 4
    print(results)
    assert sha(results[0]["path"]) == sha(results[1]["path"])
    assert all(r["peak_rss_bytes"] < data / 3 for r in results)
