"""A submitted tar.gz opened with its cost bounded before ``tarfile`` acts on any of it.

``tarfile`` trusts the headers it reads: a GNU long name is read whole into memory whatever size
its header claims (2 GB from a 2 MB archive), a chain of long-name or pax headers recurses once
per header, folders and metadata headers cost time but hold no file, and on Python before
3.11.10 / 3.12.6 the pax header parser runs regular expressions whose time is quadratic in the
header's length (CVE-2024-6232; they hold the GIL, so the whole process stalls). So:

- the gzip stream is decompressed on demand, never past ``max_tar_bytes`` (files, headers and
  padding together), into memory ``tarfile`` then reads as a seekable file;
- before ``tarfile`` parses each header, ``_Guard`` reads it first and refuses, naming the
  header's number and byte offset: more than ``max_members`` headers of any kind, GNU long
  names over ``max_name_bytes``, pax headers over ``max_pax_bytes`` (or all of them together
  over ``max_pax_total_bytes``), malformed pax records, runs of more than ``MAX_DIGIT_RUN``
  digits in a pax header, more than ``MAX_CHAINED`` metadata headers in a row, more than
  ``MAX_GLOBAL_RECORDS`` global pax records, and sparse members (GNU or pax).
"""

from __future__ import annotations

import re
import tarfile
import zlib
from typing import Self

from dittobench.sandbox import ArchiveError
from dittobench.sandbox.intake_limits import ArchiveLimits

BLOCK = tarfile.BLOCKSIZE
FEED = 64 * 1024  # compressed bytes handed to zlib at a time
STEP = 1024 * 1024  # decompressed bytes made at a time
MAX_GZIP_MEMBERS = 16
MAX_CHAINED = 8
MAX_GLOBAL_RECORDS = 64
MAX_DIGIT_RUN = 32
_LONG_NAMES = {tarfile.GNUTYPE_LONGNAME: "name", tarfile.GNUTYPE_LONGLINK: "link name"}
_PAX = {tarfile.XHDTYPE, tarfile.XGLTYPE, tarfile.SOLARIS_XHDTYPE}
_DIGIT_RUN = re.compile(rb"[0-9]{%d}" % (MAX_DIGIT_RUN + 1))


def open_tar(data: bytes, limits: ArchiveLimits) -> tarfile.TarFile:
    """``data`` (gzip) as a ``TarFile`` whose every header passes the guard first; the first
    refusal raises ``ArchiveError``."""
    stream = _Inflating(data, limits.max_tar_bytes)
    guard = _Guard(stream, limits)

    class Guarded(tarfile.TarInfo):
        @classmethod
        def fromtarfile(cls, tar: tarfile.TarFile) -> Self:
            # Called for every header, also those after a long-name or pax header.
            guard.check()
            return super().fromtarfile(tar)

    try:
        return tarfile.open(fileobj=stream, mode="r:", tarinfo=Guarded)
    except ArchiveError:
        raise
    except (tarfile.TarError, OSError, EOFError, ValueError) as exc:
        raise ArchiveError(f"the tar.gz archive cannot be read: {exc}") from None


class _Inflating:
    """The decompressed bytes of a gzip stream as a seekable file, made only as far as they are
    read and never past ``cap``. Bytes after the gzip stream are ignored, as tar readers do."""

    def __init__(self, data: bytes, cap: int) -> None:
        self._data = data
        self._cap = cap
        self._fed = 0  # compressed bytes handed to zlib
        self._pending = b""  # handed over but not used yet
        self._zlib = zlib.decompressobj(wbits=31)
        self._members = 1
        self._ended = False
        self._out = bytearray()
        self._pos = 0

    def window(self, start: int, size: int) -> bytes:
        """``size`` bytes from ``start`` (fewer at the end), without moving the position."""
        while len(self._out) < start + size and self._inflate():
            pass
        if start + size > self._cap and len(self._out) > self._cap:
            raise ArchiveError(
                f"the tar.gz archive unpacks to more than {self._cap} bytes (files, tar "
                "headers and padding together)"
            )
        return bytes(self._out[start : start + size])

    def read(self, size: int = -1) -> bytes:
        if size < 0:
            while self._inflate():
                pass
            size = len(self._out) - self._pos
        chunk = self.window(self._pos, size)
        self._pos += len(chunk)
        return chunk

    def seek(self, pos: int, whence: int = 0) -> int:
        if whence != 0 or pos < 0:
            raise OSError("only absolute seeks are supported")
        self._pos = pos
        return pos

    def tell(self) -> int:
        return self._pos

    def write(self, b: bytes) -> int:
        raise OSError("read-only")

    def close(self) -> None:
        pass

    def _inflate(self) -> bool:
        """Decompress up to ``STEP`` more bytes; False once the stream has ended or one byte
        past the cap is made."""
        room = self._cap + 1 - len(self._out)
        if self._ended or room <= 0:
            return False
        if not self._pending:
            self._pending = self._data[self._fed : self._fed + FEED]
            self._fed += len(self._pending)
            if not self._pending:  # truncated: tarfile says what it missed
                self._ended = True
                return False
        try:
            self._out += self._zlib.decompress(self._pending, min(STEP, room))
        except zlib.error as exc:
            raise ArchiveError(f"the tar.gz archive is damaged: {exc}") from None
        if self._zlib.eof:
            self._next_member()
        else:
            self._pending = self._zlib.unconsumed_tail
        return True

    def _next_member(self) -> None:
        rest = self._zlib.unused_data
        if (rest + self._data[self._fed : self._fed + 2])[:2] != b"\x1f\x8b":
            self._ended = True
            return
        self._members += 1
        if self._members > MAX_GZIP_MEMBERS:
            raise ArchiveError(f"the archive has more than {MAX_GZIP_MEMBERS} gzip members")
        self._zlib = zlib.decompressobj(wbits=31)
        self._pending = rest


