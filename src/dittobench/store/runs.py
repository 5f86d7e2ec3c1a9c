"""The run store: where the scoring engine keeps runs, their per-case records and their reports.

A run can take hours against a slow harness, so every finished case is written down as it
completes; a crashed or interrupted run resumes from ``recorded_cases`` instead of starting over.
The store is SQLAlchemy Core on any URL: SQLite (one file, the default) for a single machine,
PostgreSQL later for a shared service. It never reads the clock: callers pass RFC 3339 strings,
so tests and replays are deterministic.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

from dittobench.core.private_files import create_private_file, make_private_dirs
from dittobench.core.prng import MAX_SEED, SeedError, parse_seed, seed_text

STATUSES = frozenset({"running", "done", "failed", "interrupted"})
STAGES = frozenset({"generating", "starting", "seeding", "running", "scoring", "done"})

# The shape of the run ids the command line makes (r-YYYYMMDD-HHMMSS-6 hex digits). Run ids name
# files and folders (the run's output folder, the built-in harness's memory), so a caller checks
# an id given by a user against it before touching anything.
RUN_ID_PATTERN = re.compile(r"r-[0-9]{8}-[0-9]{6}-[0-9a-f]{6}")
RUN_ID_EXAMPLE = "r-20261201-142714-a1b2c3"

# Execution option marking a connection that will write: on SQLite its transaction starts with
# BEGIN IMMEDIATE, taking the write lock up front. A deferred transaction that reads and then
# writes can fail with "database is locked" when another writer commits in between, and the
# busy timeout does not retry that case.
_WRITE_OPTION = "dittobench_write"

WAL_SWITCH_WAIT_S = 10.0
_SCHEMA_LOCK = 0x6469_7474_6F62  # "dittob": the PostgreSQL advisory lock held while creating tables

_metadata = sa.MetaData()

runs_table = sa.Table(
    "runs",
    _metadata,
    sa.Column("run_id", sa.Text, primary_key=True),
    # TEXT, not INTEGER: seeds are 63-bit and some backends (and JSON tooling) lose precision.
    sa.Column("seed", sa.Text, nullable=False),
    sa.Column("bench_version", sa.Text, nullable=False),
    sa.Column("run_size", sa.Text, nullable=False),
    sa.Column("dataset_sha256", sa.Text, nullable=False),
    sa.Column("harness", sa.Text, nullable=False),
    sa.Column("status", sa.Text, nullable=False),
    sa.Column("stage", sa.Text, nullable=False),
    sa.Column("error", sa.Text, nullable=False),
    sa.Column("created_at", sa.Text, nullable=False),
    sa.Column("updated_at", sa.Text, nullable=False),
    sa.Column("cases_done", sa.Integer, nullable=False),
    sa.Column("cases_total", sa.Integer, nullable=False),
    sa.Column("composite", sa.Float, nullable=True),
    sa.Column("composite_stderr", sa.Float, nullable=True),
    sa.Column("transcript_sha256", sa.Text, nullable=False),
    sa.Column("waves_seeded", sa.Integer, nullable=False),
    # Added later; a store made before them gains them on open (``_ADDED_COLUMNS``).
    sa.Column("schedule", sa.Text, nullable=False, server_default=""),
    sa.Column("lease_owner", sa.Text, nullable=False, server_default=""),
    sa.Column("lease_until", sa.Text, nullable=False, server_default=""),
)

_ADDED_COLUMNS = {"runs": ("schedule", "lease_owner", "lease_until")}
"""Columns a store created by an older version may lack: added as empty text when opened."""

cases_table = sa.Table(
    "cases",
    _metadata,
    sa.Column("run_id", sa.Text, sa.ForeignKey("runs.run_id"), primary_key=True),
    sa.Column("case_id", sa.Text, primary_key=True),
    sa.Column("kind", sa.Text, nullable=False),
    sa.Column("record_json", sa.Text, nullable=False),
)

reports_table = sa.Table(
    "reports",
    _metadata,
    sa.Column("run_id", sa.Text, sa.ForeignKey("runs.run_id"), primary_key=True),
    sa.Column("report_json", sa.Text, nullable=False),
    sa.Column("transcript_json", sa.Text, nullable=False),
)


class StoreError(RuntimeError):
    """The store cannot do what was asked: an unknown or duplicate run id, or a database that
    cannot be opened or is not a dittobench run store."""


class NoStoreError(StoreError):
    """A SQLite store opened with ``create=False`` whose file does not exist."""


class BadContentError(StoreError):
    """A stored value that is not what the store writes (edited or damaged by hand): the
    message names the run, the column and, for a case record, the case."""


def is_run_id(text: str) -> bool:
    """True when ``text`` has the shape of a run id the command line makes."""
    return RUN_ID_PATTERN.fullmatch(text) is not None


@dataclass(frozen=True, slots=True)
class RunRow:
    """One run as the store keeps it. ``waves_seeded`` is the highest wave seeded so far plus one
    (0 = none), so a resumed run can skip the seeding it already did."""

    run_id: str
    seed: int
    bench_version: str
    run_size: str
    dataset_sha256: str
    harness: str
    status: str
    stage: str
    error: str
    created_at: str
    updated_at: str
    cases_done: int
    cases_total: int
    composite: float | None
    composite_stderr: float | None
    transcript_sha256: str
    waves_seeded: int
    schedule: str = ""
    """``safe`` or ``overlap`` once the run has decided (engine.md); empty before."""
    lease_owner: str = ""
    """Who is driving the run now (``claim_run``); empty when nobody is."""
    lease_until: str = ""


class RunBusyError(StoreError):
    """Another process holds the run's lease: ``owner`` until ``until`` unless it renews."""

    def __init__(self, message: str, owner: str, until: str) -> None:
        super().__init__(message)
        self.owner, self.until = owner, until


