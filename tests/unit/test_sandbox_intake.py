"""Intake costs little whatever an archive holds (issue 29): hostile tar metadata is refused
from its header before tarfile acts on it, every member counts, names fit the file system, and
the requirements, the TOML files and the fingerprint are read with bounded work. Each refusal
names what and where."""

from __future__ import annotations

import contextlib
import gzip
import io
import tarfile
import tracemalloc
import zipfile
import zlib
from collections.abc import Callable
from datetime import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dittobench.sandbox import ArchiveError
from dittobench.sandbox.archive import ArchiveLimits, read_archive
from dittobench.sandbox.fingerprint import MAX_SOURCE_BYTES, fingerprint, structural_tokens
from dittobench.sandbox.layout import (
    MAX_REQUIREMENTS_BYTES,
    pyproject_dependencies,
    read_layout,
    requirements_txt,
)
from dittobench.sandbox.tarstream import MAX_CHAINED
from dittobench.sandbox.tomlcheck import MAX_TOML_BYTES, load_toml

MANIFEST = b'[harness]\ncommand = ["python", "server.py", "--port", "{port}"]\n'
END = b"\0" * 1024


def header(name: str, size: int, kind: bytes = tarfile.REGTYPE) -> bytes:
    info = tarfile.TarInfo(name)
    info.size, info.type = size, kind
    return info.tobuf(tarfile.GNU_FORMAT)


def member(name: str, data: bytes) -> bytes:
    return header(name, len(data)) + padded(data)


def padded(data: bytes) -> bytes:
    return data + b"\0" * (-len(data) % 512)


GOOD = member("dittobench-harness.toml", MANIFEST) + member("server.py", b"x = 1\n")


def gz(*parts: bytes, repeat: int = 1) -> bytes:
    """The parts gzipped; the last one ``repeat`` times (streamed: never all in memory)."""
    packer = zlib.compressobj(1, zlib.DEFLATED, 31)
    out = [packer.compress(part) for part in parts]
    out += [packer.compress(parts[-1]) for _ in range(repeat - 1)]
    return b"".join([*out, packer.compress(END), packer.flush()])


def refusal(data: bytes, limits: ArchiveLimits | None = None) -> str:
    with pytest.raises(ArchiveError) as caught:
        read_layout(read_archive(data, limits))
    return str(caught.value)


def peak_bytes(action: Callable[[], object]) -> int:
    tracemalloc.start()
    try:
        action()
    except ArchiveError:
        pass
    finally:
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return peak


def test_a_gnu_long_name_is_refused_by_its_header_before_its_payload_is_read() -> None:
    claimed = header("././@LongLink", 2_000_000_000, tarfile.GNUTYPE_LONGNAME)
    payload = b"a" * (1024 * 1024)  # 24 MiB of it follow, ~110 KiB on the wire
    bomb = gz(GOOD + claimed, payload, repeat=24)
    assert len(bomb) < 128 * 1024
    said = refusal(bomb)
    assert "tar header 3 (at byte 2048): a GNU long name of 2000000000 bytes" in said
    assert peak_bytes(lambda: read_archive(bomb)) < 4 * 1024 * 1024  # the 24 MiB never read
    just_over = header("././@LongLink", 1025, tarfile.GNUTYPE_LONGNAME) + padded(b"a" * 1025)
    assert "long name of 1025 bytes" in refusal(gz(GOOD + just_over + member("x", b""))), said


def test_every_member_counts_and_intake_stops_at_the_first_beyond_the_cap() -> None:
    folders = gz(GOOD, header("d", 0, tarfile.DIRTYPE) * 1000, repeat=100)  # 100,002 members
    said = refusal(folders)
    assert "more than 8000 members" in said and "tar header 8001 (at byte 4097024)" in said
    small = ArchiveLimits(max_members=4)
    three_folders = b"".join(header(f"d{i}", 0, tarfile.DIRTYPE) for i in range(3))
    assert "tar header 5" in refusal(gz(GOOD + three_folders), small)
    long_named = header("././@LongLink", 8, tarfile.GNUTYPE_LONGNAME) + padded(b"long.py\0")
    said = refusal(gz(GOOD + long_named + member("x.py", b"")), ArchiveLimits(max_members=3))
    assert "tar header 4" in said  # the long-name header was the third member


