"""The command line of ``python -m kktheory.reproduce`` (the package's docstring)."""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections.abc import Sequence
from pathlib import Path


from kktheory.cli import OneLineParser, plugin_error
from kktheory.run.sweeps import (
    SCALES,
)
from kktheory.report import catalogue
from kktheory.reproduce.sequential import decide, redraw, sweep_configs


def main(argv: Sequence[str] | None = None) -> int:
    entries = catalogue()
    parser = OneLineParser(
        prog="python -m kktheory.reproduce", description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("name", nargs="?", help=f"one of: all, {', '.join(entries)}")
    parser.add_argument("overrides", nargs="*", help="Hydra overrides applied to every job")
    parser.add_argument("--scale", choices=SCALES, default="small")
    parser.add_argument("--results-dir", default="results", help="the results store (default results/)")
    parser.add_argument("--out", default="paper_figs", help="where figures and INDEX.md go")
    parser.add_argument("--no-run", action="store_true", help="only draw and judge stored rows")
    parser.add_argument("--list", action="store_true", help="list the catalogue and exit")
    parser.add_argument("--decide", action="store_true",
                        help="paper scale: add seeds while a check is undecided (sequential design, "
                             "kktheory/report/sequential.py): to the part the overrides select, else to the "
                             "jobs the undecided checks read")
    parser.add_argument("--sweep", default="",
                        help="with --decide: which of the entry's sweeps gets the seeds (by default the one "
                             "the undecided checks read): its own, e.g. yin_fig1, or one of its further sweeps, "
                             "e.g. wang_fig4_5_objective, where a re-declared check reads its fresh seeds; "
                             "without overrides, the part of it the undecided checks read")
    parser.add_argument("--budget-min", type=float, default=60.0,
                        help="with --decide: the most minutes of predicted compute to add (default 60)")
    args = parser.parse_intermixed_args(argv)
    if args.list:
        for e in entries.values():
            print(f"{e.name:24s} {e.title}: {e.claim}")
        return 0
    if args.name is None:
        print(f"config error: name=None: one of all, {', '.join(entries)} (--list describes them)",
              file=sys.stderr)
        return 2
    if args.decide and (args.scale != "paper" or args.no_run or args.name == "all"
                        or any(o.partition("=")[0].lstrip("+~") == "seed" for o in args.overrides)):
        print("config error: --decide: one entry, with --scale paper, without --no-run and without a seed "
              "override (it chooses the seeds; other overrides select the part of the sweep that gets them)",
              file=sys.stderr)
        return 2
    if not args.budget_min > 0:
        print(f"config error: --budget-min={args.budget_min:g}: a number of minutes > 0", file=sys.stderr)
        return 2
    if (line := plugin_error()) is not None:
        print(line, file=sys.stderr)
        return 2
    names = list(entries) if args.name == "all" else [args.name]
    unknown = [n for n in names if n not in entries]
    if unknown:
        print(f"config error: name={unknown[0]!r}: one of all, {', '.join(entries)}", file=sys.stderr)
        return 2
    if args.sweep and not (args.decide and args.sweep in sweep_configs(entries[args.name])):
        allowed = ", ".join(sweep_configs(entries[args.name]))
        print(f"config error: --sweep={args.sweep}: with --decide, one of {args.name}'s sweeps: {allowed}",
              file=sys.stderr)
        return 2
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import OverrideParseException

    for text in args.overrides:  # one line for a malformed override, before anything is written
        try:
            OverridesParser.create().parse_overrides([text])
        except OverrideParseException:
            print(f"config error: override={text!r}: key=value (a Hydra override); one entry name per call",
                  file=sys.stderr)
            return 2
    results_dir = Path(args.results_dir).resolve()
    out_dir = Path(args.out).resolve()
    t0 = time.perf_counter()
    status = 0
    summary = []
    for name in names:
        t1 = time.perf_counter()
        try:
            if args.decide:
                verdict = decide(entries[name], results_dir, out_dir, args.budget_min, args.overrides,
                                 sweep=args.sweep)
            else:
                verdict = redraw(entries[name], args.scale, results_dir, out_dir, args.overrides,
                                 execute=not args.no_run)
            summary.append(f"{name:24s} {verdict.status:15s} {time.perf_counter() - t1:7.1f} s")
        except Exception as exc:  # report the entry as broken, go on with the others
            traceback.print_exc()
            summary.append(f"{name:24s} {'ERROR':15s} {type(exc).__name__}: {exc}")
            status = 1
    if len(names) > 1:
        print("\n== summary")
        print("\n".join(summary))
        print(f"total {time.perf_counter() - t0:.1f} s")
    return status
