"""A user of its own for each sandbox running on this machine.

When the engine runs as root, every sandbox runs as a user id leased from a range no account
uses (``FIRST_UID`` and the next ``SLOTS``): two sandboxes never share a user, so neither the
process limit (counted per user) nor any file of one is the other's. A lease is an exclusive
``flock`` on ``<lock folder>/uid-N.lock``, held while the sandbox lives and dropped by the
kernel if the process dies, so processes of the service and workers on one machine never hand
out the same user twice.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from dittobench.sandbox import SandboxError

FIRST_UID = 420_000
SLOTS = 256


@contextlib.contextmanager
def leased_uid(
    first: int = FIRST_UID, slots: int = SLOTS, folder: Path | None = None
) -> Iterator[int]:
    """A user id of the range held by nobody else until the block ends."""
    locks = folder or Path(tempfile.gettempdir()) / "dittobench-sandbox-users"
    locks.mkdir(mode=0o700, exist_ok=True)
    for uid in range(first, first + slots):
        fd = os.open(locks / f"uid-{uid}.lock", os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            continue
        try:
            yield uid
        finally:
            os.close(fd)  # releases the lock
        return
    raise SandboxError(f"all {slots} sandbox users ({first}…{first + slots - 1}) are in use")


__all__ = ["FIRST_UID", "SLOTS", "leased_uid"]
