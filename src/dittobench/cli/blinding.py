"""``blind`` and ``replay``: what a harness sees, answered offline, scored through a real run."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dittobench.cli.common import (
    JudgeModelOpt,
    JudgeUrlOpt,
    RunSizeName,
    app,
    fail,
    warn_if_draft,
)
from dittobench.spec.versions import CURRENT_VERSION

if TYPE_CHECKING:
    from dittobench.engine.blind import Answers
    from dittobench.spec.dataset import Dataset

SeedArg = Annotated[int, typer.Option(help="The run's seed, 0 to 2**63-1.", show_default=False)]
SizeArg = Annotated[
    RunSizeName, typer.Option("--run-size", help="How many cases: small, medium, full or long.")
]
VersionArg = Annotated[
    str, typer.Option("--bench-version", help="Bench version whose rules build the dataset.")
]


def _dataset(seed: int, run_size: str, bench_version: str) -> Dataset:
    from dittobench.core.prng import MAX_SEED, SeedError
    from dittobench.generate.assemble import build_dataset
    from dittobench.spec.sizes import UnknownRunSizeError
    from dittobench.spec.versions import UnknownVersionError

    warn_if_draft(bench_version)
    try:
        return build_dataset(seed, bench_version, run_size)
    except SeedError:
        raise fail(f"--seed must be an integer from 0 to {MAX_SEED}, got {seed}") from None
    except (UnknownVersionError, UnknownRunSizeError) as exc:
        raise fail(str(exc)) from None


def _answers(path: Path, dataset: Dataset) -> Answers:
    from dittobench.engine.blind import AnswersError, BlindLabels, read_answers

    try:
        return read_answers(path, BlindLabels.of(dataset).case.values())
    except AnswersError as exc:
        raise fail(str(exc)) from None


@app.command()
def blind(
    seed: SeedArg,
    out: Annotated[
        Path, typer.Option("--out", help="The folder to write (created).", file_okay=False)
    ],
    run_size: SizeArg = RunSizeName.small,
    bench_version: VersionArg = CURRENT_VERSION,
    answers: Annotated[
        Path | None,
        typer.Option(
            "--answers",
            help="An answers file (JSON Lines): serve its tool calls offline into "
            "OUT/tool_results.jsonl, as the run would, without scoring anything.",
            dir_okay=False,
            show_default=False,
        ),
    ] = None,
) -> None:
    """What a harness sees of a run, without keys: the system prompt, the tools, each user's
    history and every message, in a folder a person or a batch system answers from.

    OUT/README.md says how to write the answers; `dittobench replay ANSWERS --seed S --run-size
    SIZE` scores them through a real run. Nothing written holds an answer key or an id the seed
    recomputes.
    """
    from dittobench.catalog.shown import shown_by
    from dittobench.engine.blind import tool_results, write_blind
    from dittobench.engine.packs import run_pack

    dataset = _dataset(seed, run_size.value, bench_version)
    try:
        written = write_blind(dataset, shown_by(run_pack(bench_version, None)), out)
    except OSError as exc:
        raise fail(f"cannot write {out}: {exc.strerror}") from None
    typer.echo(f"wrote {len(written)} files to {out}", err=True)
    if answers is None:
        return
    rows = tool_results(dataset, _answers(answers, dataset))
    path = out / "tool_results.jsonl"
    try:
        path.write_text(
            "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8"
        )
    except OSError as exc:
        raise fail(f"cannot write {path}: {exc.strerror}") from None
    typer.echo(f"wrote {len(rows)} tool results to {path}", err=True)


@app.command()
def replay(
    answers: Annotated[
        Path, typer.Argument(help="The answers file (JSON Lines, see `dittobench blind`).")
    ],
    seed: SeedArg,
    run_size: SizeArg = RunSizeName.small,
    bench_version: VersionArg = CURRENT_VERSION,
    db: Annotated[
        str | None,
        typer.Option(help="The run store (a SQLite file or a database URL).", show_default=False),
    ] = None,
    out_dir: Annotated[
        Path, typer.Option("--out-dir", help="Where the run's files go.", file_okay=False)
    ] = Path("dittobench-runs"),
    json_out: Annotated[
        Path | None,
        typer.Option("--json", help="Also write the report here.", dir_okay=False),
    ] = None,
    judge_url: JudgeUrlOpt = None,
    judge_model: JudgeModelOpt = "",
) -> None:
    """Score answers written offline (`dittobench blind`) through a real run: a harness serving
    the file is seeded and asked every case like any other, its tool calls are made for real and
    observed, and the run is graded, stored and signed as `dittobench run` does.

    Gives a human baseline, or any batch system's score, on the same footing as a live harness.
    """
    from dittobench.cli.running import (
        drive_here,
        installation_key,
        judge_endpoint,
        key_to_trust,
        open_store,
        print_outcome,
        store_location,
    )
    from dittobench.core.hashing import sha256_hex
    from dittobench.drive.clock import new_run_id
    from dittobench.drive.runs import RunRequest
    from dittobench.engine.replay import replay_harness
    from dittobench.spec.seeds import SUBMITTER

    judge = judge_endpoint(judge_url, bench_version)
    dataset = _dataset(seed, run_size.value, bench_version)
    replies = _answers(answers, dataset)
    name = f"replay:sha256:{sha256_hex(answers.read_bytes())}"
    os.umask(0o077)
    url, home = store_location(db)
    store = open_store(url)
    key = installation_key(None, home)
    run_id = new_run_id()
    typer.echo(f"run {run_id} · seed {seed} · {len(replies.replies)} answers", err=True)
    with replay_harness(dataset, replies) as harness_url:
        # The answers were written for this seed: a replay is practice, never ranked.
        request = RunRequest(
            harness_url, seed, run_size.value, bench_version, out_dir, 4, signing_key=key,
            seed_source=SUBMITTER, judge=judge, judge_model=judge_model, harness_name=name,
        )  # fmt: skip
        outcome = drive_here(store, run_id, request, resumed=False)
    print_outcome(outcome, json_out, key_to_trust(None, home))
