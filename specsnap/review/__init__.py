"""Two human reviewers, reconciled: the review packet, the rubric, the rules that combine
ratings, and the signed reviews section attached beside a scorecard (docs/protocol.md, Reviews).
No number here is decided by a language model; no part of it changes a score."""