def test_chained_metadata_headers_are_refused_before_tarfile_recurses() -> None:
    link = header("././@LongLink", 2, tarfile.GNUTYPE_LONGNAME) + padded(b"a\0")
    chain = gz(GOOD, link, repeat=5000)  # one recursion per header in tarfile: RecursionError
    said = refusal(chain)
    assert f"tar header {3 + MAX_CHAINED} " in said and "in a row" in said


def pax(payload: bytes, kind: bytes = tarfile.XHDTYPE) -> bytes:
    info = tarfile.TarInfo("././@PaxHeader")
    info.size, info.type = len(payload), kind
    return info.tobuf(tarfile.USTAR_FORMAT) + padded(payload)


@pytest.mark.parametrize(
    ("payload", "said"),
    [
        (b"1" * 60_000, "a pax header of 60000 bytes; at most 8192"),
        (b"1" * 4000, "a run of over 32 digits"),  # quadratic in tarfile before 3.11.10
        (b"2 2 2 2 2 2 2=\n", "malformed pax record at byte 0"),
        (b"99 path=x.py\n", "malformed pax record at byte 0"),
        (b"13 path=x.py\n13 path=x.py", "malformed pax record at byte 13"),
        (b"22 GNU.sparse.major=1\n", "sparse members are not accepted"),
    ],
    ids=["too big", "digits", "lengths", "overruns", "unterminated", "sparse"],
)
def test_pax_headers_are_bounded_and_well_formed(payload: bytes, said: str) -> None:
    message = refusal(gz(GOOD + pax(payload) + member("f.py", b"")))
    assert said in message and "tar header 3 (at byte 2048)" in message


def test_global_pax_records_and_sparse_members_are_refused() -> None:
    records = b"".join(b"%d k%03d=v\n" % (len(b"00 k000=v\n"), i) for i in range(65))
    assert "more than 64 global pax records" in refusal(
        gz(GOOD + pax(records, tarfile.XGLTYPE) + member("f.py", b""))
    )
    assert "sparse" in refusal(gz(GOOD + header("s.py", 0, tarfile.GNUTYPE_SPARSE)))


def test_honest_pax_and_gnu_archives_are_read() -> None:
    long_path = "h/" + "a" * 90 + "/" + "b" * 90 + "/\u00e9t\u00e9.py"
    for fmt in (tarfile.PAX_FORMAT, tarfile.GNU_FORMAT):
        buf = io.BytesIO()
        headers = {"comment": "0123456789abcdef0123456789abcdef01234567"}
        with tarfile.open(fileobj=buf, mode="w:gz", format=fmt, pax_headers=headers) as tar:
            for name, data in (("h/dittobench-harness.toml", MANIFEST), (long_path, b"x\n")):
                info = tarfile.TarInfo(name)
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
        assert set(read_archive(buf.getvalue()).files) == {
            "dittobench-harness.toml",
            long_path[2:],
        }
    two_members = gzip.compress(GOOD[:512]) + gzip.compress(GOOD[512:] + END)
    assert "server.py" in read_archive(two_members).files  # concatenated gzip members
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:  # writestr records no file type, only 0600
        archive.writestr("dittobench-harness.toml", MANIFEST)
    assert read_layout(read_archive(buf.getvalue())).command[0] == "python"


