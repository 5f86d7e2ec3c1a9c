"""A throwaway PostgreSQL server for tests: its own cluster in a temporary folder, on a free
loopback port, stopped at the end. Tests that use it are skipped where no PostgreSQL server
binaries are installed (``initdb`` on PATH or under /usr/lib/postgresql)."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import count
from pathlib import Path

USER = "dittobench"
_databases = count()


def server_binaries() -> Path | None:
    found = shutil.which("initdb")
    if found:
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return Path(versions[-1]).parent if versions else None


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextmanager
def postgres_server(binaries: Path) -> Iterator[str]:
    """Yield the server's base URL (``postgresql+psycopg://dittobench@127.0.0.1:<port>``)."""
    # Not under pytest's own temporary folder: as root that is private to root, and PostgreSQL
    # refuses to run as root (the Debian packages create a `postgres` user for it).
    folder = Path(tempfile.mkdtemp(prefix="dittobench-pg-"))
    run_as = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if run_as:
        shutil.chown(folder, user="postgres")
    data, port = folder / "data", _free_port()

    def pg(*args: str) -> None:
        subprocess.run(
            [*run_as, str(binaries / args[0]), *args[1:]], check=True, capture_output=True
        )

    pg("initdb", "-D", str(data), "-A", "trust", "-U", USER, "--no-sync", "-E", "UTF8")
    options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
    pg("pg_ctl", "-D", str(data), "-o", options, "-l", str(folder / "log"), "-w", "start")
    try:
        yield f"postgresql+psycopg://{USER}@127.0.0.1:{port}"
    finally:
        pg("pg_ctl", "-D", str(data), "-m", "immediate", "stop")
        shutil.rmtree(folder, ignore_errors=True)


def fresh_database(server_url: str) -> str:
    """A new empty database on the server, so each test starts clean."""
    import psycopg

    name = f"test_{os.getpid()}_{next(_databases)}"
    address = server_url.removeprefix("postgresql+psycopg://")
    with psycopg.connect(f"postgresql://{address}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{server_url}/{name}"
