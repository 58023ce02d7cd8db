"""A user's own claim as a YAML file: the rows, the quantity, the claim's shape and its margin.

The same declarations as a catalogue entry's checks (:mod:`kktheory.report.claims`):

.. code-block:: yaml

    name: yin_rate                    # default: the file's stem
    claim: "one sentence: what the theorem promises"
    sweep:                            # an experiments/ config, overrides, or both
      config: theory_rates_small      #   (omitted: configs/config.yaml, the default run)
      overrides: ["sketch=nystrom,ros", "n=500,1000,2000,4000", "seed=0,1,2"]
    filter: {m_rule: sqrt_n}          # rows kept: column → value or list of values
    by: sketch.name                   # one check per group
    x: n
    y: excess_pop_risk
    shape: rate                       # at_least | at_most | equivalent | plateau | rate | bound
    against: yin_thm2                 # rate: calandriello_thm1 | yin_thm2 | an expression
    margin: {value: 0.1, why: "…", source: "…"}
    level: 0.95

Shapes (each judged by :class:`~kktheory.report.claims.Rule` on an
:class:`~kktheory.report.decide.Estimate`, one check per group and, where stated, per x):

- ``at_least`` / ``at_most`` — mean of y ≥ / ≤ ``margin.value`` at each x (``at:`` selects
  the x values); with ``reference: G`` the Welch difference y(group) − y(G) instead;
- ``equivalent`` — mean of y − ``target`` (default 0; or the difference to ``reference``)
  inside ±``margin.value`` at each x (two one-sided tests);
- ``plateau`` — beyond the point ``beyond`` (default the smallest x): the Welch difference
  y(largest x) − y(beyond) inside ±``margin.value``, one check per group;
- ``rate`` — the fitted decay exponent b of mean y ≈ a·xᵇ (every run kept, studentised
  bootstrap interval; :func:`kktheory.report.theory.rate_estimate`, the catalogue's own
  fit) at most the shape's log–log slope over the observed x values + ``margin.value``
  (a decay at least as fast as the theorem's, up to the margin). ``against``:
  ``calandriello_thm1`` = k/√n + kγ/n (Calandriello & Rosasco 2018, Thm 1, γ the rows'
  ``gamma_value``), ``yin_thm2`` = √(k/n)·log²√n (Yin et al. 2022, Thm 2), or an
  expression (:func:`parse_expression`); needs ≥ 3 values of x;
- ``bound`` — y against ``bound:`` (a column or an expression), each run holding when
  y ≤ bound: the share of runs where it holds ≥ ``margin.value`` (exact Clopper–Pearson
  interval), with the median of y / bound beside it.

``margin`` needs ``value``, ``why`` (one sentence) and ``source``. ``design`` (optional;
``effect``, ``sd``, ``runs``, ``source``) is the power design; without it a rate's design is
the theorem's own slope with the observed bootstrap spread, a bound's a share of
1 − (1 − margin)/10, and the other shapes show no power.

Expressions are arithmetic in ``n, m, k, gamma, d_eff`` (the rows' ``n``, ``m``, ``k``,
``gamma_value``, ``deff``) and any other column name, with numbers, ``+ − * / **``, unary
minus and ``sqrt, log, log2, log10, exp, abs, min, max``; they are parsed by a whitelist walk
of Python's AST, never evaluated as code. Every mistake (unknown column, shape or key, a
margin without its justification, an expression that does not parse, a rate over fewer than
3 values of x, a column the claim's sweep does not write: :mod:`kktheory.judge.carried`) is a
:class:`ClaimError`: one line naming the field, the value and what is allowed, exit status 2,
nothing written.
"""

from __future__ import annotations

import ast
import difflib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from kktheory.errors import UserError

