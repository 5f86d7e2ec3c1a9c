"""Hostile source archives (issue 29) get a 400 naming what and where from ``POST /v1/submit``,
never a 500 or a stalled service, and ``dittobench run --harness-archive`` says the same in one
line with exit 2, never a traceback."""

from __future__ import annotations

import base64
import io
import tarfile
import warnings
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from dittobench.sandbox.bubblewrap import usable
from dittobench.service.app import create_app
from dittobench.service.settings import load_settings
from tests.helpers.cli import dittobench

with warnings.catch_warnings():  # starlette asks for httpx2; its test client still works on httpx
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ADMIN = "adm1n-T0ken-0123456789abcdef"
MANIFEST = b'[harness]\ncommand = ["python", "server.py", "--port", "{port}"]\n'


def header(name: str, size: int, kind: bytes = tarfile.REGTYPE) -> bytes:
    info = tarfile.TarInfo(name)
    info.size, info.type = size, kind
    return info.tobuf(tarfile.GNU_FORMAT)


def member(name: str, data: bytes) -> bytes:
    return header(name, len(data)) + data + b"\0" * (-len(data) % 512)


def gz(*parts: bytes, repeat: int = 1) -> bytes:
    packer = zlib.compressobj(1, zlib.DEFLATED, 31)
    out = [packer.compress(part) for part in parts]
    out += [packer.compress(parts[-1]) for _ in range(repeat - 1)]
    return b"".join([*out, packer.compress(b"\0" * 1024), packer.flush()])


GOOD = member("dittobench-harness.toml", MANIFEST) + member("server.py", b"x = 1\n")


def bad_utf8_zip() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as archive:
        archive.writestr("dittobench-harness.toml", MANIFEST)
        archive.writestr("caf\u00e9.py", b"x")
    return buf.getvalue().replace("caf\u00e9".encode(), b"caf\xff\xfe")


HOSTILE = {
    "requirement line": (
        gz(GOOD + member("requirements.txt", b"httpx\na" + b" " * 40_000 + b"x\n")),
        "requirements.txt line 2: 40002 characters",
    ),
    "gnu long name": (
        gz(GOOD + header("././@LongLink", 2_000_000_000, tarfile.GNUTYPE_LONGNAME)),
        "tar header 3 (at byte 2048): a GNU long name of 2000000000 bytes",
    ),
    "folders": (
        gz(GOOD, header("d", 0, tarfile.DIRTYPE) * 1000, repeat=20),
        "more than 8000 members",
    ),
    "283-byte name": (
        gz(GOOD + member("\u00e9" * 141 + "a", b"x")),
        "is 283 bytes long; a file or folder name is at most 255 bytes",
    ),
    "deep manifest": (
        gz(member("dittobench-harness.toml", MANIFEST + b"x = " + b"[" * 5000 + b"]" * 5000)),
        "dittobench-harness.toml line 3: nested over 32 deep",
    ),
    "deep pyproject": (
        gz(
            GOOD + member("pyproject.toml", b"[project]\nx = " + b"{a=" * 3000 + b"1" + b"}" * 3000)
        ),
        "pyproject.toml line 2: nested over 32 deep",
    ),
    "dotted key": (
        gz(member("dittobench-harness.toml", MANIFEST + b"a" + b".a" * 30_000 + b" = 1\n")),
        "dittobench-harness.toml line 3: a key of over 32 parts",
    ),
    "zip name not utf-8": (bad_utf8_zip(), "the zip archive cannot be read"),
}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    tokens = tmp_path / "tokens"
    tokens.write_text(f"{ADMIN}\n", "utf-8")
    settings = load_settings(db=str(tmp_path / "runs.db"), token_file=tokens, data_dir=tmp_path)
    with TestClient(create_app(settings), raise_server_exceptions=False) as opened:
        yield opened


@pytest.mark.parametrize("case", list(HOSTILE))
def test_a_hostile_archive_is_a_400_naming_what_and_where(client: TestClient, case: str) -> None:
    data, said = HOSTILE[case]
    assert len(data) < 300_000  # small on the wire, whatever it claims
    body = {"archive_base64": base64.b64encode(data).decode()}
    answer = client.post("/v1/submit", headers={"Authorization": f"Bearer {ADMIN}"}, json=body)
    assert answer.status_code == 400, answer.text
    error = answer.json()["error"]
    assert error.startswith("archive: ") and said in error, error
    assert "Traceback" not in answer.text and "\n" not in error


@pytest.mark.skipif(bool(usable()), reason=f"no usable bubblewrap: {usable()}")
@pytest.mark.parametrize("case", ["deep manifest", "gnu long name"])
def test_the_command_line_refuses_it_in_one_line(tmp_path: Path, case: str) -> None:
    data, said = HOSTILE[case]
    (tmp_path / "h.tar.gz").write_bytes(data)
    done = dittobench("run", "--harness-archive", str(tmp_path / "h.tar.gz"), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert said in done.stderr and "h.tar.gz" in done.stderr
    assert "Traceback" not in done.stderr
