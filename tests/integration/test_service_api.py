"""The service's API in process (``create_app``): every error is ``{"error": ...}`` and never a
traceback, the auth responses, 413 / 400 from the body guard, 429 with Retry-After, dataset and
catalog shapes (no answer key), and schemathesis over the app's own OpenAPI document."""

from __future__ import annotations

import json
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi import FastAPI
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error, positive_data_acceptance
from schemathesis.core.result import Ok
from starlette.exceptions import StarletteDeprecationWarning

from dittobench.sandbox.bubblewrap import usable
from dittobench.service.app import create_app
from dittobench.service.settings import load_settings
from dittobench.service.ssrf import UnsafeURLError
from dittobench.spec.versions import CURRENT_VERSION

with warnings.catch_warnings():  # starlette asks for httpx2; its test client still works on httpx
    warnings.simplefilter("ignore", StarletteDeprecationWarning)
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::starlette.exceptions.StarletteDeprecationWarning")

ADMIN = "adm1n-T0ken-0123456789abcdef"
ALICE = "al1ce-T0ken-0123456789abcdef"
BOB = "b0b-T0ken-0123456789abcdefgh"
AS_ADMIN = {"Authorization": f"Bearer {ADMIN}"}
AS_ALICE = {"Authorization": f"Bearer {ALICE}"}


def refuse_all(host: str, port: int) -> list[str]:
    raise UnsafeURLError(f"host {host!r} does not resolve (test resolver)")


def make_app(tmp: Path, **given: Any) -> FastAPI:
    tokens = tmp / "tokens"
    tokens.write_text(f"{ADMIN}\n{ALICE} submitter alice\n{BOB} submitter bob\n", "utf-8")
    chosen: dict[str, Any] = {"db": str(tmp / "runs.db"), "token_file": tokens, "data_dir": tmp}
    chosen |= given
    return create_app(load_settings(**chosen), resolver=refuse_all)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(make_app(tmp_path), raise_server_exceptions=False) as opened:
        yield opened


def test_public_routes_need_no_token(client: TestClient) -> None:
    assert client.get("/health").json() == {"status": "ok"}
    caps = client.get("/v1/capabilities").json()
    assert caps["supported_bench_versions"] == [
        "1.0.0",
        "1.1.0",
        "2.0.0",
        "3.0.0",
        "4.0.0",
        "5.0.0",
        "6.0.0",
        "6.1.0",
        "7.0.0",
        "7.1.0",
        "8.0.0",
        "8.1.0",
        "9.0.0",
    ]
    assert {"version": "9.0.0", "released": True, "current": True, "pack_id": "public-8.0"} in (
        caps["bench_versions"]
    )
    assert {"version": "8.1.0", "released": True, "current": False, "pack_id": "public-8.0"} in (
        caps["bench_versions"]
    )
    assert {"version": "8.0.0", "released": True, "current": False, "pack_id": "public-8.0"} in (
        caps["bench_versions"]
    )
    assert {"version": "7.1.0", "released": True, "current": False, "pack_id": "public-7.1"} in (
        caps["bench_versions"]
    )
    assert {"version": "7.0.0", "released": True, "current": False, "pack_id": "public-6.1"} in (
        caps["bench_versions"]
    )
    assert {"version": "6.1.0", "released": True, "current": False, "pack_id": "public-6.1"} in (
        caps["bench_versions"]
    )
    assert {"version": "6.0.0", "released": True, "current": False, "pack_id": "public-3.0"} in (
        caps["bench_versions"]
    )
    assert {"version": "5.0.0", "released": True, "current": False, "pack_id": "public-3.0"} in (
        caps["bench_versions"]
    )
    assert {"version": "4.0.0", "released": True, "current": False, "pack_id": "public-3.0"} in (
        caps["bench_versions"]
    )
    assert {"version": "3.0.0", "released": True, "current": False, "pack_id": "public-3.0"} in (
        caps["bench_versions"]
    )
    assert all(len(p["sha256"]) == 64 for p in caps["packs"])
    assert client.get("/openapi.json").status_code == 200


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong-token-0123456789"}, {"Authorization": f"Basic {ADMIN}"}],
)
def test_protected_routes_answer_401_without_a_good_token(
    client: TestClient, headers: dict[str, str]
) -> None:
    for method, path in [("GET", "/v1/runs"), ("POST", "/v1/submit"), ("GET", "/nowhere")]:
        answer = client.request(method, path, headers=headers)
        assert answer.status_code == 401
        assert answer.headers["www-authenticate"] == "Bearer"
        assert set(answer.json()) == {"error"}