AT_LEAST, AT_MOST, EQUIVALENT, PLATEAU, RATE, BOUND = "at_least", "at_most", "equivalent", "plateau", "rate", "bound"
CLAIM_SHAPES = (AT_LEAST, AT_MOST, EQUIVALENT, PLATEAU, RATE, BOUND)
THEOREMS = ("calandriello_thm1", "yin_thm2")
#: expression names → row columns
VARIABLES = {"n": "n", "m": "m", "k": "k", "gamma": "gamma_value", "d_eff": "deff"}
FUNCTIONS: dict[str, Callable[..., Any]] = {
    "sqrt": np.sqrt, "log": np.log, "log2": np.log2, "log10": np.log10, "exp": np.exp, "abs": np.abs,
    "min": np.minimum, "max": np.maximum,
}
CONSTANTS = {"pi": math.pi, "e": math.e}
KEYS = ("name", "claim", "sweep", "filter", "by", "x", "y", "shape", "against", "bound", "margin", "level",
        "target", "reference", "beyond", "at", "design")
_OPS = {ast.Add: np.add, ast.Sub: np.subtract, ast.Mult: np.multiply, ast.Div: np.divide, ast.Pow: np.power}


class ClaimError(UserError):
    """A claim file's field has a value that is not allowed (one line: field, value, allowed)."""

    def __init__(self, field: str, value: object, allowed: str) -> None:
        self.field, self.value, self.allowed = field, value, allowed
        super().__init__(f"claim error: {field}={value!r}: {allowed}")


# -- expressions ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class Expression:
    """A parsed arithmetic expression: its text, the names it reads, and its tree."""

    text: str
    names: tuple[str, ...]
    tree: ast.Expression = field(compare=False, repr=False)

    @property
    def columns(self) -> tuple[str, ...]:
        """The row columns it reads (``gamma`` → ``gamma_value``, ``d_eff`` → ``deff``)."""
        return tuple(VARIABLES.get(n, n) for n in self.names)

    def evaluate(self, values: Mapping[str, Any]) -> np.ndarray:
        """The expression on arrays (or numbers) given by name (``values`` keyed by the
        expression's own names: ``gamma``, not ``gamma_value``)."""
        with np.errstate(all="ignore"):
            return np.asarray(_eval(self.tree.body, values), dtype=float)

    def on_rows(self, rows: Any) -> np.ndarray:
        """The expression on each row of a DataFrame."""
        return self.evaluate({n: rows[VARIABLES.get(n, n)].to_numpy(float) for n in self.names})


def parse_expression(text: str, field: str = "against") -> Expression:
    """Parse ``text`` by a whitelist walk of its AST: numbers, names (variables, columns,
    ``pi``, ``e``), the binary operators + − * / **, unary ±, and calls of :data:`FUNCTIONS`;
    anything else (attributes, subscripts, lambdas, keywords, strings …) is a ClaimError."""
    allowed = ("an arithmetic expression in n, m, k, gamma, d_eff (or row columns) with numbers, + - * / **, "
               f"and {', '.join(FUNCTIONS)}")
    try:
        tree = ast.parse(str(text).replace("^", "**"), mode="eval")
    except SyntaxError:
        raise ClaimError(field, text, f"{allowed} (it does not parse)") from None
    names: list[str] = []

    def walk(node: ast.AST) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return
        if isinstance(node, ast.Name):
            if node.id not in FUNCTIONS:
                if node.id not in CONSTANTS:
                    names.append(node.id)
                return
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            walk(node.left)
            walk(node.right)
            return
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            walk(node.operand)
            return
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS
                and not node.keywords and node.args):
            for a in node.args:
                walk(a)
            return
        raise ClaimError(field, text, f"{allowed} (not allowed: {ast.dump(node)[:40]}…)")

    walk(tree.body)
    return Expression(str(text), tuple(dict.fromkeys(names)), tree)


