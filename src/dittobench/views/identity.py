"""What a harness declared it is, in words: the adapter, the system it drives and the reader.

A declaration is never checked (``spec.identity``), so it is always shown as the harness's word.
A reader is called locked only when every setting it declares is one of ``spec.reading.READERS``.
"""

from __future__ import annotations

from collections.abc import Mapping

from dittobench.spec.reading import locked_reader

DECLARED = "declared by the harness, not checked"


def identity_text(identity: Mapping[str, str]) -> str:
    """One line naming what was measured; empty when the harness declared nothing."""
    if not identity:
        return ""
    parts: list[str] = []
    if "adapter" in identity:
        adapter = " ".join(v for v in (identity["adapter"], identity.get("adapter_version")) if v)
        parts.append(f"adapter {adapter}")
    system = " ".join(v for v in (identity.get("system"), identity.get("system_version")) if v)
    if system:
        parts.append(f"system {system}")
    if "reader" in identity:
        reader = identity["reader"]
        model = identity.get("reader_model")
        shown = f"{reader} ({model})" if model else reader
        state = "locked" if locked_reader(dict(identity)) else "not a locked reader"
        parts.append(f"reader {shown}, {state}")
    if not parts:
        parts = [f"{key} {value}" for key, value in sorted(identity.items())[:6]]
    return " · ".join(parts)


__all__ = ["DECLARED", "identity_text"]