@dataclass(frozen=True, slots=True)
class UnreadableRun:
    """A stored run whose row holds a value the store never writes; ``problem`` names the
    column. Listed beside the good runs so one bad row hides nothing else."""

    run_id: str
    problem: str


def _dumps(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def _loads_object(text: object, what: str) -> dict[str, Any]:
    """A stored JSON object, or BadContentError naming ``what`` (run, column, case)."""
    if not isinstance(text, str):
        raise BadContentError(f"{what} is {_kind(text)}, not JSON text")
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise BadContentError(f"{what} is not valid JSON ({_one_line(str(exc))})") from None
    if not isinstance(value, dict):
        raise BadContentError(f"{what} is not a JSON object")
    return value


def _kind(value: object) -> str:
    return "empty (NULL)" if value is None else f"{type(value).__name__} {_shown(value)}"


def _shown(value: object) -> str:
    text = repr(value)  # repr escapes newlines and control characters: the message stays one line
    return text if len(text) <= 40 else text[:37] + "..."


def _one_line(text: str) -> str:
    return " ".join(text.split())


def _check_status(status: str) -> None:
    if status not in STATUSES:
        raise StoreError(f"unknown run status {status!r}; expected one of {sorted(STATUSES)}")


def _check_stage(stage: str) -> None:
    if stage not in STAGES:
        raise StoreError(f"unknown run stage {stage!r}; expected one of {sorted(STAGES)}")


_TEXT_COLUMNS = tuple(
    c.name for c in runs_table.columns if isinstance(c.type, sa.Text) and c.name != "seed"
)
_COUNT_COLUMNS = ("cases_done", "cases_total", "waves_seeded")


def _row_to_run(row: sa.Row[Any], where: str) -> RunRow:
    """Check every column holds what the store writes (SQLite keeps any value in any column,
    so a hand-edited file can hold anything): BadContentError names the run and the column."""
    values = dict(row._mapping)
    run_id = values["run_id"]
    name = run_id if isinstance(run_id, str) else _shown(run_id)

    def bad(column: str, expected: str) -> BadContentError:
        return BadContentError(
            f"run {name!r} in {where}: column {column} holds {_kind(values[column])}, "
            f"not {expected}"
        )

    seed = values["seed"]
    try:
        values["seed"] = parse_seed(seed)
    except SeedError:
        raise bad("seed", f"a seed (a decimal integer from 0 to {MAX_SEED})") from None
    for column in _TEXT_COLUMNS:
        if not isinstance(values[column], str):
            raise bad(column, "text")
    if values["status"] not in STATUSES:
        raise bad("status", f"one of {', '.join(sorted(STATUSES))}")
    if values["stage"] not in STAGES:
        raise bad("stage", f"one of {', '.join(sorted(STAGES))}")
    for column in _COUNT_COLUMNS:
        count = values[column]
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise bad(column, "a whole number of 0 or more")
    for column in ("composite", "composite_stderr"):
        score = values[column]
        if score is not None and (
            isinstance(score, bool)
            or not isinstance(score, int | float)
            or not math.isfinite(score)
        ):
            raise bad(column, "a number or empty")
    return RunRow(**values)


def _secrets(url: sa.URL) -> tuple[str, ...]:
    """What no message may show: the password (as given and percent-encoded), one given as a
    query parameter, and whatever an unescaped ``@`` in a password pushed into the host. Longest
    first, for ``_redact``."""
    found = [url.password or ""]
    for key, value in url.query.items():
        if "password" in key.lower():
            found.extend(value if isinstance(value, tuple) else (value,))
    if url.host and "@" in url.host:
        found.append(url.host.rsplit("@", 1)[0])
    found += [quote(str(s), safe="") for s in found if s]
    return tuple(sorted({str(s) for s in found if s}, key=len, reverse=True))


def _redact(text: str, secrets: tuple[str, ...]) -> str:
    for secret in secrets:
        text = text.replace(secret, "***")
    return text


_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]{0,40}")


