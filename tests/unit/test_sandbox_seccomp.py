"""The seccomp program, run here on a small classic-BPF interpreter: every refused call of
both architectures gets EPERM, clone with a namespace flag too, clone3 ENOSYS, other calls
pass, a foreign architecture (and x86's x32 calls) is killed; its call numbers match the
kernel's headers where they are installed; the bytes are the same every time."""

from __future__ import annotations

import errno
import re
import struct
from pathlib import Path

import pytest

from dittobench.sandbox.seccomp import (
    AARCH64,
    ARCHES,
    CLONE_NAMESPACES,
    REFUSED,
    RET_ALLOW,
    RET_ERRNO,
    RET_KILL_PROCESS,
    X86_64,
    Arch,
    instructions,
    program,
)

AUDIT_ARCH_I386 = 0x40000003
EPERM, ENOSYS = RET_ERRNO | errno.EPERM, RET_ERRNO | errno.ENOSYS
THREAD_FLAGS = 0x003D0F00  # CLONE_VM|FS|FILES|SIGHAND|THREAD|SYSVSEM|SETTLS|*_TID, as pthreads
FORK_FLAGS = 0x01200011  # CLONE_CHILD_SETTID|CHILD_CLEARTID|SIGCHLD, as fork()
ORDINARY = {"x86_64": {"read": 0, "openat": 257, "exit_group": 231},
            "aarch64": {"read": 63, "openat": 56, "exit_group": 94}}  # fmt: skip


REQUIRED = (
    "unshare", "setns", "ptrace", "mount", "umount2", "pivot_root", "keyctl", "add_key",
    "request_key", "bpf", "perf_event_open", "userfaultfd", "kexec_load", "init_module",
    "finit_module", "delete_module", "reboot", "swapon", "swapoff", "process_vm_readv",
    "process_vm_writev", "open_by_handle_at",
)  # fmt: skip
"""What the filter must refuse whatever else it does (the sandbox's contract, docs/service.md)."""


def run(nr: int, arch: int, arg0: int = 0) -> int:
    """What the program returns for one call (``struct seccomp_data``, args[0] = ``arg0``)."""
    data = struct.pack("=iIQ6Q", nr, arch, 0, arg0, 0, 0, 0, 0, 0)
    prog = instructions()
    pc = acc = 0
    for _ in range(len(prog)):
        code, jt, jf, k = prog[pc]
        if code == 0x20:
            acc, pc = struct.unpack_from("=I", data, k)[0], pc + 1
        elif code in (0x15, 0x35, 0x45):
            taken = {0x15: acc == k, 0x35: acc >= k, 0x45: bool(acc & k)}[code]
            pc += 1 + (jt if taken else jf)
        elif code == 0x06:
            return k
        else:
            raise AssertionError(f"unknown instruction {code:#x}")
    raise AssertionError("the program ran off its end")


@pytest.mark.parametrize("arch", ARCHES, ids=lambda a: a.name)
def test_refused_calls_get_eperm_and_others_pass(arch: Arch) -> None:
    assert set(REQUIRED) <= set(REFUSED)
    for call in REFUSED:
        assert run(arch.numbers[call], arch.audit) == EPERM, call
    for call, nr in ORDINARY[arch.name].items():
        assert run(nr, arch.audit) == RET_ALLOW, call
    clone = arch.numbers["clone"]
    assert run(clone, arch.audit, THREAD_FLAGS) == RET_ALLOW  # threads
    assert run(clone, arch.audit, FORK_FLAGS) == RET_ALLOW  # fork, subprocess
    for bit in range(32):
        if CLONE_NAMESPACES & (1 << bit):
            assert run(clone, arch.audit, FORK_FLAGS | (1 << bit)) == EPERM, hex(1 << bit)
    assert run(arch.numbers["clone3"], arch.audit) == ENOSYS


def test_a_foreign_architecture_and_x32_calls_are_killed() -> None:
    assert run(0, AUDIT_ARCH_I386) == RET_KILL_PROCESS
    assert run(X86_64.numbers["unshare"], 0) == RET_KILL_PROCESS
    assert run(0x40000000 | 0, X86_64.audit) == RET_KILL_PROCESS  # x32 read
    assert run(0x40000000 | 272, X86_64.audit) == RET_KILL_PROCESS  # x32 unshare


def test_the_program_is_well_formed_and_the_same_every_time() -> None:
    prog = instructions()
    assert program() == program() and len(program()) == 8 * len(prog)
    assert len(prog) < 4096  # BPF_MAXINSNS
    for at, (code, jt, jf, _k) in enumerate(prog):
        if code in (0x15, 0x35, 0x45):
            assert at + 1 + max(jt, jf) < len(prog)
    assert set(REFUSED) | {"clone", "clone3"} == set(X86_64.numbers) == set(AARCH64.numbers)


HEADERS = {
    "x86_64": Path("/usr/include/x86_64-linux-gnu/asm/unistd_64.h"),
    "aarch64": Path("/usr/include/asm-generic/unistd.h"),
}


@pytest.mark.parametrize("arch", ARCHES, ids=lambda a: a.name)
def test_call_numbers_match_the_kernel_headers(arch: Arch) -> None:
    header = HEADERS[arch.name]
    if not header.is_file():
        pytest.skip(f"{header} is not installed (linux-libc-dev)")
    text = header.read_text()
    for call, nr in arch.numbers.items():
        found = re.search(rf"^#define __NR(?:3264)?_{call}\s+(\d+)\s*$", text, re.MULTILINE)
        assert found is not None, call
        assert int(found.group(1)) == nr, call
