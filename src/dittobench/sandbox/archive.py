"""Safe intake of a submitted source archive (tar.gz or zip) into memory.

Nothing touches the disk until every member has been checked. Refused, each with an error naming
the member: absolute paths (``/x``, ``C:x``, ``\\x``), ``..`` or empty components, backslashes,
NUL and control characters, over-long or over-deep paths, file or folder names over 255 bytes,
symbolic and hard links (every link, so none can point out), devices, FIFOs, sparse and other
special members, encrypted zip members, names given twice (also as file and folder at once), and
any cap exceeded: the archive's bytes, the file count, the member count (folders and tar's
long-name and pax headers count), one member's bytes and the total unpacked bytes (counted while
decompressing, so a member lying about its size cannot exhaust memory). What a tar header may
make ``tarfile`` do is bounded before it reads the header (``tarstream``). A single top-level
folder (the shape of a GitHub tarball) is stripped. ``unpack`` writes the files with plain modes
(never setuid).
"""

from __future__ import annotations

import hashlib
import io
import os
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from dittobench.sandbox import ArchiveError
from dittobench.sandbox.intake_limits import ArchiveLimits
from dittobench.sandbox.tarstream import open_tar

GZIP_MAGIC = b"\x1f\x8b"
ZIP_MAGIC = b"PK\x03\x04"
CHUNK = 64 * 1024


@dataclass(frozen=True, slots=True)
class Archive:
    """An archive's checked contents: relative POSIX path -> bytes (sorted), executable paths,
    and the SHA-256 and size of the bytes as submitted."""

    sha256: str
    size: int
    files: dict[str, bytes]
    executable: frozenset[str]

    @property
    def unpacked_bytes(self) -> int:
        return sum(len(data) for data in self.files.values())


def read_archive(data: bytes, limits: ArchiveLimits | None = None) -> Archive:
    """Check and read ``data`` (tar.gz or zip); raises ``ArchiveError`` naming the problem."""
    limits = limits or ArchiveLimits()
    if len(data) > limits.max_archive_bytes:
        raise ArchiveError(
            f"the archive is {len(data)} bytes; at most {limits.max_archive_bytes} are accepted"
        )
    if data.startswith(GZIP_MAGIC):
        members = _tar_members(data, limits)
    elif data.startswith(ZIP_MAGIC):
        members = _zip_members(data, limits)
    else:
        raise ArchiveError("the archive is neither a tar.gz nor a zip file (by its first bytes)")
    files: dict[str, bytes] = {}
    executable: set[str] = set()
    folders: set[str] = set()
    total = 0
    for name, content, is_exec in members:
        if len(files) >= limits.max_files:
            raise ArchiveError(f"the archive has more than {limits.max_files} files")
        if name in files or name in folders:
            raise ArchiveError(f"member {name!r}: the archive names it twice")
        parents = _parents(name)
        clash = next((p for p in parents if p in files), None)
        if clash is not None:
            raise ArchiveError(f"member {name!r}: {clash!r} is a file, not a folder")
        folders.update(parents)
        total += len(content)
        if total > limits.max_total_bytes:
            raise ArchiveError(
                f"member {name!r}: the archive unpacks to more than {limits.max_total_bytes} bytes"
            )
        files[name] = content
        if is_exec:
            executable.add(name)
    if not files:
        raise ArchiveError("the archive holds no files")
    files, executable = _strip_single_folder(files, executable)
    digest = hashlib.sha256(data).hexdigest()
    return Archive(digest, len(data), dict(sorted(files.items())), frozenset(executable))


def unpack(archive: Archive, dest: Path) -> None:
    """Write the archive's files under ``dest`` (an empty or missing folder), 0644 or 0755."""
    dest.mkdir(parents=True, exist_ok=True)
    if any(dest.iterdir()):
        raise ArchiveError(f"cannot unpack into {dest}: the folder is not empty")
    for name, content in archive.files.items():
        target = dest.joinpath(*name.split("/"))
        target.parent.mkdir(parents=True, exist_ok=True)
        # O_EXCL and no following: a name can never land on something already there.
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW
        fd = os.open(target, flags, 0o755 if name in archive.executable else 0o644)
        with os.fdopen(fd, "wb") as out:
            out.write(content)


