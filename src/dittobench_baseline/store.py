"""Per-user conversation memory in SQLite, searched with FTS5 (BM25).

Tables: ``pairs`` (one row per stored exchange), ``subjects`` and ``links`` (prepared topic
indexes), plus two FTS5 indexes: ``pairs_fts`` over each pair's prompt, response and the titles of
the subjects it is linked to, and ``subjects_fts`` over subject titles and descriptions. Every row
carries the ``user_id`` it belongs to and every query filters on it, so one user's memory is never
visible to another. An empty ``user_id`` means the default user.

Retrieval goes through a :class:`Retriever`; the default one is BM25 over ``pairs_fts``. A dense
retriever can be plugged in with ``MemoryStore(path, retriever=...)`` without touching the server.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import TracebackType
from typing import Protocol

from dittobench.spec.wire import DEFAULT_USER_ID, SeedRequest, SeedResponse, Subject
from dittobench_baseline.textutil import (
    STOPWORDS,
    format_timestamp,
    parse_timestamp,
    tokens,
)

MAX_QUERY_TERMS = 32
"""The longest OR-query sent to FTS5; longer texts keep their first distinct terms."""

SAVED_PREFIX = "mem-"
"""Pair ids minted by :meth:`MemoryStore.save` start with this."""

_SCHEMA = """
CREATE TABLE IF NOT EXISTS store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pairs (
    rid INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    pair_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    prompt TEXT NOT NULL,
    response TEXT NOT NULL,
    UNIQUE (user_id, pair_id)
);
CREATE TABLE IF NOT EXISTS subjects (
    rid INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    id TEXT NOT NULL,
    subject_text TEXT NOT NULL,
    description_text TEXT NOT NULL,
    UNIQUE (user_id, id)
);
CREATE TABLE IF NOT EXISTS links (
    user_id TEXT NOT NULL,
    subject_id TEXT NOT NULL,
    pair_id TEXT NOT NULL,
    PRIMARY KEY (user_id, subject_id, pair_id)
);
CREATE INDEX IF NOT EXISTS links_by_pair ON links (user_id, pair_id);
CREATE VIRTUAL TABLE IF NOT EXISTS pairs_fts USING fts5(
    prompt, response, subjects, tokenize = 'porter unicode61'
);
CREATE VIRTUAL TABLE IF NOT EXISTS subjects_fts USING fts5(
    subject_text, description_text, tokenize = 'porter unicode61'
);
"""


@dataclass(frozen=True, slots=True)
class Hit:
    """One stored pair as retrieval returns it. ``score`` is higher for better matches (0 when
    the pair was not ranked); ``seq`` is the insertion order, a tiebreak for recency."""

    pair_id: str
    session_id: str
    timestamp: str
    prompt: str
    response: str
    score: float = 0.0
    seq: int = 0

    @property
    def moment(self) -> datetime | None:
        return parse_timestamp(self.timestamp)


@dataclass(frozen=True, slots=True)
class SubjectHit:
    id: str
    subject_text: str
    description_text: str
    score: float = 0.0


class Retriever(Protocol):
    """Ranks a user's pairs for a free-text query, best first, at most ``k`` of them."""

    def search(self, store: MemoryStore, user_id: str, query: str, k: int) -> list[Hit]: ...


class Bm25Retriever:
    """The default retriever: SQLite FTS5 BM25 over prompt, response and linked subject titles."""

    def search(self, store: MemoryStore, user_id: str, query: str, k: int) -> list[Hit]:
        return store.bm25(user_id, query, k)


def fts_query(text: str) -> str | None:
    """An FTS5 query that ORs the distinct words of ``text``, each double-quoted, so any input,
    punctuation and FTS operators included, is a valid query. Stopwords are dropped unless nothing
    else is left; None when the text has no word at all."""
    words = list(dict.fromkeys(tokens(text)))
    kept = [w for w in words if w not in STOPWORDS] or words
    if not kept:
        return None
    return " OR ".join('"' + w.replace('"', "") + '"' for w in kept[:MAX_QUERY_TERMS])


def user_key(user_id: str) -> str:
    """The store's key for a wire ``user_id``: empty means the default user."""
    return user_id or DEFAULT_USER_ID


