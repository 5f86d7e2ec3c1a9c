"""A throwaway PostgreSQL server for tests: its own cluster in a temporary folder, on a free
loopback port, stopped and removed at the end. Tests that use it are skipped where it cannot run:
no server binaries (``initdb`` on PATH or under /usr/lib/postgresql), or running as root without a
``postgres`` user and ``runuser`` to drop to it (PostgreSQL refuses to run as root)."""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import count
from pathlib import Path

USER = "dittobench"
MACHINE_SERVICE = "postgresql+psycopg://postgres@127.0.0.1:5432"
"""The machine's own PostgreSQL service (trust auth), used when no throwaway server can start."""
_databases = count()


def server_binaries() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    newest = max(versions, key=lambda p: int(Path(p).parts[-3].split(".")[0]), default=None)
    return Path(newest).parent if newest else None


def why_not() -> str | None:
    """Why no server can be started here, or None when one can."""
    if server_binaries() is None:
        return "no PostgreSQL server binaries installed (initdb not found)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root with no `postgres` user to run the server as"
        if shutil.which("runuser") is None:
            return "running as root without `runuser` to drop to the `postgres` user"
    return None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def postgres_server(binaries: Path) -> Iterator[str]:
    """Yield the server's base URL (``postgresql+psycopg://dittobench@127.0.0.1:<port>``)."""
    # Not under pytest's own temporary folder: as root that is private to root.
    folder = Path(tempfile.mkdtemp(prefix="dittobench-pg-"))
    run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    data, started = folder / "data", False

    def pg(*args: str) -> None:
        command = [*run_as, str(binaries / args[0]), *args[1:]]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    try:
        if run_as:
            shutil.chown(folder, user="postgres")
        pg("initdb", "-D", str(data), "-A", "trust", "-U", USER, "--no-sync", "-E", "UTF8")
        port = _free_port()
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        pg("pg_ctl", "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start")
        started = True
        yield f"postgresql+psycopg://{USER}@127.0.0.1:{port}"
    finally:
        if started:
            pg("pg_ctl", "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def machine_service_reachable() -> bool:
    try:
        import psycopg

        address = MACHINE_SERVICE.removeprefix("postgresql+psycopg://")
        with psycopg.connect(f"postgresql://{address}/postgres", connect_timeout=3):
            return True
    except Exception:
        return False


def fresh_database(server_url: str) -> str:
    """A new empty database on the server, so each test starts clean."""
    import psycopg

    name = f"test_{os.getpid()}_{next(_databases)}"
    address = server_url.removeprefix("postgresql+psycopg://")
    with psycopg.connect(f"postgresql://{address}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server_url}/{name}"
