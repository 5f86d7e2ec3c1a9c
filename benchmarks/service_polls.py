"""Print what watching a run costs the scoring service (`dittobench serve`), each figure beside
its anchor measured in the same invocation:

- a run's wall (submit to done) with a back-to-back status poller (``GET /v1/runs/{id}``,
  provisional per-case scores included), against the same run with nobody looking; and the
  service's CPU in each;
- a run's wall with 100 listeners on its event stream (``GET /v1/runs/{id}/events``), against
  the same run with nobody looking;
- submit to the first case asked, against the engine alone (``drive_run`` in a warm process of
  its own, as the service calls it), and the same with the poller running.

A real service process on a loopback port drives a fresh built-in baseline harness per run (one
case in flight, so the run lasts while it is watched); the service and the engine's process
each drive one run unmeasured first, so neither pays its caches' first fill in the figures. A
loopback proxy in front of the harness notes when each case is asked. The clients are cheap
(``http.client`` on one kept-alive connection, raw asyncio streams for the listeners; bodies
read, never parsed) so the figures are the service's, not the client's. A run's end is seen on
the runs list, read every 50 ms in every condition once its first case was asked (the service
wall includes signing the receipt, which the engine alone does not do). Rounds take the
conditions (the engine alone among them) in turn, on one seed per round. Figures only, never
assertions. Run from the repository root:
    python benchmarks/service_polls.py [--rounds N] [--run-size full] [--listeners 100]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.client
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from tests.helpers.service_process import ADMIN, ServiceProcess, start_service

from dittobench.engine.launcher import builtin_harness

HEAD = {"Authorization": f"Bearer {ADMIN}", "Content-Type": "application/json"}
OVER = ("done", "failed", "cancelled")
CONDITIONS = ("alone", "poller", "listeners")
TURNS = ("engine", *CONDITIONS)
WARM_SEED = 100
ENGINE = """
import sys, time
from pathlib import Path
from dittobench.drive.clock import new_run_id
from dittobench.drive.runs import RunRequest, drive_run
from dittobench.store import RunStore
folder, size = Path(sys.argv[1]), sys.argv[2]
store = RunStore(RunStore.sqlite_url(folder / "runs.db"))
for line in sys.stdin:
    seed, url = line.split()
    print("start", repr(time.time()), flush=True)
    request = RunRequest(harness=url, seed=int(seed), run_size=size, out_dir=folder, concurrency=1)
    drive_run(store, new_run_id(), request)
    print("done", repr(time.time()), flush=True)
"""


class AskClock:
    """A loopback proxy in front of the harness: notes when each ``POST /run`` (a case) passes
    through, on this process's clock (``time.time``, shared with the engine's process)."""

    def __init__(self) -> None:
        self.upstream = ("127.0.0.1", 0)
        self.asks: list[float] = []
        self.url = ""
        self._loop = asyncio.new_event_loop()
        ready = threading.Event()
        threading.Thread(target=self._serve, args=(ready,), daemon=True).start()
        ready.wait()

    def _serve(self, ready: threading.Event) -> None:
        asyncio.set_event_loop(self._loop)
        server = self._loop.run_until_complete(asyncio.start_server(self._pass, "127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}"
        ready.set()
        self._loop.run_forever()

    async def _pass(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(*self.upstream)

        async def pump(src: asyncio.StreamReader, dst: asyncio.StreamWriter, note: bool) -> None:
            with contextlib.suppress(OSError):
                while data := await src.read(65536):
                    if note and data.startswith(b"POST /run "):
                        self.asks.append(time.time())
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pump(reader, up_writer, True), pump(up_reader, writer, False))

    def first_after(self, start: float, timeout: float = 120) -> float:
        give_up = time.monotonic() + timeout
        while time.monotonic() < give_up:
            later = [t for t in self.asks if t >= start]
            if later:
                return later[0]
            time.sleep(0.002)
        raise RuntimeError("no case was asked")


@contextlib.contextmanager
def harness(clock: AskClock, folder: Path, name: str) -> Iterator[str]:
    """A fresh built-in harness (its own memory) behind ``clock``; the URL to give a run."""
    with builtin_harness(folder / f"{name}.db") as url:
        host, port = url.removeprefix("http://").rstrip("/").split(":")
        clock.upstream = (host, int(port))
        yield clock.url


def service_cpu(service: ServiceProcess) -> float:
    """CPU seconds the service process has used so far (user + system)."""
    fields = Path(f"/proc/{service.process.pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def get(conn: http.client.HTTPConnection, path: str) -> bytes:
    conn.request("GET", path, headers=HEAD)
    return conn.getresponse().read()


def status_of(conn: http.client.HTTPConnection, run_id: str) -> str:
    """The run's status from the runs list (the newest first): a status poll of a running run
    would be answered only at the caller's turn, four times a second."""
    newest = json.loads(get(conn, "/v1/runs?limit=1"))["runs"][0]
    assert newest["run_id"] == run_id, newest
    return str(newest["status"])


