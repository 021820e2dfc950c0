"""FieldOps: animal control records for a city. The core never imports Qt."""

__version__ = "0.1.0"
