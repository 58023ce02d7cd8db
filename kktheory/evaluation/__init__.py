"""The evaluation stage: risks of a partition in the RKHS (:mod:`~kktheory.evaluation.risk`),
partition scores (:mod:`~kktheory.evaluation.metrics`), Wang et al.'s objective over the
kernel columns (:mod:`~kktheory.evaluation.column_objective`), the reference partition and excess
risk (:mod:`~kktheory.evaluation.reference`), population risks
(:mod:`~kktheory.evaluation.population`), the papers' bounds (:mod:`kktheory.evaluation.bounds`)
and why a row's number is missing (:mod:`~kktheory.evaluation.nan_reason`)."""
