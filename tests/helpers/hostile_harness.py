"""A hostile harness for the sandbox's escape tests (stdlib only; shipped inside an archive).

    python hostile_harness.py --port PORT

It reads ``attack.json`` beside it and serves ``GET /health`` and ``GET /attack``. ``/attack``
tries every escape the test names and answers what each attempt got, as JSON: ``"ok: …"`` when
it succeeded (what it read, wrote or reached), else the exception's name and errno.

- ``connect``: TCP to each ``host:port`` (the test's listener, the machine's services);
- ``abstract``: the abstract Unix socket the test listens on;
- ``unix``: Unix socket paths of the host;
- ``read``: files outside its folder (the test's secret);
- ``write``: files outside its folder;
- ``environ``: every environment it can read (its own, ``/proc/*/environ``);
- ``daemon``: a detached grandchild (double fork, ``setsid``) running ``sleep`` under a marker
  the test looks for once the run is over;
- ``fork``: a fork bomb: children that sleep, until forking fails or ``fork_max`` is reached.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import sys
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CONFIG = json.loads((Path(__file__).parent / "attack.json").read_text())


def failed(exc: BaseException) -> str:
    return f"{type(exc).__name__} errno={getattr(exc, 'errno', None)}"


def connect(host: str, port: int) -> str:
    try:
        with socket.create_connection((host, port), timeout=2) as conn:
            conn.sendall(b"escaped\n")
            return "ok: connected"
    except OSError as exc:
        return failed(exc)


def unix(path: str) -> str:
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
            conn.settimeout(2)
            conn.connect(path)
            conn.sendall(b"escaped\n")
            return "ok: connected"
    except OSError as exc:
        return failed(exc)


def read(path: str) -> str:
    try:
        return "ok: " + Path(path).read_text(errors="replace")[:200]
    except OSError as exc:
        return failed(exc)


def write(path: str) -> str:
    try:
        Path(path).write_text("escaped")
        return "ok: written"
    except OSError as exc:
        return failed(exc)


def environments() -> str:
    """Every environment it can read: its own and each process's it can see in /proc."""
    seen = [json.dumps(dict(os.environ))]
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                seen.append(Path(f"/proc/{entry}/environ").read_bytes().decode(errors="replace"))
            except OSError:
                continue
    return "\n".join(seen)


def daemon(marker: str) -> str:
    try:
        if os.fork() == 0:  # child: detach, fork again, exit
            os.setsid()
            if os.fork() == 0:
                os.execv(
                    sys.executable, [sys.executable, "-c", "import time; time.sleep(600)", marker]
                )
            os._exit(0)
    except OSError as exc:
        return failed(exc)
    time.sleep(0.3)
    return "started"


def fork_bomb(limit: int) -> dict[str, object]:
    made = 0
    error = ""
    while made < limit:
        try:
            pid = os.fork()
        except OSError as exc:
            error = failed(exc)
            break
        if pid == 0:
            time.sleep(600)
            os._exit(0)
        made += 1
    return {"made": made, "error": error}


def attack() -> dict[str, object]:
    return {
        "connect": {f"{h}:{p}": connect(h, p) for h, p in CONFIG["connect"]},
        "abstract": unix("\0" + CONFIG["abstract"]),
        "unix": {path: unix(path) for path in CONFIG["unix"]},
        "read": {path: read(path) for path in CONFIG["read"]},
        "write": {path: write(path) for path in CONFIG["write"]},
        "daemon": daemon(CONFIG["marker"]),
        "fork": fork_bomb(CONFIG["fork_max"]),
        "uid": os.getuid(),
        "environ": environments(),
    }


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = json.dumps(attack() if self.path == "/attack" else {"status": "ok"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    port = parser.parse_args().port
    ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()


if __name__ == "__main__":
    main()
