"""The benchmark's mock tool endpoint as pure fixtures: (seed, case, tool, args) -> result."""

from dittobench.mocktools.serve import TRANSIENT_ERROR, execute

__all__ = ["TRANSIENT_ERROR", "execute"]
