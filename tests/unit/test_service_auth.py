"""Control-plane auth (service/auth.py): token files, constant-time matching, enforcement with
no token refused, and every route of the app classified public or protected."""

from __future__ import annotations

import hmac
from pathlib import Path

import pytest

from dittobench.service.auth import AuthError, Principal, TokenTable, required_tokens, unclassified

ADMIN = "adm1n-T0ken-0123456789abcdef"
ALICE = "al1ce-T0ken-0123456789abcdef"


def test_token_file_lines_and_the_environment_token(tmp_path: Path) -> None:
    file = tmp_path / "tokens"
    file.write_text(f"# comment\n\n{ADMIN}\n{ALICE} submitter alice\n", encoding="utf-8")
    table = TokenTable.load(file, "env-T0ken-0123456789abcdef")
    assert len(table) == 3
    assert table.match(ALICE) == Principal("alice", "submitter")
    assert table.match(ADMIN) == Principal("admin-3", "admin")
    assert table.match("env-T0ken-0123456789abcdef") == Principal("operator", "admin")
    assert table.match(ALICE + "x") is None and table.match("") is None


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("short submitter bob\n", "at least 16"),
        ("aaaaaaaaaaaaaaaaaaaa\n", "at least 16"),
        (f"{ALICE} root bob\n", "expected"),
        (f"{ALICE} submitter\n", "expected"),
        (f"{ALICE}\n{ALICE}\n", "twice"),
        (f"{ALICE} submitter bob\n{ADMIN} admin bob\n", "twice"),
    ],
)
def test_bad_token_files_are_refused_by_line(tmp_path: Path, text: str, said: str) -> None:
    file = tmp_path / "tokens"
    file.write_text(text, encoding="utf-8")
    with pytest.raises(AuthError, match=said):
        TokenTable.load(file, None)


def test_enforce_refuses_to_start_without_a_token() -> None:
    with pytest.raises(AuthError, match="needs a token"):
        required_tokens(TokenTable.load(None, None), "enforce")
    required_tokens(TokenTable.load(None, None), "shadow")


def test_every_known_token_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real = hmac.compare_digest

    def counting(a: bytes, b: bytes) -> bool:
        calls.append(1)
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", counting)
    table = TokenTable([(ADMIN, Principal("a", "admin")), (ALICE, Principal("b", "submitter"))])
    assert table.match(ADMIN) is not None
    assert len(calls) == 2  # no early exit on the first match


def test_an_unclassified_route_is_caught(tmp_path: Path) -> None:
    from dittobench.service.app import create_app, route_keys
    from dittobench.service.settings import load_settings

    settings = load_settings(db=str(tmp_path / "runs.db"), control_token=ADMIN, data_dir=tmp_path)
    app = create_app(settings)
    assert unclassified(route_keys(app)) == []  # every route of the service is classified

    @app.get("/v1/new-thing")
    def new_thing() -> dict[str, str]:
        return {}

    assert unclassified(route_keys(app)) == ["GET /v1/new-thing"]
    app.state.service.store.close()
