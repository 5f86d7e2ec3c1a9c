"""What the run store raises: one root (``StoreError``) and the cases callers tell apart."""

from __future__ import annotations

from dittobench.core.errors import DittobenchError


class StoreError(DittobenchError, RuntimeError):
    """The store cannot do what was asked: an unknown or duplicate run id, or a database that
    cannot be opened or is not a dittobench run store."""


class NoStoreError(StoreError):
    """A SQLite store opened with ``create=False`` whose file does not exist."""


class BadContentError(StoreError):
    """A stored value that is not what the store writes (edited or damaged by hand): the
    message names the run, the column and, for a case record, the case."""


class RunBusyError(StoreError):
    """Another process holds the run's lease: ``owner`` until ``until`` unless it renews."""

    http_status = 409

    def __init__(self, message: str, owner: str, until: str) -> None:
        super().__init__(message)
        self.owner, self.until = owner, until


class RunTakenError(StoreError):
    """A write made for a lease holder after another process took the run over: nothing was
    written (the run is the other process's now)."""

    http_status = 409


__all__ = ["BadContentError", "NoStoreError", "RunBusyError", "RunTakenError", "StoreError"]
