"""`runs`, `show` and `run --resume` on a store that is valid SQLite but holds bad content:
one line naming the run and the column, exit 2, and nothing changed or started. The store is
made by a real run of the built-in harness, then damaged with sqlite3 as a hand edit would."""

from __future__ import annotations

import json
import sqlite3
import subprocess
from pathlib import Path

import pytest

from dittobench.store import RunStore
from dittobench.views.model import ViewError, case_detail, load_run
from tests.helpers.cli import dittobench


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A store with two finished runs: (database, first run id, second run id)."""
    root = tmp_path_factory.mktemp("finished")
    ids = []
    for seed in ("4", "5"):
        result = dittobench(
            "run", "--seed", seed, "--db", str(root / "runs.db"), "--out-dir", str(root / "out"),
            cwd=root,
        )  # fmt: skip
        assert result.returncode == 0, result.stderr
        ids.append(
            next(ln.split()[-1] for ln in result.stdout.splitlines() if ln.startswith("run id"))
        )
    return root / "runs.db", ids[0], ids[1]


@pytest.fixture
def db(tmp_path: Path, finished: tuple[Path, str, str]) -> Path:
    copy = tmp_path / "runs.db"
    with sqlite3.connect(finished[0]) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    return copy


def poke(db: Path, sql: str, *params: object) -> None:
    with sqlite3.connect(db) as conn:
        conn.execute(sql, params)


def row(db: Path, run_id: str) -> tuple[object, ...]:
    with sqlite3.connect(db) as conn:
        found = conn.execute("SELECT * FROM runs WHERE run_id=?", (run_id,)).fetchone()
    assert found is not None
    return tuple(found)


def refused(result: subprocess.CompletedProcess[str], *named: str) -> str:
    assert result.returncode == 2, result.stdout + result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.stderr
    for name in named:
        assert name in errors[0], errors[0]
    return errors[0]


def test_runs_lists_every_run_and_marks_the_unreadable_one(
    db: Path, finished: tuple[Path, str, str]
) -> None:
    _, first, second = finished
    poke(db, "UPDATE runs SET seed='abc' WHERE run_id=?", first)
    result = dittobench("runs", "--db", str(db), cwd=db.parent)
    refused(result, repr(first), "column seed", "'abc'")
    lines = result.stdout.splitlines()
    assert any(line.startswith(second) and "done" in line for line in lines), result.stdout
    assert f"{first}  unreadable" in lines


@pytest.mark.parametrize(
    ("sql", "named"),
    [
        ("UPDATE runs SET seed='abc'", "column seed"),
        ("UPDATE runs SET cases_done='many'", "column cases_done"),
        ("UPDATE runs SET composite='high'", "column composite"),
        ("UPDATE reports SET report_json='{not json'", "column report_json"),
        ("UPDATE reports SET report_json='[]'", "column report_json"),
        ("UPDATE reports SET report_json=json_set(report_json, '$.seed', 'x')", "$.seed"),
        ("UPDATE reports SET report_json=json_remove(report_json, '$.n')", "$.n"),
        (
            "UPDATE reports SET report_json=json_set(report_json, '$.per_case[0].score', 'top')",
            "$.per_case[0].score",
        ),
    ],
)
def test_show_names_the_run_and_the_column(
    db: Path, finished: tuple[Path, str, str], sql: str, named: str
) -> None:
    run_id = finished[1]
    poke(db, f"{sql} WHERE run_id=?", run_id)
    result = dittobench("show", run_id, "--db", str(db), cwd=db.parent)
    refused(result, repr(run_id), named)
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("path", "value"),
    [("$.details.base", "'x'"), ("$.details.capped_tool_cases", "json('true')")],
)
def test_show_refuses_details_of_the_wrong_type(
    db: Path, finished: tuple[Path, str, str], path: str, value: str
) -> None:
    """Details are typed: a factor that is not a number is bad content like any other field."""
    run_id = finished[1]
    poke(db, f"UPDATE reports SET report_json=json_set(report_json, '{path}', {value})")
    result = dittobench("show", run_id, "--db", str(db), cwd=db.parent)
    refused(result, repr(run_id), "column report_json", path)
    assert result.stdout == ""


@pytest.mark.parametrize(
    ("sql", "named"),
    [
        ("UPDATE runs SET seed='abc' WHERE run_id=?", "column seed"),
        ("UPDATE runs SET bench_version='0.0-nope' WHERE run_id=?", "column bench_version"),
        ("UPDATE runs SET run_size='huge' WHERE run_id=?", "column run_size"),
        ("UPDATE runs SET harness='ftp://x' WHERE run_id=?", "column harness"),
        (
            "UPDATE cases SET record_json='{bad' WHERE run_id=?1 AND case_id="
            "(SELECT min(case_id) FROM cases WHERE run_id=?1)",
            "column record_json of case 'c",
        ),
        (
            "UPDATE cases SET record_json=json_set(record_json, '$.case_id', 5) WHERE run_id=?",
            "$.case_id",
        ),
    ],
)
def test_resume_refuses_bad_content_before_starting_anything(
    db: Path, finished: tuple[Path, str, str], sql: str, named: str
) -> None:
    run_id = finished[1]
    poke(db, "DELETE FROM reports WHERE run_id=?", run_id)
    poke(db, "UPDATE runs SET status='interrupted', stage='running' WHERE run_id=?", run_id)
    poke(db, sql, run_id)
    before = row(db, run_id)
    harness = [] if "harness" in sql else ["--harness", "http://127.0.0.1:9"]
    result = dittobench(
        "run", "--resume", run_id, *harness, "--wait", "0.5", "--db", str(db), cwd=db.parent
    )
    refused(result, repr(run_id), named)
    assert "[seeding]" not in result.stderr and "[running]" not in result.stderr
    assert row(db, run_id) == before  # not marked failed: the run is as it was
    assert not (db.parent / "baseline").exists()  # no built-in harness was started
    assert not (db.parent / "keys").exists()


def _first_case(db: Path, run_id: str) -> str:
    """The run's first graded case (its open questions are stored too, but graded apart)."""
    with RunStore(RunStore.sqlite_url(db), create=False) as store:
        report = store.report(run_id)
    assert report is not None
    return str(min(c["case_id"] for c in report["per_case"]))


