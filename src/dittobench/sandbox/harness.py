"""A submitted archive built and started as a harness in a bubblewrap sandbox, for one run.

``sandboxed_harness(archive, config, folder)`` unpacks the archive into a work folder of its own
(``/work/src`` inside; logs go to ``folder``), builds it (a venv at ``/work/venv``; its
requirements installed as wheels only, from the operator's index, the only step that may have
network), starts it, waits for its ``/health`` and yields a ``SandboxedHarness``: the URL, the
httpx transport and the tool-endpoint route the engine takes (``RunOptions.harness_url``,
``transport``, ``tool_route``). On leaving, the whole process tree is killed and the work folder
removed. The running harness writes into a tmpfs of ``Limits.disk_bytes`` at ``/work`` (its
archive copied in, the venv read-only), not the host's folder. When the sandbox was ended early
for a bound (its memory together, its work folder full: ``Sandboxed.ended``), leaving raises
``SandboxError`` saying so, whether or not the run noticed.

Wiring (docs/service.md, "Source archives"): the harness listens on ``127.0.0.1:HARNESS_PORT`` in
its own network namespace. Inside, ``forward.py`` accepts on a listening Unix socket this module
made in a folder the sandbox cannot see (handed over as an open file, so nothing inside can swap
the path the engine connects to for a link to some other socket) and bridges it to the harness;
it also listens on ``127.0.0.1:TOOL_PORT`` bridging to ``/work/sock/tool``; outside, this
module serves ``sock/tool`` and bridges it to the engine's real tool endpoint. The harness is told
``http://127.0.0.1:TOOL_PORT/t/<secret>/tool``: the same secret path, on its own loopback.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from dittobench.sandbox import SandboxError
from dittobench.sandbox.archive import Archive, ArchiveLimits, unpack
from dittobench.sandbox.bounds import TreeBounds
from dittobench.sandbox.bubblewrap import FORWARD_PATH, WORK, Limits, Sandboxed, command_line
from dittobench.sandbox.forward import serve_unix
from dittobench.sandbox.layout import Layout, read_layout
from dittobench.sandbox.seccomp import program_fd
from dittobench.sandbox.users import FIRST_UID, SLOTS, leased_uid

HARNESS_PORT = 8080
TOOL_PORT = 9090
PYTHON = "/usr/bin/python3"
DEFAULT_INDEX = "https://pypi.org/simple"


@dataclass(frozen=True, slots=True)
class SandboxConfig:
    """The operator's sandbox settings."""

    limits: Limits = field(default_factory=Limits)
    archive_limits: ArchiveLimits = field(default_factory=ArchiveLimits)
    build_s: float = 600.0
    """Wall-clock limit of the build."""
    start_s: float = 60.0
    """How long the harness has to answer ``/health`` once started."""
    run_s: float = 3600.0
    """Wall-clock limit of the harness's whole life; then it is killed."""
    index_url: str = DEFAULT_INDEX
    """Where requirements are installed from (wheels only)."""
    build_network: bool = True
    """Whether a build with requirements may reach the network (the index); without it such an
    archive fails to build."""
    first_uid: int = FIRST_UID
    """When the engine runs as root, each sandbox runs as a user of its own leased from
    ``first_uid`` and the next ``uid_slots`` (``sandbox.users``)."""
    uid_slots: int = SLOTS
    work_root: str | None = None
    """Where sandboxes' work folders are made (the system's temporary folder by default)."""


@dataclass
class SandboxedHarness:
    """What the engine needs to drive the sandboxed harness."""

    url: str
    socket_path: Path
    sandbox: Sandboxed
    _tool_target: list[tuple[str, int]]

    def transport(self) -> httpx.AsyncBaseTransport:
        return httpx.AsyncHTTPTransport(uds=str(self.socket_path))

    def tool_route(self, endpoint_url: str) -> str:
        """Bridge to the engine's tool endpoint at ``endpoint_url``; the URL the harness is told."""
        url = httpx.URL(endpoint_url)
        self._tool_target[:] = [(url.host, url.port or 80)]
        return str(url.copy_with(host="127.0.0.1", port=TOOL_PORT))