def _scheme_only(url: str) -> str:
    """All a message may show of a URL that cannot be split safely: its scheme. Anything after
    it may be part of a password."""
    scheme = url.split("://", 1)[0] if "://" in url else ""
    return f"{scheme}://..." if _SCHEME.fullmatch(scheme) else "the database URL"


def _unescaped_at(url: str, parsed: sa.URL) -> bool:
    """True when the credentials hold an unescaped ``@``: the URL parser splits at the first
    ``@``, so the rest of the password would be taken for the host (printed, and looked up)."""
    authority = url.split("://", 1)[1].split("?", 1)[0] if "://" in url else ""
    return authority.count("@") > 1 or "@" in (parsed.host or "")


def _describe(url: sa.URL) -> str:
    """Where the store lives, for messages: the file for SQLite, the URL without its secrets
    otherwise (messages end up in logs)."""
    if url.get_backend_name() == "sqlite":
        return url.database or ":memory:"
    return _redact(url.render_as_string(hide_password=True), _secrets(url))


def _sqlite_file(url: sa.URL) -> Path | None:
    database = url.database
    if url.get_backend_name() != "sqlite" or not database or database == ":memory:":
        return None
    if database.startswith("file:"):  # a URI filename; leave it to SQLite
        return None
    return Path(database)


