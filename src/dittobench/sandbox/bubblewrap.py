"""One process tree in a bubblewrap sandbox, and its end.

``bwrap`` (Debian's ``bubblewrap``) gives the command new user, PID, IPC, UTS, cgroup and network
namespaces (``--unshare-all``: its network holds only its own loopback, unless ``network`` is
asked for, which the build alone may be), a read-only ``/usr`` (with ``/bin``, ``/lib``,
``/lib64``), a few read-only files of ``/etc``, its own ``/proc``, ``/dev`` and a small ``/tmp``,
and one writable folder, the work folder, at ``/work``. It has no capabilities
(``--cap-drop ALL``), a session of its own (``--new-session``: no terminal to push keys into),
an empty environment but ``PATH``, ``HOME`` and what the caller sets (bwrap itself, PID 1 inside,
is started with nothing but ``PATH``), and dies with its parent.
``prlimit`` sets CPU seconds, address space, processes, file size and open files on the whole
tree. When the engine runs as root the tree runs as the caller's ``uid`` (a user of its own,
``sandbox.users``).

``stop`` ends it for good: SIGKILL to bwrap and its process group, then to every process still
in the sandbox's PID namespace (found in ``/proc``), so a child that detached itself (double
fork, ``setsid``) goes too.
"""

from __future__ import annotations

import contextlib
import functools
import os
import shutil
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from dittobench.sandbox import SandboxError

ETC_FILES = ("/etc/hosts", "/etc/localtime", "/etc/nsswitch.conf")
NETWORK_ETC = ("/etc/resolv.conf", "/etc/ssl", "/etc/ca-certificates", "/etc/pki")
WORK = "/work"
SAFE_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
FORWARD_PATH = "/opt/dittobench/forward.py"


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits of one sandboxed process tree (settings ``sandbox_*``)."""

    cpu_s: int = 900
    memory_bytes: int = 2 * 1024**3
    processes: int = 128
    file_bytes: int = 256 * 1024**2
    open_files: int = 512
    tmp_bytes: int = 64 * 1024**2


def bwrap_path() -> str | None:
    return shutil.which("bwrap")


@functools.cache
def usable() -> str:
    """``""`` when bubblewrap can make a sandbox here, else why not (asked once per process)."""
    found = bwrap_path()
    if found is None:
        return "bwrap is not installed (Debian package bubblewrap)"
    if shutil.which("prlimit") is None:
        return "prlimit is not installed (Debian package util-linux)"
    try:
        done = subprocess.run(  # noqa: S603 - fixed arguments
            [found, "--unshare-all", "--ro-bind", "/usr", "/usr", *_usr_links(), "true"],
            capture_output=True,
            timeout=20,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap cannot run: {exc}"
    if done.returncode != 0:
        return "bwrap cannot create namespaces: " + done.stderr.decode(errors="replace").strip()
    return ""


def command_line(
    work: Path,
    argv: list[str],
    limits: Limits,
    *,
    env: dict[str, str],
    network: bool = False,
    chdir: str = WORK,
) -> list[str]:
    """The full command: ``prlimit … bwrap … argv`` with ``work`` at ``/work``."""
    found = bwrap_path()
    if found is None:
        raise SandboxError("bubblewrap (bwrap) is not installed; apt-get install bubblewrap")
    line = [
        "prlimit",
        f"--cpu={limits.cpu_s}",
        f"--as={limits.memory_bytes}",
        f"--nproc={limits.processes}",
        f"--fsize={limits.file_bytes}",
        f"--nofile={limits.open_files}",
        "--",
        found,
        "--unshare-all",
        *(["--share-net"] if network else []),
        "--die-with-parent",
        "--new-session",
        "--cap-drop",
        "ALL",
        "--hostname",
        "sandbox",
        "--ro-bind",
        "/usr",
        "/usr",
        *_usr_links(),
        "--proc",
        "/proc",
        "--dev",
        "/dev",
        "--size",
        str(limits.tmp_bytes),
        "--tmpfs",
        "/tmp",  # noqa: S108 - the sandbox's own tmpfs
    ]
    for path in ETC_FILES + (NETWORK_ETC if network else ()):
        line += ["--ro-bind-try", path, path]
    line += ["--bind", str(work), WORK]
    # A copy beside the work folder, readable by the sandbox's user wherever the package is.
    line += ["--ro-bind", str(work.parent / "forward.py"), FORWARD_PATH]
    line += ["--clearenv", "--setenv", "PATH", f"{WORK}/venv/bin:/usr/bin:/bin"]
    line += ["--setenv", "HOME", f"{WORK}/home", "--setenv", "TMPDIR", "/tmp"]  # noqa: S108
    for name, value in env.items():
        line += ["--setenv", name, value]
    line += ["--chdir", chdir, "--", *argv]
    return line


def _usr_links() -> list[str]:
    """``/bin``, ``/lib``, ``/lib64`` and ``/sbin`` as the host has them: links into ``/usr``
    (merged ``/usr``) or read-only binds."""
    out: list[str] = []
    for top in ("/bin", "/lib", "/lib64", "/sbin"):
        if os.path.islink(top):
            out += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            out += ["--ro-bind", top, top]
    return out


class Sandboxed:
    """A started sandbox: its process, and its end by ``stop``."""

    def __init__(
        self, line: list[str], log: Path, uid: int | None, pass_fds: tuple[int, ...] = ()
    ) -> None:
        with log.open("ab") as out:
            self.process = subprocess.Popen(  # noqa: S603 - our command line; argv is data
                line,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                user=uid,
                group=uid,
                extra_groups=[] if uid is not None else None,
                close_fds=True,
                pass_fds=pass_fds,
                # bwrap's own process (PID 1 inside) keeps the environment it is started with,
                # readable in /proc/1/environ: never the engine's (its tokens, its URLs).
                env={"PATH": SAFE_PATH},
            )
        self.log = log
        self._namespace = ""

    def namespace(self) -> str:
        """The sandbox's PID namespace (``pid:[…]``), once its first process has started."""
        if not self._namespace:
            self._namespace = _child_namespace(self.process.pid)
        return self._namespace

    def wait(self, timeout: float) -> int:
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            raise

    def stop(self) -> None:
        """Kill the whole tree, detached children included."""
        namespace = self.namespace()
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.process.wait(5)
        if namespace:
            deadline = time.monotonic() + 5
            while (left := in_namespace(namespace)) and time.monotonic() < deadline:
                for pid in left:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
                time.sleep(0.05)

    def tail(self, chars: int = 2000) -> str:
        with contextlib.suppress(OSError), self.log.open("rb") as stream:
            stream.seek(max(0, self.log.stat().st_size - chars))
            return stream.read().decode("utf-8", "replace").strip()
        return ""


