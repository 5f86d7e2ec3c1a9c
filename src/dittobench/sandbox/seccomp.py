"""The seccomp filter a sandboxed tree runs under: a classic-BPF program, written out here by
hand (no library; the same bytes every time), that bwrap installs with ``--seccomp FD`` just
before it starts the command.

The sandbox already has no capabilities, but a process that makes a new user namespace gets
every capability inside it, and with them the kernel's namespace, mount and key code to attack.
So the filter refuses (``EPERM``) the calls that make or enter namespaces (``unshare``,
``setns``, and ``clone`` with any namespace flag) and those a harness never needs whose kernel
code is a known way out: ``ptrace``, ``process_vm_readv``/``writev``, mounting (``mount``,
``umount2``, ``pivot_root`` and the new mount calls), kernel keys, ``bpf``,
``perf_event_open``, ``userfaultfd``, ``io_uring``, ``open_by_handle_at``, and those of
modules, ``kexec``, ``reboot`` and swap. ``clone3`` gets ``ENOSYS``: its flags are in memory a
filter cannot read, and ``ENOSYS`` makes the C library fall back to ``clone``, whose flags it
can. The architecture is checked first; a call of any other (32-bit x86, x32) kills the
process, since its numbers mean other calls.

Layout (``linux/seccomp.h``): the filter reads ``struct seccomp_data`` (``nr`` at 0, ``arch``
at 4, ``args[0]`` at 16: its low 32 bits on these little-endian machines); each instruction is
``struct sock_filter`` (``u16 code, u8 jt, u8 jf, u32 k``) in the machine's byte order.
"""

from __future__ import annotations

import contextlib
import errno
import os
import struct
from collections.abc import Iterator
from dataclasses import dataclass

AUDIT_ARCH_X86_64 = 0xC000003E
AUDIT_ARCH_AARCH64 = 0xC00000B7
X32_SYSCALL_BIT = 0x40000000

RET_KILL_PROCESS = 0x80000000
RET_ERRNO = 0x00050000
RET_ALLOW = 0x7FFF0000

LD_W_ABS = 0x20  # BPF_LD | BPF_W | BPF_ABS
JEQ_K = 0x15  # BPF_JMP | BPF_JEQ | BPF_K
JGE_K = 0x35  # BPF_JMP | BPF_JGE | BPF_K
JSET_K = 0x45  # BPF_JMP | BPF_JSET | BPF_K
RET_K = 0x06  # BPF_RET | BPF_K

NR_OFFSET, ARCH_OFFSET, ARG0_LOW_OFFSET = 0, 4, 16

CLONE_NAMESPACES = (
    0x00020000  # CLONE_NEWNS
    | 0x02000000  # CLONE_NEWCGROUP
    | 0x04000000  # CLONE_NEWUTS
    | 0x08000000  # CLONE_NEWIPC
    | 0x10000000  # CLONE_NEWUSER
    | 0x20000000  # CLONE_NEWPID
    | 0x40000000  # CLONE_NEWNET
)
"""``clone`` flags that make a namespace. (``CLONE_NEWTIME``, 0x80, shares its bit with the exit
signal in ``clone``'s flags and is taken only by ``unshare`` and ``clone3``, both refused.)"""

REFUSED = (
    "unshare", "setns", "ptrace", "process_vm_readv", "process_vm_writev",
    "mount", "umount2", "pivot_root", "fsopen", "fsconfig", "fsmount", "fspick", "move_mount",
    "open_tree", "mount_setattr", "keyctl", "add_key", "request_key", "bpf", "perf_event_open",
    "userfaultfd", "io_uring_setup", "io_uring_enter", "io_uring_register",
    "open_by_handle_at", "kexec_load", "kexec_file_load", "init_module", "finit_module",
    "delete_module", "reboot", "swapon", "swapoff",
)  # fmt: skip
"""Calls refused with ``EPERM`` on every architecture."""


@dataclass(frozen=True, slots=True)
class Arch:
    """One architecture's ``AUDIT_ARCH`` value and its call numbers."""

    name: str
    audit: int
    numbers: dict[str, int]


