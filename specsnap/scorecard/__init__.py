"""The scorecard: one typed model of a graded run, and its file format.

- `model`  — the frozen dataclasses, the one definition of scorecard.json;
- `codec`  — dataclasses to JSON values and back, from their type hints;
- `schema` — the JSON Schema derived from the model (shipped in specsnap/schemas/);
- `io`     — load (through the schema), dump (byte for byte), seal, timings;
- `delta`  — scores carried between evaluations, and the change against a base;
- `spread` — mean and spread over seeds, and whether a change is beyond run-to-run noise.

The engine builds scorecards (`specsnap.report.build_scorecard`); everything else reads them.
"""