@contextlib.contextmanager
def sandboxed_harness(
    archive: Archive, config: SandboxConfig, folder: Path
) -> Iterator[SandboxedHarness]:
    """Build and start ``archive``, its logs in ``folder``; see the module's text."""
    layout = read_layout(archive)
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        uid = None
        if os.geteuid() == 0:
            uid = stack.enter_context(leased_uid(config.first_uid, config.uid_slots))
        yield from _sandboxed(archive, layout, config, folder, uid)


def _sandboxed(
    archive: Archive, layout: Layout, config: SandboxConfig, folder: Path, uid: int | None
) -> Iterator[SandboxedHarness]:
    # A short path (Unix socket names are at most 107 bytes) that the sandbox's user can reach:
    # the root is traversable, not listable; only ``work`` is the sandbox's.
    root = Path(tempfile.mkdtemp(prefix="dittobench-sandbox-", dir=config.work_root))
    target: list[tuple[str, int]] = []
    bridge = _OuterBridge(str(root / "work" / "sock" / "tool"), target)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sandbox: Sandboxed | None = None
    try:
        root.chmod(0o711)
        shutil.copyfile(Path(__file__).with_name("forward.py"), root / "forward.py")
        (root / "forward.py").chmod(0o644)
        (root / "outer").mkdir(mode=0o700)  # where the engine connects: out of the sandbox
        work = _prepare(archive, root, uid)
        _build(layout, work, folder / "build.log", config, uid)
        bridge.start()
        listener.bind(str(root / "outer" / "harness"))
        listener.listen(64)
        sandbox = _start(layout, work, folder / "harness.log", config, uid, listener.fileno())
        listener.close()  # the sandbox holds it now
        harness = SandboxedHarness("http://harness", root / "outer" / "harness", sandbox, target)
        _wait_healthy(harness, config.start_s)
        sandbox.namespace()  # noted now, so the end finds detached children
        timer = threading.Timer(config.run_s, sandbox.stop)
        timer.daemon = True
        timer.start()
        try:
            yield harness
        except Exception as exc:
            if sandbox.ended:  # what the run saw (a harness gone) follows from this
                raise SandboxError(f"the sandbox was ended: {sandbox.ended}") from exc
            raise
        finally:
            timer.cancel()
        if sandbox.ended:  # a run that went on without it is not a run of this harness
            raise SandboxError(f"the sandbox was ended: {sandbox.ended}")
    finally:
        listener.close()
        if sandbox is not None:
            sandbox.stop()
        bridge.stop()
        shutil.rmtree(root, ignore_errors=True)


def _prepare(archive: Archive, root: Path, uid: int | None) -> Path:
    work = root / "work"
    for sub in ("src", "sock", "home"):
        (work / sub).mkdir(parents=True, mode=0o755)
    unpack(archive, work / "src")
    if uid is not None:  # the sandbox's user owns its folder, nothing else
        for top, dirs, files in os.walk(work):
            for name in (top, *(os.path.join(top, n) for n in dirs + files)):
                os.lchown(name, uid, uid)
    return work


def _build(layout: Layout, work: Path, log: Path, config: SandboxConfig, uid: int | None) -> None:
    steps: list[tuple[list[str], bool]] = []
    if layout.requirements:
        (work / "requirements.txt").write_text("\n".join(layout.requirements) + "\n")
        if uid is not None:
            os.lchown(work / "requirements.txt", uid, uid)
        steps.append(([PYTHON, "-m", "venv", f"{WORK}/venv"], False))
        pip = [f"{WORK}/venv/bin/python", "-m", "pip", "install", "--isolated", "--no-input"]
        pip += ["--disable-pip-version-check", "--no-cache-dir", "--only-binary=:all:"]
        pip += ["--index-url", config.index_url, "-r", f"{WORK}/requirements.txt"]
        steps.append((pip, config.build_network))
    else:
        steps.append(([PYTHON, "-m", "venv", "--without-pip", f"{WORK}/venv"], False))
    deadline = time.monotonic() + config.build_s
    bounds = TreeBounds(memory_bytes=config.limits.total_memory_bytes)
    for argv, network in steps:
        with program_fd() as fd:
            line = command_line(work, argv, config.limits, env={}, seccomp_fd=fd, network=network)
            step = Sandboxed(line, log, uid, (fd,), bounds)
        try:
            status = step.wait(max(1.0, deadline - time.monotonic()))
        except Exception:
            step.stop()
            raise SandboxError(f"the build took longer than {config.build_s:g} s") from None
        step.stop()
        if step.ended:
            raise SandboxError(f"the build was ended ({' '.join(argv[:4])}…): {step.ended}")
        if status != 0:
            raise SandboxError(f"the build failed ({' '.join(argv[:4])}…): {step.tail(800)}")


