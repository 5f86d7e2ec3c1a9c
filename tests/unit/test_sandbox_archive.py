"""Archive intake: hostile archives are refused with an error naming the member; good ones are
read whole, with their SHA-256; the layout's command and requirements are checked."""

from __future__ import annotations

import gzip
import hashlib
import io
import stat
import tarfile
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from dittobench.sandbox import ArchiveError
from dittobench.sandbox.archive import ArchiveLimits, read_archive, unpack
from dittobench.sandbox.layout import read_layout, requirements_txt

MANIFEST = b'[harness]\ncommand = ["python", "server.py", "--port", "{port}"]\n'


@dataclass(frozen=True)
class Member:
    name: str
    data: bytes = b"x = 1\n"
    kind: bytes = tarfile.REGTYPE
    link: str = ""
    mode: int = 0o644


def targz(*members: Member) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        for m in members:
            info = tarfile.TarInfo(m.name)
            info.type, info.linkname, info.mode = m.kind, m.link, m.mode
            info.size = len(m.data) if m.kind == tarfile.REGTYPE else 0
            tar.addfile(info, io.BytesIO(m.data) if m.kind == tarfile.REGTYPE else None)
    return buf.getvalue()


def zipped(*members: tuple[str, bytes, int]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data, mode in members:
            info = zipfile.ZipInfo(name)
            info.external_attr = mode << 16
            archive.writestr(info, data)
    return buf.getvalue()


GOOD = (Member("dittobench-harness.toml", MANIFEST), Member("server.py"))

HOSTILE_TAR = [
    ("absolute path", Member("/etc/cron.d/x"), "absolute"),
    ("dot-dot", Member("../outside.py"), "'..'"),
    ("dot-dot inside", Member("pkg/../../outside.py"), "'..'"),
    ("backslash", Member("..\\outside.py"), "backslash"),
    ("drive letter", Member("C:evil.py"), "absolute"),
    ("control character", Member("a\nb.py"), "control"),
    ("symlink out", Member("link", kind=tarfile.SYMTYPE, link="/etc/shadow"), "links"),
    ("symlink relative", Member("link", kind=tarfile.SYMTYPE, link="../../x"), "links"),
    ("hardlink", Member("hard", kind=tarfile.LNKTYPE, link="/etc/passwd"), "links"),
    ("char device", Member("dev", kind=tarfile.CHRTYPE), "special"),
    ("block device", Member("blk", kind=tarfile.BLKTYPE), "special"),
    ("fifo", Member("fifo", kind=tarfile.FIFOTYPE), "special"),
    ("too long", Member("a" * 300), "over 240"),
    ("too deep", Member("/".join(["d"] * 30) + "/x.py"), "nested"),
]


@pytest.mark.parametrize(("why", "member", "said"), HOSTILE_TAR, ids=[h[0] for h in HOSTILE_TAR])
def test_hostile_tar_members_are_refused_by_name(why: str, member: Member, said: str) -> None:
    with pytest.raises(ArchiveError) as caught:
        read_archive(targz(*GOOD, member))
    message = str(caught.value)
    assert said in message, (why, message)
    assert "member " in message  # the member is named


def test_caps_and_duplicates() -> None:
    small = ArchiveLimits(max_files=3, max_file_bytes=100, max_total_bytes=150)
    with pytest.raises(ArchiveError, match="more than 3 files"):
        read_archive(targz(*GOOD, Member("a.py"), Member("b.py")), small)
    with pytest.raises(ArchiveError, match=r"member 'big.py': over 100 bytes"):
        read_archive(targz(*GOOD, Member("big.py", b"#" * 101)), small)
    with pytest.raises(ArchiveError, match="unpacks to more than 150"):
        read_archive(targz(*GOOD, Member("a.py", b"#" * 90)), small)
    with pytest.raises(ArchiveError, match="names it twice"):
        read_archive(targz(*GOOD, Member("server.py")))
    with pytest.raises(ArchiveError, match="is a file, not a folder"):
        read_archive(targz(*GOOD, Member("server.py/inner.py")))
    with pytest.raises(ArchiveError, match="at most 1024 are accepted"):
        read_archive(b"\x1f\x8b" + b"\0" * 2000, ArchiveLimits(max_archive_bytes=1024))


def test_a_gzip_bomb_stops_at_the_cap_while_decompressing() -> None:
    bomb = targz(*GOOD, Member("zeros.bin", b"\0" * (20 * 1024 * 1024)))
    assert len(bomb) < 64 * 1024  # tiny on the wire
    with pytest.raises(ArchiveError, match="over 8388608 bytes unpacked"):
        read_archive(bomb)


def test_damaged_or_unknown_archives() -> None:
    with pytest.raises(ArchiveError, match=r"neither a tar\.gz nor a zip"):
        read_archive(b"#!/bin/sh\nrm -rf /\n")
    with pytest.raises(ArchiveError, match=r"cannot be read|damaged"):
        read_archive(gzip.compress(b"not a tar at all" * 100))
    with pytest.raises(ArchiveError, match="holds no files"):
        read_archive(targz(Member("only-a-dir", kind=tarfile.DIRTYPE)))


def test_hostile_zip_members() -> None:
    good = [("dittobench-harness.toml", MANIFEST, 0o100644)]
    link = ("link", b"/etc/shadow", stat.S_IFLNK | 0o777)
    with pytest.raises(ArchiveError, match="member 'link': links"):
        read_archive(zipped(*good, link))
    with pytest.raises(ArchiveError, match=r"'\.\.'"):
        read_archive(zipped(*good, ("../../x.py", b"", 0o100644)))
    with pytest.raises(ArchiveError, match="absolute"):
        read_archive(zipped(*good, ("/abs.py", b"", 0o100644)))
    fifo = ("pipe", b"", stat.S_IFIFO | 0o644)
    with pytest.raises(ArchiveError, match="special"):
        read_archive(zipped(*good, fifo))


def test_a_good_archive_is_read_whole_with_its_sha256(tmp_path: Path) -> None:
    data = targz(
        Member("h-1.0/dittobench-harness.toml", MANIFEST),
        Member("h-1.0/server.py", b"print('hi')\n", mode=0o755),
        Member("h-1.0/pkg/util.py", b"X = 2\n"),
    )
    archive = read_archive(data)
    assert archive.sha256 == hashlib.sha256(data).hexdigest() and archive.size == len(data)
    assert list(archive.files) == ["dittobench-harness.toml", "pkg/util.py", "server.py"]
    assert archive.executable == {"server.py"}  # the single top folder is stripped
    unpack(archive, tmp_path / "out")
    assert (tmp_path / "out" / "pkg" / "util.py").read_bytes() == b"X = 2\n"
    assert (tmp_path / "out" / "server.py").stat().st_mode & 0o7777 == 0o755
    with pytest.raises(ArchiveError, match="not empty"):
        unpack(archive, tmp_path / "out")
    as_zip = read_archive(zipped(("dittobench-harness.toml", MANIFEST, 0o100644)))
    assert read_layout(as_zip).command == ("python", "server.py", "--port", "{port}")


def test_the_layout_needs_a_manifest_and_plain_requirements() -> None:
    with pytest.raises(ArchiveError, match=r"no dittobench-harness\.toml"):
        read_layout(read_archive(targz(Member("server.py"))))
    bad_manifest = Member("dittobench-harness.toml", b'[harness]\ncommand = "python x.py"\n')
    with pytest.raises(ArchiveError, match="must be a list"):
        read_layout(read_archive(targz(bad_manifest)))
    reqs = Member("requirements.txt", b"# deps\nhttpx>=0.27,<1\nPyYAML==6.*\nrich[jupyter]\n")
    assert read_layout(read_archive(targz(*GOOD, reqs))).requirements == (
        "httpx>=0.27,<1",
        "PyYAML==6.*",
        "rich[jupyter]",
    )
    pyproject = Member("pyproject.toml", b'[project]\nname = "h"\ndependencies = ["httpx>=0.27"]\n')
    assert read_layout(read_archive(targz(*GOOD, pyproject))).requirements == ("httpx>=0.27",)


@pytest.mark.parametrize(
    "line",
    [
        "--index-url http://127.0.0.1:6379/",
        "-r other.txt",
        "-e .",
        "evil @ http://127.0.0.1:5432/x.whl",
        "git+https://example.org/x.git",
        "./local/path",
        "/abs/path.whl",
        "httpx; python_version > '3'",
        "x==1 --hash=sha256:00",
    ],
)
def test_requirements_with_urls_paths_or_options_are_refused(line: str) -> None:
    with pytest.raises(ArchiveError, match=r"requirements\.txt line 2"):
        requirements_txt(f"httpx\n{line}\n".encode())