def _child_namespace(pid: int) -> str:
    """The PID namespace of the first process below ``pid`` whose namespace differs (bwrap's
    sandbox init), found by walking ``/proc/*/task/*/children`` down from ``pid``."""
    own = _ns_of(pid)
    frontier = [pid]
    for _ in range(4):
        nxt: list[int] = []
        for parent in frontier:
            for child in _children(parent):
                ns = _ns_of(child)
                if ns and ns != own:
                    return ns
                nxt.append(child)
        frontier = nxt
    return ""


def _children(pid: int) -> list[int]:
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError):
                text = Path(f"/proc/{pid}/task/{task}/children").read_text()
                found += [int(p) for p in text.split()]
    return found


def _ns_of(pid: int) -> str:
    try:
        return os.readlink(f"/proc/{pid}/ns/pid")
    except OSError:
        return ""


def in_namespace(namespace: str) -> list[int]:
    """Every live process in the PID namespace ``namespace`` (a zombie, dead and waiting for
    whoever reaps it, is not one)."""
    pids = []
    for entry in os.listdir("/proc"):
        if entry.isdigit() and _ns_of(int(entry)) == namespace and not _zombie(int(entry)):
            pids.append(int(entry))
    return pids


def _zombie(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return True  # gone already
    return stat.rpartition(")")[2].split()[:1] == ["Z"]


__all__ = [
    "FORWARD_PATH",
    "WORK",
    "Limits",
    "Sandboxed",
    "bwrap_path",
    "command_line",
    "in_namespace",
    "usable",
]
