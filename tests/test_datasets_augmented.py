"""Augmented MNIST: the deformation against loop brute force and its defining properties,
determinism, storage, memory.

Everything but the loader runs on synthetic stroke digits, so the deformation is tested
whether or not the MNIST files are there; the loader tests need them and skip otherwise.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from kktheory.datasets import DATASETS, augmented_mnist as am, mnist
from kktheory.errors import ConfigError, DataError
from tests.data_folder import needs_data

ROOT = Path(__file__).resolve().parents[1]
needs_mnist = needs_data(*(f"mnist/{name}.gz" for name in mnist.MNIST_FILES))


def stroke_digits(count: int, seed: int = 0) -> np.ndarray:
    """uint8 rows of 784: 2–3 anti-aliased strokes (width ≈ 3 px) per image, away from the border."""
    rng = np.random.default_rng(seed)
    r, c = np.mgrid[0:28, 0:28].astype(float)
    out = np.zeros((count, 28, 28))
    for img in out:
        for _ in range(rng.integers(2, 4)):
            (r0, c0), (r1, c1) = rng.uniform(6, 21, (2, 2))
            v = np.array([r1 - r0, c1 - c0])
            t = np.clip(((r - r0) * v[0] + (c - c0) * v[1]) / max(v @ v, 1e-9), 0, 1)
            dist = np.hypot(r - r0 - t * v[0], c - c0 - t * v[1])
            img[:] = np.maximum(img, np.clip(2.0 - dist, 0, 1))
    return np.round(255 * out).astype(np.uint8).reshape(count, 784)


@pytest.fixture(scope="module")
def digits() -> np.ndarray:
    return stroke_digits(40)


def gaussian_weights(sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """Offsets −R..R (R = ⌊4σ + 0.5⌋) and the normalised Gaussian weights on them."""
    radius = int(4 * sigma + 0.5)
    t = np.arange(-radius, radius + 1)
    w = np.exp(-0.5 * (t / sigma) ** 2)
    return t, w / w.sum()


def separable_brute(u: np.ndarray, w_rows: np.ndarray, w_cols: np.ndarray, t: np.ndarray) -> np.ndarray:
    """out[r, c] = Σ_{a,b} w_rows[a]·w_cols[b]·u[r − t_a, c − t_b] with zeros outside, explicit loops."""
    out = np.zeros_like(u)
    for r in range(28):
        for c in range(28):
            for wa, ta in zip(w_rows, t):
                for wb, tb in zip(w_cols, t):
                    if 0 <= r - ta < 28 and 0 <= c - tb < 28:
                        out[r, c] += wa * wb * u[r - ta, c - tb]
    return out


def shifted_brute(img: np.ndarray, tr: int, tc: int) -> np.ndarray:
    """np.roll by (tr, tc), then the wrapped-around rows and columns set to zero."""
    out = np.roll(img, (tr, tc), axis=(0, 1))
    if tr > 0:
        out[:tr] = 0
    elif tr < 0:
        out[tr:] = 0
    if tc > 0:
        out[:, :tc] = 0
    elif tc < 0:
        out[:, tc:] = 0
    return out


def test_deformation_equals_loop_brute_force(digits):
    """Image i: α·(G_σ * u) from its own generator's uniforms, derivative-of-Gaussian tangents,
    first-order update, clip, truncation, then the drawn integer shift — all recomputed by loops."""
    p = am.AugmentedMnistConfig(augment_seed=3, alpha=20.0, sigma=2.0, tangent_sigma=1.0, max_shift=2)
    i = 2 * len(digits) + 7  # third pass over the source: image 7
    got = am.deform(digits, np.array([i]), p)[0].reshape(28, 28)
    rng = np.random.default_rng([am.STREAM_TAG, 3, i])
    u = rng.uniform(-1, 1, (2, 28, 28))
    tr, tc = rng.integers(-2, 3, 2)
    t, w = gaussian_weights(p.sigma)
    d = [p.alpha * separable_brute(u[a], w, w, t) for a in (0, 1)]
    x = digits[7].reshape(28, 28).astype(float)
    t1, w1 = gaussian_weights(p.tangent_sigma)
    dw = -t1 / p.tangent_sigma**2 * w1  # derivative of the Gaussian, convolved (not correlated)
    T_r, T_c = separable_brute(x, dw, w1, t1), separable_brute(x, w1, dw, t1)
    y = np.clip(x + d[0] * T_r + d[1] * T_c, 0, 255)
    want = shifted_brute(np.floor(y), tr, tc)
    frac = shifted_brute(np.abs(y - np.round(y)), tr, tc)
    exact = frac > 1e-9  # a value within rounding of an integer may truncate either way
    assert np.array_equal(got[exact], want[exact]) and np.abs(got - want).max() <= 1
    assert (tr, tc) != (0, 0) and np.abs(y - x).max() > 50  # the draw moved and deformed it


def test_zero_strength_gives_the_source_exactly(digits):
    p = am.AugmentedMnistConfig(alpha=0.0, max_shift=0)
    idx = np.array([0, 5, 39, 40, 45, 1234])
    assert np.array_equal(am.deform(digits, idx, p), digits[idx % len(digits)])


def test_pure_translation_is_a_zero_filled_roll(digits):
    p = am.AugmentedMnistConfig(alpha=0.0, max_shift=3)
    idx = np.arange(200)
    got = am.deform(digits, idx, p).reshape(-1, 28, 28)
    _, shifts = am.draws(idx, p)
    for row, i in enumerate(idx):
        rng = np.random.default_rng([am.STREAM_TAG, 0, i])
        rng.uniform(-1, 1, 2 * 784)
        tr, tc = rng.integers(-3, 4, 2)
        assert (tr, tc) == tuple(shifts[row])
        assert np.array_equal(got[row], shifted_brute(digits[i % 40].reshape(28, 28), tr, tc))
    assert {tuple(s) for s in shifts} >= {(-3, -3), (3, 3), (0, 0), (-3, 3)}


def test_one_pixel_moves_equally_likely():
    """infimnist: nine moves {−1, 0, 1}², equally likely; chi-square over 4500 images at p ≈ 0.001."""
    _, shifts = am.draws(np.arange(4500), am.AugmentedMnistConfig())
    moves, counts = np.unique(shifts, axis=0, return_counts=True)
    assert len(moves) == 9 and np.abs(moves).max() == 1
    assert ((counts - 500) ** 2 / 500).sum() < 26.1  # χ²_8 quantile 0.999


def test_displacement_bounded_by_alpha_with_the_stated_spread():
    """|d| ≤ α everywhere (normalised positive weights, zero padding); interior standard
    deviation α·(Σ w²/3)^{1/2} as the module docstring states."""
    p = am.AugmentedMnistConfig(alpha=3.0, sigma=4.0)
    d, _ = am.draws(np.arange(300), p)
    assert np.abs(d).max() <= p.alpha
    _, w = gaussian_weights(p.sigma)
    stated = p.alpha * np.sqrt((w**2).sum() ** 2 / 3)  # 2-D weights w_a·w_b: Σ = (Σ w²)²
    interior = d[:, :, 12:16, 12:16]  # ≥ 4σ − 4 from every border: ≈ the full support
    assert abs(interior.std() / stated - 1) < 0.1
    assert abs(stated - p.alpha / (2 * p.sigma * np.sqrt(3 * np.pi))) < 0.02 * stated
    big, _ = am.draws(np.arange(20), am.AugmentedMnistConfig(alpha=1e6, sigma=0.1))
    assert np.abs(big).max() <= 1e6 and np.abs(big).max() > 0.99e6  # σ → 0: d = α·u, |u| < 1


def test_tangent_vectors_are_the_derivatives():
    """Of a ramp a·col + b·row the translation tangents are (b, a) away from the border."""
    r, c = np.mgrid[0:28, 0:28].astype(float)
    T = am.tangents((3.0 * c - 2.0 * r)[None], 1.0)[0]
    assert np.allclose(T[0, 6:22, 6:22], -2.0, rtol=1e-3) and np.allclose(T[1, 6:22, 6:22], 3.0, rtol=1e-3)


def test_batch_equals_one_at_a_time(digits):
    p = am.AugmentedMnistConfig()
    idx = np.array([0, 39, 40, 123456])
    batch = am.deform(digits, idx, p)
    assert batch.dtype == np.uint8 and batch.shape == (4, 784)
    for row, i in enumerate(idx):
        assert am.deform(digits, np.array([i]), p)[0].tobytes() == batch[row].tobytes()


def test_as_unit_float32_in_chunks(monkeypatch: pytest.MonkeyPatch):
    pixels = np.arange(7 * 784).reshape(7, 784) % 256
    monkeypatch.setattr(am, "CONVERT_ROWS", 3)
    got = am.as_unit_float32(pixels.astype(np.uint8))
    assert got.dtype == np.float32 and np.array_equal(got, (pixels / 255.0).astype(np.float32))
    assert got.min() == 0 and got.max() == 1


def sha(path: str) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def test_generation_reproducible_across_chunks_workers_and_prefixes(digits, tmp_path: Path):
    a = am.generate(digits, am.AugmentedMnistConfig(cache_dir=str(tmp_path / "a"), chunk_size=7), 150)
    b = am.generate(digits, am.AugmentedMnistConfig(cache_dir=str(tmp_path / "b"), chunk_size=64, n_jobs=2), 150)
    c = am.generate(digits, am.AugmentedMnistConfig(cache_dir=str(tmp_path / "c"), augment_seed=1), 150)
    short = am.generate(digits, am.AugmentedMnistConfig(cache_dir=str(tmp_path / "d"), chunk_size=11), 60)
    stored = np.load(a.path, mmap_mode="r")
    assert not a.reused and stored.dtype == np.uint8 and a.bytes_on_disk == 150 * 784 + stored.offset
    assert sha(a.path) == sha(b.path) and sha(a.path) != sha(c.path)
    assert np.array_equal(np.load(short.path), stored[:60])  # the images for n are a prefix
    assert np.array_equal(stored, am.deform(digits, np.arange(150), am.AugmentedMnistConfig()))
    meta = json.loads(Path(a.path).with_suffix(".json").read_text())
    assert meta["n"] == 150 and meta["images_per_s"] > 0
    assert not list((tmp_path / "a").glob(".*tmp"))
    again = am.generate(digits, am.AugmentedMnistConfig(cache_dir=str(tmp_path / "a")), 100)
    assert again.reused and again.path == a.path


def test_interrupted_generation_resumes_where_it_stopped(digits, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """An interrupted generation leaves its partial file and done log; the next call deforms
    only the chunks not logged and gives the bytes of an uninterrupted generation."""
    p = am.AugmentedMnistConfig(cache_dir=str(tmp_path), chunk_size=10)
    deform = am.deform
    seen: list[int] = []

    def failing(source, indices, params, stream="train"):
        if indices[0] == 30 and not seen.count(-1):
            seen.append(-1)
            raise KeyboardInterrupt
        seen.append(int(indices[0]))
        return deform(source, indices, params, stream)

    monkeypatch.setattr(am, "deform", failing)
    with pytest.raises(KeyboardInterrupt):
        am.generate(digits, p, 80)
    key = am.cache_key(digits, p)
    assert sorted(f.name for f in tmp_path.iterdir()) == [f".{key}-n80.done", f".{key}-n80.partial.npy",
                                                          f".{key}.lock"]
    seen.clear()
    seen.append(-1)
    done = am.generate(digits, p, 80)
    assert seen[1:] == [30, 40, 50, 60, 70]  # the first three chunks were not deformed again
    assert np.array_equal(np.load(done.path), deform(digits, np.arange(80), p))
    assert [f.name for f in tmp_path.glob(".*")] == [f".{key}.lock"]  # the lock file stays


def test_a_larger_generation_starts_from_the_smaller_file(digits, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    p = am.AugmentedMnistConfig(cache_dir=str(tmp_path), chunk_size=16)
    small = am.generate(digits, p, 50)
    deform = am.deform
    firsts: list[int] = []
    monkeypatch.setattr(am, "deform", lambda source, indices, params, stream="train":
                        firsts.append(int(indices[0])) or deform(source, indices, params, stream))
    big = am.generate(digits, p, 120)
    assert firsts == [48, 64, 80, 96, 112]  # chunk 48..63 holds rows 50..63 still to make
    assert np.array_equal(np.load(big.path), deform(digits, np.arange(120), p))
    assert np.array_equal(np.load(big.path)[:50], np.load(small.path))


def test_errors(digits, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    for bad in (dict(sigma=0.0), dict(tangent_sigma=0.0), dict(alpha=-1.0), dict(max_shift=-1),
                dict(max_shift=28)):
        field = next(iter(bad))
        with pytest.raises(ConfigError, match=f"dataset.{field}"):
            am.generate(digits, am.AugmentedMnistConfig(cache_dir=str(tmp_path), **bad), 10)

    class Tiny:
        free = 1000

    monkeypatch.setattr(am.shutil, "disk_usage", lambda path: Tiny)
    with pytest.raises(DataError, match="7.7 KiB .* only 1000 B free"):
        am.generate(digits, am.AugmentedMnistConfig(cache_dir=str(tmp_path)), 10)


@needs_mnist
def test_loader_float32_labels_prefix_reuse_and_test_set(tmp_path: Path):
    images, labels, _ = mnist.mnist_arrays(None, download=False)
    entry = DATASETS.get("augmented_mnist")
    cfg = entry.config_cls(cache_dir=str(tmp_path))
    big = entry.impl(cfg, 130, 50, 10, np.random.default_rng(0))
    assert big.X_train.dtype == np.float32 and big.X_train.shape == (130, 784)
    stored = np.load(big.info["augment_path"])
    assert stored.dtype == np.uint8 and np.array_equal(big.X_train, stored.astype(np.float32) / np.float32(255))
    assert 0 <= big.X_train.min() and big.X_train.max() <= 1
    assert np.array_equal(stored[:3], am.deform(images[:60000], np.arange(3), cfg))
    assert np.array_equal(big.y_train, labels[np.arange(130) % 60000])
    assert big.info["augment_reused"] is False and big.info["augment_images_per_s"] > 0
    assert big.test_idx.min() >= 60000 and np.array_equal(big.X_test, images[big.test_idx] / 255.0)
    assert np.array_equal(big.y_test, labels[big.test_idx])
    small = entry.impl(cfg, 60, 50, 10, np.random.default_rng(0))
    assert small.info["augment_reused"] is True and small.info["augment_path"] == big.info["augment_path"]
    assert np.array_equal(small.X_train, big.X_train[:60])
    assert np.array_equal(small.test_idx, big.test_idx)
    assert len(list(tmp_path.glob("*.npy"))) == 1


RSS_SCRIPT = """
import json, sys
from kktheory.datasets.augmented_mnist import AugmentedMnistConfig, generate
from kktheory.datasets.mnist import mnist_arrays
from kktheory.machine.memory import peak_rss_mb
images, _, _ = mnist_arrays(None, False)
report = generate(images[:60000], AugmentedMnistConfig(cache_dir=sys.argv[2]), int(sys.argv[1]))
print(json.dumps({"peak_rss_bytes": peak_rss_mb() * 2**20,
                  "path": report.path, "images_per_s": report.images_per_s, "bytes": report.bytes_on_disk}))
"""


@needs_mnist
@pytest.mark.slow
def test_200k_reproducible_and_memory_bounded(tmp_path: Path):
    """Generations of 200,000 images in fresh processes: identical bytes, and peak RSS no
    higher than for 20,000 images by more than a quarter of the 157 MB written."""
    results = {}
    for run, n in (("small", 20000), ("a", 200000), ("b", 200000)):
        out = subprocess.run([sys.executable, "-c", RSS_SCRIPT, str(n), str(tmp_path / run)],
                             cwd=ROOT, capture_output=True, text=True, check=True)
        results[run] = json.loads(out.stdout.strip().splitlines()[-1])
    print(results)
    assert sha(results["a"]["path"]) == sha(results["b"]["path"])
    data = 200000 * 784
    assert all(results[r]["peak_rss_bytes"] < results["small"]["peak_rss_bytes"] + data / 4 for r in "ab")