def test_shadow_mode_serves_and_logs_what_it_would_refuse(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = load_settings(db=str(tmp_path / "runs.db"), data_dir=tmp_path, auth_mode="shadow")
    app = create_app(settings, resolver=refuse_all)  # no token at all: allowed in shadow
    with TestClient(app) as client, caplog.at_level("WARNING"):
        assert client.get("/v1/runs").status_code == 200
    assert "shadow, would reject): GET /v1/runs" in caplog.text


def test_errors_are_one_line_json(client: TestClient) -> None:
    cases = [
        (client.get("/nowhere", headers=AS_ADMIN), 404),
        (client.put("/health", headers=AS_ADMIN), 405),
        (client.get("/v1/dataset?seed=-1", headers=AS_ADMIN), 400),
        (client.get("/v1/runs/r-20260101-000000-abcdef", headers=AS_ADMIN), 404),
        (client.get("/v1/runs/../../etc", headers=AS_ADMIN), 404),
        (client.post("/v1/submit", headers=AS_ADMIN, content=b"{not json"), 400),
        (client.post("/v1/submit", headers=AS_ADMIN, json={"harness_url": 5}), 400),
        (client.post("/v1/submit", headers=AS_ADMIN, json={}), 400),
        (client.post("/v1/submit", headers=AS_ADMIN, json={"archive_url": "https://x/a.tgz"}), 400),
        (client.post("/v1/submit", headers=AS_ADMIN, json={"harness_url": "http://10.0.0.1"}), 400),
        # A malformed archive is refused as such, on a server with a sandbox or without.
        (client.post("/v1/submit", headers=AS_ADMIN, json={"archive_base64": "ü"}), 400),
        (client.get("/v1/catalog?bench_version=9.9.9", headers=AS_ADMIN), 400),
    ]
    for answer, status in cases:
        assert answer.status_code == status, answer.text
        body = answer.json()
        assert set(body) == {"error"} and "\n" not in body["error"], body
        assert "Traceback" not in answer.text
    archive = client.post("/v1/submit", headers=AS_ADMIN, json={"archive_url": "https://x/a.tgz"})
    assert "archive_url" in archive.json()["error"]  # not a field: archives come as bytes


def test_a_crash_is_500_without_a_traceback(tmp_path: Path) -> None:
    app = make_app(tmp_path)

    @app.get("/v1/catalog-crash")
    def crash() -> None:
        raise RuntimeError("secret internals /etc/shadow")

    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/v1/catalog-crash", headers=AS_ADMIN)
    assert answer.status_code == 500
    assert answer.json() == {"error": "internal error; the operator's log has the details"}


def test_body_cap_and_json_depth(client: TestClient) -> None:
    big = client.post(  # /v1/submit has a cap of its own, for archives (test_sandbox_api)
        "/v2/score",
        headers={**AS_ADMIN, "content-type": "application/json"},
        content=b'{"harness_url": "' + b"a" * 70_000 + b'"}',
    )
    assert big.status_code == 413 and "over" in big.json()["error"]

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(80):
            yield b" " * 1024

    streamed = client.post("/v2/score", headers=AS_ADMIN, content=chunks())
    assert streamed.status_code == 413
    deep = client.post(
        "/v1/submit", headers=AS_ADMIN, content=b'{"seed": ' + b"[" * 40 + b"]" * 40 + b"}"
    )
    assert deep.status_code == 400 and "nested" in deep.json()["error"]


def test_submissions_are_rate_limited_per_client(tmp_path: Path) -> None:
    app = make_app(tmp_path, submit_limit=2, submit_window_s=60)
    body = {"harness_url": "http://unresolvable.example"}
    with TestClient(app, raise_server_exceptions=False) as client:
        first = [client.post("/v1/submit", headers=AS_ALICE, json=body) for _ in range(2)]
        assert [a.status_code for a in first] == [400, 400]  # refused URL, but counted
        limited = client.post("/v1/submit", headers=AS_ALICE, json=body)
        assert limited.status_code == 429
        assert 1 <= int(limited.headers["retry-after"]) <= 60
        assert "too many" in limited.json()["error"]
        other = client.post("/v1/submit", headers=AS_ADMIN, json=body)
        assert other.status_code == 400  # another client has its own budget


def test_dataset_shows_what_a_harness_sees_and_no_answer_key(client: TestClient) -> None:
    view = client.get("/v1/dataset?seed=7&run_size=small", headers=AS_ADMIN).json()
    again = client.get("/v1/dataset?seed=7&run_size=small", headers=AS_ADMIN).json()
    assert view == again and view["seed"] == "7" and len(view["dataset_sha256"]) == 64
    # memory questions and the open ones, which are asked the same way (6 + 2 on a small run)
    assert len(view["tool_cases"]) == 6 and len(view["memory_cases"]) == 6 + 2
    assert set(view["tool_cases"][0]) == {"case_id", "user_input"}
    assert set(view["memory_cases"][0]) == {"case_id", "user_id", "user_input", "run_after_wave"}
    from dittobench.generate.assemble import build_dataset

    full = build_dataset(7, CURRENT_VERSION, "small")
    text = json.dumps(view, ensure_ascii=False)
    for case in full.memory_cases:
        assert case.question in text
        assert f'"{case.expected_answer}"' not in text  # never an answer as a value
    for open_case in full.open_cases:
        assert open_case.question in text
        assert '"must_state"' not in text and '"must_not"' not in text  # no rubric
    for key in ("expected_answer", "expected_tools", "needle", "distractors", "category"):
        assert f'"{key}"' not in text
    cut = client.get("/v1/dataset?seed=7&run_size=medium&n=3", headers=AS_ADMIN).json()
    assert len(cut["tool_cases"]) == 3 and cut["truncated"]


def test_catalog_names_its_version(client: TestClient) -> None:
    answer = client.get("/v1/catalog", headers=AS_ADMIN)
    assert answer.headers["x-bench-version"] == CURRENT_VERSION
    assert len(answer.json()["tools"]) == 34


def test_score_refuses_a_dataset_hash_that_does_not_match(client: TestClient) -> None:
    wrong = {
        "harness_url": "http://unresolvable.example",
        "bench_version": "2.0.0",
        "run_size": "small",
        "seed": 7,
        "dataset_sha256": "0" * 64,
    }
    answer = client.post("/v2/score", headers=AS_ADMIN, json=wrong)
    assert answer.status_code == 400
    assert "is not the dataset seed 7 makes" in answer.json()["error"]
    missing = client.post("/v2/score", headers=AS_ADMIN, json={**wrong, "dataset_sha256": None})
    assert missing.status_code == 400


def test_the_openapi_document_is_true(tmp_path: Path) -> None:
    """schemathesis over every operation of the app's own document: no 5xx, every response
    matches its documented status, headers and schema, and schema-invalid input is refused."""
    schema = schemathesis.openapi.from_asgi("/openapi.json", make_app(tmp_path))
    operations = []
    for result in schema.get_all_operations():
        assert isinstance(result, Ok), result
        operations.append(result.ok())
    # GET /v1/suites/{suite_id}, /v1/runs/{run_id}/similar too, the windows and log (10), and
    # the published keys at /v1/keys and /.well-known/dittobench-keys.json
    assert len(operations) == 26

    for operation in operations:
        # Every check but "schema-valid data is accepted": a well-formed harness_url the SSRF
        # guard refuses, or a dataset_sha256 of another dataset, is rightly a 400. Without
        # bubblewrap, a well-formed archive submission gets its documented 503.
        excluded = [positive_data_acceptance]
        if operation.path == "/v1/submit" and usable():
            excluded.append(not_a_server_error)
        check_operation(operation, excluded)


def check_operation(operation: Any, excluded: list[Any]) -> None:
    @given(case=operation.as_strategy())
    @settings(max_examples=8, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    def check(case: Any) -> None:
        case.call_and_validate(headers=AS_ADMIN, excluded_checks=excluded)

    check()


def test_head_is_get_without_a_body_and_a_public_path_refuses_other_methods(
    client: TestClient,
) -> None:
    head = client.head("/health")
    assert head.status_code == 200 and head.content == b""
    assert int(head.headers["content-length"]) == len(client.get("/health").content)
    assert client.head("/v1/runs").status_code == 401  # HEAD is checked as GET
    assert client.head("/v1/runs", headers={"Authorization": f"Bearer {ADMIN}"}).content == b""
    for method in ("OPTIONS", "PUT", "PATCH", "DELETE"):
        answer = client.request(method, "/health")
        assert answer.status_code == 405 and set(answer.json()) == {"error"}, method
    assert client.request("OPTIONS", "/v1/runs").status_code == 401  # protected stays so


def test_a_sign_in_form_with_too_many_fields_is_400_not_500(client: TestClient) -> None:
    body = "&".join(f"field{i}=x" for i in range(20))
    answer = client.post(
        "/sign-in", content=body, headers={"content-type": "application/x-www-form-urlencoded"}
    )
    assert answer.status_code == 400
