"""A worker's log: one JSON object per line on stderr, so a fleet's logs can be collected and
filtered by run without parsing prose. Every line has ``ts`` (UTC), ``level``, ``event``,
``worker`` and, for events about a run, ``run_id``; Celery's own messages come through as
``event: "celery"``."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

LOGGER = "dittobench.worker"
_STANDARD = set(logging.makeLogRecord({}).__dict__) | {"message", "asctime"}


class JsonLines(logging.Formatter):
    """Formats a record as one JSON line: the standard fields first, then any ``extra``."""

    def __init__(self, worker: str) -> None:
        super().__init__()
        self.worker = worker

    def format(self, record: logging.LogRecord) -> str:
        stamp = datetime.fromtimestamp(record.created, UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        line: dict[str, Any] = {
            "ts": stamp,
            "level": record.levelname.lower(),
            "event": getattr(
                record, "event", "celery" if record.name.startswith("celery") else "log"
            ),
            "worker": self.worker,
        }
        for key, value in record.__dict__.items():
            if key not in _STANDARD and key not in line:
                line[key] = value if isinstance(value, (str, int, float, bool)) else str(value)
        message = record.getMessage()
        if message and message != line["event"]:
            line["message"] = message
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info).splitlines()[-1]
        return json.dumps(line, ensure_ascii=False, sort_keys=False)


def setup(worker: str, level: int = logging.INFO) -> logging.Logger:
    """Route every log record of the process (ours and Celery's) to stderr as JSON lines."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines(worker))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    logging.captureWarnings(True)  # Celery's warnings (e.g. running as root) as lines too
    ours = logging.getLogger(LOGGER)
    ours.setLevel(level)
    for name in ("dittobench", "alembic"):
        logging.getLogger(name).setLevel(logging.WARNING if name == "alembic" else level)
    return ours


def event(log: logging.Logger, name: str, run_id: str = "", **fields: Any) -> None:
    """Log the event ``name`` (about ``run_id`` when given) with ``fields``."""
    extra: dict[str, Any] = {"event": name, **fields}
    if run_id:
        extra["run_id"] = run_id
    warns = name.endswith(("failed", "lost", "error", "dropped"))
    level = logging.WARNING if warns else logging.INFO
    log.log(level, name, extra=extra)


__all__ = ["LOGGER", "JsonLines", "event", "setup"]