def _eval(node: ast.AST, values: Mapping[str, Any]) -> Any:
    if isinstance(node, ast.Constant):
        return float(node.value)
    if isinstance(node, ast.Name):
        return CONSTANTS[node.id] if node.id in CONSTANTS else values[node.id]
    if isinstance(node, ast.BinOp):
        return _OPS[type(node.op)](_eval(node.left, values), _eval(node.right, values))
    if isinstance(node, ast.UnaryOp):
        v = _eval(node.operand, values)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.Call):
        return FUNCTIONS[node.func.id](*(_eval(a, values) for a in node.args))
    raise TypeError(type(node).__name__)  # parse_expression admits nothing else


# -- the claim ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ClaimMargin:
    value: float
    why: str
    source: str


@dataclass(frozen=True)
class ClaimDesign:
    """The power design given in the file (``runs`` None: the rows' run count)."""

    effect: float
    sd: float
    source: str
    runs: int | None = None


@dataclass(frozen=True)
class Claim:
    """A parsed, validated claim file (module docstring)."""

    name: str
    text: str
    config: str  # experiments/ config name, or "" for configs/config.yaml (overrides only)
    overrides: tuple[str, ...]
    filter: tuple[tuple[str, tuple[Any, ...]], ...]
    by: str
    x: str
    y: str
    shape: str
    margin: ClaimMargin
    level: float = 0.95
    against: str = ""  # rate: a theorem name or an expression's text
    expression: Expression | None = None  # rate (an expression) or bound (a formula)
    bound_column: str = ""
    target: float = 0.0
    reference: str = ""
    beyond: float | None = None
    at: tuple[float, ...] = ()
    design: ClaimDesign | None = None
    path: str = ""

    @property
    def fields(self) -> dict[str, str]:
        """Every row column the claim reads → the field that names it (the first one)."""
        named = [("x", self.x), ("y", self.y), *((f"filter.{k}", k) for k, _ in self.filter)]
        named += [("by", self.by)] if self.by else []
        named += [("bound", self.bound_column)] if self.bound_column else []
        if self.expression:
            named += [(expression_field(self.shape, n), c) for n, c in zip(self.expression.names,
                                                                          self.expression.columns)]
        out: dict[str, str] = {}
        for name, column in named:
            out.setdefault(column, name)
        return out


def expression_field(shape: str, name: str) -> str:
    """The field naming a column ``name`` of the claim's expression (``against`` or ``bound``)."""
    return f"{'against' if shape == RATE else 'bound'} ({name})"


def _known_columns() -> set[str]:
    from kktheory.run import schema

    return set(schema.columns())


def check_column(field: str, name: Any, known: set[str] | None = None) -> str:
    """``name`` if it is a column of the row schema, else a ClaimError naming near matches."""
    known = _known_columns() if known is None else known
    if isinstance(name, str) and name in known:
        return name
    near = difflib.get_close_matches(str(name), sorted(known), n=4, cutoff=0.5)
    hint = f"did you mean {', '.join(near)}?" if near else "python -m kktheory.run.schema lists them"
    raise ClaimError(field, name, f"a column of the rows (docs/schema.md); {hint}")


def _number(field: str, value: Any, allowed: str = "a number") -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(float(value)):
        raise ClaimError(field, value, allowed)
    return float(value)