def test_the_decompressed_tar_stream_is_capped() -> None:
    limits = ArchiveLimits(max_tar_bytes=256 * 1024)
    big = gz(GOOD + member("big.py", b"#" * 300_000))
    assert "unpacks to more than 262144 bytes (files, tar headers" in refusal(big, limits)
    many = b"".join(gzip.compress(GOOD[i : i + 64]) for i in range(0, len(GOOD), 64))
    assert "more than 16 gzip members" in refusal(many + gzip.compress(END))


def test_a_name_over_255_bytes_is_refused_at_intake() -> None:
    name = "\u00e9" * 141 + "a"  # 142 characters, 283 bytes: no file system could write it
    said = refusal(gz(GOOD + member(name, b"x")))
    assert "is 283 bytes long" in said and said.startswith("member 'éé")
    folder = "pkg/" + "\u00e9" * 128 + "/x.py"
    assert "is 256 bytes long" in refusal(gz(GOOD + member(folder, b"x")))
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("dittobench-harness.toml", MANIFEST)
        archive.writestr(name, b"x")
    assert "is 283 bytes long" in refusal(buf.getvalue())


def test_a_zip_with_a_name_that_is_not_utf8_is_refused_not_a_crash() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("dittobench-harness.toml", MANIFEST)
        archive.writestr("caf\u00e9.py", b"x")  # stored as UTF-8, with the UTF-8 flag
    data = buf.getvalue().replace("caf\u00e9".encode(), b"caf\xff\xfe")
    assert "the zip archive cannot be read" in refusal(data)


def test_a_long_requirement_line_is_refused_by_its_length() -> None:
    said = refusal(gz(GOOD + member("requirements.txt", b"a" + b" " * 40_000 + b"x\n")))
    assert said.startswith("requirements.txt line 1: 40002 characters")
    dep = '[project]\ndependencies = ["' + "a" * 300 + '"]\n'
    with pytest.raises(ArchiveError, match=r"pyproject\.toml dependency .*300 characters"):
        pyproject_dependencies(dep.encode())
    with pytest.raises(ArchiveError, match=f"at most {MAX_REQUIREMENTS_BYTES}"):
        requirements_txt(b"# padding\n" * 7000)


@pytest.mark.parametrize(
    ("line", "good"),
    [
        ("httpx", True),
        ("a", True),
        ("a-b.c_d~=1.0", True),
        ("pkg [a, b] >= 1 , < 2", False),  # no space after '[' (as before)
        ("pkg[a , b]>=1 , <2", True),
        ("pkg>=1,!=1.5.*,<2", True),
        ("Pkg_9 == 2.0.0rc1+local", True),
        ("pkg.", False),
        ("pkg-", False),
        ("-pkg", False),
        ("pkg>=", False),
        ("pkg===1", False),
        ("pkg>=1,", False),
        ("pkg[]", False),
        ("a" + " " * 200 + "x", False),
        ("a" + "-" * 200 + "!", False),
    ],
)
def test_requirement_lines_keep_their_meaning(line: str, good: bool) -> None:
    if good:
        assert requirements_txt(line.encode()) == (line,)
    else:
        with pytest.raises(ArchiveError, match=r"requirements\.txt line 1"):
            requirements_txt(line.encode())


def manifest_with(extra: str) -> bytes:
    return MANIFEST + extra.encode()


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ("x = " + "[" * 1000 + "]" * 1000 + "\n", "line 3: nested over 32 deep"),
        ("x = " + "{a = " * 40 + "1" + "}" * 40 + "\n", "line 3: nested over 32 deep"),
        ("a" + ".a" * 2000 + " = 1\n", "line 3: a key of over 32 parts"),
        ("[" + "t." * 40 + "t]\n", "line 3: a key of over 32 parts"),
        # A multi-line string ending in extra quotes hides nothing after it.
        ('s = """x""""\n\ny = ' + "[" * 40 + "]" * 40 + "\n", "line 5: nested over 32 deep"),
        ("s = '''x'''''\n" + "a" + ".a" * 40 + " = 1\n", "line 4: a key of over 32 parts"),
    ],
    ids=["arrays", "inline tables", "dotted key", "table header", "basic quotes", "literal"],
)
def test_deep_or_dotted_toml_is_refused_naming_the_line(extra: str, said: str) -> None:
    message = refusal(gz(member("dittobench-harness.toml", manifest_with(extra)) + END))
    assert message == f"dittobench-harness.toml {said}"
    deep = "[project]\ndependencies = []\nx = " + "[" * 500 + "]" * 500 + "\n"
    with pytest.raises(ArchiveError, match=r"^pyproject.toml line 3: nested over 32 deep$"):
        pyproject_dependencies(deep.encode())


