"""The tree bounds' parts that need no sandbox: choosing a cgroup v2 parent (on a made-up
cgroup tree: this machine's may be v1), a sandbox's cgroup files, the resident memory read from
/proc, the watchdog's verdicts, and the command line's work folder (a sized tmpfs when the
harness runs) and seccomp descriptor."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from dittobench.sandbox.bounds import (
    TreeBounds,
    TreeCgroup,
    Watchdog,
    folder_full,
    memory_parent,
    resident_bytes,
)
from dittobench.sandbox.bubblewrap import Limits, bwrap_path, command_line

MIB = 1024 * 1024


def cgroup_tree(root: Path, own: str, controllers: str, subtree: str = "") -> Path:
    (root / "cgroup.controllers").parent.mkdir(parents=True, exist_ok=True)
    (root / "cgroup.controllers").write_text("cpu memory pids\n")
    folder = root / own.lstrip("/")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cgroup.controllers").write_text(controllers + "\n")
    (folder / "cgroup.subtree_control").write_text(subtree + "\n")
    return folder


def test_a_cgroup_parent_only_where_memory_is_delegated(tmp_path: Path) -> None:
    v1 = tmp_path / "v1"
    (v1 / "memory").mkdir(parents=True)
    assert memory_parent(v1, "4:memory:/x\n0::/\n") == (
        None,
        f"{v1} is not a cgroup v2 mount (cgroups v1 or hybrid here)",
    )
    assert memory_parent(v1, "4:memory:/x\n")[1] == "this process is in no cgroup v2"
    bare = tmp_path / "bare"
    own = cgroup_tree(bare, "/svc", "cpu pids")
    assert memory_parent(bare, "0::/svc\n") == (
        None,
        f"the memory controller is not delegated to {own}",
    )
    delegated = tmp_path / "delegated"
    own = cgroup_tree(delegated, "/user.slice/svc", "cpu memory pids")
    assert memory_parent(delegated, "0::/user.slice/svc\n") == (own, "")
    assert (own / "cgroup.subtree_control").read_text() == "+memory"  # enabled for children
    enabled = tmp_path / "enabled"
    own = cgroup_tree(enabled, "/", "memory", "memory")
    assert memory_parent(enabled, "0::/\n") == (own, "")


def test_a_sandbox_cgroup_holds_its_bound_and_counts_oom_kills(tmp_path: Path) -> None:
    (tmp_path / "parent").mkdir()
    group = TreeCgroup(tmp_path / "parent", 64 * MIB)
    assert group.path.parent == tmp_path / "parent"
    assert (group.path / "memory.max").read_text() == str(64 * MIB)
    assert (group.path / "memory.oom.group").read_text() == "1"
    group.place(4242)
    assert (group.path / "cgroup.procs").read_text() == "4242"
    assert group.oom_kills() == 0
    (group.path / "memory.events").write_text("low 0\nhigh 0\nmax 12\noom 1\noom_kill 3\n")
    assert group.oom_kills() == 3
    for name in ("memory.max", "memory.oom.group", "cgroup.procs", "memory.events"):
        (group.path / name).unlink()  # a real cgroup's files go with it
    group.remove()
    assert not group.path.exists()


def test_resident_memory_and_free_space_are_read_from_proc(tmp_path: Path) -> None:
    mine = resident_bytes([os.getpid()])
    assert 5 * MIB < mine < 4096 * MIB
    assert resident_bytes([os.getpid(), 2**22 + 7]) == mine  # a pid gone counts nothing
    assert folder_full([os.getpid()], str(tmp_path)) is False
    assert folder_full([2**22 + 7], str(tmp_path)) is None


def test_the_watchdog_names_what_is_over() -> None:
    ended: list[str] = []

    def watchdog(bounds: TreeBounds, cgroup: TreeCgroup | None = None) -> Watchdog:
        return Watchdog(bounds, lambda: [os.getpid()], lambda: True, ended.append, cgroup)

    assert watchdog(TreeBounds(memory_bytes=4096 * MIB)).check() == ""
    over = watchdog(TreeBounds(memory_bytes=MIB)).check()
    assert over.startswith("its 1 processes held ") and "bound of 1 MiB" in over
    assert watchdog(TreeBounds(disk_path="/", disk_bytes=MIB)).check() == ""
    assert ended == []


@pytest.mark.skipif(bwrap_path() is None, reason="bwrap is not installed")
def test_the_running_harness_writes_into_a_sized_tmpfs(tmp_path: Path) -> None:
    limits = Limits(disk_bytes=48 * MIB)
    build = command_line(tmp_path, ["true"], limits, env={}, seccomp_fd=9)
    assert build[build.index("--seccomp") + 1] == "9"
    assert build[build.index("--bind") + 1 : build.index("--bind") + 3] == [str(tmp_path), "/work"]
    run = command_line(tmp_path, ["true"], limits, env={}, seccomp_fd=9, running=True)
    at = run.index("--tmpfs", run.index("/tmp") + 1)
    assert run[at - 2 : at + 2] == ["--size", str(48 * MIB), "--tmpfs", "/work"]
    assert "--bind" not in run  # nothing of the host is writable
    assert ["--ro-bind", str(tmp_path / "venv"), "/work/venv"] == run[at + 2 : at + 5]
    assert run[-2:] == ["sh", "true"] and run[-5] == "/bin/sh"  # the archive copied in first
