"""In-memory storage of patient records.

Private to the :mod:`patients` package: other packages go through
:class:`patients.registry.PatientRegistry`, which validates what it stores.
"""

from __future__ import annotations

from collections.abc import Iterator

from .models import Patient


class PatientStore:
    """Patient records keyed by id, with sequential ids ``P0001``, ``P0002``, ..."""

    def __init__(self) -> None:
        self._records: dict[str, Patient] = {}
        self._sequence = 0

    def new_id(self) -> str:
        """Reserve and return the next patient id."""
        self._sequence += 1
        return f"P{self._sequence:04d}"

    def put(self, patient: Patient) -> None:
        """Insert or replace a record."""
        self._records[patient.patient_id] = patient

    def get(self, patient_id: str) -> Patient | None:
        """The record with that id, or ``None``."""
        return self._records.get(patient_id)

    def __iter__(self) -> Iterator[Patient]:
        return iter(sorted(self._records.values(), key=lambda p: p.patient_id))

    def __len__(self) -> int:
        return len(self._records)
