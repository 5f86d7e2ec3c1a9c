"""``dittobench verify --log``: gather the transparency log's evidence (from a service's public
routes or an exported file) and check it (``receipts.logaudit``; docs/receipts.md, "What verify
checks in the log").

From a service URL: ``GET /v1/log`` (a signed tree head and every entry under it), then the
service's own inclusion proof of the receipt's entry and, with a kept head, its consistency
proof; both are checked as served. From a file (what ``GET /v1/log`` returned, saved): the same
checks with the proofs computed from the entries.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
import typer

from dittobench.cli.common import fail
from dittobench.cli.inputs import read_json
from dittobench.receipts.checks import Check
from dittobench.receipts.keys import KeyFileError, TrustedKey, TrustedKeys, b64decode_strict
from dittobench.receipts.logaudit import LogEvidence, audit_log
from dittobench.receipts.logentries import RUN_SIGNED, LogEntryError, manifest_sha256

FETCH_TIMEOUT_S = 30.0


def check_log(
    source: str,
    receipt: Any,
    trusted: TrustedKeys | None,
    old_head: Path | None,
    save_head: Path | None,
    pack_sha256: str,
) -> list[Check]:
    """Every log check for ``receipt``; exit 2 when the log cannot be read at all."""
    kept = read_json(old_head, "old tree head") if old_head is not None else None
    if source.startswith(("http://", "https://")):
        evidence = _fetched(source.rstrip("/"), receipt, kept)
    else:
        evidence = _from_file(Path(source), kept)
    signers = trusted if trusted is not None else _receipt_signer(receipt)
    checks = audit_log(evidence, signers, receipt, pack_sha256).checks
    log_itself = [c for c in checks if c.name not in ("receipt in log", "window pack")]
    if save_head is not None and not all(c.ok for c in log_itself):
        typer.echo(f"--save-head: not written ({save_head}): the log itself failed a check")
    elif save_head is not None:
        try:
            save_head.write_text(json.dumps(evidence.head, indent=2) + "\n", encoding="utf-8")
        except OSError as exc:
            raise fail(f"cannot write --save-head {save_head}: {exc.strerror}") from None
    return checks


def _from_file(path: Path, kept: Any) -> LogEvidence:
    data = read_json(path, "log")
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise fail(f'log {path}: expected {{"tree_head": ..., "entries": [...]}} (GET /v1/log)')
    return LogEvidence(data.get("tree_head"), data["entries"], kept)


def _fetched(base: str, receipt: Any, kept: Any) -> LogEvidence:
    whole = _get(base, "/v1/log", {})
    if not isinstance(whole, dict) or not isinstance(whole.get("entries"), list):
        raise fail(f"{base}/v1/log: not a log export")
    head, entries = whole.get("tree_head"), whole["entries"]
    size = head.get("tree_size") if isinstance(head, dict) else None
    inclusion = None
    index = _entry_index(entries, receipt)
    if isinstance(size, int) and 0 <= index < size:
        served = _get(base, "/v1/log/proof/inclusion", {"index": index, "tree_size": size})
        inclusion = served.get("proof") if isinstance(served, dict) else None
    consistency = None
    old_size = kept.get("tree_size") if isinstance(kept, dict) else None
    if isinstance(size, int) and isinstance(old_size, int) and 0 <= old_size <= size:
        served = _get(base, "/v1/log/proof/consistency", {"first": old_size, "second": size})
        consistency = served.get("proof") if isinstance(served, dict) else None
    return LogEvidence(head, entries, kept, inclusion, consistency)


def _entry_index(entries: list[Any], receipt: Any) -> int:
    try:
        wanted = manifest_sha256(receipt if isinstance(receipt, dict) else {})
    except LogEntryError:
        return -1
    for index, entry in enumerate(entries):
        if (
            isinstance(entry, dict)
            and entry.get("kind") == RUN_SIGNED
            and entry.get("manifest_sha256") == wanted
        ):
            return index
    return -1


def _get(base: str, path: str, params: dict[str, int]) -> Any:
    try:
        response = httpx.get(base + path, params=params, timeout=FETCH_TIMEOUT_S)
    except httpx.HTTPError as exc:
        raise fail(f"cannot read the log at {base}{path}: {exc}") from None
    if response.status_code != 200:
        raise fail(f"{base}{path}: HTTP {response.status_code} {response.text[:200]}")
    try:
        return response.json()
    except ValueError:
        raise fail(f"{base}{path}: not JSON") from None


def _receipt_signer(receipt: Any) -> TrustedKeys | None:
    """Without --trusted-keys, a tree head must be signed by the key that signed the receipt."""
    try:
        raw = b64decode_strict(receipt.get("public_key"), "receipt.public_key")
        kid = str(receipt.get("key_id"))
    except (KeyFileError, AttributeError):
        return None
    return TrustedKeys((TrustedKey(kid, raw, "1970-01-01T00:00:00Z"),))


def print_checks(checks: list[Check]) -> None:
    typer.echo("transparency log:")
    width = max((len(c.name) for c in checks), default=0)
    for check in checks:
        typer.echo(f"  {'ok  ' if check.ok else 'FAIL'}  {check.name:<{width}}  {check.detail}")


__all__ = ["check_log", "print_checks"]
