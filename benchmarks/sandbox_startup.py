"""Print what the bubblewrap sandbox costs a run: the time from a checked archive to a harness
answering ``/health`` inside its sandbox (unpack, venv, start, bridges), the time to take it
down (whole process tree and work folder), and the time of one ``GET /health`` through the
bridge against the same harness on the host.

The harness is ``tests/helpers/harness_server.py`` (stdlib only, no requirements). Figures only,
never assertions. Run from the repository root:
    python benchmarks/sandbox_startup.py [--rounds N]
"""

from __future__ import annotations

import argparse
import io
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import httpx

from dittobench.sandbox.archive import read_archive
from dittobench.sandbox.bubblewrap import usable
from dittobench.sandbox.harness import SandboxConfig, sandboxed_harness

SERVER = Path(__file__).resolve().parent.parent / "tests" / "helpers" / "harness_server.py"
COMMAND = '["python", "harness_server.py", "--mode", "nothing", "--port", "{port}"]'
MANIFEST = f"[harness]\ncommand = {COMMAND}\n".encode()


def archive_bytes() -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for name, data in (
            ("dittobench-harness.toml", MANIFEST),
            ("harness_server.py", SERVER.read_bytes()),
        ):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def health_ms(client: httpx.Client, url: str, n: int = 200) -> float:
    client.get(url)
    started = time.perf_counter()
    for _ in range(n):
        client.get(url)
    return (time.perf_counter() - started) / n * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    rounds = parser.parse_args().rounds
    problem = usable()
    if problem:
        print(f"no usable bubblewrap: {problem}")
        return
    archive = read_archive(archive_bytes())
    up, down, through = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(rounds):
            started = time.perf_counter()
            with sandboxed_harness(archive, SandboxConfig(), Path(tmp) / str(i)) as box:
                up.append(time.perf_counter() - started)
                with httpx.Client(transport=httpx.HTTPTransport(uds=str(box.socket_path))) as c:
                    through.append(health_ms(c, f"{box.url}/health"))
                stopping = time.perf_counter()
            down.append(time.perf_counter() - stopping)
    host = subprocess.Popen(
        [sys.executable, str(SERVER), "--mode", "nothing", "--port", "0"],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert host.stdout is not None
        port = host.stdout.readline().split()[1]
        with httpx.Client() as c:
            direct = health_ms(c, f"http://127.0.0.1:{port}/health")
    finally:
        host.kill()
        host.communicate()
    rows = [
        ("rounds", f"{rounds}"),
        ("archive to /health answered in the sandbox", f"{statistics.median(up) * 1000:.0f} ms"),
        ("taken down (tree killed, folder removed)", f"{statistics.median(down) * 1000:.0f} ms"),
        ("GET /health through the bridge", f"{statistics.median(through):.2f} ms"),
        ("GET /health of the same harness on the host", f"{direct:.2f} ms"),
    ]
    for label, value in rows:
        print(f"{label:<46} {value}")


if __name__ == "__main__":
    main()
