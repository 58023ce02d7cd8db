"""Augmented MNIST: deformed MNIST digits, any n up to millions (the role of MNIST8M).

Calandriello & Rosasco (Fig. 2) and Wang et al. (§6) scale their experiments with MNIST8M
(Loosli, Canu & Bottou 2007: MNIST training digits under random deformations). This data
set plays that role, generated here deterministically from a seed:

Image i (i = 0, 1, …) deforms MNIST training image s = i mod 60000 and carries its label.
Its randomness comes from its own generator ``default_rng([crc32("augmented_mnist"),
augment_seed, i])``, so image i depends only on (augment_seed, i, the parameters): the
bytes do not depend on chunk size or number of workers, and the images for n are the
first n of those for any larger n. The deformation (output pixel q = (row, col), centre
c = (13.5, 13.5)) samples the source digit at

    p(q) = R(−θ)·(q − c − t)/s + c + α·(G_σ * u)(q)

with bilinear interpolation and zero outside the image (``scipy.ndimage.map_coordinates``,
order 1): a small affine move — rotation θ ~ U(±max_rotation°), scale s ~ U(1 ± max_scale),
shift t ~ U(±max_shift)² pixels — plus the elastic distortion of Simard, Steinkraus & Platt
(2003, §2): a random displacement field u with coordinates ~ U(−1, 1) per pixel, smoothed by
a Gaussian of standard deviation σ (``scipy.ndimage.gaussian_filter``, zero padding) and
scaled by α (their values σ = 4, α = 34 are the defaults). Bilinear interpolation keeps
pixel values in [0, 1].

Storage: float32 pixels in [0, 1] (the source / 255) in a ``.npy`` file created by
``np.lib.format.open_memmap`` under ``cache_dir`` (default
``~/.cache/kktheory/augmented_mnist``, outside git): 3136 bytes per image, 627 MB for
200,000 images, 25.4 GB for 8.1 million. Chunks are written into it with plain file writes
rather than through a writable map, whose dirty pages would count as resident memory.
Memory while generating is one chunk (about 70 kB of float64 temporaries per image, 70 MB
for the default 1000) plus the 47 MB source, not the data size: generating 200,000 images
(627 MB) peaked at 178 MB resident. The file is written under a temporary name and
renamed when complete; its name holds a hash of the parameters, the generator version and
the source pixels, and ``n``; an existing file for the same hash and a larger n is reused
(its first n rows).

The loader returns ``X_train`` as a read-only memory map (float32; code that needs float64
converts what it reads) and the training labels; the test set is the original MNIST test
set (``n_test`` of its 10000 images drawn with the run's data stream, /255, float64,
indices 60000 + j as in the ``mnist`` table). Generation speed (images/s), time and disk
use are logged and returned in ``Dataset.info`` (keys ``augment_*``).

Command line: ``python -m kktheory.datasets --n 200000 [--grid PNG]`` (generate, print the report).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import os
import shutil
import time
import zlib
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Optional

import numpy as np

from kktheory.datasets.base import DATASETS, Dataset, DatasetConfig, subsample
from kktheory.datasets.mnist import N_TEST, N_TRAIN, mnist_arrays
from kktheory.errors import ConfigError, DataError
from kktheory.memory import fmt_bytes

log = logging.getLogger(__name__)

GENERATOR_VERSION = 1
STREAM_TAG = zlib.crc32(b"augmented_mnist")
SIDE = 28
PIXELS = SIDE * SIDE
CENTRE = (SIDE - 1) / 2.0


@dataclass
class AugmentedMnistConfig(DatasetConfig):
    name: str = "augmented_mnist"
    augment_seed: int = 0  # seed of the deformations (independent of the run's seed)
    alpha: float = 34.0  # elastic intensity (Simard et al. 2003)
    sigma: float = 4.0  # elastic smoothness, pixels
    max_rotation: float = 10.0  # degrees
    max_scale: float = 0.1  # relative
    max_shift: float = 2.0  # pixels
    chunk_size: int = 1000  # images per chunk (memory ≈ 70 kB per image)
    n_jobs: int = 1  # worker processes generating chunks
    cache_dir: str = "~/.cache/kktheory/augmented_mnist"
    data_dir: Optional[str] = None  # MNIST source (see the mnist data set)
    download: bool = True


@dataclass
class GenerationReport:
    """Where the images are and what producing them cost."""

    path: str
    n: int
    reused: bool
    seconds: float
    images_per_s: float
    bytes_on_disk: int


def validate(params: AugmentedMnistConfig) -> None:
    """Check the parameters before any work."""
    checks = [
        ("alpha", params.alpha >= 0, "≥ 0"),
        ("sigma", params.sigma > 0, "> 0"),
        ("max_rotation", 0 <= params.max_rotation <= 180, "in [0, 180] degrees"),
        ("max_scale", 0 <= params.max_scale < 1, "in [0, 1)"),
        ("max_shift", params.max_shift >= 0, "≥ 0 pixels"),
        ("chunk_size", params.chunk_size >= 1, "an integer ≥ 1"),
        ("n_jobs", params.n_jobs >= 1, "an integer ≥ 1"),
        ("augment_seed", params.augment_seed >= 0, "an integer ≥ 0"),
    ]
    for name, ok, allowed in checks:
        if not ok:
            raise ConfigError(f"dataset.{name}", getattr(params, name), allowed)


def deform(source: np.ndarray, indices: np.ndarray, params: AugmentedMnistConfig) -> np.ndarray:
    """Augmented images ``indices`` (float32, rows of 784 in [0, 1]) from uint8 ``source``.

    Vectorised over the batch; equal, byte for byte, to deforming one image at a time.
    O(len(indices)·784·σ) time, about 70 kB of float64 temporaries per image.
    """
    from scipy.ndimage import gaussian_filter, map_coordinates

    b = len(indices)
    u = np.empty((b, 2, SIDE, SIDE))
    affine = np.empty((b, 4))
    for row, i in enumerate(indices):
        draw = np.random.default_rng([STREAM_TAG, params.augment_seed, int(i)]).uniform(-1.0, 1.0, 2 * PIXELS + 4)
        u[row] = draw[: 2 * PIXELS].reshape(2, SIDE, SIDE)
        affine[row] = draw[2 * PIXELS:]
    disp = gaussian_filter(u, sigma=(0, 0, params.sigma, params.sigma), mode="constant", output=u)
    disp *= params.alpha
    theta = np.deg2rad(params.max_rotation) * affine[:, 0]
    scale = 1.0 + params.max_scale * affine[:, 1]
    shift = params.max_shift * affine[:, 2:]
    rows, cols = np.mgrid[0:SIDE, 0:SIDE].astype(np.float64)
    dr = rows[None] - CENTRE - shift[:, 0, None, None]
    dc = cols[None] - CENTRE - shift[:, 1, None, None]
    cos, sin = (np.cos(theta) / scale)[:, None, None], (np.sin(theta) / scale)[:, None, None]
    coords = np.empty((3, b, SIDE, SIDE))
    coords[0] = np.arange(b, dtype=np.float64)[:, None, None]
    coords[1] = cos * dr + sin * dc + CENTRE + disp[:, 0]  # R(−θ) = [[cos, sin], [−sin, cos]]
    coords[2] = -sin * dr + cos * dc + CENTRE + disp[:, 1]
    src = source[np.asarray(indices) % len(source)].reshape(b, SIDE, SIDE) / 255.0
    out = map_coordinates(src, coords, order=1, mode="constant", cval=0.0)
    return out.reshape(b, PIXELS).astype(np.float32)


def _write_chunk(path: str, offset: int, start: int, stop: int, source: np.ndarray,
                 params: AugmentedMnistConfig) -> None:
    images = deform(source, np.arange(start, stop), params)
    with open(path, "r+b") as f:
        f.seek(offset + start * PIXELS * 4)
        f.write(images.tobytes())


def cache_key(source: np.ndarray, params: AugmentedMnistConfig) -> str:
    """16 hex digits identifying the generated images (parameters, version, source pixels)."""
    fields = {k: getattr(params, k) for k in
              ("augment_seed", "alpha", "sigma", "max_rotation", "max_scale", "max_shift")}
    fields.update(version=GENERATOR_VERSION, source=hashlib.sha1(source.tobytes()).hexdigest())
    return hashlib.sha256(json.dumps(fields, sort_keys=True).encode()).hexdigest()[:16]


def _existing(folder: Path, key: str, n: int) -> Optional[Path]:
    """The smallest complete file of this key holding at least n images."""
    best: tuple[int, Path] | None = None
    for path in folder.glob(f"{key}-n*.npy"):
        size = int(path.stem.rsplit("-n", 1)[1])
        if size >= n and (best is None or size < best[0]):
            best = (size, path)
    return None if best is None else best[1]


def generate(source: np.ndarray, params: AugmentedMnistConfig, n: int) -> GenerationReport:
    """Make sure the first n augmented images exist on disk; report where and at what cost."""
    validate(params)
    folder = Path(params.cache_dir).expanduser()
    folder.mkdir(parents=True, exist_ok=True)
    key = cache_key(source, params)
    found = _existing(folder, key, n)
    if found is not None:
        return GenerationReport(str(found), n, True, 0.0, 0.0, found.stat().st_size)
    needed = n * PIXELS * 4
    free = shutil.disk_usage(folder).free
    if needed > free:
        raise DataError(f"augmented_mnist: {n} images need {fmt_bytes(needed)} in {folder}, "
                        f"only {fmt_bytes(free)} free; set dataset.cache_dir to a larger disk")
    path = folder / f"{key}-n{n}.npy"
    tmp = folder / f".{path.name}.{os.getpid()}.tmp"
    t0 = time.perf_counter()
    try:
        mm = np.lib.format.open_memmap(tmp, mode="w+", dtype=np.float32, shape=(n, PIXELS))
        offset = mm.offset
        del mm
        chunks = [(s, min(s + params.chunk_size, n)) for s in range(0, n, params.chunk_size)]
        if params.n_jobs == 1:
            for start, stop in chunks:
                _write_chunk(str(tmp), offset, start, stop, source, params)
        else:
            from joblib import Parallel, delayed

            Parallel(n_jobs=params.n_jobs)(
                delayed(_write_chunk)(str(tmp), offset, start, stop, source, params) for start, stop in chunks
            )
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    seconds = time.perf_counter() - t0
    report = GenerationReport(str(path), n, False, seconds, n / seconds, path.stat().st_size)
    path.with_suffix(".json").write_text(json.dumps({"params": asdict(params), **asdict(report)}, indent=1))
    log.info("augmented_mnist: %d images in %.1f s (%.0f images/s), %s on disk at %s",
             n, seconds, report.images_per_s, fmt_bytes(report.bytes_on_disk), path)
    return report


@DATASETS.register("augmented_mnist", AugmentedMnistConfig)
def augmented_mnist(
    params: AugmentedMnistConfig, n: int, n_test: int, k: int, rng: np.random.Generator
) -> Dataset:
    """n augmented training images (memory map, float32) and n_test original MNIST test images."""
    validate(params)
    images, labels, info = mnist_arrays(params.data_dir, params.download)
    test = N_TRAIN + subsample(np.arange(N_TEST), n_test, "n_test", "augmented_mnist", rng)
    report = generate(images[:N_TRAIN], params, n)
    X_train = np.load(report.path, mmap_mode="r")[:n]
    y_train = labels[np.arange(n) % N_TRAIN]
    info = dict(info, **{f"augment_{key}": v for key, v in asdict(report).items()})
    return Dataset("augmented_mnist", X_train, y_train, images[test] / 255.0, labels[test],
                   np.arange(n), test, info)


def save_sample_grid(path: str, source: np.ndarray, labels: np.ndarray, params: AugmentedMnistConfig,
                     variants: int = 7) -> None:
    """PNG: for the first training image s of each digit, the original then ``variants`` of its images.

    ``source``, ``labels``: the 60000 MNIST training images (uint8) and labels. The variants
    are augmented images s + 60000·j (j = 0..variants−1), exactly as generated.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    firsts = [int(np.flatnonzero(labels == d)[0]) for d in range(10)]
    fig, axes = plt.subplots(10, variants + 1, figsize=(1.1 * (variants + 1), 11.5))
    for row, s in enumerate(firsts):
        imgs = [source[s] / 255.0] + list(deform(source, s + len(source) * np.arange(variants), params))
        for col, img in enumerate(imgs):
            ax = axes[row, col]
            ax.imshow(np.asarray(img).reshape(SIDE, SIDE), cmap="gray_r", vmin=0, vmax=1)
            ax.set_xticks([])
            ax.set_yticks([])
            if row == 0:
                ax.set_title("original s" if col == 0 else f"i = s + {col - 1}·60000", fontsize=7)
    fig.suptitle(f"MNIST originals (left) and augmented images: α={params.alpha}, σ={params.sigma}, "
                 f"rotation ±{params.max_rotation}°, scale ±{params.max_scale}, shift ±{params.max_shift} px",
                 fontsize=8)
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv: Optional[list[str]] = None) -> None:
    """Generate (or find) n augmented images and print the report; optionally draw the grid."""
    parser = argparse.ArgumentParser(prog="python -m kktheory.datasets", description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, required=True)
    parser.add_argument("--augment-seed", type=int, default=0)
    parser.add_argument("--cache-dir", default=AugmentedMnistConfig.cache_dir)
    parser.add_argument("--chunk-size", type=int, default=AugmentedMnistConfig.chunk_size)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--grid", help="also save the sample grid to this PNG")
    args = parser.parse_args(argv)
    params = AugmentedMnistConfig(augment_seed=args.augment_seed, cache_dir=args.cache_dir,
                                  chunk_size=args.chunk_size, n_jobs=args.n_jobs)
    images, labels, _ = mnist_arrays(params.data_dir, params.download)
    print(json.dumps(asdict(generate(images[:N_TRAIN], params, args.n))))
    if args.grid:
        save_sample_grid(args.grid, images[:N_TRAIN], labels[:N_TRAIN], params)
