"""The keys a service publishes (``GET /v1/keys``): its signing key, valid from its file's making
and never closed, then the retired keys ``published_keys_file`` lists; an operator's own entry
for the signing key sets its window; a bad file is refused at start. And what ``--keys-url``
fetches from a bare base URL."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import typer
from fastapi.testclient import TestClient

from dittobench.cli.signers import keys_endpoint, require_trusted
from dittobench.receipts.keys import (
    PRIVATE_KEY_NAME,
    TrustedKeys,
    generate_private_key,
    key_id,
    load_private_key,
    trusted_entry,
)
from dittobench.service.app import create_app
from dittobench.service.settings import SettingsError, load_settings


def client(tmp: Path, **given: Any) -> TestClient:
    tokens = tmp / "tokens"
    tokens.write_text("adm1n-T0ken-0123456789abcdef\n", "utf-8")
    settings = load_settings(db=str(tmp / "runs.db"), token_file=tokens, data_dir=tmp, **given)
    return TestClient(create_app(settings))


def test_the_signing_key_is_published_open_ended_and_public(tmp_path: Path) -> None:
    with client(tmp_path) as opened:
        answer = opened.get("/v1/keys")
        assert answer.status_code == 200
        assert answer.headers["cache-control"] == "public, max-age=300"
        assert opened.get("/.well-known/dittobench-keys.json").json() == answer.json()
    key = load_private_key(tmp_path / "keys" / PRIVATE_KEY_NAME)
    (entry,) = TrustedKeys.from_json(answer.json()).keys
    assert entry.key_id == key_id(key) and entry.valid_until is None
    assert entry.valid_from.endswith("Z") and entry.valid_from > "2000-01-01"


def test_retired_keys_follow_and_the_operators_entry_sets_the_window(tmp_path: Path) -> None:
    with client(tmp_path):
        pass  # makes the signing key
    current = load_private_key(tmp_path / "keys" / PRIVATE_KEY_NAME)
    retired = trusted_entry(generate_private_key(), "2025-01-01T00:00:00Z", "2026-01-01T00:00:00Z")
    own = trusted_entry(current, "2026-01-01T00:00:00Z")
    listed = tmp_path / "published.json"
    listed.write_text(json.dumps(TrustedKeys((retired, own)).to_json()), encoding="utf-8")
    with client(tmp_path, published_keys_file=listed) as opened:
        served = TrustedKeys.from_json(opened.get("/v1/keys").json())
    assert served.keys == (own, retired)


def test_a_bad_published_keys_file_is_refused_at_start(tmp_path: Path) -> None:
    bad = tmp_path / "published.json"
    bad.write_text('{"keys": [{"key_id": "x"}]}', encoding="utf-8")
    with pytest.raises(SettingsError, match="published_keys_file"):
        load_settings(db=str(tmp_path / "runs.db"), published_keys_file=bad)


def test_a_bare_base_url_gets_the_keys_route() -> None:
    assert keys_endpoint("https://scores.example") == "https://scores.example/v1/keys"
    assert keys_endpoint("https://scores.example/") == "https://scores.example/v1/keys"
    kept = "https://scores.example/.well-known/dittobench-keys.json"
    assert keys_endpoint(kept) == kept


def test_only_a_listed_key_id_passes(capsys: pytest.CaptureFixture[str]) -> None:
    key = generate_private_key()
    trusted = TrustedKeys((trusted_entry(key, "2026-01-01T00:00:00Z"),))
    require_trusted(key_id(key), trusted)
    require_trusted("0123456789abcdef", None)  # --any-key: nothing is checked
    with pytest.raises(typer.Exit) as refused:
        require_trusted("0123456789abcdef", trusted)
    assert refused.value.exit_code == 2
    assert "key 0123456789abcdef, which is not trusted" in capsys.readouterr().err