class RunStore:
    """Runs, case records and reports on one database. Every call takes its own pooled
    connection and every write is one transaction, so the engine's run and its lease keeper can
    call it from their two threads."""

    def __init__(self, url: str, *, create: bool = True) -> None:
        """Open (and with ``create``, make) the store at ``url``. A new SQLite file and the
        folders made for it are owner-only (0600 and 0700) whatever the umask; SQLite gives its
        -wal and -shm files the database file's mode. ``create=False`` raises NoStoreError for a
        SQLite file that does not exist, creating nothing."""
        try:
            parsed = make_url(url)
        except (SQLAlchemyError, ValueError, TypeError):
            raise StoreError(
                f"not a database URL or SQLite file: {_scheme_only(url)} (check the URL; in a "
                "user name or password write @ : / as %40 %3A %2F)"
            ) from None
        if parsed.get_backend_name() != "sqlite" and _unescaped_at(url, parsed):
            raise StoreError(
                f"cannot open run store at {_scheme_only(url)}: an unescaped '@' in its user "
                "name or password (write it as %40)"
            )
        self._where = _describe(parsed)
        self._secrets = _secrets(parsed)
        self._closed = False
        file = _sqlite_file(parsed)
        if file is not None:
            self._prepare_file(file, create=create)
        try:
            self._engine: Engine = sa.create_engine(parsed)
        except (SQLAlchemyError, ImportError) as exc:
            raise StoreError(
                f"cannot open run store at {self._where}: no driver for "
                f"{parsed.drivername!r} ({self._hidden(exc)}); for PostgreSQL install the "
                "`postgres` extra and use a postgresql+psycopg:// URL"
            ) from None
        if parsed.get_backend_name() == "sqlite":
            _configure_sqlite(self._engine)
        try:
            with self._engine.connect() as conn:
                conn.execution_options(**{_WRITE_OPTION: True})
                with conn.begin():
                    _prepare_schema(conn, self._where, sqlite=file is not None)
        except SQLAlchemyError as exc:
            self._engine.dispose()
            raise StoreError(
                f"cannot open run store at {self._where}: {self._hidden(exc)}"
            ) from None
        except BaseException:
            self._engine.dispose()
            raise

    def _prepare_file(self, file: Path, *, create: bool) -> None:
        try:
            if file.is_dir():
                raise StoreError(f"cannot open run store at {self._where}: it is a directory")
            if os.path.lexists(file):
                return
            if not create:
                above = file.parent
                while not os.path.lexists(above) and above.parent != above:
                    above = above.parent
                if not above.is_dir():  # a file where a folder should be: a mistake to name
                    raise StoreError(
                        f"cannot open run store at {self._where}: {above} is not a folder"
                    )
                raise NoStoreError(f"no run store at {self._where}")
            make_private_dirs(file.parent)
            # Empty: SQLite takes it for a new database. It exists when a concurrent first
            # use made it.
            with contextlib.suppress(FileExistsError):
                create_private_file(file)
        except OSError as exc:
            where = f" ({exc.filename})" if exc.filename else ""
            raise StoreError(
                f"cannot create run store at {self._where}: {exc.strerror or exc}{where}"
            ) from None

    @staticmethod
    def sqlite_url(path: Path) -> str:
        """The URL of a SQLite store at ``path``, escaped so any file name survives parsing."""
        return sa.URL.create("sqlite", database=str(path)).render_as_string()

    # -- writes ---------------------------------------------------------------------------------

    def create_run(self, run: RunRow) -> None:
        _check_status(run.status)
        _check_stage(run.stage)
        values = asdict(run)
        values["seed"] = seed_text(run.seed)
        with self._writing() as conn:
            if _run_exists(conn, run.run_id):
                raise StoreError(f"run {run.run_id!r} already exists in {self._where}")
            conn.execute(runs_table.insert().values(**values))

    def update_run(
        self,
        run_id: str,
        *,
        updated_at: str,
        status: str | None = None,
        stage: str | None = None,
        error: str | None = None,
        cases_total: int | None = None,
        waves_seeded: int | None = None,
        schedule: str | None = None,
    ) -> None:
        """Change only the fields given; ``updated_at`` always."""
        values: dict[str, Any] = {}
        if status is not None:
            _check_status(status)
            values["status"] = status
        if stage is not None:
            _check_stage(stage)
            values["stage"] = stage
        if error is not None:
            values["error"] = error
        if cases_total is not None:
            values["cases_total"] = cases_total
        if waves_seeded is not None:
            values["waves_seeded"] = waves_seeded
        if schedule is not None:
            values["schedule"] = schedule
        with self._writing() as conn:
            self._lock_run(conn, run_id, updated_at, **values)

    def record_case(
        self, run_id: str, case_id: str, kind: str, record: dict[str, Any], *, updated_at: str
    ) -> None:
        """Keep one case's record (a retried case replaces its earlier record) and set
        ``cases_done`` to the number of recorded cases, in one transaction."""
        record_json = _dumps(record)
        with self._writing() as conn:
            self._lock_run(conn, run_id, updated_at)
            # Update-then-insert rather than a dialect's ON CONFLICT, so any backend works; the
            # run's lock makes the pair atomic. The count moves only when a case is new.
            key = (cases_table.c.run_id == run_id) & (cases_table.c.case_id == case_id)
            replaced = conn.execute(
                cases_table.update().where(key).values(kind=kind, record_json=record_json)
            ).rowcount
            if not replaced:
                conn.execute(
                    cases_table.insert().values(
                        run_id=run_id, case_id=case_id, kind=kind, record_json=record_json
                    )
                )
                conn.execute(
                    runs_table.update()
                    .where(runs_table.c.run_id == run_id)
                    .values(cases_done=runs_table.c.cases_done + 1)
                )

    def save_report(
        self,
        run_id: str,
        report: dict[str, Any],
        transcript: dict[str, Any],
        *,
        updated_at: str,
    ) -> None:
        """Keep the report and transcript and mark the run done, in one transaction, so a run is
        never "done" without its report."""
        try:
            composite = float(report["composite"])
            composite_stderr = float(report["composite_stderr"])
            transcript_sha256 = str(report["transcript_sha256"])
        except KeyError as exc:
            raise StoreError(f"report for run {run_id!r} lacks {exc.args[0]!r}") from exc
        texts = {"report_json": _dumps(report), "transcript_json": _dumps(transcript)}
        with self._writing() as conn:
            self._lock_run(
                conn,
                run_id,
                updated_at,
                composite=composite,
                composite_stderr=composite_stderr,
                transcript_sha256=transcript_sha256,
                status="done",
                stage="done",
            )
            updated = conn.execute(
                reports_table.update().where(reports_table.c.run_id == run_id).values(**texts)
            )
            if updated.rowcount == 0:
                conn.execute(reports_table.insert().values(run_id=run_id, **texts))

    # -- the run lease --------------------------------------------------------------------------

    def claim_run(
        self, run_id: str, owner: str, *, now: str, until: str, take_over: str = ""
    ) -> None:
        """Make ``owner`` the one process driving the run until ``until`` (renew before then).

        One atomic UPDATE, so of two processes claiming at once exactly one wins, on SQLite and
        PostgreSQL alike. It succeeds when nobody holds the run, ``owner`` already does, the
        lease ran out (``lease_until`` <= ``now``; both UTC ``YYYY-MM-DDTHH:MM:SSZ``, which
        sort as times), or the holder is ``take_over`` (a holder the caller knows is dead).
        Otherwise ``RunBusyError`` names the holder; StoreError for an unknown run."""
        column = runs_table.c
        free = (column.lease_owner == "") | (column.lease_owner == owner)
        free = free | (column.lease_until <= now)
        if take_over:
            free = free | (column.lease_owner == take_over)
        with self._writing() as conn:
            won = conn.execute(
                runs_table.update()
                .where((column.run_id == run_id) & free)
                .values(lease_owner=owner, lease_until=until)
            ).rowcount
            if won:
                return
            holder = conn.execute(
                sa.select(column.lease_owner, column.lease_until).where(column.run_id == run_id)
            ).first()
        if holder is None:
            raise self._unknown(run_id)
        raise RunBusyError(
            f"run {run_id!r} is being driven by another process ({holder[0]}) whose lease "
            f"runs until {holder[1]}; wait for it to finish, or stop it and try again",
            holder[0],
            holder[1],
        )

    def renew_lease(self, run_id: str, owner: str, *, until: str) -> bool:
        """Extend ``owner``'s lease; False when it no longer holds the run."""
        column = runs_table.c
        with self._writing() as conn:
            return bool(
                conn.execute(
                    runs_table.update()
                    .where((column.run_id == run_id) & (column.lease_owner == owner))
                    .values(lease_until=until)
                ).rowcount
            )

    def release_run(self, run_id: str, owner: str) -> None:
        """Give the run up, if ``owner`` still holds it."""
        column = runs_table.c
        with self._writing() as conn:
            conn.execute(
                runs_table.update()
                .where((column.run_id == run_id) & (column.lease_owner == owner))
                .values(lease_owner="", lease_until="")
            )

    # -- reads ----------------------------------------------------------------------------------

    def get_run(self, run_id: str) -> RunRow:
        with self._reading() as conn:
            row = conn.execute(sa.select(runs_table).where(runs_table.c.run_id == run_id)).first()
        if row is None:
            raise self._unknown(run_id)
        return _row_to_run(row, self._where)

    def list_runs(self, limit: int = 50) -> list[RunRow | UnreadableRun]:
        """Newest first. ``created_at`` strings sort as times only when they share a UTC offset;
        callers write UTC. A row holding a value the store never writes is listed as an
        UnreadableRun naming the column, so one bad row hides no other run."""
        if limit < 1:
            raise ValueError(f"limit must be at least 1, got {limit}")
        query = (
            sa.select(runs_table)
            .order_by(runs_table.c.created_at.desc(), runs_table.c.run_id)
            .limit(limit)
        )
        with self._reading() as conn:
            rows = conn.execute(query).all()
        listed: list[RunRow | UnreadableRun] = []
        for row in rows:
            try:
                listed.append(_row_to_run(row, self._where))
            except BadContentError as exc:
                run_id = row._mapping["run_id"]
                name = run_id if isinstance(run_id, str) else _shown(run_id)
                listed.append(UnreadableRun(name, str(exc)))
        return listed

    def recorded_cases(self, run_id: str) -> dict[str, dict[str, Any]]:
        """case_id -> record for every case recorded so far, for resuming a run."""
        query = (
            sa.select(cases_table.c.case_id, cases_table.c.record_json)
            .where(cases_table.c.run_id == run_id)
            .order_by(cases_table.c.case_id)
        )
        with self._reading() as conn:
            if not _run_exists(conn, run_id):
                raise self._unknown(run_id)
            rows = conn.execute(query).all()
        return {
            case_id: _loads_object(
                text, f"run {run_id!r} in {self._where}: column record_json of case {case_id!r}"
            )
            for case_id, text in rows
        }

    def report(self, run_id: str) -> dict[str, Any] | None:
        """The saved report, or None while the run has none (StoreError for an unknown run)."""
        return self._report_text(run_id, reports_table.c.report_json, "report")

    def transcript(self, run_id: str) -> dict[str, Any] | None:
        """The saved transcript, or None while the run has none (StoreError for an unknown run)."""
        return self._report_text(run_id, reports_table.c.transcript_json, "transcript")

    def _report_text(self, run_id: str, column: sa.Column[str], what: str) -> dict[str, Any] | None:
        with self._reading() as conn:
            if not _run_exists(conn, run_id):
                raise self._unknown(run_id)
            text = conn.execute(
                sa.select(column).where(reports_table.c.run_id == run_id)
            ).scalar_one_or_none()
        if text is None:
            return None
        return _loads_object(text, f"run {run_id!r} in {self._where}: column {column.name}")

    # -- lifecycle ------------------------------------------------------------------------------

    @property
    def where(self) -> str:
        """Where the store lives, for messages: the SQLite file, or the URL without secrets."""
        return self._where

    def close(self) -> None:
        """Release the connections; closing twice is harmless, using a closed store is not."""
        if not self._closed:
            self._closed = True
            self._engine.dispose()

    def __enter__(self) -> RunStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- plumbing -------------------------------------------------------------------------------

    def _hidden(self, exc: Exception) -> str:
        """The driver's message, without any secret of the URL (drivers repeat hosts)."""
        orig = getattr(exc, "orig", None)
        text = _redact(str(orig) if orig is not None else str(exc), self._secrets)
        return _one_line(text)

    def _lock_run(self, conn: Connection, run_id: str, updated_at: str, **values: Any) -> None:
        """Write the run's row (``updated_at`` and any ``values``) first in a write: that locks
        it (on SQLite the write transaction holds the whole database already), so two writers of
        one run never both find a record missing and both insert it. StoreError for an unknown
        run."""
        touched = conn.execute(
            runs_table.update()
            .where(runs_table.c.run_id == run_id)
            .values(updated_at=updated_at, **values)
        ).rowcount
        if touched == 0:
            raise self._unknown(run_id)

    def _unknown(self, run_id: str) -> StoreError:
        return StoreError(f"no run {run_id!r} in {self._where}")

    @contextmanager
    def _reading(self) -> Iterator[Connection]:
        with self._translated(), self._engine.connect() as conn:
            yield conn

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        with self._translated(), self._engine.connect() as conn:
            conn.execution_options(**{_WRITE_OPTION: True})
            with conn.begin():
                yield conn

    @contextmanager
    def _translated(self) -> Iterator[None]:
        """Database failures become StoreError naming the store, so callers catch one type."""
        if self._closed:
            raise StoreError(f"run store {self._where} is closed")
        try:
            yield
        except SQLAlchemyError as exc:
            raise StoreError(f"run store {self._where}: {self._hidden(exc)}") from None