def _text(field: str, value: Any, allowed: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ClaimError(field, value, allowed)
    return value.strip()


def _sweep(spec: Any) -> tuple[str, tuple[str, ...]]:
    allowed = ("an experiments/ config name, a list of overrides (key=value), or {config: NAME, overrides: "
               "[…]}")
    if isinstance(spec, str):
        config, overrides = spec, []
    elif isinstance(spec, (list, tuple)):
        config, overrides = "", list(spec)
    elif isinstance(spec, Mapping) and set(spec) <= {"config", "overrides"} and spec:
        config, overrides = spec.get("config") or "", list(spec.get("overrides") or [])
    else:
        raise ClaimError("sweep", spec, allowed)
    from kktheory.run.sweeps import EXPERIMENTS_DIR

    if config and not (EXPERIMENTS_DIR / f"{config}.yaml").is_file():
        names = sorted(p.stem for p in EXPERIMENTS_DIR.glob("*.yaml"))
        near = difflib.get_close_matches(str(config), names, n=3)
        raise ClaimError("sweep.config", config, "an experiments/ config" + (f"; did you mean {', '.join(near)}?"
                                                                              if near else f": {', '.join(names)}"))
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import OverrideParseException

    for o in overrides:
        try:
            OverridesParser.create().parse_overrides([str(o)])
        except OverrideParseException:
            raise ClaimError("sweep.overrides", o, "key=value (a Hydra override; key=a,b,c sweeps)") from None
    if not config and not overrides:
        raise ClaimError("sweep", spec, allowed)
    return str(config), tuple(str(o) for o in overrides)


def parse_claim(data: Mapping[str, Any], name: str = "claim", path: str = "",
                known: set[str] | None = None) -> Claim:
    """A validated :class:`Claim` from the file's mapping (ClaimError at the first mistake)."""
    if not isinstance(data, Mapping):
        raise ClaimError("claim file", type(data).__name__, "a mapping of the keys " + ", ".join(KEYS))
    extra = [k for k in data if k not in KEYS]
    if extra:
        near = difflib.get_close_matches(str(extra[0]), KEYS, n=2)
        raise ClaimError(str(extra[0]), data[extra[0]], "a key of " + ", ".join(KEYS)
                         + (f" (did you mean {near[0]}?)" if near else ""))
    for key in ("sweep", "x", "y", "shape", "margin"):
        if key not in data or data[key] is None:
            raise ClaimError(key, None, "required (module docstring of kktheory/judge/claimfile.py)")
    known = _known_columns() if known is None else known
    shape = data["shape"]
    if shape not in CLAIM_SHAPES:
        near = difflib.get_close_matches(str(shape), CLAIM_SHAPES, n=1)
        raise ClaimError("shape", shape, "one of " + ", ".join(CLAIM_SHAPES) + (f" (did you mean {near[0]}?)"
                                                                                 if near else ""))
    config, overrides = _sweep(data["sweep"])
    x = check_column("x", data["x"], known)
    y = check_column("y", data["y"], known)
    by = check_column("by", data["by"], known) if data.get("by") else ""
    filt = data.get("filter") or {}
    if not isinstance(filt, Mapping):
        raise ClaimError("filter", filt, "a mapping column → value or list of values")
    filters = tuple((check_column(f"filter.{k}", k, known), tuple(v) if isinstance(v, (list, tuple)) else (v,))
                    for k, v in filt.items())
    m = data["margin"]
    if not isinstance(m, Mapping):
        raise ClaimError("margin", m, "{value: number, why: one sentence, source: where it comes from}")
    margin = ClaimMargin(_number("margin.value", m.get("value")),
                         _text("margin.why", m.get("why"), "one sentence: why this margin (a margin needs its "
                                                           "justification)"),
                         _text("margin.source", m.get("source"), "where the margin comes from (paper, section)"))
    if shape in (EQUIVALENT, PLATEAU, RATE) and not margin.value > 0:
        raise ClaimError("margin.value", m.get("value"), f"a number > 0 for a {shape} claim")
    if shape == BOUND and not 0 < margin.value < 1:
        raise ClaimError("margin.value", m.get("value"), "the share of runs that must hold, in (0, 1)")
    level = _number("level", data.get("level", 0.95), "a confidence level in (0.5, 1)")
    if not 0.5 < level < 1:
        raise ClaimError("level", level, "a confidence level in (0.5, 1)")
    against, expression, bound_column = "", None, ""
    if shape == RATE:
        against = str(data.get("against") or "")
        if not against:
            raise ClaimError("against", data.get("against"), f"{' | '.join(THEOREMS)} | an expression in n, m, k, "
                                                             "gamma, d_eff")
        if against not in THEOREMS:
            expression = parse_expression(against, "against")
            if not set(expression.names) & {"n", x}:
                raise ClaimError("against", against, f"an expression of the axis x = {x} (e.g. 1/sqrt(n))")
    elif data.get("against") is not None:
        raise ClaimError("against", data["against"], "only for shape rate")
    if shape == BOUND:
        b = data.get("bound")
        if b is None:
            raise ClaimError("bound", None, "a column (e.g. lemma2_bound) or an expression in n, m, k, gamma, d_eff")
        if isinstance(b, (int, float)) and not isinstance(b, bool):
            expression = parse_expression(str(b), "bound")
        elif isinstance(b, str) and b in known:
            bound_column = b
        else:
            expression = parse_expression(str(b), "bound")
    elif data.get("bound") is not None:
        raise ClaimError("bound", data["bound"], "only for shape bound")
    if expression is not None:
        for nm, col in zip(expression.names, expression.columns):
            check_column(expression_field(shape, nm), col, known)
    reference = str(data["reference"]) if data.get("reference") is not None else ""
    if reference and (shape not in (AT_LEAST, AT_MOST, EQUIVALENT) or not by):
        raise ClaimError("reference", reference, "a value of `by`, for at_least, at_most or equivalent with `by`")
    beyond = _number("beyond", data["beyond"]) if data.get("beyond") is not None else None
    if beyond is not None and shape != PLATEAU:
        raise ClaimError("beyond", beyond, "only for shape plateau")
    at = data.get("at") or ()
    at = tuple(_number("at", v) for v in (at if isinstance(at, (list, tuple)) else [at]))
    design = None
    if data.get("design") is not None:
        d = data["design"]
        if not isinstance(d, Mapping) or not {"effect", "sd", "source"} <= set(d):
            raise ClaimError("design", d, "{effect: number, sd: number, source: where they come from, runs: int}")
        runs = d.get("runs")
        if runs is not None and (not isinstance(runs, int) or runs < 2):
            raise ClaimError("design.runs", runs, "an integer ≥ 2")
        design = ClaimDesign(_number("design.effect", d["effect"]), _number("design.sd", d["sd"]),
                             _text("design.source", d["source"], "where effect and sd come from"), runs)
    return Claim(
        name=str(data.get("name") or name), text=str(data.get("claim") or ""), config=config, overrides=overrides,
        filter=filters, by=by, x=x, y=y, shape=shape, margin=margin, level=level, against=against,
        expression=expression, bound_column=bound_column,
        target=_number("target", data.get("target", 0.0)), reference=reference, beyond=beyond, at=at,
        design=design, path=path)


def load_claim(path: str | Path, known: set[str] | None = None) -> Claim:
    """Read and validate a claim file (OmegaConf's YAML loader)."""
    from omegaconf import OmegaConf
    from omegaconf.errors import OmegaConfBaseException

    p = Path(path)
    if not p.is_file():
        raise ClaimError("claim file", str(path), "an existing YAML file")
    try:
        data = OmegaConf.to_container(OmegaConf.load(p), resolve=False)
    except (OmegaConfBaseException, ValueError, OSError) as exc:  # YAML syntax errors among them
        raise ClaimError("claim file", str(path), f"valid YAML ({' '.join(str(exc).split())[:120]})") from None
    except Exception as exc:  # noqa: BLE001  (yaml.YAMLError: PyYAML comes with OmegaConf)
        raise ClaimError("claim file", str(path), f"valid YAML ({' '.join(str(exc).split())[:120]})") from None
    return parse_claim(data, p.stem, str(path), known)


def x_values_of_jobs(setups: Sequence[Mapping[str, Any]], x: str) -> list[float] | None:
    """The distinct numeric values of ``x`` among a sweep's job configs (None when x is not a
    numeric config value, e.g. a result column or an m rule: known only from the rows)."""
    vals = []
    for s in setups:
        v = s.get(x)
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            return None
        vals.append(float(v))
    return sorted(set(vals))
