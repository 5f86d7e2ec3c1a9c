"""dittobench: an open, reproducible, judge-free benchmark for memory assistants."""

__version__ = "0.1.0"
