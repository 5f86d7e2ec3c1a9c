"""The run store: where the scoring engine keeps runs, their per-case records and their reports.

A run can take hours against a slow harness, so every finished case is written down as it
completes; a crashed or interrupted run resumes from ``recorded_cases`` instead of starting over.
The store is SQLAlchemy Core on any URL: SQLite (one file, the default) for a single machine,
PostgreSQL for a shared service. It never reads the clock: callers pass RFC 3339 strings, so
tests and replays are deterministic. Its tables are in ``store.schema``, its rows and their
checks in ``store.rows``, its errors in ``store.errors``.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path
from typing import Any, Self

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

from dittobench.core.private_files import create_private_file, make_private_dirs
from dittobench.core.prng import seed_text
from dittobench.spec.codec import DecodeError, decode
from dittobench.spec.transcript import CaseRecord
from dittobench.spec.vocab import CaseKind, RunStage, RunStatus, Schedule
from dittobench.store.errors import (
    BadContentError,
    NoStoreError,
    RunBusyError,
    RunTakenError,
    StoreError,
)
from dittobench.store.migrations import current_revision
from dittobench.store.rows import (
    RUN_ID_EXAMPLE,
    RUN_ID_PATTERN,
    STAGES,
    STATUSES,
    RunRow,
    UnreadableRun,
    check_source,
    check_stage,
    check_status,
    dumps,
    is_run_id,
    loads_object,
    one_line,
    row_to_run,
    shown,
)
from dittobench.store.schema import (
    WRITE_OPTION,
    cases_table,
    configure_sqlite,
    prepare_schema,
    reports_table,
    run_exists,
    runs_table,
)
from dittobench.store.urls import (
    describe,
    redact,
    scheme_only,
    secrets_of,
    sqlite_file,
    unescaped_at,
)


def _case_statements() -> dict[str, sa.Update | sa.Insert]:
    """The statements that keep a case record, by name; their parameters are named ``rid``
    (run), ``cid`` (case), ``ck`` (kind), ``text`` (record), ``u`` (updated_at) and ``holder``."""
    c, r = cases_table.c, runs_table.c
    rid: sa.BindParameter[str] = sa.bindparam("rid")
    cid: sa.BindParameter[str] = sa.bindparam("cid")
    stamp: dict[str, sa.BindParameter[str]] = {"updated_at": sa.bindparam("u")}
    return {
        # The run's row is written first: that locks it (_lock_run).
        "lock": runs_table.update().where(r.run_id == rid).values(**stamp),
        "lock_held": runs_table.update()
        .where((r.run_id == rid) & (r.lease_owner == sa.bindparam("holder")))
        .values(**stamp),
        "replace": cases_table.update()
        .where((c.run_id == rid) & (c.case_id == cid))
        .values(kind=sa.bindparam("ck"), record_json=sa.bindparam("text")),
        "insert": cases_table.insert().values(
            run_id=rid, case_id=cid, kind=sa.bindparam("ck"), record_json=sa.bindparam("text")
        ),
        "count": runs_table.update()
        .where(r.run_id == rid)
        .values(cases_done=r.cases_done + sa.literal_column("1")),
    }


class _CaseWriter:
    """``record_case``'s statements compiled once for the store's database, run on the driver's
    own cursor: through SQLAlchemy's execution layer (a pooled connection, its events, a result
    object per statement) one case's write cost about 500 µs of CPU, SQLite's own work 40 µs,
    and it is written once per case (issue 33)."""

    def __init__(self, dialect: sa.Dialect) -> None:
        self._sql: dict[str, tuple[str, tuple[str, ...], bool]] = {}
        for name, statement in _case_statements().items():
            compiled = statement.compile(dialect=dialect)
            names = tuple(compiled.positiontup or compiled.params)
            self._sql[name] = (str(compiled), names, compiled.positional)
        # SQLAlchemy's connections begin SQLite's write transactions this way (store.schema).
        self.begin = "BEGIN IMMEDIATE" if dialect.name == "sqlite" else ""

    def run(self, cursor: Any, name: str, values: dict[str, str]) -> int:
        """Run one statement; the rows it changed."""
        sql, names, positional = self._sql[name]
        if positional:
            cursor.execute(sql, tuple(values[n] for n in names))
        else:
            cursor.execute(sql, {n: values[n] for n in names})
        return int(cursor.rowcount)


class RunStore:
    """Runs, case records and reports on one database. Every call takes its own pooled
    connection and every write is one transaction, so the engine's run and its lease keeper can
    call it from their two threads."""

    def __init__(self, url: str, *, create: bool = True, migrate: bool = True) -> None:
        """Open (and with ``create``, make) the store at ``url``, bringing its schema to the
        newest revision (``store.migrations``; ``migrate=False`` leaves it as it is, to read
        ``schema_revision`` only). A new SQLite file and the
        folders made for it are owner-only (0600 and 0700) whatever the umask; SQLite gives its
        -wal and -shm files the database file's mode. ``create=False`` raises NoStoreError for a
        SQLite file that does not exist, creating nothing."""
        try:
            parsed = make_url(url)
        except (SQLAlchemyError, ValueError, TypeError):
            raise StoreError(
                f"not a database URL or SQLite file: {scheme_only(url)} (check the URL; in a "
                "user name or password write @ : / as %40 %3A %2F)"
            ) from None
        if parsed.get_backend_name() != "sqlite" and unescaped_at(url, parsed):
            raise StoreError(
                f"cannot open run store at {scheme_only(url)}: an unescaped '@' in its user "
                "name or password (write it as %40)"
            )
        self._where = describe(parsed)
        self._secrets = secrets_of(parsed)
        self._closed = False
        self._cases: _CaseWriter | None = None
        file = sqlite_file(parsed)
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
            configure_sqlite(self._engine)
        if not migrate:
            return
        try:
            with self._engine.connect() as conn:
                conn.execution_options(**{WRITE_OPTION: True})
                with conn.begin():
                    prepare_schema(conn, self._where, sqlite=file is not None)
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
        check_status(run.status)
        check_stage(run.stage)
        check_source(run.seed_source)
        values = asdict(run)
        values["seed"] = seed_text(run.seed)
        with self._writing() as conn:
            if run_exists(conn, run.run_id):
                raise StoreError(f"run {run.run_id!r} already exists in {self._where}")
            conn.execute(runs_table.insert().values(**values))

    def update_run(
        self,
        run_id: str,
        *,
        updated_at: str,
        status: RunStatus | None = None,
        stage: RunStage | None = None,
        error: str | None = None,
        cases_total: int | None = None,
        waves_seeded: int | None = None,
        schedule: Schedule | None = None,
        resumes: int | None = None,
    ) -> None:
        """Change only the fields given; ``updated_at`` always."""
        values: dict[str, Any] = {}
        if status is not None:
            check_status(status)
            values["status"] = status
        if stage is not None:
            check_stage(stage)
            values["stage"] = stage
        if error is not None:
            values["error"] = error
        if cases_total is not None:
            values["cases_total"] = cases_total
        if waves_seeded is not None:
            values["waves_seeded"] = waves_seeded
        if schedule is not None:
            values["schedule"] = schedule
        if resumes is not None:
            values["resumes"] = resumes
        with self._writing() as conn:
            self._lock_run(conn, run_id, updated_at, **values)

    def record_case(
        self,
        run_id: str,
        case_id: str,
        kind: CaseKind,
        record: dict[str, Any],
        *,
        updated_at: str,
        holder: str = "",
    ) -> None:
        """Keep one case's record (a retried case replaces its earlier record) and set
        ``cases_done`` to the number of recorded cases, in one transaction. With ``holder``, only
        while that lease owner still holds the run (``RunTakenError`` otherwise, nothing
        written): a driver that stalled while another took its run over adds nothing after."""
        values = {"rid": run_id, "cid": case_id, "ck": kind, "text": dumps(record)}
        values |= {"u": updated_at, "holder": holder}
        sql = self._case_writer()
        with self._raw_writing(sql.begin) as cursor:
            held = sql.run(cursor, "lock_held" if holder else "lock", values)
            # Update-then-insert rather than a dialect's ON CONFLICT, so any backend works; the
            # run's lock makes the pair atomic. The count moves only when a case is new.
            if held and not sql.run(cursor, "replace", values):
                sql.run(cursor, "insert", values)
                sql.run(cursor, "count", values)
        if not held:  # nothing was written
            with self._reading() as conn:
                if holder and run_exists(conn, run_id):
                    raise RunTakenError(f"run {run_id!r} is no longer held by {holder}")
            raise self._unknown(run_id)

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
        texts = {"report_json": dumps(report), "transcript_json": dumps(transcript)}
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
        return row_to_run(row, self._where)

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
                listed.append(row_to_run(row, self._where))
            except BadContentError as exc:
                run_id = row._mapping["run_id"]
                name = run_id if isinstance(run_id, str) else shown(run_id)
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
            if not run_exists(conn, run_id):
                raise self._unknown(run_id)
            rows = conn.execute(query).all()
        return {
            case_id: loads_object(
                text, f"run {run_id!r} in {self._where}: column record_json of case {case_id!r}"
            )
            for case_id, text in rows
        }

    def case_records(self, run_id: str) -> dict[str, CaseRecord]:
        """``recorded_cases`` decoded through the spec's ``CaseRecord``: a record holding a value
        outside its vocabulary (a case kind, an outcome) or of the wrong shape is
        ``BadContentError`` naming the run, the case, the field and the value."""
        out = {}
        for case_id, data in self.recorded_cases(run_id).items():
            try:
                out[case_id] = decode(CaseRecord, data)
            except DecodeError as exc:
                raise BadContentError(
                    f"run {run_id!r} in {self._where}: column record_json of case "
                    f"{case_id!r}: {exc}"
                ) from None
        return out

    def report(self, run_id: str) -> dict[str, Any] | None:
        """The saved report, or None while the run has none (StoreError for an unknown run)."""
        return self._report_text(run_id, reports_table.c.report_json, "report")

    def transcript(self, run_id: str) -> dict[str, Any] | None:
        """The saved transcript, or None while the run has none (StoreError for an unknown run)."""
        return self._report_text(run_id, reports_table.c.transcript_json, "transcript")

    def _report_text(self, run_id: str, column: sa.Column[str], what: str) -> dict[str, Any] | None:
        with self._reading() as conn:
            if not run_exists(conn, run_id):
                raise self._unknown(run_id)
            text = conn.execute(
                sa.select(column).where(reports_table.c.run_id == run_id)
            ).scalar_one_or_none()
        if text is None:
            return None
        return loads_object(text, f"run {run_id!r} in {self._where}: column {column.name}")

    def schema_revision(self) -> str | None:
        """The store's schema revision (``store.migrations``); None before any migration."""
        with self._reading() as conn:
            return current_revision(conn)

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

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- plumbing -------------------------------------------------------------------------------

    def _hidden(self, exc: Exception) -> str:
        """The driver's message, without any secret of the URL (drivers repeat hosts)."""
        orig = getattr(exc, "orig", None)
        text = redact(str(orig) if orig is not None else str(exc), self._secrets)
        return one_line(text)

    def _lock_run(
        self, conn: Connection, run_id: str, updated_at: str, holder: str = "", **values: Any
    ) -> None:
        """Write the run's row (``updated_at`` and any ``values``) first in a write: that locks
        it (on SQLite the write transaction holds the whole database already), so two writers of
        one run never both find a record missing and both insert it. StoreError for an unknown
        run."""
        where = runs_table.c.run_id == run_id
        if holder:
            where = where & (runs_table.c.lease_owner == holder)
        touched = conn.execute(
            runs_table.update().where(where).values(updated_at=updated_at, **values)
        ).rowcount
        if touched == 0:
            if holder and run_exists(conn, run_id):
                raise RunTakenError(f"run {run_id!r} is no longer held by {holder}")
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
            conn.execution_options(**{WRITE_OPTION: True})
            with conn.begin():
                yield conn

    def _case_writer(self) -> _CaseWriter:
        if self._cases is None:  # compiled on first use: most commands never write a case
            self._cases = _CaseWriter(self._engine.dialect)
        return self._cases

    @contextmanager
    def _raw_writing(self, begin: str) -> Iterator[Any]:
        """A cursor of a pooled driver connection in a write transaction (``begin`` starts it
        when the driver does not by itself), committed unless the block raises."""
        failure = self._engine.dialect.loaded_dbapi.Error
        with self._translated():
            raw = self._engine.raw_connection()
            try:
                cursor = raw.cursor()
                if begin:
                    cursor.execute(begin)
                try:
                    yield cursor
                except BaseException:
                    raw.rollback()
                    raise
                raw.commit()
            except failure as exc:
                raise StoreError(f"run store {self._where}: {self._hidden(exc)}") from None
            finally:
                raw.close()

    @contextmanager
    def _translated(self) -> Iterator[None]:
        """Database failures become StoreError naming the store, so callers catch one type."""
        if self._closed:
            raise StoreError(f"run store {self._where} is closed")
        try:
            yield
        except SQLAlchemyError as exc:
            raise StoreError(f"run store {self._where}: {self._hidden(exc)}") from None


__all__ = [
    "RUN_ID_EXAMPLE",
    "RUN_ID_PATTERN",
    "STAGES",
    "STATUSES",
    "BadContentError",
    "NoStoreError",
    "RunBusyError",
    "RunRow",
    "RunStore",
    "RunTakenError",
    "StoreError",
    "UnreadableRun",
    "is_run_id",
]