class _Guard:
    """Reads each tar header before ``tarfile`` does and refuses what would cost too much."""

    def __init__(self, stream: _Inflating, limits: ArchiveLimits) -> None:
        self._stream = stream
        self._limits = limits
        self._headers = 0
        self._chained = 0
        self._pax_bytes = 0
        self._global_records = 0

    def check(self) -> None:
        pos = self._stream.tell()
        block = self._stream.window(pos, BLOCK)
        size = _size(block)
        if size is None:
            return  # the end of the archive, or damage: tarfile's to say which
        kind = block[156:157]
        self._headers += 1
        where = f"tar header {self._headers} (at byte {pos})"
        if size < 0:
            raise ArchiveError(f"{where}: a negative size")
        if self._headers > self._limits.max_members:
            raise ArchiveError(
                f"the archive has more than {self._limits.max_members} members (files, folders, "
                f"links and tar's long-name and pax headers all count); {where} is one too many"
            )
        if kind == tarfile.GNUTYPE_SPARSE:
            raise ArchiveError(f"{where}: sparse members are not accepted")
        if kind not in _LONG_NAMES and kind not in _PAX:
            self._chained = 0
            return
        self._chained += 1
        if self._chained > MAX_CHAINED:
            raise ArchiveError(
                f"{where}: more than {MAX_CHAINED} long-name or pax headers in a row"
            )
        if kind in _LONG_NAMES:
            if size > self._limits.max_name_bytes:
                raise ArchiveError(
                    f"{where}: a GNU long {_LONG_NAMES[kind]} of {size} bytes; names are at "
                    f"most {self._limits.max_name_bytes} bytes"
                )
            return
        self._check_pax(kind, size, pos, where)

    def _check_pax(self, kind: bytes, size: int, pos: int, where: str) -> None:
        limits = self._limits
        if size > limits.max_pax_bytes:
            raise ArchiveError(
                f"{where}: a pax header of {size} bytes; at most {limits.max_pax_bytes}"
            )
        self._pax_bytes += size
        if self._pax_bytes > limits.max_pax_total_bytes:
            raise ArchiveError(
                f"{where}: pax headers of more than {limits.max_pax_total_bytes} bytes in all"
            )
        padded = -(-size // BLOCK) * BLOCK  # what tarfile reads and parses
        records = pax_records(self._stream.window(pos + BLOCK, padded), size, where)
        if kind == tarfile.XGLTYPE:
            # Global records are applied to every later member: their number multiplies.
            self._global_records += records
            if self._global_records > MAX_GLOBAL_RECORDS:
                raise ArchiveError(f"{where}: more than {MAX_GLOBAL_RECORDS} global pax records")


def _size(block: bytes) -> int | None:
    """A header block's size field as tarfile reads it (octal, or base-256 when its first byte
    says so); None for a block tarfile would not take as a header (all zeros, short, a size
    field that is not a number): it stops or complains there itself."""
    if len(block) < BLOCK or not block.strip(b"\0"):
        return None
    field = block[124:136]
    if field[0] in (0o200, 0o377):
        value = int.from_bytes(field[1:], "big")
        return value - 256 ** (len(field) - 1) if field[0] == 0o377 else value
    try:
        return int(field.split(b"\0", 1)[0].strip() or b"0", 8)
    except ValueError:
        return None


def pax_records(buf: bytes, size: int, where: str) -> int:
    """The number of records in a pax header's ``size`` bytes (``buf``: those and the block's
    padding); ``ArchiveError`` unless they are well formed (``LENGTH KEY=VALUE\\n``, ending at
    ``size``), free of runs of over ``MAX_DIGIT_RUN`` digits and of GNU sparse keys. Well-formed
    records keep tarfile's own parsing of them linear."""
    if _DIGIT_RUN.search(buf):
        raise ArchiveError(f"{where}: a pax header with a run of over {MAX_DIGIT_RUN} digits")
    pos = 0
    count = 0
    while pos < size:
        space = buf.find(b" ", pos, pos + 21)
        digits = buf[pos:space] if space > pos else b""
        length = int(digits) if digits.isdigit() else 0
        end = pos + length
        key, equals, _ = buf[space + 1 : end - 1].partition(b"=")
        if not length or end > size or buf[end - 1 : end] != b"\n" or not equals or not key:
            raise ArchiveError(f"{where}: a malformed pax record at byte {pos} of its header")
        if key.startswith(b"GNU.sparse."):
            raise ArchiveError(f"{where}: sparse members are not accepted")
        count += 1
        pos = end
    if buf[size : size + 1].isdigit():  # tarfile would read the padding as another record
        raise ArchiveError(f"{where}: a malformed pax record at byte {size} of its header")
    return count


__all__ = ["open_tar", "pax_records"]
