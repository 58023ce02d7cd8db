"""One run, config → rows: the validated config (:mod:`~kktheory.run.config`), the method
and the backend it computes on (:mod:`~kktheory.run.experiment`, :mod:`~kktheory.run.backends`,
:mod:`kktheory.run.dask`), the row's identity and columns (:mod:`~kktheory.run.identity`,
:mod:`~kktheory.run.schema`), the store (:mod:`~kktheory.run.store`), sweeps
(:mod:`~kktheory.run.sweeps`) and the summary printed after a run (:mod:`~kktheory.run.summary`)."""
