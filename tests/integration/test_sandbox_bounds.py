"""The sandbox's bounds over a whole tree, for real (bubblewrap; skipped, saying why, where it
cannot make a sandbox): a harness that tries to make namespaces, trace or mount is refused by
the seccomp filter; one that writes past its disk quota gets ENOSPC and its run ends saying
so; three processes whose memory sums past the bound are killed and the reason recorded."""

from __future__ import annotations

import base64
import json
import platform
import time
import warnings
from pathlib import Path
from typing import Any

import httpx
import pytest

from dittobench.sandbox import SandboxError, bubblewrap
from dittobench.sandbox.archive import Archive, read_archive
from dittobench.sandbox.bounds import WATCH_S
from dittobench.sandbox.bubblewrap import Limits, in_namespace, usable
from dittobench.sandbox.harness import SandboxConfig, SandboxedHarness, sandboxed_harness
from dittobench.sandbox.seccomp import AARCH64, X86_64
from dittobench.service.app import create_app
from dittobench.service.settings import load_settings
from tests.integration.test_sandbox import archive_of

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.skipif(bool(usable()), reason=f"no usable bubblewrap: {usable()}")

HELPERS = Path(__file__).resolve().parents[1] / "helpers"
MIB = 1024 * 1024
ARCH = {"x86_64": X86_64, "aarch64": AARCH64}.get(platform.machine())


def bounds_archive() -> Archive:
    calls = (ARCH or X86_64).numbers
    files = {
        "dittobench-harness.toml": b'[harness]\ncommand = ["python", "bounds_harness.py"]\n',
        "bounds_harness.py": (HELPERS / "bounds_harness.py").read_bytes(),
        "calls.json": json.dumps(calls).encode(),
    }
    return read_archive(archive_of(files))


def get(box: SandboxedHarness, path: str) -> dict[str, Any] | None:
    """The harness's answer, or None when the sandbox was ended before it came."""
    with httpx.Client(transport=httpx.HTTPTransport(uds=str(box.socket_path))) as client:
        try:
            found: dict[str, Any] = client.get(f"{box.url}{path}", timeout=30).json()
        except httpx.HTTPError:
            return None
    return found


def ended_within(box: SandboxedHarness, seconds: float) -> str:
    deadline = time.monotonic() + seconds
    while not box.sandbox.ended and time.monotonic() < deadline:
        time.sleep(0.05)
    return box.sandbox.ended


@pytest.mark.skipif(ARCH is None, reason=f"no seccomp call table for {platform.machine()}")
def test_namespaces_tracing_and_mounting_are_refused(tmp_path: Path) -> None:
    with sandboxed_harness(bounds_archive(), SandboxConfig(), tmp_path / "box") as box:
        got = get(box, "/escape")
    assert got is not None
    for probe in ("unshare_user", "unshare_net", "unshare_mount", "clone_user", "setns"):
        assert got[probe] == "EPERM", (probe, got[probe])
    for probe in ("ptrace_traceme", "mount", "keyctl", "bpf", "userfaultfd", "perf_event_open"):
        assert got[probe] == "EPERM", (probe, got[probe])
    assert got["clone3"] == "ENOSYS"  # so the C library falls back to clone, which is checked
    assert got["unshare_command"].startswith("exit 1") and "not permitted" in got["unshare_command"]
    mounted = got["mount_in_own_namespaces"]
    assert mounted.startswith("exit 1") and "not permitted" in mounted, mounted
    assert got["still_works"] == {
        "thread": "thread ran",
        "subprocess": "exit 0: child ran",
        "fork": "child exit 7",
    }


def test_writing_past_the_disk_quota_gets_enospc_and_ends_the_run(tmp_path: Path) -> None:
    config = SandboxConfig(limits=Limits(disk_bytes=24 * MIB))
    with (
        pytest.raises(SandboxError, match=r"filled its work folder /work .*24 MiB.*ENOSPC"),
        sandboxed_harness(bounds_archive(), config, tmp_path / "box") as box,
    ):
        host_src = box.socket_path.parent.parent / "work" / "src"
        got = get(box, "/fill")
        assert not (host_src / "fill.bin").exists()  # it wrote into its tmpfs, not the host
        assert ended_within(box, 5 * WATCH_S + 5)
        box.sandbox.process.wait(5)
    said = (tmp_path / "box" / "harness.log").read_text()
    assert '"error": "OSError errno=28"' in said  # ENOSPC, before the quota's 24 MiB
    assert got is None or got["error"] == "OSError errno=28"
    written = json.loads(said.split("/fill ", 1)[1].splitlines()[0])["mib"]
    assert 10 <= written <= 24, written  # blocks asked (the last one written in part)


