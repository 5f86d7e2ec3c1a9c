"""``dittobench.run(...)``: one run from Python, driven the way ``dittobench run`` drives it.

::

    import dittobench

    outcome = dittobench.run(harness="builtin", run_size="small", seed=7)
    print(outcome.report.composite, outcome.report_path)

    report = dittobench.score("http://127.0.0.1:8000")  # in a notebook: the report itself
    rows = report.to_rows()  # pandas.DataFrame(rows), one row per case

Everything is passed in (no environment is read): the run store is a SQLite file in
``out_dir`` unless ``db`` names another (a file or a database URL); the receipt is signed only
when ``key`` is given (an Ed25519 private key, or the path of its PEM file).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.drive.clock import new_run_id
from dittobench.drive.runs import BUILTIN, RunRequest, Schedule, drive_run
from dittobench.engine.client import ClientLimits
from dittobench.engine.judging import JudgeEndpoint
from dittobench.engine.orchestrate import Reporter
from dittobench.engine.runner import RunOutcome
from dittobench.packs import Pack, load_pack
from dittobench.receipts.keys import load_private_key
from dittobench.sandbox.archive import Archive, read_archive
from dittobench.sandbox.layout import read_layout
from dittobench.spec.report import ScoreReport
from dittobench.spec.seeds import seed_source_of
from dittobench.spec.versions import CURRENT_VERSION
from dittobench.spec.vocab import RunSizeName
from dittobench.store import RunStore

DB_NAME = "runs.db"
"""The run store's file in ``out_dir`` when no ``db`` is given."""


def run(
    harness: str | None = None,
    *,
    seed: int | None = None,
    run_size: RunSizeName = "small",
    bench_version: str = CURRENT_VERSION,
    pack: Pack | str | Path | None = None,
    out_dir: str | Path = "dittobench-runs",
    db: str | Path | None = None,
    key: Ed25519PrivateKey | str | Path | None = None,
    schedule: Schedule | None = None,
    limits: ClientLimits | None = None,
    concurrency: int = 8,
    judge: JudgeEndpoint | None = None,
    judge_model: str = "",
    archive: bytes | str | Path | None = None,
    resume: str | None = None,
    progress: Reporter | None = None,
) -> RunOutcome:
    """Run the benchmark against ``harness`` (a base URL, or ``"builtin"``, the default: the
    reference baseline started for this run; on resume, the run's own by default) and return
    its outcome: the ``ScoreReport`` (``.report``), the run id and the paths of its report,
    transcript, dataset and receipt under ``out_dir``.

    ``seed`` is drawn fresh when omitted (a given seed makes the run practice, as ``--seed``
    does); ``archive`` (a source archive's bytes or path) runs a harness built in a bubblewrap
    sandbox instead; ``resume`` finishes an interrupted run by id, keeping its recorded cases.
    ``progress`` is called with every ``engine.orchestrate.Progress``. The engine's errors are
    raised as they are (``HarnessError``, ``RunError``, ``StoreError``...), the run left
    resumable or failed with the reason."""
    folder = Path(out_dir)
    store = RunStore(_store_url(db, folder), create=resume is None)
    try:
        checked = _archive(archive)
        default = "" if resume is not None else BUILTIN
        name = f"archive:sha256:{checked.sha256}" if checked is not None else harness or default
        drawn = int.from_bytes(os.urandom(8), "little") >> 1 if seed is None else seed
        request = RunRequest(
            harness=name,
            seed=drawn,
            run_size=run_size,
            bench_version=bench_version,
            out_dir=folder,
            concurrency=concurrency,
            limits=limits or ClientLimits(),
            schedule=schedule or Schedule(),
            pack=load_pack(Path(pack)) if isinstance(pack, str | Path) else pack,
            signing_key=_key(key),
            judge=judge,
            judge_model=judge_model,
            seed_source=seed_source_of(seed),
            archive=checked,
            local_dir=_local_dir(db, folder),
        )
        progress = progress or (lambda _p: None)
        return drive_run(store, resume or new_run_id(), request, progress, resume=bool(resume))
    finally:
        store.close()


def score(
    harness_url: str = BUILTIN,
    run_size: RunSizeName = "small",
    seed: int | None = None,
    **options: Any,
) -> ScoreReport:
    """Run the benchmark against the harness at ``harness_url`` (or ``"builtin"``) and return
    its ``ScoreReport``: ``dittobench.run`` for a notebook, where the report is what is wanted.
    ``options`` are ``run``'s (``out_dir``, ``db``, ``bench_version``, ``concurrency``...).

    ``report.to_rows()`` is one plain dict per case, so a DataFrame is
    ``pandas.DataFrame(report.to_rows())`` (pandas is not needed otherwise)."""
    return run(harness_url, seed=seed, run_size=run_size, **options).report


def _store_url(db: str | Path | None, out_dir: Path) -> str:
    if db is not None and "://" in str(db):
        return str(db)
    path = Path(db) if db is not None else out_dir / DB_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    return RunStore.sqlite_url(path)


def _local_dir(db: str | Path | None, out_dir: Path) -> Path:
    """Beside a SQLite store (the built-in harness's memory lives there), else ``out_dir``."""
    if db is None or "://" in str(db):
        return out_dir
    return Path(db).parent


def _key(key: Ed25519PrivateKey | str | Path | None) -> Ed25519PrivateKey | None:
    if key is None or isinstance(key, Ed25519PrivateKey):
        return key
    return load_private_key(Path(key))


def _archive(archive: bytes | str | Path | None) -> Archive | None:
    """The checked archive (its layout too), or None; ``ArchiveError`` saying why not."""
    if archive is None:
        return None
    data = archive if isinstance(archive, bytes) else Path(archive).read_bytes()
    checked = read_archive(data)
    read_layout(checked)
    return checked


__all__ = ["DB_NAME", "run", "score"]
