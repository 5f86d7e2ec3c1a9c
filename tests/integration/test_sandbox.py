"""The bubblewrap sandbox, for real: a hostile harness submitted as an archive tries to escape
and every attempt fails, provably from outside; an honest archived harness scores what the same
harness scores at a URL. Skipped, saying why, where bubblewrap cannot make a sandbox."""

from __future__ import annotations

import base64
import io
import json
import os
import socket
import tarfile
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from dittobench.core.canonical import canonical_bytes
from dittobench.drive.clock import new_run_id, now
from dittobench.generate.assemble import build_dataset
from dittobench.sandbox import SandboxError
from dittobench.sandbox.archive import read_archive
from dittobench.sandbox.bubblewrap import Limits, in_namespace, usable
from dittobench.sandbox.fingerprint import fingerprint
from dittobench.sandbox.harness import SandboxConfig, sandboxed_harness
from dittobench.sandbox.users import FIRST_UID
from dittobench.service.app import create_app
from dittobench.service.settings import load_settings
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.store.jobs import JobRow, ServiceStore
from dittobench.store.submissions import SubmissionRow
from dittobench.workers.broker import Broker
from tests.helpers import redis_service
from tests.helpers.cli import dittobench
from tests.helpers.harness_process import harness
from tests.helpers.worker_process import start_worker

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = [
    pytest.mark.skipif(bool(usable()), reason=f"no usable bubblewrap: {usable()}"),
    pytest.mark.filterwarnings("ignore::DeprecationWarning"),
]

HELPERS = Path(__file__).resolve().parents[1] / "helpers"
ADMIN = "adm1n-T0ken-0123456789abcdef"
ALICE = "al1ce-T0ken-0123456789abcdef"
AS_ADMIN = {"Authorization": f"Bearer {ADMIN}"}
AS_ALICE = {"Authorization": f"Bearer {ALICE}"}