def test_three_processes_over_the_memory_bound_are_killed(tmp_path: Path) -> None:
    config = SandboxConfig(limits=Limits(total_memory_bytes=64 * MIB))
    with (
        pytest.raises(SandboxError, match=r"held \d+ MiB of memory together.*bound of 64 MiB"),
        sandboxed_harness(bounds_archive(), config, tmp_path / "box") as box,
    ):
        namespace = box.sandbox.namespace()
        got = get(box, "/hog?mib=40")  # each of the three is under the bound, together far over
        assert got is not None and len(got["started"]) == 3
        reason = ended_within(box, 10 * WATCH_S + 5)
        assert "processes held" in reason and "64 MiB" in reason, reason
        assert in_namespace(namespace) == []  # every one of them killed
    assert box.sandbox.process.poll() is not None


def test_with_a_cgroup_the_tree_joins_it_first_and_an_oom_kill_ends_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cgroup path, on a made-up cgroup folder (this machine may have no cgroup v2 memory
    controller): the tree's first process is placed before it starts anything, and an OOM
    kill the cgroup reports ends the sandbox with the reason."""
    parent = tmp_path / "cgroup"
    parent.mkdir()
    monkeypatch.setattr(bubblewrap, "host_memory_parent", lambda: (parent, ""))
    config = SandboxConfig(limits=Limits(total_memory_bytes=64 * MIB))
    with (
        pytest.raises(SandboxError, match=r"bound of 64 MiB together; the kernel killed them"),
        sandboxed_harness(bounds_archive(), config, tmp_path / "box") as box,
    ):
        group = box.sandbox.cgroup
        assert group is not None and group.path.parent == parent
        assert (group.path / "memory.max").read_text() == str(64 * MIB)
        assert (group.path / "memory.oom.group").read_text() == "1"
        assert (group.path / "cgroup.procs").read_text() == str(box.sandbox.process.pid)
        assert get(box, "/health") == {"status": "ok"}  # started after joining
        (group.path / "memory.events").write_text("oom 1\noom_kill 1\n")  # as the kernel says
        assert "(cgroup)" in ended_within(box, 5 * WATCH_S + 5)
    assert len(list(parent.iterdir())) == 2  # one for the build (a venv: one step), one for the run


HOG = "import time; held = bytes([1]) * (40 << 20); time.sleep(120)"


def test_a_run_whose_harness_outgrows_the_memory_bound_fails_saying_so(tmp_path: Path) -> None:
    """Through the service: a protocol harness whose three helpers (started 2 s in, while its
    cases take 3 s each) hold 40 MiB each under a 64 MiB bound. The tree is killed and the run
    stops at its next report: the job fails with kind ``sandbox`` and the reason."""
    hogs = " & ".join([f'(sleep 2; python -c \\"{HOG}\\")'] * 3)
    serve = "exec python harness_server.py --mode slow --delay-ms 3000 --port {port}"
    manifest = f'[harness]\ncommand = ["sh", "-c", "{hogs} & {serve}"]\n'
    data = archive_of(
        {
            "dittobench-harness.toml": manifest.encode(),
            "harness_server.py": (HELPERS / "harness_server.py").read_bytes(),
        }
    )
    admin = "adm1n-T0ken-0123456789abcdef"
    (tmp_path / "tokens").write_text(f"{admin}\n", "utf-8")
    settings = load_settings(
        db=str(tmp_path / "runs.db"),
        token_file=tmp_path / "tokens",
        data_dir=tmp_path,
        sandbox_total_memory_mb=64,
    )
    headers = {"Authorization": f"Bearer {admin}"}
    with TestClient(create_app(settings), raise_server_exceptions=False) as client:
        body = {"archive_base64": base64.b64encode(data).decode(), "seed": 5}
        accepted = client.post("/v1/submit", headers=headers, json=body)
        assert accepted.status_code == 202, accepted.text
        run_id = accepted.json()["run_id"]
        deadline = time.monotonic() + 60
        job: dict[str, Any] = {}
        while time.monotonic() < deadline:
            job = client.get(f"/v1/runs/{run_id}", headers=headers).json()
            if job["status"] in ("done", "failed", "cancelled"):
                break
            time.sleep(0.2)
    assert job["status"] == "failed", job
    assert job["failure"]["kind"] == "sandbox", job["failure"]
    message = job["failure"]["message"]
    assert "the sandbox was ended: its " in message and "bound of 64 MiB" in message, message
    assert job["progress"]["done"] < job["progress"]["total"]  # stopped, not asked to the end
