"""The sandbox's part of the service settings (``max_archive_bytes``, ``sandbox_*``) as the
``SandboxConfig`` the job driver builds and runs archives with, and the body cap of a submit."""

from __future__ import annotations

from dittobench.sandbox.archive import ArchiveLimits
from dittobench.sandbox.bubblewrap import Limits
from dittobench.sandbox.harness import SandboxConfig
from dittobench.service.settings import ServiceSettings

MIB = 1024 * 1024


def sandbox_config(settings: ServiceSettings) -> SandboxConfig:
    return SandboxConfig(
        limits=Limits(
            cpu_s=settings.sandbox_cpu_s,
            memory_bytes=settings.sandbox_memory_mb * MIB,
            processes=settings.sandbox_processes,
            file_bytes=settings.sandbox_file_mb * MIB,
            total_memory_bytes=settings.sandbox_total_memory_mb * MIB,
            disk_bytes=settings.sandbox_disk_mb * MIB,
        ),
        archive_limits=ArchiveLimits(max_archive_bytes=settings.max_archive_bytes),
        build_s=settings.sandbox_build_s,
        run_s=settings.sandbox_run_s,
        index_url=settings.sandbox_index_url,
        build_network=settings.sandbox_build_network,
    )


def archive_body_bytes(settings: ServiceSettings) -> int:
    """The body cap of ``POST /v1/submit``: room for the largest archive in base64 and JSON."""
    return max(settings.max_body_bytes, settings.max_archive_bytes * 4 // 3 + 64 * 1024)


__all__ = ["archive_body_bytes", "sandbox_config"]