def _start(
    layout: Layout, work: Path, log: Path, config: SandboxConfig, uid: int | None, fd: int
) -> Sandboxed:
    command = [part.replace("{port}", str(HARNESS_PORT)) for part in layout.command]
    rules = [
        f"fd:{fd}=tcp:127.0.0.1:{HARNESS_PORT}",
        f"tcp:127.0.0.1:{TOOL_PORT}=unix:{WORK}/sock/tool",
    ]
    argv = [PYTHON, FORWARD_PATH, *rules, "--", *command]
    env = {"PORT": str(HARNESS_PORT), "PYTHONUNBUFFERED": "1"}
    limits = config.limits
    bounds = TreeBounds(limits.total_memory_bytes, WORK, limits.disk_bytes)
    with program_fd() as seccomp:
        line = command_line(
            work, argv, limits, env=env, seccomp_fd=seccomp, chdir=f"{WORK}/src", running=True
        )
        return Sandboxed(line, log, uid, (fd, seccomp), bounds)


def _wait_healthy(harness: SandboxedHarness, within_s: float) -> None:
    deadline = time.monotonic() + within_s
    last = "no answer yet"
    with httpx.Client(transport=httpx.HTTPTransport(uds=str(harness.socket_path))) as client:
        while time.monotonic() < deadline:
            status = harness.sandbox.process.poll()
            if status is not None:
                ended = harness.sandbox.ended
                raise SandboxError(
                    f"the harness exited (status {status}) before answering /health: "
                    + (f"the sandbox was ended: {ended}" if ended else harness.sandbox.tail(800))
                )
            if harness.socket_path.exists():
                try:
                    reply = client.get(f"{harness.url}/health", timeout=2.0)
                    if reply.is_success:
                        return
                    last = f"HTTP {reply.status_code}"
                except httpx.HTTPError as exc:
                    last = type(exc).__name__
            time.sleep(0.1)
    raise SandboxError(
        f"the harness did not answer /health within {within_s:g} s ({last}): "
        f"{harness.sandbox.tail(800)}"
    )


async def _drained(tasks: set[asyncio.Task[object]]) -> None:
    await asyncio.gather(*tasks, return_exceptions=True)


class _OuterBridge:
    """Serves the sandbox's ``sock/tool`` and bridges each connection to the engine's tool
    endpoint (the address ``tool_route`` noted; refused before it is known)."""

    def __init__(self, path: str, target: list[tuple[str, int]]) -> None:
        self._path, self._target = path, target
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._server: asyncio.Server | None = None

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if not self._target:
            raise ConnectionRefusedError("the tool endpoint is not up yet")
        host, port = self._target[0]
        return await asyncio.open_connection(host, port)

    def _serve(self) -> None:
        loop = self._loop
        try:
            loop.run_forever()
            # Stopped: the connections still open (keep-alive ones) end before the loop does.
            # (a connection accepted meanwhile starts a task of its own: drained in turn)
            while left := asyncio.all_tasks(loop):
                for task in left:
                    task.cancel()
                loop.run_until_complete(_drained(left))
        finally:
            loop.close()

    def start(self) -> None:
        self._thread.start()
        made = asyncio.run_coroutine_threadsafe(serve_unix(self._path, self._open), self._loop)
        self._server = made.result(10)

    def stop(self) -> None:
        if not self._thread.is_alive():
            if not self._loop.is_closed():
                self._loop.close()  # never started
            return
        server = self._server
        if server is not None:
            self._loop.call_soon_threadsafe(server.close)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)


__all__ = [
    "HARNESS_PORT",
    "TOOL_PORT",
    "SandboxConfig",
    "SandboxedHarness",
    "sandboxed_harness",
]
