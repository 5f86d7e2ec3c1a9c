"""Bad input to the command line, as a user (or a careless script) gives it: every case is one
line on stderr naming what is wrong, exit 2, no traceback, and nothing started or written.

Each test runs the real `dittobench` in a subprocess inside an empty folder that is also its
HOME and XDG_DATA_HOME, so "nothing written" is checked by listing that folder.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from dittobench import study as T
from dittobench.core.canonical import canonical_bytes
from dittobench.generate.assemble import build_dataset
from tests.helpers.cli import dittobench


def everything_under(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


def refused(result: subprocess.CompletedProcess[str], *named: str) -> str:
    """The one error line of a refusal that names everything in ``named``."""
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith(("error:", "Error:"))]
    assert len(errors) == 1, result.stderr
    for name in named:
        assert name in errors[0], errors[0]
    return errors[0]


# -- item 13: every `run` option is checked before anything starts ------------------------------


@pytest.mark.parametrize(
    ("options", "named"),
    [
        (["--seed", "-1"], ["--seed", "-1"]),
        (["--seed", str(2**63)], ["--seed", str(2**63)]),
        (["--run-size", "huge"], ["huge"]),
        (["--bench-version", "9.9"], ["9.9"]),
        (["--concurrency", "0"], ["--concurrency"]),
        (["--case-timeout", "0"], ["--case-timeout"]),
        (["--case-timeout", "-5"], ["--case-timeout"]),
        (["--case-timeout", "nan"], ["--case-timeout"]),
        (["--wait", "inf"], ["--wait"]),
        (["--wait", "0"], ["--wait"]),
        (["--harness", "ftp://127.0.0.1:9"], ["--harness", "ftp://127.0.0.1:9"]),
        (["--harness", "http://127.0.0.1:99999"], ["--harness"]),
        (["--harness", "nonsense"], ["--harness", "nonsense"]),
        (["--out-dir", "a-file"], ["--out-dir", "a-file"]),
        (["--json", "."], ["--json"]),
    ],
)
def test_run_refuses_a_bad_option_before_starting_anything(
    tmp_path: Path, options: list[str], named: list[str]
) -> None:
    (tmp_path / "a-file").write_text("not a folder\n", encoding="utf-8")
    result = dittobench("run", *options, cwd=tmp_path)
    refused(result, *named)
    # No store, no signing key, no built-in harness memory, no run folder.
    assert everything_under(tmp_path) == {"a-file"}


def test_a_seed_out_of_range_starts_no_harness(tmp_path: Path) -> None:
    """The reported case: the built-in harness used to start (and leave its memory behind)
    before the seed was looked at."""
    for seed in ("-1", str(2**63)):
        result = dittobench("run", "--seed", seed, cwd=tmp_path)
        assert "must be an integer from 0 to 9223372036854775807" in refused(result, seed)
        assert "harness" not in result.stderr.lower()
    assert everything_under(tmp_path) == set()


# -- item 14: a store folder that cannot be made -------------------------------------------------


def test_a_db_under_a_file_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    db = str(tmp_path / "file" / "runs.db")
    for command in (["run", "--seed", "1"], ["runs"], ["show", "r-20261201-142714-a1b2c3"]):
        result = dittobench(*command, "--db", db, cwd=tmp_path)
        line = refused(result, str(tmp_path / "file"))
        assert "not a folder" in line or "Not a directory" in line
    assert everything_under(tmp_path) == {"file"}


def test_an_unusable_home_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    env = {"HOME": str(tmp_path / "file"), "XDG_DATA_HOME": ""}
    for command in (["run", "--seed", "1"], ["runs"]):
        result = dittobench(*command, cwd=tmp_path, env=env)
        refused(result, str(tmp_path / "file"))
    relative = dittobench("run", "--seed", "1", cwd=tmp_path, env={"HOME": "", "XDG_DATA_HOME": ""})
    refused(relative, "HOME")
    assert everything_under(tmp_path) == {"file"}


# -- item 15: an output never overwrites an input ------------------------------------------------


@pytest.fixture(scope="module")
def graded_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    dataset = build_dataset(21, run_size="small")
    canned = T.build(dataset, memory=T.canned("Something about three weeks, I think."))
    return canonical_bytes(dataset.to_json()), canonical_bytes(canned.to_json())


def test_audit_refuses_to_write_over_its_inputs(
    tmp_path: Path, graded_files: tuple[bytes, bytes]
) -> None:
    dataset, transcript = tmp_path / "dataset.json", tmp_path / "transcript.json"
    dataset.write_bytes(graded_files[0])
    transcript.write_bytes(graded_files[1])
    (tmp_path / "link.tsv").symlink_to(transcript)
    os.link(dataset, tmp_path / "hard.json")
    for out, name in [
        (transcript, "transcript"),
        (dataset, "dataset"),
        (tmp_path / "link.tsv", "transcript"),
        (tmp_path / "hard.json", "dataset"),
        (tmp_path / "sub" / ".." / "dataset.json", "dataset"),
    ]:
        (tmp_path / "sub").mkdir(exist_ok=True)
        result = dittobench("audit", str(dataset), str(transcript), "--out", str(out), cwd=tmp_path)
        refused(result, "--out", name)
        assert dataset.read_bytes() == graded_files[0]
        assert transcript.read_bytes() == graded_files[1]
    fine = dittobench(
        "audit", str(dataset), str(transcript), "--out", str(tmp_path / "sheet.tsv"), cwd=tmp_path
    )
    assert fine.returncode == 0, fine.stderr
    assert (tmp_path / "sheet.tsv").read_text(encoding="utf-8").startswith("label\tcase_id")


def test_receipt_export_refuses_to_write_over_the_receipt(tmp_path: Path) -> None:
    receipt = tmp_path / "receipt.json"
    original = b'{"manifest": {"format": "x"}, "signature": "AAAA", "public_key": "AAAA"}'
    receipt.write_bytes(original)
    export = [sys.executable, "-m", "dittobench", "receipt", "export", str(receipt)]
    for outputs, named in [
        (["--manifest", str(receipt)], "--manifest"),
        (["--signature", str(tmp_path / "." / "receipt.json")], "--signature"),
        (["--manifest", str(tmp_path / "m.bin"), "--signature", str(tmp_path / "m.bin")], "same"),
    ]:
        result = subprocess.run(
            [*export, *outputs], capture_output=True, text=True, timeout=60, check=False
        )
        refused(result, named)
        assert receipt.read_bytes() == original
    assert not (tmp_path / "m.bin").exists()


def test_run_json_refuses_the_run_store(tmp_path: Path) -> None:
    db = tmp_path / "runs.db"
    result = dittobench("run", "--seed", "1", "--db", str(db), "--json", str(db), cwd=tmp_path)
    refused(result, "--json", "run store")
    assert everything_under(tmp_path) == set()


# -- item 17: a run id is checked for its shape before it names anything ------------------------


@pytest.mark.parametrize(
    "run_id", ["../../x/pwn", "ABSOLUTE", "r-nope", "r-20261201-142714-a1b2c3/.."]
)
def test_a_path_like_run_id_creates_nothing(tmp_path: Path, run_id: str) -> None:
    run_id = str(tmp_path / "abs" / "pwn") if run_id == "ABSOLUTE" else run_id
    db = str(tmp_path / "a" / "b" / "runs.db")
    for command in (
        ["run", "--resume", run_id, "--harness", "builtin", "--db", db],
        ["run", "--resume", run_id, "--db", db],
        ["show", run_id, "--db", db],
        ["show", run_id],
    ):
        result = dittobench(*command, cwd=tmp_path)
        refused(result, repr(run_id), "not a run id")
    assert everything_under(tmp_path) == set()


def test_an_unknown_well_formed_run_id_creates_no_store(tmp_path: Path) -> None:
    run_id = "r-20261201-142714-a1b2c3"
    db = tmp_path / "runs.db"
    for command in (
        ["run", "--resume", run_id, "--db", str(db)],
        ["show", run_id, "--db", str(db)],
    ):
        refused(dittobench(*command, cwd=tmp_path), str(db))
    assert dittobench("runs", "--db", str(db), cwd=tmp_path).stdout.strip() == "no runs yet"
    assert everything_under(tmp_path) == set()


# -- item 18: no part of a database password is ever printed -----------------------------------

NASTY_URLS = [
    ("postgresql+psycopg://me:zq7@xk9:vb3@127.0.0.1:1/runs", "zq7@xk9:vb3"),
    ("postgresql+psycopg://me:zq7:xk9@vb3@127.0.0.1:notaport/runs", "zq7:xk9@vb3"),
    ("postgresql+psycopg://me:zq7/xk9@vb3@127.0.0.1:1/runs", "zq7/xk9@vb3"),
    ("postgresql+psycopg://me:zq7@xk9@vb3:jw4@127.0.0.1:1/runs", "zq7@xk9@vb3:jw4"),
    ("postgresql+psycopg://me:zq7@xk9:99@[::1/runs", "zq7@xk9:99"),
    ("postgresql+psycopg://me:zq7?xk9@127.0.0.1:1/runs", "zq7?xk9"),
    ("postgresql+psycopg://me:zq7xk9vb3@127.0.0.1:99999/runs", "zq7xk9vb3"),
    ("postgresql+psycopg://me:zq7%40xk9@127.0.0.1:1/runs", "zq7@xk9"),
    ("postgresql+psycopg://me@127.0.0.1:1/runs?password=zq7@xk9:vb3", "zq7@xk9:vb3"),
    ("nosuchdb://me:zq7@xk9:vb3@host/runs", "zq7@xk9:vb3"),
    ("postgresql+psycopg://me:zq7@xk9:vb3@", "zq7@xk9:vb3"),
]


@pytest.mark.parametrize(("url", "password"), NASTY_URLS)
def test_no_part_of_a_password_is_printed(tmp_path: Path, url: str, password: str) -> None:
    pieces = {password, *password.replace("%40", "@").replace("?", "@").split("@")}
    pieces |= {p for piece in list(pieces) for p in piece.replace("/", ":").split(":")}
    pieces = {p for p in pieces if len(p) >= 3}
    for command in (["runs", "--db", url], ["run", "--seed", "1", "--db", url]):
        result = dittobench(*command, cwd=tmp_path)
        refused(result)
        said = result.stdout + result.stderr
        for piece in pieces:
            assert piece not in said, (piece, said)


# -- also noted: keys and runs are owner-only whatever the umask; no write through a symlink ----


def test_keys_generate_never_writes_through_a_planted_symlink(tmp_path: Path) -> None:
    out = tmp_path / "keys"
    out.mkdir()
    for name in ("dittobench-ed25519.pub.pem", "dittobench-ed25519.pem"):
        target = tmp_path / f"target-of-{name}"
        (out / name).symlink_to(target)  # dangling: `exists()` says False
        result = dittobench("keys", "generate", "--out", str(out), cwd=tmp_path)
        refused(result, name, "symlink")
        assert not target.exists()
        assert sorted(p.name for p in out.iterdir()) == [name]
        (out / name).unlink()


def test_keys_generate_makes_owner_only_folders_under_umask_000(tmp_path: Path) -> None:
    out = tmp_path / "new" / "keys"
    result = dittobench("keys", "generate", "--out", str(out), cwd=tmp_path, umask=0)
    assert result.returncode == 0, result.stderr
    assert stat.S_IMODE((tmp_path / "new").stat().st_mode) == 0o700
    assert stat.S_IMODE(out.stat().st_mode) == 0o700
    assert stat.S_IMODE((out / "dittobench-ed25519.pem").stat().st_mode) == 0o600


def test_a_run_under_umask_000_leaves_only_owner_only_files(tmp_path: Path) -> None:
    result = dittobench(
        "run", "--seed", "6", "--db", str(tmp_path / "store" / "runs.db"),
        "--out-dir", str(tmp_path / "out"), cwd=tmp_path, umask=0,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    made = [tmp_path / "store", *(tmp_path / "store").rglob("*"), tmp_path / "out"]
    made += (tmp_path / "out").rglob("*")
    kinds = {p.name for p in made}
    assert {"runs.db", "keys", "baseline", "receipt.json", "transcript.json"} <= kinds
    for path in made:
        mode = stat.S_IMODE(path.stat().st_mode)
        if path.name == "dittobench-ed25519.pub.pem":
            assert mode & 0o022 == 0, path  # a public key may be read, never written, by others
        else:
            assert mode & 0o077 == 0, (path, oct(mode))


_KEY = '"public_key": "' + "A" * 43 + '="'  # 32 zero bytes: a well-formed public key


@pytest.mark.parametrize(
    ("suite", "code", "said"),
    [
        ("[]", 2, "public_key"),
        ('{"manifest": 7, ' + _KEY + "}", 1, "not a suite receipt"),
        (
            '{"manifest": {"format": "dittobench-suite-receipt/1", "runs": "xx"}, ' + _KEY + "}",
            1,
            "manifest: must have exactly",
        ),
        ('{"manifest": {}, "manifest": {}}', 2, "duplicate key"),
        ('{"manifest": NaN}', 2, "NaN"),
    ],
)
def test_verify_suite_names_what_is_wrong_with_a_malformed_suite(
    tmp_path: Path, suite: str, code: int, said: str
) -> None:
    """With --any-key the suite's own key is used; whatever is malformed is named, in one line,
    never a traceback."""
    path, run = tmp_path / "suite.json", tmp_path / "run.json"
    path.write_text(suite, encoding="utf-8")
    run.write_text("{}", encoding="utf-8")
    result = dittobench("verify-suite", str(path), str(run), "--any-key", cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == code and said in result.stdout + result.stderr, result