def check_name(raw: str, limits: ArchiveLimits) -> str:
    """A member's name as a relative POSIX path, or ``ArchiveError`` saying why not."""
    shown = repr(raw[:120])
    if not raw or any(ord(ch) < 32 or ord(ch) == 127 for ch in raw):
        raise ArchiveError(f"member {shown}: empty name or a control character in it")
    if "\\" in raw:
        raise ArchiveError(f"member {shown}: backslashes are not accepted in names")
    if raw.startswith("/") or (len(raw) > 1 and raw[1] == ":"):
        raise ArchiveError(f"member {shown}: absolute paths are not accepted")
    if len(raw) > limits.max_path_chars:
        raise ArchiveError(f"member {shown}: the name is over {limits.max_path_chars} characters")
    parts = [p for p in raw.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts):
        raise ArchiveError(f"member {shown}: '..' is not accepted in names")
    if not parts:
        raise ArchiveError(f"member {shown}: the name is empty once normalised")
    if len(parts) > limits.max_depth:
        raise ArchiveError(f"member {shown}: nested more than {limits.max_depth} folders deep")
    for part in parts:
        try:
            size = len(part.encode("utf-8", "surrogateescape"))  # the bytes the disk sees
        except UnicodeEncodeError:
            raise ArchiveError(f"member {shown}: not a name a file can have") from None
        if size > limits.max_component_bytes:
            raise ArchiveError(
                f"member {shown}: {part[:60]!r} is {size} bytes long; a file or folder name "
                f"is at most {limits.max_component_bytes} bytes"
            )
    return "/".join(parts)


def _tar_members(data: bytes, limits: ArchiveLimits) -> Iterator[tuple[str, bytes, bool]]:
    tar = open_tar(data, limits)
    with tar:
        try:
            for info in _tar_infos(tar):
                name = check_name(info.name, limits)
                if info.issym() or info.islnk():
                    raise ArchiveError(
                        f"member {name!r}: links are not accepted (it points to "
                        f"{info.linkname[:120]!r})"
                    )
                if info.isdir():
                    continue
                if not info.isfile() or info.issparse():
                    raise ArchiveError(
                        f"member {name!r}: only files and folders are accepted (a device, "
                        "FIFO, sparse or other special member)"
                    )
                stream = tar.extractfile(info)
                if stream is None:
                    raise ArchiveError(f"member {name!r}: its contents cannot be read")
                yield name, _read_capped(stream, name, limits), bool(info.mode & 0o111)
        except ArchiveError:
            raise
        except (tarfile.TarError, OSError, EOFError, ValueError) as exc:
            raise ArchiveError(f"the tar.gz archive is damaged: {exc}") from None


def _tar_infos(tar: tarfile.TarFile) -> Iterator[tarfile.TarInfo]:
    # Read one header at a time, so a huge member count fails at the cap, not after a scan.
    while True:
        info = tar.next()
        if info is None:
            return
        yield info


# What a damaged zip raises in zipfile (names not UTF-8, unknown versions, bad deflate data).
_ZIP_DAMAGE = (zipfile.BadZipFile, OSError, EOFError, ValueError, NotImplementedError, zlib.error)


def _zip_members(data: bytes, limits: ArchiveLimits) -> Iterator[tuple[str, bytes, bool]]:
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except _ZIP_DAMAGE as exc:
        raise ArchiveError(f"the zip archive cannot be read: {exc}") from None
    with archive:
        infos = archive.infolist()
        if len(infos) > limits.max_members:
            raise ArchiveError(
                f"the archive has more than {limits.max_members} members (files and folders)"
            )
        for info in infos:
            name = check_name(info.filename, limits)
            mode = info.external_attr >> 16
            if stat.S_ISLNK(mode):
                raise ArchiveError(f"member {name!r}: links are not accepted")
            if info.is_dir():
                continue
            if stat.S_IFMT(mode) and not stat.S_ISREG(mode):  # no type (Python's writestr): a file
                raise ArchiveError(
                    f"member {name!r}: only files and folders are accepted (a special member)"
                )
            if info.flag_bits & 0x1:
                raise ArchiveError(f"member {name!r}: encrypted members are not accepted")
            try:
                with archive.open(info) as stream:
                    content = _read_capped(stream, name, limits)
            except ArchiveError:
                raise
            except _ZIP_DAMAGE as exc:
                raise ArchiveError(f"member {name!r}: cannot be read: {exc}") from None
            yield name, content, bool(mode & 0o111)


def _read_capped(stream: IO[bytes], name: str, limits: ArchiveLimits) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while chunk := stream.read(CHUNK):
        size += len(chunk)
        if size > limits.max_file_bytes:
            raise ArchiveError(f"member {name!r}: over {limits.max_file_bytes} bytes unpacked")
        chunks.append(chunk)
    return b"".join(chunks)


def _parents(name: str) -> list[str]:
    parts = name.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts))]


def _strip_single_folder(
    files: dict[str, bytes], executable: set[str]
) -> tuple[dict[str, bytes], set[str]]:
    tops = {name.split("/", 1)[0] for name in files}
    if len(tops) != 1 or any("/" not in name for name in files):
        return files, executable
    cut = len(next(iter(tops))) + 1
    return {n[cut:]: d for n, d in files.items()}, {n[cut:] for n in executable}


__all__ = ["Archive", "ArchiveLimits", "check_name", "read_archive", "unpack"]
