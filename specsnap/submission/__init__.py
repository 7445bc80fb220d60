"""Submissions: a graded run in one file that someone else can verify, and its way into the
ledger.

- `archive`      — the file format (an uncompressed tar of fixed members), read without trust;
- `attestation`  — a build-provenance attestation of the scorecard, read offline;
- `bundle`       — `specsnap submit RUN`: the run's records, history and scorecard in one file;
- `verification` — unpack into a fresh run directory, check, rebuild the scorecard;
- `record`       — `specsnap ledger append BUNDLE`: verification, then the ledger's judgement.
"""
