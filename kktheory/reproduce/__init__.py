"""Run what is missing for a figure, then draw it and judge the paper's claim.

    python -m kktheory.reproduce NAME|all [--scale small|paper] [--results-dir DIR]
                                 [--out DIR] [--no-run] [--decide [--budget-min B]] [OVERRIDE ...]

For each catalogue entry NAME (``python -m kktheory.reproduce --list``):

1. The sweep is the one ``python run.py --config-dir experiments --config-name CONFIG -m``
   would run, with CONFIG = NAME (``--scale paper``) or NAME_small (``--scale small``,
   the default): the experiment config's ``hydra.sweeper.params`` and the trailing
   OVERRIDEs (Hydra syntax, command line wins, e.g. ``n=500 seed=0``) are expanded into
   jobs by Hydra's own BasicSweeper, and each job's config is composed with Hydra's
   compose API, so a row written here and a row written by run.py have the same hash.
2. Jobs whose rows are all in the store are not run again; the others run in this
   process through :func:`kktheory.run.experiment.run`. A job that cannot run (missing data
   file, memory budget, invalid option, or a bug) becomes a pseudo-row carrying the
   job's config and ``error_kind``/``error``, so figures and claim rules see it.
3. The entry draws its files into ``--out`` (default ``paper_figs/``), evaluates its
   claim rule on the rows, prints the verdict and rewrites ``INDEX.md`` there. An entry
   with a speed claim judges it on its timing pass, ``<results-dir>/timing/NAME.parquet``
   (:mod:`kktheory.timing`; inconclusive when there is none), never on the rows' times.

At ``--scale paper`` the store starts from the entry's committed rows
(``paper_figs/rows/<entry>.parquet``, the rows behind the committed figures, without the
per-run arrays), and the rows are written back to ``<out>/rows/<entry>.parquet`` after
every job that ran, so that a sweep interrupted on one machine continues on another from
what was committed. When no job ran, an existing rows file is left untouched. A redraw
(``--no-run``) at paper scale reads the committed rows file itself for the runs the store
lacks (:func:`read_committed`) and writes no run file.

``--decide`` (paper scale) is the sequential decision (:func:`decide`,
:mod:`kktheory.report.sequential`): while a counted check is undecided (on either side of its
claim) and the predicted compute fits ``--budget-min`` (default 60 minutes), seeds are added
to the part of the entry's sweep that the OVERRIDEs select (``--sweep``: of the one it names,
its own or a further sweep) — without overrides, to the jobs the undecided checks read (their
rules' ``sweep`` and ``part``, of ``--sweep`` alone where it is named; where they read
different sweeps it stops and asks) — up to the next look's
run count, fixed in advance (doubling), and the entry is judged again, on all its rows, at
the next look's alpha-spending level; the looks are committed in ``rows/looks/<entry>.json``
and a later redraw judges at the last look. A larger budget later resumes from the last look.

``--no-run`` only redraws and judges from the rows already stored. The exit status is 0
when every requested entry produced a verdict (including *not run* with its reason) and
1 when drawing or judging an entry raised an exception.

A redraw reads, it does not compose or compute: the jobs of a sweep with their run ids and
configs (its *plan*, :func:`plan_sweep`) are kept in ``<results-dir>/cache/plans`` and
composed again only when a YAML file of experiments/ or configs/, the kktheory source, the
Hydra version, the overrides or the results folder changed; while none of the run files
changed, the rows of the sweep are read as one file kept there (:func:`read_rows`). Drawing reads
rows and, for an entry whose figure plots more than the rows (``Entry.figure_data``, e.g.
the points of a scatter), the table of those values built from a few runs' stored arrays;
at paper scale the table is committed beside the rows (``rows/figures/<entry>.parquet``)
and read from there for the runs whose arrays the store does not hold.
"""
