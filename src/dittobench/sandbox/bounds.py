"""Bounds over a sandbox's whole process tree, which per-process limits (``prlimit``) cannot
give: the memory of all its processes together, and how full its work folder is.

Memory. Where this host lets us, the tree runs in a cgroup v2 of its own: a child of this
process's cgroup, made when the memory controller is delegated to it (it is listed in its
``cgroup.controllers`` and can be enabled in its ``cgroup.subtree_control``, and the folder is
writable), with ``memory.max`` the bound, ``memory.swap.max`` 0 and ``memory.oom.group`` 1: the
kernel counts every page of the tree (its tmpfs pages too) and past the bound kills the whole
group; its ``memory.events`` tell afterwards that it did. Elsewhere (cgroups v1 or hybrid, or
not delegated) a ``Watchdog`` thread sums the resident memory of every process in the
sandbox's PID namespace (``/proc/PID/statm``: pages shared between processes counted in each)
every ``WATCH_S`` seconds and kills the tree past the bound, so a tree can overshoot the bound
for at most that long.

Disk. The run's writable work folder is a tmpfs of a fixed size (``bubblewrap``): a write past
it fails with ``ENOSPC``. The watchdog also reads that folder's free space through the
sandbox's own root (``/proc/PID/root``) and, when it finds it full, ends the sandbox.

Either way the reason is handed to ``end`` (``Sandboxed.end``), and the run fails with it.
"""

from __future__ import annotations

import contextlib
import functools
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

WATCH_S = 0.5
"""How often the watchdog looks."""
CGROUP_ROOT = Path("/sys/fs/cgroup")
MIB = 1024 * 1024


@dataclass(frozen=True, slots=True)
class TreeBounds:
    """What is bounded over one sandbox's tree: its memory (0: not bounded) and, when
    ``disk_path`` is set, the tmpfs of ``disk_bytes`` at that path inside the sandbox."""

    memory_bytes: int = 0
    disk_path: str = ""
    disk_bytes: int = 0


def mib(count: int) -> str:
    return f"{count / MIB:.0f} MiB"


def memory_parent(root: Path, membership: str) -> tuple[Path | None, str]:
    """The cgroup v2 folder under which a sandbox's cgroup can be made, from the cgroup mount
    ``root`` and this process's ``/proc/self/cgroup`` text; else ``None`` and why not."""
    unified = next((line[3:] for line in membership.splitlines() if line.startswith("0::")), "")
    if not unified:
        return None, "this process is in no cgroup v2"
    if not (root / "cgroup.controllers").is_file():
        return None, f"{root} is not a cgroup v2 mount (cgroups v1 or hybrid here)"
    own = root / unified.strip().lstrip("/")
    try:
        if "memory" not in (own / "cgroup.controllers").read_text().split():
            return None, f"the memory controller is not delegated to {own}"
        if "memory" not in (own / "cgroup.subtree_control").read_text().split():
            (own / "cgroup.subtree_control").write_text("+memory")
    except OSError as exc:  # EBUSY: processes live in it (only the root may enable then)
        return None, f"cannot give {own}'s children the memory controller: {exc.strerror}"
    if not os.access(own, os.W_OK):
        return None, f"{own} is not writable"
    return own, ""


@functools.cache
def host_memory_parent() -> tuple[Path | None, str]:
    """``memory_parent`` for this host, asked once per process."""
    try:
        membership = Path("/proc/self/cgroup").read_text()
    except OSError as exc:
        return None, f"cannot read /proc/self/cgroup: {exc.strerror}"
    return memory_parent(CGROUP_ROOT, membership)


class TreeCgroup:
    """One sandbox's cgroup: made with its bound, joined by the tree's first process, read
    for OOM kills, removed at the end."""

    def __init__(self, parent: Path, memory_bytes: int) -> None:
        self.path = parent / f"dittobench-sandbox-{os.getpid()}-{os.urandom(4).hex()}"
        self.path.mkdir()
        try:
            (self.path / "memory.max").write_text(str(memory_bytes))
            if (self.path / "memory.swap.max").exists():
                (self.path / "memory.swap.max").write_text("0")
            (self.path / "memory.oom.group").write_text("1")  # one OOM kill takes them all
        except OSError:
            self.remove()
            raise
        self.memory_bytes = memory_bytes

    def place(self, pid: int) -> None:
        """Move ``pid`` in (before it starts anything: its children are born inside)."""
        (self.path / "cgroup.procs").write_text(str(pid))

    def oom_kills(self) -> int:
        try:
            text = (self.path / "memory.events").read_text()
        except OSError:
            return 0
        counts = dict(line.split() for line in text.splitlines() if len(line.split()) == 2)
        return int(counts.get("oom_kill", "0")) + int(counts.get("oom_group_kill", "0"))

    def remove(self) -> None:
        with contextlib.suppress(OSError):
            self.path.rmdir()


def resident_bytes(pids: list[int]) -> int:
    """The resident memory of ``pids`` summed (a process gone meanwhile counts 0)."""
    page = os.sysconf("SC_PAGE_SIZE")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError, IndexError):
            total += int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * page
    return total


def folder_full(pids: list[int], path: str) -> bool | None:
    """Whether the filesystem at ``path`` inside the sandbox has no block left, read through
    the root of the first of ``pids`` that lets us; None when none does."""
    for pid in pids:
        try:
            found = os.statvfs(f"/proc/{pid}/root{path}")
        except OSError:
            continue
        return found.f_bavail == 0
    return None


class Watchdog:
    """A thread that, every ``WATCH_S`` s while the sandbox lives, ends it (``end(reason)``)
    when its tree is over its memory bound (without a cgroup; with one, when the cgroup
    reports an OOM kill) or its work folder is full."""

    def __init__(
        self,
        bounds: TreeBounds,
        pids: Callable[[], list[int]],
        alive: Callable[[], bool],
        end: Callable[[str], None],
        cgroup: TreeCgroup | None,
    ) -> None:
        self.bounds, self._pids, self._alive, self._end = bounds, pids, alive, end
        self.cgroup = cgroup
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="sandbox-watchdog", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._done.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(5)

    def _watch(self) -> None:
        while not self._done.wait(WATCH_S):
            alive = self._alive()
            reason = self.check()
            if reason:
                self._end(reason)
                return
            if not alive:
                return

    def check(self) -> str:
        """Why the sandbox must end now, or ``""``."""
        bounds = self.bounds
        if self.cgroup is not None and self.cgroup.oom_kills():
            return (
                f"its processes used more than the sandbox's memory bound of "
                f"{mib(bounds.memory_bytes)} together; the kernel killed them (cgroup)"
            )
        if not (bounds.memory_bytes and self.cgroup is None) and not bounds.disk_path:
            return ""
        pids = self._pids()
        if bounds.memory_bytes and self.cgroup is None:
            used = resident_bytes(pids)
            if used > bounds.memory_bytes:
                return (
                    f"its {len(pids)} processes held {mib(used)} of memory together, more "
                    f"than the sandbox's bound of {mib(bounds.memory_bytes)}; all were killed"
                )
        if bounds.disk_path and folder_full(pids, bounds.disk_path):
            return (
                f"it filled its work folder {bounds.disk_path} (the sandbox's disk quota of "
                f"{mib(bounds.disk_bytes)}; writes past it fail with ENOSPC)"
            )
        return ""


__all__ = [
    "WATCH_S",
    "TreeBounds",
    "TreeCgroup",
    "Watchdog",
    "folder_full",
    "host_memory_parent",
    "memory_parent",
    "resident_bytes",
]
