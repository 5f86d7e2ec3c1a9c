"""``embedding``: the plain dense-retrieval floor, turns kept whole and ranked by cosine similarity.

Between ``lexical`` (BM25 over raw turns) and the memory systems: a system that recalls worse than
cosine over averaged word vectors of the same raw turns is not helping. Each turn (the user's words
and the assistant's reply) is stored with its vector in SQLite; ``recall`` ranks one user's turns
by cosine with the query, ties broken by recency (the turn's timestamp, newest first) and then by
pair id, so the same store and query always give the same list.

The model is wordllama's: its wheel ships the weights and the tokenizer, and they are loaded from
the package with downloads refused, so the baseline needs no network and gives the same vectors
on every machine with the same wordllama version (named in ``describe()``).

Config: ``model`` (a wordllama config whose weights the wheel ships; default the smallest one),
``dim`` (keep the first ``dim`` components: wordllama's vectors are trained to be truncated, to
64, 128 and so on up to the shipped size), ``db`` (a SQLite file; default in memory).
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import re
import sqlite3
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import ModuleType
from typing import Any, TypeAlias

import numpy as np
import numpy.typing as npt

from dittobench_adapters.contract import (
    AdapterConfigError,
    BaseAdapter,
    Capability,
    Memory,
    Turn,
    check_keys,
    config_value,
)
from dittobench_baseline.store import SAVED_PREFIX, user_key
from dittobench_baseline.textutil import format_timestamp, parse_timestamp

Vectors: TypeAlias = npt.NDArray[np.float32]

_WEIGHTS = re.compile(r"(?P<config>.+)_(?P<dim>\d+)\.safetensors")
_EARLIEST = datetime.min.replace(tzinfo=UTC)

_SCHEMA = """
CREATE TABLE IF NOT EXISTS turns (
    user_id TEXT NOT NULL,
    pair_id TEXT NOT NULL,
    session_id TEXT NOT NULL,
    timestamp TEXT NOT NULL,
    prompt TEXT NOT NULL,
    response TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (user_id, pair_id)
);
CREATE TABLE IF NOT EXISTS model (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def _import_quietly(name: str) -> ModuleType:
    """Import ``name`` and undo a ``logging.basicConfig`` it runs at import (wordllama does),
    which would otherwise turn on INFO logging to stderr for the whole host process."""
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    try:
        return importlib.import_module(name)
    finally:
        root.handlers[:] = handlers
        root.setLevel(level)


wordllama = _import_quietly("wordllama")
_PACKAGE = Path(str(wordllama.__file__)).parent


def bundled_models() -> dict[str, int]:
    """The wordllama configs whose weights the installed wheel ships, with the shipped size,
    smallest file first (binary weights aside)."""
    known = set(wordllama.WordLlama.list_configs()["wordllama"])
    found = []
    for path in (_PACKAGE / "weights").glob("*.safetensors"):
        match = _WEIGHTS.fullmatch(path.name)
        if match and match["config"] in known:
            found.append((path.stat().st_size, match["config"], int(match["dim"])))
    return {config: dim for _, config, dim in sorted(found)}


class WordLlamaEncoder:
    """A wordllama model read from its own wheel (no download, ever), giving unit vectors.

    Also used by the test helper that serves embeddings to mem0, so both baselines embed alike.
    """

    def __init__(self, model: str | None = None, dim: int | None = None) -> None:
        shipped = bundled_models()
        if not shipped:
            raise AdapterConfigError("embedding: the installed wordllama ships no weights")
        self.model = model or next(iter(shipped))
        if self.model not in shipped:
            names = ", ".join(sorted(shipped))
            raise AdapterConfigError(
                f"model: {self.model!r} is not shipped in the wordllama wheel (shipped: {names})"
            )
        self.dim = shipped[self.model] if dim is None else dim
        try:
            # cache_dir is the package itself: wordllama 0.4 looks for a shipped tokenizer under
            # tokenizer/ but ships it under tokenizers/, which the cache layout matches.
            self._inference = wordllama.WordLlama.load(
                self.model,
                dim=shipped[self.model],
                trunc_dim=None if self.dim == shipped[self.model] else self.dim,
                cache_dir=_PACKAGE,
                disable_download=True,
            )
        except ValueError as exc:
            raise AdapterConfigError(f"dim: {exc}") from None
        except FileNotFoundError as exc:
            raise AdapterConfigError(f"model: {exc}") from None
        self.version = str(wordllama.__version__)

    def encode(self, texts: Sequence[str]) -> Vectors:
        """One unit-length row per text; an empty text (no tokens) gives a zero row."""
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        raw = np.asarray(self._inference.embed(list(texts), norm=False), dtype=np.float32)
        norms = np.linalg.norm(raw, axis=1, keepdims=True)
        unit = np.zeros_like(raw)
        np.divide(raw, norms, out=unit, where=norms > 0)
        return unit


@dataclass(frozen=True, slots=True)
class _Row:
    pair_id: str
    timestamp: str
    prompt: str
    response: str
    vector: bytes


class EmbeddingAdapter(BaseAdapter):
    name = "embedding"
    version = "1"
    capabilities = frozenset({Capability.SAVE, Capability.UPDATE, Capability.DELETE})

    def __init__(self, config: Mapping[str, Any]) -> None:
        super().__init__()
        check_keys(config, ("model", "dim", "db"), self.name)
        model = config_value(config, "model", str, None)
        dim = config_value(config, "dim", int, None)
        path = config_value(config, "db", str, ":memory:")
        self.encoder = WordLlamaEncoder(model, dim)
        self._conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._conn.executescript(_SCHEMA)
        self._check_model()

    def describe(self) -> Mapping[str, str]:
        return {
            "system": "wordllama-cosine",
            "model": self.encoder.model,
            "dim": str(self.encoder.dim),
            "system_version": f"wordllama {self.encoder.version}",
        }

    def ingest(self, turns: Sequence[Turn]) -> None:
        if not turns:
            return
        with self.lock:
            vectors = self.encoder.encode([_turn_text(t.prompt, t.response) for t in turns])
            self._conn.execute("BEGIN")
            try:
                for turn, vector in zip(turns, vectors, strict=True):
                    self._conn.execute(
                        "INSERT INTO turns (user_id, pair_id, session_id, timestamp, prompt,"
                        " response, vector) VALUES (?, ?, ?, ?, ?, ?, ?)"
                        " ON CONFLICT (user_id, pair_id) DO UPDATE SET"
                        " session_id = excluded.session_id, timestamp = excluded.timestamp,"
                        " prompt = excluded.prompt, response = excluded.response,"
                        " vector = excluded.vector",
                        (
                            user_key(turn.user),
                            turn.pair_id,
                            turn.session,
                            turn.timestamp,
                            turn.prompt,
                            turn.response,
                            vector.tobytes(),
                        ),
                    )
            except BaseException:
                self._conn.execute("ROLLBACK")
                raise
            self._conn.execute("COMMIT")

    def recall(self, user: str, query: str, k: int) -> list[Memory]:
        if k <= 0:
            return []
        with self.lock:
            rows = [
                _Row(*row)
                for row in self._conn.execute(
                    "SELECT pair_id, timestamp, prompt, response, vector FROM turns"
                    " WHERE user_id = ?",
                    (user_key(user),),
                )
            ]
            if not rows:
                return []
            matrix = np.frombuffer(b"".join(r.vector for r in rows), dtype=np.float32)
            scores = matrix.reshape(len(rows), self.encoder.dim) @ self.encoder.encode([query])[0]
        # Rounded so that turns with the same text tie exactly, whatever the summation order.
        ranked = sorted(
            ((round(float(s), 6), r) for s, r in zip(scores, rows, strict=True)),
            key=lambda item: item[1].pair_id,
        )
        ranked.sort(key=lambda item: parse_timestamp(item[1].timestamp) or _EARLIEST, reverse=True)
        ranked.sort(key=lambda item: item[0], reverse=True)
        return [
            Memory(r.prompt, r.pair_id, r.timestamp, r.response, score) for score, r in ranked[:k]
        ]

    def save(self, user: str, text: str, timestamp: str) -> str:
        key = user_key(user)
        with self.lock:
            stamp = timestamp or self._next_stamp(key)
            seq = self._conn.execute("SELECT COALESCE(MAX(rowid), 0) + 1 FROM turns").fetchone()[0]
            digest = hashlib.sha256(f"{key}\0{seq}\0{stamp}\0{text}".encode()).hexdigest()
            pair_id = SAVED_PREFIX + digest[:16]
            vector = self.encoder.encode([text])[0]
            self._conn.execute(
                "INSERT INTO turns (user_id, pair_id, session_id, timestamp, prompt, response,"
                " vector) VALUES (?, ?, 'saved', ?, ?, '', ?)",
                (key, pair_id, stamp, text, vector.tobytes()),
            )
        return pair_id

    def update(self, user: str, memory_id: str, text: str) -> bool:
        """The memory now says ``text`` (its reply cleared) and is restamped as the newest, as
        the lexical baseline does, so a correction outranks what it corrects on a tie."""
        key = user_key(user)
        with self.lock:
            stamp = self._next_stamp(key)
            vector = self.encoder.encode([text])[0]
            changed = self._conn.execute(
                "UPDATE turns SET prompt = ?, response = '', timestamp = ?, vector = ?"
                " WHERE user_id = ? AND pair_id = ?",
                (text, stamp, vector.tobytes(), key, memory_id),
            ).rowcount
        return bool(changed)

    def delete(self, user: str, memory_id: str) -> bool:
        with self.lock:
            deleted = self._conn.execute(
                "DELETE FROM turns WHERE user_id = ? AND pair_id = ?", (user_key(user), memory_id)
            ).rowcount
        return bool(deleted)

    def reset(self, user: str) -> None:
        with self.lock:
            self._conn.execute("DELETE FROM turns WHERE user_id = ?", (user_key(user),))

    def close(self) -> None:
        with self.lock:
            self._conn.close()

    def _check_model(self) -> None:
        """A store file keeps the model it was built with: vectors of two models are not
        comparable, so a file built with another model or size is refused."""
        wanted = {"model": self.encoder.model, "dim": str(self.encoder.dim)}
        stored = dict(self._conn.execute("SELECT key, value FROM model").fetchall())
        if not stored:
            self._conn.executemany("INSERT INTO model VALUES (?, ?)", sorted(wanted.items()))
        elif stored != wanted:
            self._conn.close()
            raise AdapterConfigError(
                f"db: built with {stored.get('model')} at dim {stored.get('dim')}, not"
                f" {wanted['model']} at dim {wanted['dim']}; use another file"
            )

    def _next_stamp(self, key: str) -> str:
        """Now, to the second, and never earlier than one second after the user's newest turn."""
        now = datetime.now(UTC).replace(microsecond=0)
        stamps = self._conn.execute("SELECT timestamp FROM turns WHERE user_id = ?", (key,))
        newest = max((m for (s,) in stamps if (m := parse_timestamp(s)) is not None), default=None)
        if newest is not None and newest >= now:
            now = newest.replace(microsecond=0) + timedelta(seconds=1)
        return format_timestamp(now)


def _turn_text(prompt: str, response: str) -> str:
    return f"{prompt}\n{response}" if response else prompt


__all__ = ["EmbeddingAdapter", "WordLlamaEncoder", "bundled_models"]
