"""W*(μ) and the two excess risks (kktheory.evaluation.population), against closed forms and brute force."""

import numpy as np
import pytest

import kktheory.run.store as store
from kktheory.run.config import Point, build_spec
from kktheory.run.experiment import load_data, row_identity, run
from kktheory.evaluation.population import distribution, sample
from tests.hydra_cfg import make_cfg

# two components on the line at ±1 with sd 0.05 (Yin's hypercube in one dimension, k = 2):
# far apart in units of sd, so with the linear kernel (φ(x) = x) the optimal centroids are
# the component means up to a tail of mass ~Φ(−20) and W*(μ) = sd² exactly up to it
STD = 0.05
SMALL = ("dataset=yin_hypercube", "dataset.dim=1", f"dataset.std={STD}", "dataset.distinct_centres=true",
         "dataset.centres_seed=0", "kernel=linear", "k=2", "n=200", "n_test=50", "m=[4,20]",
         "population.test_n=20000", "population.select_n=2000", "population.train_n=3000",
         "population.m=20", "population.exact_n=300", "population.restarts=2")


@pytest.fixture(scope="module")
def rows(tmp_path_factory):
    out = tmp_path_factory.mktemp("population")
    cfg = make_cfg(*SMALL, f"results_dir={out}", "sketch=nystrom")
    run(cfg)
    return cfg, store.load(out).sort_values("m"), out


def test_w_star_matches_the_closed_form(rows):
    _, r, _ = rows
    w, se = r["w_star"].iloc[0], r["w_star_se"].iloc[0]
    assert abs(w - STD**2) <= 3 * se + 1e-9, (w, se)


def test_excess_columns_by_brute_force(rows):
    cfg, r, out = rows
    spec = build_spec(cfg)
    mu = distribution(spec.dataset, spec.k, spec.data_seed)
    T = sample(mu, spec.population.test_n, "test")[:, 0]
    X = load_data(spec).X_train[:, 0]  # the run's training points (the loader's own draw)

    def values(labels):  # linear kernel: lifted centroids are the cluster means of x
        c = np.array([X[labels == j].mean() for j in np.unique(labels)])
        return ((T[:, None] - c[None, :]) ** 2).min(axis=1)

    for _, row in r.iterrows():
        arrays = store.load_arrays(row["run_id"], out)
        v, ref = values(arrays["train_labels"]), values(arrays["ref_train_labels"])
        assert row["pop_test_risk"] == pytest.approx(v.mean(), rel=1e-9)
        assert row["excess_erm_risk"] == pytest.approx((v - ref).mean(), rel=1e-6, abs=1e-12)
        assert row["excess_erm_risk_se"] == pytest.approx((v - ref).std(ddof=1) / np.sqrt(len(T)), rel=1e-6, abs=1e-12)
        assert row["excess_pop_risk"] == pytest.approx(row["pop_test_risk"] - row["w_star"], rel=1e-9, abs=1e-12)
        # any centroid set scores at least the optimum, up to the Monte-Carlo error of the difference
        assert row["excess_pop_risk"] > -3 * row["excess_pop_risk_se"] - 1e-12


def test_population_leaves_identity_alone_when_off():
    spec = build_spec(make_cfg())
    ident = row_identity(spec, Point("sqrt_n", 45))
    assert not any(k.startswith("population.") for k in ident)
    assert "dataset.centres_seed" not in ident
    on = build_spec(make_cfg("population.test_n=1000", "dataset.centres_seed=3"))
    ident_on = row_identity(on, Point("sqrt_n", 45))
    assert ident_on["population.test_n"] == 1000 and ident_on["dataset.centres_seed"] == 3


def test_one_distribution_for_every_data_seed_with_centres_seed():
    a = build_spec(make_cfg("dataset.centres_seed=0", "seed=1"))
    b = build_spec(make_cfg("dataset.centres_seed=0", "seed=2"))
    c = build_spec(make_cfg("seed=2"))
    key = [distribution(s.dataset, s.k, s.data_seed).key for s in (a, b, c)]
    assert key[0] == key[1] != key[2]


@pytest.mark.parametrize("overrides, field", [
    (("dataset=digits", "n=100", "n_test=100"), "population.test_n"),
    (("kernel.bandwidth=wang",), "population.test_n"),
    (("population.m=0",), "population.m"),
])
def test_refused_in_one_line(overrides, field):
    from kktheory.errors import ConfigError

    with pytest.raises(ConfigError) as err:
        build_spec(make_cfg("population.test_n=1000", *overrides))
    assert err.value.field == field
