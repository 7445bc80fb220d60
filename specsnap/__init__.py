"""SpecSnap: measures what a coding agent's specification survives across session cutoffs."""

__version__ = "0.1.0"
