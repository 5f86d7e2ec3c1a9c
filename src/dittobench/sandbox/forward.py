"""The sandbox's bridges, run inside it by the system Python (stdlib only, no dittobench).

    python3 forward.py RULE... -- COMMAND...

Each RULE is ``fd:N=tcp:HOST:PORT`` (accept on the inherited listening socket N, connect to the
TCP address), ``unix:PATH=tcp:HOST:PORT`` (the same on a new Unix socket) or
``tcp:HOST:PORT=unix:PATH`` (listen on TCP, connect to the Unix socket). Once every listener is
up it starts COMMAND (the harness) and exits with its status when it ends, so the sandbox ends
with its harness. A sandbox has its own network namespace with nothing in it but loopback: these
bridges, through Unix sockets in the shared work folder, are the only way in (the engine to the
harness) and out (the harness to the engine's tool endpoint).

The engine's side imports ``serve_unix`` for the outer half of the tool bridge.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import sys
from collections.abc import Awaitable, Callable

CHUNK = 65536
Opener = Callable[[], Awaitable[tuple[asyncio.StreamReader, asyncio.StreamWriter]]]


async def pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    """Copy until end of file, then half-close the other side."""
    try:
        while chunk := await reader.read(CHUNK):
            writer.write(chunk)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
    except (ConnectionError, OSError):
        pass


async def splice(
    client: tuple[asyncio.StreamReader, asyncio.StreamWriter], open_target: Opener
) -> None:
    """Join one accepted connection to a new connection made by ``open_target``."""
    reader, writer = client
    try:
        target_reader, target_writer = await open_target()
    except OSError:
        writer.close()
        return
    try:
        await asyncio.gather(pipe(reader, target_writer), pipe(target_reader, writer))
    finally:
        for side in (writer, target_writer):
            side.close()
            with contextlib.suppress(ConnectionError, OSError):
                await side.wait_closed()


_LIVE: set[asyncio.Task[object]] = set()
"""The connections being spliced: asyncio holds a connection's task only weakly (Python 3.11),
and a task nothing holds may be collected while it still waits."""


def _splicer(
    open_target: Opener,
) -> Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]:
    async def accepted(r: asyncio.StreamReader, w: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        if task is not None:
            _LIVE.add(task)
        try:
            await splice((r, w), open_target)
        finally:
            _LIVE.discard(task)

    return accepted


async def serve_unix(path: str, open_target: Opener) -> asyncio.Server:
    """Listen on the Unix socket ``path`` (mode 0666: the other side of the sandbox may run as
    another user) and splice every connection to ``open_target()``."""
    accepted = _splicer(open_target)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)
    server = await asyncio.start_unix_server(accepted, path=path)
    os.chmod(path, 0o666)  # noqa: S103 - the two sides run as different users
    return server


async def serve_tcp(host: str, port: int, open_target: Opener) -> asyncio.Server:
    return await asyncio.start_server(_splicer(open_target), host=host, port=port)


async def serve_fd(fd: int, open_target: Opener) -> asyncio.Server:
    server = _splicer(open_target)
    return await asyncio.start_unix_server(server, sock=socket.socket(fileno=fd))


def _rule(text: str) -> Callable[[], Awaitable[asyncio.Server]]:
    listen, _, target = text.partition("=")
    if listen.startswith("fd:") and target.startswith("tcp:"):
        host, _, port = target.removeprefix("tcp:").rpartition(":")
        fd = int(listen.removeprefix("fd:"))
        return lambda: serve_fd(fd, lambda: asyncio.open_connection(host, int(port)))
    if listen.startswith("unix:") and target.startswith("tcp:"):
        host, _, port = target.removeprefix("tcp:").rpartition(":")
        return lambda: serve_unix(
            listen.removeprefix("unix:"), lambda: asyncio.open_connection(host, int(port))
        )
    if listen.startswith("tcp:") and target.startswith("unix:"):
        host, _, port = listen.removeprefix("tcp:").rpartition(":")
        path = target.removeprefix("unix:")
        return lambda: serve_tcp(host, int(port), lambda: asyncio.open_unix_connection(path))
    raise SystemExit(f"forward.py: bad rule {text!r}")


async def _main(rules: list[str], command: list[str]) -> int:
    servers = [await _rule(rule)() for rule in rules]
    child = await asyncio.create_subprocess_exec(*command)
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, child.terminate)
    status = await child.wait()
    for server in servers:
        server.close()
    return status if status >= 0 else 128 - status


def main(argv: list[str]) -> int:
    if "--" not in argv:
        sys.stderr.write("usage: forward.py RULE... -- COMMAND..." + "\n")
        return 2
    split = argv.index("--")
    rules, command = argv[:split], argv[split + 1 :]
    if not command:
        sys.stderr.write("forward.py: no command after --" + "\n")
        return 2
    try:
        return asyncio.run(_main(rules, command))
    except OSError as exc:
        sys.stderr.write(f"forward.py: {exc}" + "\n")
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
