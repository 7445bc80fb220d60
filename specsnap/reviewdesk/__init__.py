"""Reviews at work on a run directory: the review packet (the diff, the sessions' story, the
rubric) and recording ratings in the run's reviews section. The rules themselves are pure
(specsnap.review)."""