X86_64 = Arch(
    "x86_64",
    AUDIT_ARCH_X86_64,
    {
        "clone": 56, "clone3": 435, "ptrace": 101, "mount": 165, "umount2": 166,
        "pivot_root": 155, "swapon": 167, "swapoff": 168, "reboot": 169, "init_module": 175,
        "delete_module": 176, "kexec_load": 246, "kexec_file_load": 320, "unshare": 272,
        "setns": 308, "process_vm_readv": 310, "process_vm_writev": 311, "finit_module": 313,
        "bpf": 321, "userfaultfd": 323, "perf_event_open": 298, "keyctl": 250, "add_key": 248,
        "request_key": 249, "open_by_handle_at": 304, "open_tree": 428, "move_mount": 429,
        "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    },
)  # fmt: skip
AARCH64 = Arch(
    "aarch64",
    AUDIT_ARCH_AARCH64,
    {
        "clone": 220, "clone3": 435, "ptrace": 117, "mount": 40, "umount2": 39,
        "pivot_root": 41, "swapon": 224, "swapoff": 225, "reboot": 142, "init_module": 105,
        "delete_module": 106, "kexec_load": 104, "kexec_file_load": 294, "unshare": 97,
        "setns": 268, "process_vm_readv": 270, "process_vm_writev": 271, "finit_module": 273,
        "bpf": 280, "userfaultfd": 282, "perf_event_open": 241, "keyctl": 219, "add_key": 217,
        "request_key": 218, "open_by_handle_at": 265, "open_tree": 428, "move_mount": 429,
        "fsopen": 430, "fsconfig": 431, "fsmount": 432, "fspick": 433, "mount_setattr": 442,
        "io_uring_setup": 425, "io_uring_enter": 426, "io_uring_register": 427,
    },
)  # fmt: skip
ARCHES = (X86_64, AARCH64)

# An instruction before its jumps are resolved: (code, jump-if-true label, jump-if-false label, k);
# a label of "" falls through to the next instruction.
_Op = tuple[int, str, str, int]


def _arch_block(arch: Arch) -> list[tuple[str, _Op]]:
    """The checks of one architecture's calls, entered with nothing loaded."""
    name = arch.name
    ops: list[tuple[str, _Op]] = [(name, (LD_W_ABS, "", "", NR_OFFSET))]
    if arch is X86_64:  # x32 calls arrive as x86_64 with this bit set
        ops.append(("", (JGE_K, "kill", "", X32_SYSCALL_BIT)))
    ops.append(("", (JEQ_K, "clone", "", arch.numbers["clone"])))
    ops.append(("", (JEQ_K, "enosys", "", arch.numbers["clone3"])))
    for call in REFUSED:
        ops.append(("", (JEQ_K, "eperm", "", arch.numbers[call])))
    ops.append(("", (RET_K, "", "", RET_ALLOW)))
    return ops


def _labelled() -> list[tuple[str, _Op]]:
    """The whole program, each instruction with the label it carries (``""``: none)."""
    ops: list[tuple[str, _Op]] = [("", (LD_W_ABS, "", "", ARCH_OFFSET))]
    for index, arch in enumerate(ARCHES):
        last = index == len(ARCHES) - 1
        ops.append(("", (JEQ_K, arch.name, "kill" if last else "", arch.audit)))
    for arch in ARCHES:
        ops += _arch_block(arch)
    ops += [
        ("clone", (LD_W_ABS, "", "", ARG0_LOW_OFFSET)),
        ("", (JSET_K, "eperm", "", CLONE_NAMESPACES)),
        ("", (RET_K, "", "", RET_ALLOW)),
        ("eperm", (RET_K, "", "", RET_ERRNO | errno.EPERM)),
        ("enosys", (RET_K, "", "", RET_ERRNO | errno.ENOSYS)),
        ("kill", (RET_K, "", "", RET_KILL_PROCESS)),
    ]
    return ops


def instructions() -> list[tuple[int, int, int, int]]:
    """The program as ``(code, jt, jf, k)``, jumps resolved to forward offsets."""
    ops = _labelled()
    where = {label: at for at, (label, _op) in enumerate(ops) if label}
    out: list[tuple[int, int, int, int]] = []
    for at, (_label, (code, on_true, on_false, k)) in enumerate(ops):
        jumps = []
        for target in (on_true, on_false):
            offset = where[target] - at - 1 if target else 0
            if not 0 <= offset <= 255:  # classic BPF jumps forward only, at most 255
                raise ValueError(f"seccomp program: jump to {target} out of reach ({offset})")
            jumps.append(offset)
        out.append((code, jumps[0], jumps[1], k))
    return out


def program() -> bytes:
    """The program's bytes as bwrap's ``--seccomp`` reads them."""
    return b"".join(struct.pack("=HBBI", *ins) for ins in instructions())


@contextlib.contextmanager
def program_fd() -> Iterator[int]:
    """A readable file descriptor holding ``program()`` to its end (a pipe, written whole and
    closed: the program is far smaller than a pipe's buffer), for ``--seccomp FD``."""
    read, write = os.pipe()
    try:
        with os.fdopen(write, "wb") as out:
            out.write(program())
        yield read
    finally:
        os.close(read)


__all__ = [
    "AARCH64",
    "ARCHES",
    "CLONE_NAMESPACES",
    "REFUSED",
    "X86_64",
    "Arch",
    "instructions",
    "program",
    "program_fd",
]
