"""Run ids and time stamps, the one shape every front door uses (stdlib only)."""

from __future__ import annotations

import os
from datetime import UTC, datetime


def now() -> str:
    """This moment in UTC as ``YYYY-MM-DDTHH:MM:SSZ`` (which sorts as time in the store)."""
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_run_id() -> str:
    """A fresh run id (``store.runs.RUN_ID_PATTERN``): ``r-`` the UTC time, and 24 random
    bits so two runs made in one second differ."""
    return "r-" + datetime.now(UTC).strftime("%Y%m%d-%H%M%S") + "-" + os.urandom(3).hex()


__all__ = ["new_run_id", "now"]
