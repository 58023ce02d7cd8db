"""A user's own claim: the claim file (:mod:`~kktheory.judge.claimfile`) and its judgement
(:mod:`~kktheory.judge.judging`); ``python -m kktheory.judge CLAIM.yaml``."""
