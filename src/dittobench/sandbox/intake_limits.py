"""What a submitted archive may hold, the caps ``archive`` and ``tarstream`` both enforce."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ArchiveLimits:
    """What a submitted archive may hold (settings ``archive_*``, docs/service.md)."""

    max_archive_bytes: int = 4 * 1024 * 1024
    max_files: int = 2000
    max_file_bytes: int = 8 * 1024 * 1024
    max_total_bytes: int = 32 * 1024 * 1024
    max_path_chars: int = 240
    max_depth: int = 24
    # Every tar header (files, folders, links, long-name and pax headers) or zip entry counts.
    max_members: int = 8000
    max_component_bytes: int = 255  # NAME_MAX: a longer name could never be written
    max_name_bytes: int = 1024  # a GNU long name, checked before tarfile reads it
    max_pax_bytes: int = 8 * 1024
    max_pax_total_bytes: int = 2 * 1024 * 1024
    # The decompressed tar stream: the files and room for every header and its padding.
    max_tar_bytes: int = 48 * 1024 * 1024


__all__ = ["ArchiveLimits"]