def _lost_outcome(db: Path, run_id: str, case_id: str) -> None:
    """The case's stored record, and its line in the stored transcript, say an outcome no
    engine writes."""
    poke(
        db,
        "UPDATE cases SET record_json=json_set(record_json, '$.execution.outcome', 'lost') "
        "WHERE run_id=? AND case_id=?",
        run_id,
        case_id,
    )
    with sqlite3.connect(db) as conn:
        (text,) = conn.execute(
            "SELECT transcript_json FROM reports WHERE run_id=?", (run_id,)
        ).fetchone()
    transcript = json.loads(text)
    for record in transcript["cases"]:
        if record["case_id"] == case_id:
            record["execution"]["outcome"] = "lost"
    poke(db, "UPDATE reports SET transcript_json=? WHERE run_id=?", json.dumps(transcript), run_id)


@pytest.mark.parametrize("command", ["case", "show", "export", "compare", "report"])
def test_a_case_record_with_an_unknown_outcome_is_named(
    db: Path, finished: tuple[Path, str, str], command: str
) -> None:
    """Stored case records are read through the spec's ``CaseRecord``: an outcome outside the
    vocabulary exits 2 naming the field and the value, never a traceback."""
    second = finished[2]
    case_id = _first_case(db, second)
    _lost_outcome(db, second, case_id)
    here = ("--db", str(db))
    given = {
        "case": ("show", second, "--case", case_id, *here),
        "show": ("show", second, *here),
        "export": ("export", second, *here),
        "compare": ("compare", second, second, "--cases", "--all-cases", *here),  # paired
        "report": ("report", second, "--html", str(db.parent / "r.html"), *here),
    }[command]
    result = dittobench(*given, cwd=db.parent)
    said = refused(result, "execution.outcome", "'lost'")
    if command in ("show", "export"):  # these read the stored transcript: the path is named
        assert "its stored transcript: $.cases[" in said, said
    else:  # the others read the case records, which name the case
        assert case_id in said, said


def test_a_case_page_of_an_unknown_outcome_is_an_error_naming_the_field(
    db: Path, finished: tuple[Path, str, str]
) -> None:
    """The case page's view raises ``ViewError`` with a 500 (the pages' handler shows it as an
    error page) naming the run, the case, the field and the value."""
    run_id = finished[1]
    case_id = _first_case(db, run_id)
    with RunStore(RunStore.sqlite_url(db), create=False) as store:
        assert case_detail(store, load_run(store, run_id), case_id).outcome == "ok"
        _lost_outcome(db, run_id, case_id)
        with pytest.raises(ViewError, match=rf"{run_id}.*{case_id}.*outcome 'lost'") as raised:
            case_detail(store, load_run(store, run_id), case_id)
    assert raised.value.http_status == 500 and not raised.value.missing