def test_brackets_and_dots_in_strings_and_comments_do_not_count() -> None:
    deep = "[" * 40 + "1" + "]" * 40
    text = "\n".join(
        [
            "[harness]",
            f'command = ["python", "-c", "print({deep})", \'{"a." * 40}\']  # {deep}',
            f"x = '''\n{deep}\n'''",
            f'y = """a\\"""b{deep}"""',
            "z = [[1.5, 2.5], {a.b.c = 07:32:00.999}]",
            "",
        ]
    )
    when = time(7, 32, 0, 999000)
    assert load_toml(text.encode(), "m.toml")["harness"] == {
        "command": ["python", "-c", f"print({deep})", "a." * 40],
        "x": deep + "\n",
        "y": f'a"""b{deep}',  # an escaped quote, then two of its own
        "z": [[1.5, 2.5], {"a": {"b": {"c": when}}}],
    }
    assert read_layout_command(text) == ("python", "-c", f"print({deep})", "a." * 40)
    with pytest.raises(ArchiveError, match=f"at most {MAX_TOML_BYTES}"):
        load_toml(b"#" * (MAX_TOML_BYTES + 1), "m.toml")


def read_layout_command(manifest: str) -> tuple[str, ...]:
    return read_layout(
        read_archive(gz(member("dittobench-harness.toml", manifest.encode())))
    ).command


def test_the_fingerprint_reads_a_bounded_amount() -> None:
    # One 100 kB line of digits: a single regex call in tokenize; read as an empty line.
    assert structural_tokens(b"1" * 100_000 + b"x\ny = 2\n") == ["ID", "=", "LIT", "NEWLINE"]
    comments = (b"#" * 4000 + b"\n") * (MAX_SOURCE_BYTES // 4001 + 1)
    sketch = fingerprint([("a.py", comments), ("b.py", b"def f():\n    return g(1)\n")])
    assert sketch.files == 1  # the source budget was spent on a.py; b.py was never read


def honest_tar(fmt: int) -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=fmt) as tar:
        for name, data in (
            ("h/dittobench-harness.toml", MANIFEST),
            ("h/requirements.txt", b"httpx>=0.27\n"),
            ("h/" + "p" * 120 + "/s\u00e9rver.py", b"x = 1\n" * 40),
        ):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def honest_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("dittobench-harness.toml", MANIFEST)
        archive.writestr("s\u00e9rver.py", b"x = 1\n" * 40)
    return buf.getvalue()


SHAPES = [honest_tar(tarfile.GNU_FORMAT), honest_tar(tarfile.PAX_FORMAT), honest_zip()]


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, len(SHAPES) - 1),
    st.lists(st.tuples(st.integers(0, 1 << 20), st.integers(0, 255)), min_size=1, max_size=6),
)
def test_damaged_archives_are_refused_never_a_crash(
    shape: int, flips: list[tuple[int, int]]
) -> None:
    data = bytearray(SHAPES[shape])
    for at, value in flips:
        data[at % len(data)] = value
    raw = bytes(data) if shape == 2 else gzip.compress(bytes(data), 1)  # a tar is damaged inside
    with contextlib.suppress(ArchiveError):  # refused is right; anything else is a crash
        read_layout(read_archive(raw))