class MemoryStore:
    """Thread-safe per-user memory. Use ``":memory:"`` for a throw-away store."""

    def __init__(self, path: str | Path = ":memory:", retriever: Retriever | None = None) -> None:
        self._lock = threading.RLock()
        self._conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        if str(path) != ":memory:":
            self._conn.execute("PRAGMA journal_mode = WAL")
        self._conn.executescript(_SCHEMA)
        self.retriever: Retriever = retriever or Bm25Retriever()
        # Names this memory's lifetime for /health (protocol.md, "Restarts"): drawn once per
        # store, so a store in RAM gets a new one with each process and a file keeps its own.
        self._conn.execute(
            "INSERT OR IGNORE INTO store_meta VALUES ('instance', ?)", (os.urandom(8).hex(),)
        )
        (self.instance,) = self._conn.execute(
            "SELECT value FROM store_meta WHERE key = 'instance'"
        ).fetchone()

    # Lifecycle ----------------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    # Seeding ------------------------------------------------------------------------------------

    def upsert(self, request: SeedRequest) -> SeedResponse:
        """Load one wave, or one part of a wave. Pairs and subjects are upserted by id, links
        added once; every request merges into what is already stored, so sending the same wave
        twice changes nothing, and a wave sent in parts ends as the wave sent whole. The work is
        in proportion to the request and to the pairs linked to the subjects it carries."""
        user = user_key(request.user_id)
        with self._lock, self._transaction():
            self._conn.executemany(
                "INSERT INTO pairs (user_id, pair_id, session_id, timestamp, prompt, response)"
                " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, pair_id) DO UPDATE SET"
                " session_id = excluded.session_id, timestamp = excluded.timestamp,"
                " prompt = excluded.prompt, response = excluded.response",
                [
                    (user, p.pair_id, p.session_id, p.timestamp, p.prompt, p.response)
                    for p in request.pairs
                ],
            )
            touched = {pair.pair_id for pair in request.pairs}
            touched |= self._upsert_subjects(user, request.subjects)
            self._conn.executemany(
                "INSERT OR IGNORE INTO links (user_id, subject_id, pair_id) VALUES (?, ?, ?)",
                [(user, link.subject_id, link.pair_id) for link in request.links],
            )
            touched.update(link.pair_id for link in request.links)
            self._reindex(user, sorted(touched))
        return SeedResponse(
            pairs=len(request.pairs), subjects=len(request.subjects), links=len(request.links)
        )

    def _upsert_subjects(self, user: str, subjects: Sequence[Subject]) -> set[str]:
        """Store and index the subjects; the ids of the pairs already linked to them (their
        index holds the subjects' titles, so it is rebuilt)."""
        touched: set[str] = set()
        for subject in subjects:
            row = self._conn.execute(
                "INSERT INTO subjects (user_id, id, subject_text, description_text)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (user_id, id) DO UPDATE SET"
                " subject_text = excluded.subject_text,"
                " description_text = excluded.description_text RETURNING rid",
                (user, subject.id, subject.subject_text, subject.description_text),
            ).fetchone()
            self._conn.execute("DELETE FROM subjects_fts WHERE rowid = ?", (row[0],))
            self._conn.execute(
                "INSERT INTO subjects_fts (rowid, subject_text, description_text) VALUES (?, ?, ?)",
                (row[0], subject.subject_text, subject.description_text),
            )
            touched.update(
                r[0]
                for r in self._conn.execute(
                    "SELECT pair_id FROM links WHERE user_id = ? AND subject_id = ?",
                    (user, subject.id),
                )
            )
        return touched

    # Reading ------------------------------------------------------------------------------------

    def search(self, user_id: str, query: str, k: int = 10) -> list[Hit]:
        """The best ``k`` pairs of ``user_id`` for ``query``, through the configured retriever."""
        if k <= 0:
            return []
        return self.retriever.search(self, user_key(user_id), query, k)

    def bm25(self, user_id: str, query: str, k: int = 10) -> list[Hit]:
        """FTS5 BM25 ranking of one user's pairs (the default retriever's implementation)."""
        match = fts_query(query)
        if match is None or k <= 0:
            return []
        with self._lock:
            rows = self._conn.execute(
                "SELECT p.rid, p.pair_id, p.session_id, p.timestamp, p.prompt, p.response,"
                " bm25(pairs_fts, 1.0, 1.0, 0.5) AS rank"
                " FROM pairs_fts JOIN pairs p ON p.rid = pairs_fts.rowid"
                " WHERE pairs_fts MATCH ? AND p.user_id = ? ORDER BY rank, p.rid LIMIT ?",
                (match, user_key(user_id), k),
            ).fetchall()
        return [_hit(row, -row[6]) for row in rows]

    def fetch(self, user_id: str, pair_ids: Sequence[str]) -> list[Hit]:
        """The stored pairs with these ids, in the order asked; unknown ids are skipped."""
        user = user_key(user_id)
        out: list[Hit] = []
        with self._lock:
            for pair_id in dict.fromkeys(pair_ids):
                row = self._conn.execute(
                    "SELECT rid, pair_id, session_id, timestamp, prompt, response FROM pairs"
                    " WHERE user_id = ? AND pair_id = ?",
                    (user, pair_id),
                ).fetchone()
                if row is not None:
                    out.append(_hit(row, 0.0))
        return out

    def all_pairs(self, user_id: str) -> list[Hit]:
        """Every pair of one user, oldest first (by timestamp, then insertion order)."""
        with self._lock:
            rows = self._conn.execute(
                "SELECT rid, pair_id, session_id, timestamp, prompt, response FROM pairs"
                " WHERE user_id = ?",
                (user_key(user_id),),
            ).fetchall()
        hits = [_hit(row, 0.0) for row in rows]
        return sorted(hits, key=chronological_key)

    def newest_moment(self, user_id: str) -> datetime | None:
        """The latest readable timestamp among one user's pairs; None when there is none."""
        with self._lock:
            stamps = self._conn.execute(
                "SELECT timestamp FROM pairs WHERE user_id = ?", (user_key(user_id),)
            ).fetchall()
        return max(
            (moment for (stamp,) in stamps if (moment := parse_timestamp(stamp)) is not None),
            default=None,
        )

    def count(self, user_id: str) -> int:
        with self._lock:
            row = self._conn.execute(
                "SELECT COUNT(*) FROM pairs WHERE user_id = ?", (user_key(user_id),)
            ).fetchone()
        return int(row[0])

    def search_subjects(self, user_id: str, query: str, k: int = 10) -> list[SubjectHit]:
        """The user's subjects whose title or description best matches ``query``."""
        match = fts_query(query)
        if match is None or k <= 0:
            return []
        with self._lock:
            rows = self._conn.execute(
                "SELECT s.id, s.subject_text, s.description_text,"
                " bm25(subjects_fts, 2.0, 1.0) AS rank"
                " FROM subjects_fts JOIN subjects s ON s.rid = subjects_fts.rowid"
                " WHERE subjects_fts MATCH ? AND s.user_id = ? ORDER BY rank, s.rid LIMIT ?",
                (match, user_key(user_id), k),
            ).fetchall()
        return [SubjectHit(r[0], r[1], r[2], -r[3]) for r in rows]

    def search_in_subject(
        self, user_id: str, subject_id: str, query: str, k: int = 10
    ) -> list[Hit]:
        """BM25 over the pairs linked to one subject; with no usable query words, the linked
        pairs oldest first."""
        user = user_key(user_id)
        match = fts_query(query)
        with self._lock:
            if match is None:
                rows = self._conn.execute(
                    "SELECT p.rid, p.pair_id, p.session_id, p.timestamp, p.prompt, p.response, 0"
                    " FROM pairs p JOIN links l ON l.user_id = p.user_id AND l.pair_id = p.pair_id"
                    " WHERE p.user_id = ? AND l.subject_id = ? ORDER BY p.timestamp, p.rid LIMIT ?",
                    (user, subject_id, max(k, 0)),
                ).fetchall()
            else:
                rows = self._conn.execute(
                    "SELECT p.rid, p.pair_id, p.session_id, p.timestamp, p.prompt, p.response,"
                    " bm25(pairs_fts, 1.0, 1.0, 0.5) AS rank"
                    " FROM pairs_fts JOIN pairs p ON p.rid = pairs_fts.rowid"
                    " JOIN links l ON l.user_id = p.user_id AND l.pair_id = p.pair_id"
                    " WHERE pairs_fts MATCH ? AND p.user_id = ? AND l.subject_id = ?"
                    " ORDER BY rank, p.rid LIMIT ?",
                    (match, user, subject_id, max(k, 0)),
                ).fetchall()
        return [_hit(row, -float(row[6])) for row in rows]

    # Writing ------------------------------------------------------------------------------------

    def save(
        self, user_id: str, content: str, timestamp: str | None = None, session_id: str = ""
    ) -> str:
        """Store ``content`` as a new pair and return its id. Without a timestamp the pair is
        stamped now, and never earlier than one second after the newest pair already stored, so a
        fresh note always reads as the latest word on its topic."""
        user = user_key(user_id)
        with self._lock, self._transaction():
            stamp = timestamp or self._next_stamp(user)
            seq = self._conn.execute("SELECT COALESCE(MAX(rid), 0) + 1 FROM pairs").fetchone()[0]
            digest = hashlib.sha256(f"{user}\0{seq}\0{stamp}\0{content}".encode()).hexdigest()
            pair_id = SAVED_PREFIX + digest[:16]
            self._conn.execute(
                "INSERT INTO pairs (user_id, pair_id, session_id, timestamp, prompt, response)"
                " VALUES (?, ?, ?, ?, ?, '')",
                (user, pair_id, session_id or "saved", stamp, content),
            )
            self._reindex(user, [pair_id])
        return pair_id

    def update(self, user_id: str, pair_id: str, content: str) -> bool:
        """Replace one pair's content (the prompt becomes ``content``, the response is cleared)
        and restamp it as the newest memory. False when the pair does not exist."""
        user = user_key(user_id)
        with self._lock, self._transaction():
            stamp = self._next_stamp(user)
            changed = self._conn.execute(
                "UPDATE pairs SET prompt = ?, response = '', timestamp = ?"
                " WHERE user_id = ? AND pair_id = ?",
                (content, stamp, user, pair_id),
            ).rowcount
            if changed:
                self._reindex(user, [pair_id])
        return bool(changed)

    def delete(self, user_id: str, pair_id: str) -> bool:
        """Remove one pair, its index entry and its links. False when it does not exist."""
        user = user_key(user_id)
        with self._lock, self._transaction():
            row = self._conn.execute(
                "SELECT rid FROM pairs WHERE user_id = ? AND pair_id = ?", (user, pair_id)
            ).fetchone()
            if row is None:
                return False
            self._conn.execute("DELETE FROM pairs_fts WHERE rowid = ?", (row[0],))
            self._conn.execute("DELETE FROM pairs WHERE rid = ?", (row[0],))
            self._conn.execute(
                "DELETE FROM links WHERE user_id = ? AND pair_id = ?", (user, pair_id)
            )
        return True

    # Internals ----------------------------------------------------------------------------------

    def _transaction(self) -> _Transaction:
        return _Transaction(self._conn)

    def _next_stamp(self, user: str) -> str:
        now = datetime.now(UTC).replace(microsecond=0)
        newest = self.newest_moment(user)
        if newest is not None and newest >= now:
            now = newest.replace(microsecond=0) + timedelta(seconds=1)
        return format_timestamp(now)

    def _reindex(self, user: str, pair_ids: Sequence[str]) -> None:
        """Rebuild the search index of these pairs (prompt, response and the titles of their
        subjects), in the order given. A link that names a pair not seeded yet is skipped: the
        pair is indexed when it arrives."""
        found: list[tuple[int, str, str, str]] = []
        for pair_id in pair_ids:
            row = self._conn.execute(
                "SELECT rid, prompt, response FROM pairs WHERE user_id = ? AND pair_id = ?",
                (user, pair_id),
            ).fetchone()
            if row is None:
                continue
            titles = self._conn.execute(
                # The pair's few links (by links_by_pair) are the outer loop: planned freely,
                # SQLite walks every subject of the user in id order to skip a sort, once per
                # pair, which made seeding quadratic in the subjects held.
                "SELECT s.subject_text FROM links l INDEXED BY links_by_pair CROSS JOIN subjects s"
                " ON s.user_id = l.user_id AND s.id = l.subject_id"
                " WHERE l.user_id = ? AND l.pair_id = ? ORDER BY s.id",
                (user, pair_id),
            )
            found.append((row[0], row[1], row[2], _join(title for (title,) in titles)))
        self._conn.executemany("DELETE FROM pairs_fts WHERE rowid = ?", [(r[0],) for r in found])
        self._conn.executemany(
            "INSERT INTO pairs_fts (rowid, prompt, response, subjects) VALUES (?, ?, ?, ?)", found
        )


class _Transaction:
    """BEGIN on entry; COMMIT on success, ROLLBACK on error (the connection is in autocommit)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def __enter__(self) -> None:
        self._conn.execute("BEGIN")

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._conn.execute("COMMIT" if exc_type is None else "ROLLBACK")


def _hit(row: Sequence[object], score: float) -> Hit:
    return Hit(
        pair_id=str(row[1]),
        session_id=str(row[2]),
        timestamp=str(row[3]),
        prompt=str(row[4]),
        response=str(row[5]),
        score=float(score),
        seq=int(str(row[0])),
    )


def chronological_key(hit: Hit) -> tuple[datetime, int]:
    return (hit.moment or datetime.min.replace(tzinfo=UTC), hit.seq)


def _join(parts: Iterable[str]) -> str:
    return " \n".join(parts)


__all__ = [
    "Bm25Retriever",
    "Hit",
    "MemoryStore",
    "Retriever",
    "SubjectHit",
    "chronological_key",
    "fts_query",
    "user_key",
]
