"""m rules, γ rules and validation of the top-level fields."""

from __future__ import annotations

import math

import pytest

from kktheory.cli import expand_shorthand
from kktheory.rules import resolve_gamma, resolve_m
from kktheory.errors import ConfigError


@pytest.mark.parametrize(
    "value, expected",
    [
        (7, 7),
        ("sqrt_n", math.ceil(math.sqrt(2000))),
        ("2*sqrt_n", math.ceil(2 * math.sqrt(2000))),
        ("0.5*sqrt_n", math.ceil(0.5 * math.sqrt(2000))),
        ("sqrt_nk", math.ceil(math.sqrt(2000 * 10))),
        ("n_over_gamma", math.ceil(2000 / 40.0)),
        ("log_n", math.ceil(math.log(2000))),
        ("5*k", 50),
        ("k", 10),
    ],
)
def test_m_rules(value, expected):
    assert resolve_m(value, n=2000, k=10, gamma=40.0)[1] == expected


def test_perfect_square_is_not_rounded_up():
    assert resolve_m("sqrt_n", n=10000, k=10, gamma=1.0)[1] == 100


@pytest.mark.parametrize("value", [0, -3, 2001, "sqrt", "3*foo", 2.5, True, "10000*sqrt_n"])
def test_bad_m(value):
    with pytest.raises(ConfigError) as err:
        resolve_m(value, n=2000, k=10, gamma=40.0)
    assert err.value.field == "m"


def test_gamma_rules():
    assert resolve_gamma("sqrt_n", 400, 3) == 20.0
    assert resolve_gamma(2.5, 400, 3) == 2.5
    for bad in (0, -1.0, "nope", True):
        with pytest.raises(ConfigError):
            resolve_gamma(bad, 400, 3)


def test_shorthand_routes_group_fields():
    defaults = {"dataset": "yin_hypercube", "kernel": "gaussian", "sketch": "nystrom",
                "clustering": "kmeanspp"}
    out = expand_shorthand(["sketch=nystrom", "replace=true", "sigma=3", "n=5", "bogus=1"], defaults)
    assert out == ["sketch=nystrom", "sketch.replace=true", "kernel.sigma=3", "n=5", "bogus=1"]
