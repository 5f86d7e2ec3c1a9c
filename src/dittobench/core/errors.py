"""The root of every error dittobench raises on purpose.

Each layer subclasses ``DittobenchError`` (``core.prng.SeedError``, ``spec.codec.DecodeError``,
``store.StoreError``, ``engine.client.HarnessError``…); its message is one line naming what and
where, so the command line catches the root once and prints it (exit ``exit_code``: 2 for bad
input, 1 for a run that failed). Anything else reaching the edge is a bug and keeps its traceback.
"""

from __future__ import annotations


class DittobenchError(Exception):
    """An error with a message meant for the person who ran the command."""

    exit_code: int = 2
    """2: the input was bad (a flag, a file, a stored value); 1: the work itself failed."""


__all__ = ["DittobenchError"]
