"""One process tree in a bubblewrap sandbox, and its end.

``bwrap`` (Debian's ``bubblewrap``) gives the command new user, PID, IPC, UTS, cgroup and network
namespaces (``--unshare-all``: its network holds only its own loopback, unless ``network`` is
asked for, which the build alone may be), a read-only ``/usr`` (with ``/bin``, ``/lib``,
``/lib64``), a few read-only files of ``/etc``, its own ``/proc``, ``/dev`` and a small ``/tmp``,
and one writable folder, the work folder, at ``/work``: for the build the host's folder, for the
harness's run a tmpfs of ``Limits.disk_bytes`` (its disk quota) holding a copy of the archive,
with the built venv read-only. It has no capabilities (``--cap-drop ALL``), no way to make
namespaces or trace, mount and the like (the seccomp filter of ``sandbox.seccomp``, and
``--disable-userns`` where this bwrap has it), a session of its own (``--new-session``: no
terminal to push keys into), an empty environment but ``PATH``, ``HOME`` and what the caller
sets (bwrap itself, PID 1 inside, is started with nothing but ``PATH``), and dies with its
parent. ``prlimit`` sets CPU seconds, address space, processes, file size and open files on
each process of the tree; ``sandbox.bounds`` bounds the memory of the whole tree together (a
cgroup v2, else a watchdog) and ends the sandbox when its work folder is full, saying why
(``Sandboxed.ended``). When the engine runs as root the tree runs as the caller's ``uid`` (a
user of its own, ``sandbox.users``).

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
from dittobench.sandbox.bounds import (
    WATCH_S,
    TreeBounds,
    TreeCgroup,
    Watchdog,
    host_memory_parent,
)
from dittobench.sandbox.seccomp import program_fd

ETC_FILES = ("/etc/hosts", "/etc/localtime", "/etc/nsswitch.conf")
NETWORK_ETC = ("/etc/resolv.conf", "/etc/ssl", "/etc/ca-certificates", "/etc/pki")
WORK = "/work"
SAFE_PATH = "/usr/sbin:/usr/bin:/sbin:/bin"
FORWARD_PATH = "/opt/dittobench/forward.py"
ARCHIVE_PATH = "/opt/dittobench/archive"


@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits of one sandboxed process tree (settings ``sandbox_*``)."""

    cpu_s: int = 900
    memory_bytes: int = 2 * 1024**3
    processes: int = 128
    file_bytes: int = 256 * 1024**2
    open_files: int = 512
    tmp_bytes: int = 64 * 1024**2
    total_memory_bytes: int = 2 * 1024**3
    """Memory of the whole tree together (``bounds``)."""
    disk_bytes: int = 256 * 1024**2
    """Size of the running harness's work folder (a tmpfs: RAM, so well below free memory)."""


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
    # As a sandbox is made: its namespaces, a sized tmpfs and the seccomp filter.
    line = [found, "--unshare-all", *_no_userns(), "--ro-bind", "/usr", "/usr", *_usr_links()]
    line += ["--size", str(1024 * 1024), "--tmpfs", WORK, "--seccomp"]
    try:
        with program_fd() as fd:
            done = subprocess.run(  # noqa: S603 - fixed arguments
                [*line, str(fd), "true"],
                capture_output=True,
                timeout=20,
                check=False,
                pass_fds=(fd,),
            )
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"bwrap cannot run: {exc}"
    if done.returncode != 0:
        return "bwrap cannot make a sandbox: " + done.stderr.decode(errors="replace").strip()
    return ""