@dataclass
class Watched:
    """One run as the service drove it: seconds from submit to the first case and to done, the
    service's CPU seconds, and what the watchers got."""

    first_s: float
    wall_s: float
    cpu_s: float
    reads: int = 0
    events_ok: int = 0


@dataclass
class Watchers:
    """The load of one condition, started once the run is submitted, stopped once it is over."""

    kind: str
    port: int
    listeners: int
    stop: threading.Event = field(default_factory=threading.Event)
    reads: list[int] = field(default_factory=lambda: [0])
    ended: list[bytes] = field(default_factory=list)
    threads: list[threading.Thread] = field(default_factory=list)

    def start(self, run_id: str) -> None:
        if self.kind == "poller":
            self.threads = [threading.Thread(target=self._poll, args=(run_id,), daemon=True)]
        elif self.kind == "listeners":
            self.threads = [threading.Thread(target=self._listen, args=(run_id,), daemon=True)]
        for thread in self.threads:
            thread.start()

    def finish(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join(60)

    def _poll(self, run_id: str) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", self.port)
        while not self.stop.is_set():
            get(conn, f"/v1/runs/{run_id}")
            self.reads[0] += 1
        conn.close()

    def _listen(self, run_id: str) -> None:
        ask = f"GET /v1/runs/{run_id}/events HTTP/1.1\r\nHost: x\r\n"
        ask += f"Authorization: Bearer {ADMIN}\r\n\r\n"

        async def one() -> bytes:
            reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            writer.write(ask.encode())
            got = b""
            while b"event: end" not in got:
                data = await reader.read(65536)
                if not data:
                    break
                got = got[-200:] + data
            writer.close()
            return got[got.rfind(b"event: end") :]

        async def all_of() -> list[bytes]:
            return await asyncio.gather(*(one() for _ in range(self.listeners)))

        self.ended = asyncio.run(all_of())


def watch_run(
    service: ServiceProcess, clock: AskClock, url: str, seed: int, size: str, load: Watchers
) -> Watched:
    """Submit one run, put ``load`` on it, and time it to its end (checked every 50 ms once
    its first case was asked, the same in every condition)."""
    conn = http.client.HTTPConnection("127.0.0.1", service.port)
    body = json.dumps({"harness_url": url, "seed": seed, "run_size": size})
    cpu = service_cpu(service)
    start = time.time()
    conn.request("POST", "/v1/submit", body, HEAD)
    run_id = json.loads(conn.getresponse().read())["run_id"]
    load.start(run_id)
    first = clock.first_after(start) - start  # seen at the proxy: nothing asks the service
    while status_of(conn, run_id) not in OVER:
        time.sleep(0.05)
    wall = time.time() - start
    load.finish()
    used = service_cpu(service) - cpu
    ok = sum(1 for end in load.ended if end.startswith(b'event: end\ndata: {"status":"done"}'))
    conn.close()
    return Watched(first, wall, used, load.reads[0], ok)


class EngineAlone:
    """The engine alone in a warm process of its own (``drive_run``, as the service calls it):
    each run's (first case, wall) in seconds."""

    def __init__(self, folder: Path, size: str) -> None:
        self.folder = folder / "engine"
        self.folder.mkdir()
        self.child = subprocess.Popen(
            [sys.executable, "-c", ENGINE, str(self.folder), size],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def run(self, clock: AskClock, seed: int) -> tuple[float, float]:
        assert self.child.stdin is not None and self.child.stdout is not None
        with harness(clock, self.folder, f"engine-{seed}") as url:
            self.child.stdin.write(f"{seed} {url}\n")
            self.child.stdin.flush()
            start = float(self.child.stdout.readline().split()[1])
            end = float(self.child.stdout.readline().split()[1])
        return clock.first_after(start) - start, end - start

    def close(self) -> None:
        if self.child.stdin is not None:
            self.child.stdin.close()
        self.child.wait(60)


def med(values: list[float]) -> float:
    return statistics.median(values)


def ms(values: list[float]) -> str:
    return f"median {med(values) * 1000:.0f} ms ({', '.join(f'{v * 1000:.0f}' for v in values)})"


def secs(values: list[float]) -> str:
    return f"median {med(values):.2f} s ({', '.join(f'{v:.2f}' for v in values)})"


def paired(over: list[float], to: list[float]) -> str:
    """The ratio of each round's figure to its anchor in the same round (the seed is the same,
    and the machine's load as alike as it gets), their median first."""
    ratios = [a / b for a, b in zip(over, to, strict=True)]
    return f"{med(ratios):.2f}x (rounds: {', '.join(f'{r:.2f}' for r in ratios)})"


def report(
    got: dict[str, list[Watched]], engine: list[tuple[float, float]], listeners: int
) -> None:
    alone, poller, heard = got["alone"], got["poller"], got["listeners"]
    walls = {name: [w.wall_s for w in runs] for name, runs in got.items()}
    cpus = {name: [w.cpu_s for w in runs] for name, runs in got.items()}
    print(f"run wall, nobody looking: {secs(walls['alone'])}")
    print(f"run wall, engine alone: {secs([e[1] for e in engine])}")
    print(f"run wall, a back-to-back poller: {secs(walls['poller'])}")
    print(f"  ratio to nobody looking {paired(walls['poller'], walls['alone'])}")
    print(f"  polls answered a run: {[w.reads for w in poller]}")
    print(f"service CPU a run, nobody looking: {secs(cpus['alone'])}")
    print(f"service CPU a run, the poller: {secs(cpus['poller'])}")
    print(f"  ratio {paired(cpus['poller'], cpus['alone'])}")
    print(f"run wall, {listeners} event-stream listeners: {secs(walls['listeners'])}")
    print(f"  ratio to nobody looking {paired(walls['listeners'], walls['alone'])}")
    print(f"  streams that ended with the run's end event: {[w.events_ok for w in heard]}")
    print(f"service CPU a run, the listeners: {secs(cpus['listeners'])}")
    print(f"  ratio {paired(cpus['listeners'], cpus['alone'])}")
    firsts = [e[0] for e in engine]
    print(f"submit to first case, engine alone: {ms(firsts)}")
    for name, runs in (("service", alone), ("service with the poller", poller)):
        print(f"submit to first case, {name}: {ms([w.first_s for w in runs])}")
        print(f"  ratio to the engine alone {paired([w.first_s for w in runs], firsts)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=3, help="runs of each condition")
    parser.add_argument("--run-size", default="full", choices=("small", "medium", "full"))
    parser.add_argument("--listeners", type=int, default=100, help="event-stream listeners")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # `timeout` still stops the service
    streams = str(args.listeners + 8)
    env = {
        "DITTOBENCH_RUN_CONCURRENCY": "1",
        "DITTOBENCH_MAX_EVENT_STREAMS": streams,
        "DITTOBENCH_MAX_STREAMS_PER_CLIENT": streams,
        "DITTOBENCH_MAX_CONNECTIONS_PER_ADDRESS": str(args.listeners + 32),
        "DITTOBENCH_MAX_CONNECTIONS": str(args.listeners + 256),
        "DITTOBENCH_SUBMIT_LIMIT": "1000",
    }
    seeds = [101 + n for n in range(args.rounds)]
    clock = AskClock()
    got: dict[str, list[Watched]] = {name: [] for name in CONDITIONS}
    engine: list[tuple[float, float]] = []
    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder)
        alone = EngineAlone(root, args.run_size)
        service = start_service(root / "svc", "--allow-private-harness", env=env)
        try:
            alone.run(clock, WARM_SEED)  # the first run in a process fills its caches
            with harness(clock, root, "warm") as url:
                watch_run(service, clock, url, WARM_SEED, args.run_size, Watchers("", 0, 0))
            for n, seed in enumerate(seeds):
                for name in TURNS[n % 4 :] + TURNS[: n % 4]:  # in turn, so drift spreads
                    if name == "engine":
                        engine.append(alone.run(clock, seed))
                        print(f"  seed {seed}, engine: {engine[-1]}", file=sys.stderr, flush=True)
                        continue
                    load = Watchers(name, service.port, args.listeners)
                    with harness(clock, root, f"{name}-{seed}") as url:
                        run = watch_run(service, clock, url, seed, args.run_size, load)
                    got[name].append(run)
                    print(f"  seed {seed}, {name}: {run}", file=sys.stderr, flush=True)
        finally:
            service.stop()
            alone.close()
    print(
        f"{args.rounds} rounds, {args.run_size} runs, one case in flight, seeds {seeds}, "
        f"{time.strftime('%Y-%m-%d')}"
    )
    report(got, engine, args.listeners)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average at the end: {load} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