def _run_exists(conn: Connection, run_id: str) -> bool:
    query = sa.select(runs_table.c.run_id).where(runs_table.c.run_id == run_id)
    return conn.execute(query).first() is not None


def _configure_sqlite(engine: Engine) -> None:
    """WAL (readers never block the writer), enforced foreign keys, and transactions SQLAlchemy
    begins itself: the sqlite3 module's legacy mode starts none for reads or DDL."""

    @sa.event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            _use_wal(cursor)
            # In WAL mode NORMAL never corrupts the file; a power cut can lose the last few
            # commits, which a resume simply runs again. FULL would fsync on every case.
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute("PRAGMA foreign_keys=ON")
        finally:
            cursor.close()

    @sa.event.listens_for(engine, "begin")
    def _on_begin(conn: Connection) -> None:
        write = conn.get_execution_options().get(_WRITE_OPTION, False)
        conn.exec_driver_sql("BEGIN IMMEDIATE" if write else "BEGIN")


def _use_wal(cursor: Any) -> None:
    """Switch the file to WAL (it stays so). The switch needs the file to itself and SQLite does
    not wait for it as it waits for locks, so processes opening a new store at once retry."""
    give_up = time.monotonic() + WAL_SWITCH_WAIT_S
    while cursor.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
        except sqlite3.OperationalError as exc:
            if "locked" not in str(exc) or time.monotonic() > give_up:
                raise
            time.sleep(0.02)


