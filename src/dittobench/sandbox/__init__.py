"""Submitted source archives: safe intake (``archive``), the harness layout (``layout``), the
anti-copy fingerprint (``fingerprint``) and the bubblewrap sandbox that builds and runs them
(``bubblewrap``, ``forward``, ``harness``). docs/service.md, "Source archives"."""

from dittobench.core.errors import DittobenchError


class SandboxError(DittobenchError, RuntimeError):
    """A submitted archive that cannot be built or run, or a sandbox that cannot be made; the
    message names what and where."""

    exit_code = 1
    http_status = 502


class ArchiveError(SandboxError, ValueError):
    """A source archive refused at intake; the message names the member."""

    exit_code = 2
    http_status = 400


__all__ = ["ArchiveError", "SandboxError"]
