"""What a harness says it is: the ``identity`` object of its ``GET /health`` reply.

A harness may name what is being measured, e.g. the adapter harness declares
``{"adapter": "mem0", "adapter_version": "1", "system": "mem0ai", "system_version": "2.2.1",
"reader": "dittobench-reader-1", ...}``. The engine keeps it in the transcript, so the report,
the signed receipt and the pages say what a row measured. It is a declaration, never checked:
the pages show it as "declared by the harness". Only a flat object of short strings is kept;
anything else in it is dropped, never an error (``/health`` must stay easy to write).
"""

from __future__ import annotations

import re
from typing import Any, Final

MAX_KEYS: Final = 24
MAX_VALUE_CHARS: Final = 200
_KEY = re.compile(r"[a-z][a-z0-9_]{0,39}")


def identity_of(health: Any) -> dict[str, str]:
    """The identity declared in a parsed ``/health`` body: the entries of its ``identity``
    object whose key is lowercase ``[a-z][a-z0-9_]*`` (at most 40 characters) and whose value is
    a string of printable characters (at most 200), the first ``MAX_KEYS`` of them in key order."""
    declared = health.get("identity") if isinstance(health, dict) else None
    if not isinstance(declared, dict):
        return {}
    kept = {
        key: value
        for key, value in declared.items()
        if isinstance(key, str)
        and _KEY.fullmatch(key)
        and isinstance(value, str)
        and 0 < len(value) <= MAX_VALUE_CHARS
        and value.isprintable()
    }
    return {key: kept[key] for key in sorted(kept)[:MAX_KEYS]}


__all__ = ["MAX_KEYS", "MAX_VALUE_CHARS", "identity_of"]
