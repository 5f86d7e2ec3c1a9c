"""Owner-only folders and files, whatever the process's umask.

Run stores, signing keys and run folders hold what another local user must not read or change
(seeds, tool-endpoint details, private keys), so their modes are set explicitly instead of being
left to an inherited umask (under umask 000 a plain ``mkdir`` makes a world-writable folder).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

DIR_MODE: Final = 0o700
FILE_MODE: Final = 0o600


def make_private_dirs(folder: Path) -> None:
    """Create ``folder`` and any missing parents, each created one with mode 0700. Folders that
    already exist keep their mode. ``NotADirectoryError`` when a path on the way is a file;
    other ``OSError`` as the system reports it."""
    missing: list[Path] = []
    here = folder
    while not os.path.lexists(here):
        missing.append(here)
        if here.parent == here:
            break
        here = here.parent
    if os.path.lexists(here) and not here.is_dir():
        raise NotADirectoryError(20, "Not a directory", str(here))
    for path in reversed(missing):
        try:
            path.mkdir(mode=DIR_MODE)
        except FileExistsError:  # made by a concurrent process: not ours to change
            if not path.is_dir():
                raise
            continue
        os.chmod(path, DIR_MODE)  # mkdir's mode is filtered by the umask


def create_private_file(path: Path, data: bytes = b"", mode: int = FILE_MODE) -> None:
    """Create ``path`` (mode 0600 unless told) holding ``data``. Never follows or replaces
    anything already there, a symlink included, even a dangling one: ``FileExistsError`` then."""
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, mode)
    try:
        os.fchmod(fd, mode)
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)