@functools.cache
def disables_userns() -> bool:
    """Whether this bwrap has ``--disable-userns`` (bubblewrap 0.8 and later)."""
    found = bwrap_path()
    if found is None:
        return False
    try:
        done = subprocess.run(  # noqa: S603 - fixed arguments
            [found, "--help"], capture_output=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return b"--disable-userns" in done.stdout + done.stderr


def _no_userns() -> list[str]:
    """No user namespace inside (one would hold every capability): the seccomp filter refuses
    one, and where this bwrap can, it sets the kernel's count of them to 0 too."""
    return ["--unshare-user", "--disable-userns"] if disables_userns() else []


def command_line(
    work: Path,
    argv: list[str],
    limits: Limits,
    *,
    env: dict[str, str],
    seccomp_fd: int,
    network: bool = False,
    chdir: str = WORK,
    running: bool = False,
) -> list[str]:
    """The full command: ``prlimit … bwrap … argv`` with ``work`` at ``/work``, the seccomp
    program (``seccomp.program_fd``) read from ``seccomp_fd``. ``running``: the harness's own
    run, whose ``/work`` is a tmpfs of ``limits.disk_bytes`` (see ``_work_mounts``)."""
    found = bwrap_path()
    if found is None:
        raise SandboxError("bubblewrap (bwrap) is not installed; apt-get install bubblewrap")
    line = [*_prlimit(limits), found, *_isolation(seccomp_fd, network, limits.tmp_bytes)]
    for path in ETC_FILES + (NETWORK_ETC if network else ()):
        line += ["--ro-bind-try", path, path]
    line += _work_mounts(work, limits.disk_bytes if running else 0)
    # A copy beside the work folder, readable by the sandbox's user wherever the package is.
    line += ["--ro-bind", str(work.parent / "forward.py"), FORWARD_PATH]
    line += ["--clearenv", "--setenv", "PATH", f"{WORK}/venv/bin:/usr/bin:/bin"]
    line += ["--setenv", "HOME", f"{WORK}/home", "--setenv", "TMPDIR", "/tmp"]  # noqa: S108
    for name, value in env.items():
        line += ["--setenv", name, value]
    if running:  # the archive copied into the tmpfs first: the harness may write beside it
        copy = f'cp -R --preserve=mode,timestamps {ARCHIVE_PATH}/. {WORK}/src/ && exec "$@"'
        argv = ["/bin/sh", "-c", copy, "sh", *argv]
    line += ["--chdir", chdir, "--", *argv]
    return line


def _prlimit(limits: Limits) -> list[str]:
    """``prlimit`` with the per-process limits the whole sandbox runs under, up to its ``--``."""
    return [
        "prlimit",
        f"--cpu={limits.cpu_s}",
        f"--as={limits.memory_bytes}",
        f"--nproc={limits.processes}",
        f"--fsize={limits.file_bytes}",
        f"--nofile={limits.open_files}",
        "--",
    ]


def _isolation(seccomp_fd: int, network: bool, tmp_bytes: int) -> list[str]:
    """bwrap's namespaces, seccomp program, dropped capabilities and the read-only system the
    command sees: ``/usr``, ``/proc``, ``/dev`` and a ``/tmp`` tmpfs of ``tmp_bytes``."""
    return [
        "--unshare-all",
        *(["--share-net"] if network else []),
        *_no_userns(),
        "--seccomp",
        str(seccomp_fd),
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
        str(tmp_bytes),
        "--tmpfs",
        "/tmp",  # noqa: S108 - the sandbox's own tmpfs
    ]


def _work_mounts(work: Path, disk_bytes: int) -> list[str]:
    """The host's work folder at ``/work``, writable: for the build, which fills it (the venv).
    With ``disk_bytes``, for the run: ``/work`` is a tmpfs of that size (the quota of what the
    harness writes), the built venv and the bridge's socket folder read-only in it, the
    unpacked archive read-only at ``ARCHIVE_PATH`` (copied to ``/work/src`` as it starts)."""
    if not disk_bytes:
        return ["--bind", str(work), WORK]
    return [
        "--size", str(disk_bytes), "--tmpfs", WORK,
        "--ro-bind", str(work / "venv"), f"{WORK}/venv",
        "--ro-bind", str(work / "sock"), f"{WORK}/sock",
        "--ro-bind", str(work / "src"), ARCHIVE_PATH,
        "--dir", f"{WORK}/src", "--dir", f"{WORK}/home",
    ]  # fmt: skip


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


GATE = 'read -r _ && exec "$@" </dev/null'
"""What the sandbox's first process runs before ``prlimit``: it waits for a line on its stdin,
so that it can be put in its cgroup before it has any child (children are born in their
parent's cgroup). Without the line (the engine died) it exits without starting anything."""


class Sandboxed:
    """A started sandbox: its process, the bounds over its tree (``bounds``: a cgroup or a
    watchdog), why it was ended early (``ended``; ``""`` when it was not), and its end by
    ``stop``."""

    def __init__(
        self,
        line: list[str],
        log: Path,
        uid: int | None,
        pass_fds: tuple[int, ...] = (),
        bounds: TreeBounds | None = None,
    ) -> None:
        bounds = bounds or TreeBounds()
        self.log = log
        self.ended = ""
        self._namespace = ""
        self.cgroup = _cgroup_for(bounds)
        try:
            self.process = _spawn(line, log, uid, pass_fds)
        except BaseException:
            if self.cgroup is not None:
                self.cgroup.remove()
            raise
        if self.cgroup is not None:
            try:
                self.cgroup.place(self.process.pid)
            except OSError:  # made but not joinable (delegation ends above it): the watchdog
                self.cgroup.remove()
                self.cgroup = None
        self.watchdog = Watchdog(bounds, self._pids, self._alive, self.end, self.cgroup)
        try:
            assert self.process.stdin is not None
            with self.process.stdin as gate:
                gate.write(b"go\n")
        except OSError as exc:
            self.stop()
            raise SandboxError(f"cannot start the sandbox: {exc}") from None
        self.watchdog.start()

    def namespace(self) -> str:
        """The sandbox's PID namespace (``pid:[…]``), once its first process has started."""
        if not self._namespace:
            self._namespace = _child_namespace(self.process.pid)
        return self._namespace

    def _pids(self) -> list[int]:
        namespace = self.namespace()
        return in_namespace(namespace) if namespace else []

    def _alive(self) -> bool:
        return self.process.poll() is None

    def wait(self, timeout: float) -> int:
        try:
            return self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.stop()
            raise

    def end(self, reason: str) -> None:
        """End the sandbox because of ``reason`` (the first reason given is kept)."""
        if not self.ended:
            self.ended = reason
        self.stop()

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
        self.watchdog.stop()
        if not self.ended:  # the kernel may have ended it (a cgroup's OOM kill) between looks
            self.ended = self.watchdog.check()
        if self.cgroup is not None:
            self.cgroup.remove()

    def tail(self, chars: int = 2000) -> str:
        with contextlib.suppress(OSError), self.log.open("rb") as stream:
            stream.seek(max(0, self.log.stat().st_size - chars))
            return stream.read().decode("utf-8", "replace").strip()
        return ""


def _spawn(
    line: list[str], log: Path, uid: int | None, pass_fds: tuple[int, ...]
) -> subprocess.Popen[bytes]:
    """``line`` started behind the gate (``GATE``), in a session of its own, as ``uid``."""
    with log.open("ab") as out:
        return subprocess.Popen(  # noqa: S603 - our command line; argv is data
            ["/bin/sh", "-c", GATE, "sh", *line],
            stdin=subprocess.PIPE,
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


def _cgroup_for(bounds: TreeBounds) -> TreeCgroup | None:
    """A cgroup bounding the tree's memory where this host allows one, else None (the
    watchdog bounds it)."""
    if not bounds.memory_bytes:
        return None
    parent, _why = host_memory_parent()
    if parent is None:
        return None
    try:
        return TreeCgroup(parent, bounds.memory_bytes)
    except OSError:
        return None


def memory_accounting() -> str:
    """How a sandbox's memory is bounded on this host, for the operator: the cgroup parent, or
    why the watchdog does it."""
    parent, why = host_memory_parent()
    if parent is not None:
        return f"cgroup v2 (memory.max) under {parent}"
    return f"watchdog summing resident memory every {WATCH_S:g} s ({why})"


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
    "ARCHIVE_PATH",
    "FORWARD_PATH",
    "WORK",
    "Limits",
    "Sandboxed",
    "bwrap_path",
    "command_line",
    "disables_userns",
    "in_namespace",
    "memory_accounting",
    "usable",
]
