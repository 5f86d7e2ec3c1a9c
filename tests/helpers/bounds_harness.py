"""A hostile harness for the sandbox's tree bounds and seccomp filter (stdlib only; shipped
inside an archive by ``tests/integration/test_sandbox_bounds.py``).

    python bounds_harness.py        (listens on $PORT)

``GET /health`` answers; each other path tries one thing and answers what it got as JSON, also
printed to its log first (the sandbox may be ended before the answer is out):

- ``/escape``: a new user namespace (``unshare(CLONE_NEWUSER)``, ``unshare -U``, ``clone`` with
  ``CLONE_NEWUSER``, ``clone3``), other namespaces, ``ptrace``, ``mount`` (also from a user and
  mount namespace of its own: ``unshare -Urm mount``), kernel keys, ``bpf``, ``userfaultfd``,
  ``perf_event_open``; and what a harness needs still works (a thread, a child process, fork);
- ``/fill``: writes 1 MiB blocks to ``fill.bin`` in its folder until a write fails;
- ``/hog?mib=N``: starts three processes that each hold N MiB and sleep.
"""

from __future__ import annotations

import ctypes
import errno
import json
import os
import subprocess
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

CONFIG = json.loads((Path(__file__).parent / "calls.json").read_text())
LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.syscall.restype = ctypes.c_long
CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWNET = 0x00020000, 0x10000000, 0x40000000
SIGCHLD = 17


def outcome(result: int) -> str:
    if result >= 0:
        return "ok"
    return errno.errorcode.get(ctypes.get_errno(), str(ctypes.get_errno()))


def syscall(name: str, *args: int) -> str:
    return outcome(LIBC.syscall(ctypes.c_long(CONFIG[name]), *(ctypes.c_long(a) for a in args)))


def clone_user() -> str:
    """A raw ``clone`` asking for a new user namespace; a child made anyway exits at once."""
    flags = ctypes.c_long(CLONE_NEWUSER | SIGCHLD)
    zero = ctypes.c_long(0)
    result = LIBC.syscall(ctypes.c_long(CONFIG["clone"]), flags, zero, zero, zero, zero)
    if result == 0:
        os._exit(0)
    if result > 0:
        os.waitpid(result, 0)
    return outcome(result)


def command(*argv: str) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=20, check=False)
    return f"exit {done.returncode}: {(done.stdout + done.stderr).strip()[:200]}"


def still_works() -> dict[str, str]:
    seen: list[str] = []
    thread = threading.Thread(target=lambda: seen.append("thread ran"))
    thread.start()
    thread.join()
    pid = os.fork()
    if pid == 0:
        os._exit(7)
    _, status = os.waitpid(pid, 0)
    return {
        "thread": seen[0] if seen else "no",
        "subprocess": command("echo", "child ran"),
        "fork": f"child exit {os.waitstatus_to_exitcode(status)}",
    }


def apart(probe: Callable[[], object]) -> str:
    """``probe()`` run in a forked child, so what it changes (a namespace entered, a tracer)
    stays there; what it got, or how the child died."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            said = str(probe())
        except BaseException as exc:  # the child reports anything
            said = f"raised {type(exc).__name__}: {exc}"
        os.write(write, said.encode()[:500])
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as got:
        said = got.read().decode(errors="replace")
    _, status = os.waitpid(pid, 0)
    return said or f"child died: status {status}"


def escape() -> dict[str, object]:
    tmpfs = (b"none", b"/tmp", b"tmpfs", 0, None)
    probes = {
        "unshare_user": lambda: outcome(LIBC.unshare(CLONE_NEWUSER)),
        "unshare_net": lambda: outcome(LIBC.unshare(CLONE_NEWNET)),
        "unshare_mount": lambda: outcome(LIBC.unshare(CLONE_NEWNS)),
        "unshare_command": lambda: command("unshare", "-U", "true"),
        "mount_in_own_namespaces": lambda: command(
            "unshare", "-Urm", "mount", "-t", "tmpfs", "x", "/tmp"
        ),
        "clone_user": clone_user,
        "clone3": lambda: syscall("clone3", 0, 0),
        "setns": lambda: syscall("setns", 0, 0),
        "ptrace_traceme": lambda: outcome(LIBC.ptrace(0, 0, None, None)),
        "mount": lambda: outcome(LIBC.mount(*tmpfs)),
        "keyctl": lambda: syscall("keyctl", 0, 0),
        "bpf": lambda: syscall("bpf", 0, 0, 0),
        "userfaultfd": lambda: syscall("userfaultfd", 0),
        "perf_event_open": lambda: syscall("perf_event_open", 0, 0, -1, -1, 0),
    }
    found: dict[str, object] = {name: apart(probe) for name, probe in probes.items()}
    found["still_works"] = still_works()
    return found


def fill() -> dict[str, object]:
    block, written = b"\0" * (1024 * 1024), 0
    try:
        with open("fill.bin", "wb", buffering=0) as out:
            while written < 4096:
                out.write(block)
                written += 1
        return {"error": "none", "mib": written}
    except OSError as exc:
        return {"error": f"{type(exc).__name__} errno={exc.errno}", "mib": written}


HOG = "import time; held = b'\\x01' * ({} << 20); time.sleep(120)"


def hog(mib: int) -> dict[str, object]:
    children = [subprocess.Popen([sys.executable, "-c", HOG.format(mib)]) for _ in range(3)]
    return {"started": [child.pid for child in children]}


class Handler(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        url = urlsplit(self.path)
        if url.path == "/health":
            found: dict[str, object] = {"status": "ok"}
        elif url.path == "/escape":
            found = escape()
        elif url.path == "/fill":
            found = fill()
        else:
            found = hog(int(parse_qs(url.query).get("mib", ["32"])[0]))
        body = json.dumps(found).encode()
        print(url.path, body.decode(), flush=True)
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_args: object) -> None:
        return


if __name__ == "__main__":
    ThreadingHTTPServer(("127.0.0.1", int(os.environ["PORT"])), Handler).serve_forever()