def _prepare_schema(conn: Connection, where: str, *, sqlite: bool) -> None:
    """Create missing tables, but refuse a database whose tables are not ours: writing runs into
    another program's database (or an incompatible layout) would corrupt both."""
    if conn.dialect.name == "postgresql":
        # Processes opening an empty database at once would race to create the same tables
        # (SQLite's write transaction already serialises them).
        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _SCHEMA_LOCK})
    inspector = sa.inspect(conn)
    existing = set(inspector.get_table_names())
    ours = set(_metadata.tables)
    if sqlite and existing and not existing & ours:
        raise StoreError(
            f"{where} is not a dittobench run store (it holds other tables: "
            f"{', '.join(sorted(existing))})"
        )
    for name in sorted(existing & ours):
        have = {column["name"] for column in inspector.get_columns(name)}
        missing = [c.name for c in _metadata.tables[name].columns if c.name not in have]
        added = [c for c in missing if c in _ADDED_COLUMNS.get(name, ())]
        for column in added:
            conn.execute(
                sa.text(f"ALTER TABLE {name} ADD COLUMN {column} TEXT NOT NULL DEFAULT ''")
            )
        missing = [c for c in missing if c not in added]
        if missing:
            raise StoreError(
                f"{where} is not a dittobench run store: table {name!r} lacks {', '.join(missing)}"
            )
    _metadata.create_all(conn)