def archive_of(files: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(f"harness/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def manifest(*command: str) -> bytes:
    return ("[harness]\ncommand = " + json.dumps(list(command)) + "\n").encode()


def processes_with(marker: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if marker.encode() in Path(f"/proc/{entry}/cmdline").read_bytes():
                    found.append(int(entry))
            except OSError:
                continue
    return found


def host_addresses() -> list[str]:
    """This machine's non-loopback IPv4 addresses (where its services may also listen)."""
    found = set()
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            found.add(probe.getsockname()[0])
        except OSError:
            pass
    return sorted(a for a in found if not a.startswith("127."))


@pytest.fixture
def listeners(tmp_path: Path) -> Iterator[dict[str, Any]]:
    """A TCP listener on every address, an abstract and a path Unix listener, all non-blocking:
    a pending connection on any of them is an escape."""
    tcp = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    tcp.bind(("0.0.0.0", 0))
    abstract_name = f"dittobench-escape-{os.urandom(6).hex()}"
    abstract = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    abstract.bind("\0" + abstract_name)
    path = tmp_path / "host.sock"
    on_path = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    on_path.bind(str(path))
    for s in (tcp, abstract, on_path):
        s.listen(8)
        s.setblocking(False)
    yield {
        "port": tcp.getsockname()[1],
        "abstract": abstract_name,
        "path": str(path),
        "sockets": (tcp, abstract, on_path),
    }
    for s in (tcp, abstract, on_path):
        s.close()


def nothing_connected(sockets: tuple[socket.socket, ...]) -> bool:
    for s in sockets:
        try:
            s.accept()[0].close()
        except BlockingIOError:
            continue
        return False
    return True


def test_a_hostile_harness_escapes_nothing(
    tmp_path: Path, listeners: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = f"secret-{os.urandom(8).hex()}"
    env_secret = f"env-secret-{os.urandom(8).hex()}"
    monkeypatch.setenv("DITTOBENCH_CONTROL_TOKEN", env_secret)  # the engine's environment
    (tmp_path / "secret.txt").write_text(secret)
    (tmp_path / "secret.txt").chmod(0o644)  # readable by anyone who can reach it
    marker = f"dittobench-daemon-{os.urandom(6).hex()}"
    host_tmp = f"/tmp/dittobench-escape-{os.urandom(6).hex()}"
    port = listeners["port"]
    attack = {
        "connect": [["127.0.0.1", port], ["127.0.0.1", 5432], ["127.0.0.1", 6379]]
        + [[a, port] for a in host_addresses()]
        + [["1.1.1.1", 53]],
        "abstract": listeners["abstract"],
        "unix": [listeners["path"], "/run/postgresql/.s.PGSQL.5432"],
        "read": [str(tmp_path / "secret.txt"), "/etc/shadow", "/root/.bashrc"],
        "write": [str(tmp_path / "pwned"), "/usr/pwned", "/etc/pwned", host_tmp],
        "marker": marker,
        "fork_max": 400,
    }
    archive = read_archive(
        archive_of(
            {
                "dittobench-harness.toml": manifest(
                    "python", "hostile_harness.py", "--port", "{port}"
                ),
                "hostile_harness.py": (HELPERS / "hostile_harness.py").read_bytes(),
                "attack.json": json.dumps(attack).encode(),
            }
        )
    )
    config = SandboxConfig(limits=Limits(processes=40, cpu_s=60))
    with sandboxed_harness(archive, config, tmp_path / "box") as box:
        namespace = box.sandbox.namespace()
        with httpx.Client(transport=httpx.HTTPTransport(uds=str(box.socket_path))) as client:
            got = client.get(f"{box.url}/attack", timeout=60).json()
        daemons_while_running = processes_with(marker)
        assert namespace and len(in_namespace(namespace)) > 10  # the fork bomb's children
    for target, result in got["connect"].items():
        assert not result.startswith("ok"), (target, result)
    assert nothing_connected(listeners["sockets"])
    assert not got["abstract"].startswith("ok") and got["abstract"].startswith(
        "ConnectionRefusedError"
    )
    assert all(r.startswith("FileNotFoundError") for r in got["unix"].values()), got["unix"]
    for path, result in got["read"].items():
        assert not result.startswith("ok") and secret not in result, (path, result)
    for path in got["write"]:
        assert not Path(path).exists(), path  # nothing written outside
    assert got["write"][str(tmp_path / "pwned")].startswith(("FileNotFoundError", "Permission"))
    assert got["write"]["/usr/pwned"].startswith(("OSError errno=30", "PermissionError"))
    assert got["fork"]["made"] < 40 and got["fork"]["error"].startswith("BlockingIOError")
    assert env_secret not in got["environ"] and "DITTOBENCH_CONTROL_TOKEN" not in got["environ"]
    assert "PORT" in got["environ"]  # it did read its own environment
    assert got["uid"] != 0 and (os.geteuid() != 0 or got["uid"] >= FIRST_UID)  # its own user
    assert got["daemon"] == "started" and daemons_while_running  # it did detach and run
    assert processes_with(marker) == []  # and it is gone with the sandbox
    assert in_namespace(namespace) == []
    assert secret not in (tmp_path / "box" / "harness.log").read_text(errors="replace")
    assert not (tmp_path / "box" / "work").exists()


def test_the_wall_clock_limit_kills_the_harness(tmp_path: Path) -> None:
    marker = f"dittobench-wall-{os.urandom(6).hex()}"
    archive = read_archive(
        archive_of(
            {
                "dittobench-harness.toml": manifest(
                    "python",
                    "harness_server.py",
                    "--mode",
                    "nothing",
                    "--port",
                    "{port}",
                    "--record",
                    f"/tmp/{marker}",
                ),
                "harness_server.py": (HELPERS / "harness_server.py").read_bytes(),
            }
        )
    )
    with sandboxed_harness(archive, SandboxConfig(run_s=1.0), tmp_path / "box") as box:
        assert processes_with(marker)
        time.sleep(2.0)
        assert box.sandbox.process.poll() is not None
        assert processes_with(marker) == []


def test_a_harness_that_never_serves_fails_with_its_last_words(tmp_path: Path) -> None:
    archive = read_archive(
        archive_of(
            {
                "dittobench-harness.toml": manifest("python", "-c", "import sys; sys.exit('no')"),
            }
        )
    )
    with (
        pytest.raises(SandboxError, match=r"exited \(status 1\) before answering /health: no"),
        sandboxed_harness(archive, SandboxConfig(), tmp_path / "box"),
    ):
        pass


ORACLE: tuple[str, ...] = (
    "python",
    "harness_server.py",
    "--mode",
    "oracle",
    "--answers",
    "answers.json",
)
ORACLE += ("--port", "{port}")


def scores(report: dict[str, Any]) -> dict[str, float]:
    return {c["case_id"]: c["score"] for c in report["per_case"]}


def wait_done(client: TestClient, run_id: str) -> dict[str, Any]:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        job: dict[str, Any] = client.get(f"/v1/runs/{run_id}", headers=AS_ADMIN).json()
        if job["status"] in ("done", "failed", "cancelled"):
            return job
        time.sleep(0.2)
    raise AssertionError(f"run {run_id} did not finish: {job}")


def test_an_archived_harness_scores_what_it_scores_at_a_url(tmp_path: Path) -> None:
    seed = 23
    dataset = build_dataset(seed, CURRENT_VERSION, "small")
    answers = canonical_bytes(dataset.to_json())
    (tmp_path / "answers.json").write_bytes(answers)
    data = archive_of(
        {
            "dittobench-harness.toml": manifest(*ORACLE),
            "harness_server.py": (HELPERS / "harness_server.py").read_bytes(),
            "answers.json": answers,
        }
    )
    tokens = tmp_path / "tokens"
    tokens.write_text(f"{ADMIN}\n{ALICE} submitter alice\n", "utf-8")
    settings = load_settings(
        db=str(tmp_path / "runs.db"),
        token_file=tokens,
        data_dir=tmp_path,
        allow_private_harness=True,
        run_concurrency=2,
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        body = {"archive_base64": base64.b64encode(data).decode(), "seed": seed}
        accepted = client.post("/v1/submit", headers=AS_ALICE, json=body)
        assert accepted.status_code == 202, accepted.text
        archived = wait_done(client, accepted.json()["run_id"])
        with harness("oracle", "--answers", str(tmp_path / "answers.json")) as url:
            direct = client.post(
                "/v1/submit", headers=AS_ALICE, json={"harness_url": url, "seed": seed}
            )
            assert direct.status_code == 202, direct.text
            at_url = wait_done(client, direct.json()["run_id"])
        assert archived["status"] == "done", archived
        assert archived["mode"] == "archive"
        assert archived["harness_url"].startswith("archive:sha256:")
        assert at_url["status"] == "done", at_url
        assert scores(archived["report"]) == scores(at_url["report"])
        tool_scores = [c["score"] for c in archived["report"]["per_case"] if c["kind"] == "tool"]
        assert min(tool_scores) == 1.0  # its tool calls reached the endpoint through the bridge
        # The same archive again: the earlier one is listed as identical (advisory only).
        again = client.post("/v1/submit", headers=AS_ALICE, json=body).json()["run_id"]
        assert client.delete(f"/v1/runs/{again}", headers=AS_ALICE).status_code in (200, 202)
        similar = client.get(f"/v1/runs/{again}/similar?threshold=0.9", headers=AS_ADMIN).json()
        assert [s["run_id"] for s in similar["similar"]] == [archived["run_id"]]
        assert similar["similar"][0]["similarity"] == 1.0
        assert client.get(f"/v1/runs/{again}/similar", headers=AS_ALICE).status_code == 403
        url_run = client.get(f"/v1/runs/{at_url['run_id']}/similar", headers=AS_ADMIN)
        assert url_run.status_code == 404


def test_submitted_archives_are_checked_before_anything_runs(tmp_path: Path) -> None:
    tokens = tmp_path / "tokens"
    tokens.write_text(f"{ADMIN}\n", "utf-8")
    settings = load_settings(
        db=str(tmp_path / "runs.db"), token_file=tokens, data_dir=tmp_path, max_archive_bytes=2048
    )
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:

        def submit(data: bytes, **extra: Any) -> Any:  # the test client's own response type
            body = {"archive_base64": base64.b64encode(data).decode(), **extra}
            return client.post("/v1/submit", headers=AS_ADMIN, json=body)

        big = submit(os.urandom(4096))
        assert big.status_code == 413 and "2048" in big.json()["error"]
        evil = submit(archive_of({"../../escape.py": b"pass\n"}))
        assert evil.status_code == 400 and "'..'" in evil.json()["error"], evil.text
        no_manifest = submit(archive_of({"server.py": b"pass\n"}))
        assert no_manifest.status_code == 400 and "dittobench-harness.toml" in no_manifest.text
        good = archive_of({"dittobench-harness.toml": manifest("python", "x.py")})
        wrong_sha = submit(good, archive_sha256="0" * 64)
        assert wrong_sha.status_code == 400 and "SHA-256" in wrong_sha.json()["error"]
        both = submit(good, harness_url="http://example.org")
        assert both.status_code == 400 and "exactly one source" in both.json()["error"]
        huge = client.post(
            "/v1/submit",
            headers={**AS_ADMIN, "content-type": "application/json"},
            content=b'{"archive_base64": "' + b"A" * 200_000 + b'"}',
        )
        assert huge.status_code == 413  # the body cap follows max_archive_bytes
        dies = archive_of({"dittobench-harness.toml": manifest("python", "-c", "print('bye')")})
        accepted = submit(dies)
        assert accepted.status_code == 202, accepted.text
        job = wait_done(client, accepted.json()["run_id"])
        assert job["status"] == "failed" and job["failure"]["kind"] == "sandbox", job
        assert "before answering /health: bye" in job["failure"]["message"]


def pypi_reachable() -> bool:
    try:
        socket.create_connection(("pypi.org", 443), timeout=3).close()
    except OSError:
        return False
    return True


SIX_SERVER = b"""
import json, os, socket, six
from http.server import BaseHTTPRequestHandler, HTTPServer

def reach():
    try:
        socket.create_connection(("pypi.org", 443), timeout=2).close()
        return "ok"
    except OSError as exc:
        return type(exc).__name__

class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"six": six.__version__, "pypi": reach()}).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

HTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()
"""


@pytest.mark.skipif(not pypi_reachable(), reason="PyPI (pypi.org:443) is not reachable")
def test_requirements_are_installed_at_build_and_the_network_is_gone_at_run(
    tmp_path: Path,
) -> None:
    archive = read_archive(
        archive_of(
            {
                "dittobench-harness.toml": manifest("python", "server.py"),
                "server.py": SIX_SERVER,
                "requirements.txt": b"six==1.16.0\n",
            }
        )
    )
    with (
        sandboxed_harness(archive, SandboxConfig(), tmp_path / "box") as box,
        httpx.Client(transport=httpx.HTTPTransport(uds=str(box.socket_path))) as client,
    ):
        answer = client.get(f"{box.url}/health", timeout=10).json()
    assert answer["six"] == "1.16.0"  # installed by the build, from the index
    assert answer["pypi"] != "ok"  # the harness itself reaches nothing
    assert "Successfully installed six-1.16.0" in (tmp_path / "box" / "build.log").read_text()


def test_dittobench_run_drives_an_archive_in_the_sandbox(tmp_path: Path) -> None:
    seed = 29
    answers = canonical_bytes(build_dataset(seed, CURRENT_VERSION, "small").to_json())
    files = {
        "dittobench-harness.toml": manifest(*ORACLE),
        "harness_server.py": (HELPERS / "harness_server.py").read_bytes(),
        "answers.json": answers,
    }
    (tmp_path / "h.tar.gz").write_bytes(archive_of(files))
    out = tmp_path / "report.json"
    done = dittobench(
        "run", "--harness-archive", str(tmp_path / "h.tar.gz"), "--seed", str(seed),
        "--db", str(tmp_path / "runs.db"), "--out-dir", str(tmp_path / "runs"),
        "--json", str(out), cwd=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    report = json.loads(out.read_text())
    tools = [c["score"] for c in report["per_case"] if c["kind"] == "tool"]
    assert tools and min(tools) == 1.0  # its tool calls were observed through the bridge
    refused = dittobench(
        "run", "--harness-archive", str(tmp_path / "h.tar.gz"), "--harness", "builtin",
        cwd=tmp_path,
    )  # fmt: skip
    assert refused.returncode == 2 and "drop --harness" in refused.stderr
    (tmp_path / "bad.zip").write_bytes(b"PK\x03\x04 not really")
    bad = dittobench("run", "--harness-archive", str(tmp_path / "bad.zip"), cwd=tmp_path)
    assert bad.returncode == 2 and "bad.zip" in bad.stderr and "zip" in bad.stderr


LIMITS_SERVER = b"""
import json, os
from http.server import BaseHTTPRequestHandler, HTTPServer

def attempt(action):
    try:
        action()
        return "ok"
    except (MemoryError, OSError) as exc:
        return f"{type(exc).__name__} errno={getattr(exc, 'errno', None)}"

def big_file():
    with open("big.bin", "wb") as out:
        out.write(b"x" * (4 * 1024 * 1024))

class Handler(BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path == "/spin":
            while True:
                pass
        found = {
            "memory": attempt(lambda: bytearray(1024 * 1024 * 1024)),
            "file": attempt(big_file),
        }
        body = json.dumps(found).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

HTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()
"""


def test_memory_file_size_and_cpu_limits_hold(tmp_path: Path) -> None:
    archive = read_archive(
        archive_of(
            {
                "dittobench-harness.toml": manifest("python", "server.py"),
                "server.py": LIMITS_SERVER,
            }
        )
    )
    limits = Limits(cpu_s=1, memory_bytes=512 * 1024**2, file_bytes=1024**2)
    with (
        sandboxed_harness(archive, SandboxConfig(limits=limits), tmp_path / "box") as box,
        httpx.Client(transport=httpx.HTTPTransport(uds=str(box.socket_path))) as client,
    ):
        found = client.get(f"{box.url}/limits", timeout=10).json()
        assert found == {"memory": "MemoryError errno=None", "file": "OSError errno=27"}
        started = time.monotonic()
        with pytest.raises(httpx.HTTPError):
            client.get(f"{box.url}/spin", timeout=30)  # killed by SIGXCPU/SIGKILL
        assert time.monotonic() - started < 10
        box.sandbox.process.wait(5)  # the harness gone, its sandbox ends with it


def test_a_celery_worker_builds_and_drives_an_archive_job(tmp_path: Path) -> None:
    reason = redis_service.why_no_redis()
    if reason is not None:
        pytest.skip(reason)
    db_index = redis_service.database_index()
    redis_service.flush(db_index)
    broker_url = redis_service.broker_url(db_index)
    made = dittobench("keys", "generate", "--out", str(tmp_path / "keys"))
    assert made.returncode == 0, made.stderr
    seed = 31
    answers = canonical_bytes(build_dataset(seed, CURRENT_VERSION, "small").to_json())
    data = archive_of(
        {
            "dittobench-harness.toml": manifest(*ORACLE),
            "harness_server.py": (HELPERS / "harness_server.py").read_bytes(),
            "answers.json": answers,
        }
    )
    archive = read_archive(data)
    db = str(tmp_path / "runs.db")
    store = ServiceStore(ServiceStore.sqlite_url(Path(db)))
    run_id, stamp = new_run_id(), now()
    sketch = json.dumps(fingerprint(archive.files.items()).to_json())
    store.create_submission(
        SubmissionRow(run_id, "test", archive.sha256, archive.size, data, sketch, stamp)
    )
    store.create_job(
        JobRow(run_id, 0, "test", "archive", f"archive:sha256:{archive.sha256}", seed, "small",
               CURRENT_VERSION, "", "queued", "", False, "", "", stamp, stamp, "")
    )  # fmt: skip
    key = tmp_path / "keys" / "dittobench-ed25519.pem"
    worker = start_worker(tmp_path / "worker", broker_url, db, key, "w-archive")
    broker = Broker(broker_url)
    try:
        broker.send(run_id)
        deadline = time.monotonic() + 60
        job = store.get_job(run_id)
        while (
            job is not None
            and job.status not in ("done", "failed")
            and (time.monotonic() < deadline)
        ):
            time.sleep(0.2)
            job = store.get_job(run_id)
        assert job is not None and job.status == "done", job
        assert job.worker, job  # driven by the worker, not in this process
        report = store.report(run_id)
        assert report is not None
        tools = [c["score"] for c in report["per_case"] if c["kind"] == "tool"]
        assert tools and min(tools) == 1.0  # the worker's sandbox bridged the tool calls
        assert (tmp_path / "worker" / "service-runs" / run_id / "sandbox" / "harness.log").exists()
    finally:
        broker.close()
        worker.stop()
        store.close()
        redis_service.flush(db_index)
