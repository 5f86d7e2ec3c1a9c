"""Checks on what a user hands the command line, made before anything starts or is written.

Each failing check prints one line naming the option (or the stored run and column) and exits 2;
none of them creates a file, a folder or a process.
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from dittobench.cli.common import fail
from dittobench.core.prng import MAX_SEED

if TYPE_CHECKING:
    from dittobench.engine.judging import JudgeEndpoint
    from dittobench.receipts.keys import TrustedKeys
    from dittobench.spec.report import ScoreReport
    from dittobench.store import RunRow, RunStore

BUILTIN = "builtin"
"""The ``--harness`` that starts the reference baseline for the run (``drive.runs.BUILTIN``)."""

# Longer than any run could wait for one case or for a harness to start; larger values only
# overflow timers deep inside the event loop.
MAX_SECONDS = 86_400.0


def check_seed(seed: int | None, option: str = "--seed") -> None:
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise fail(f"{option} must be an integer from 0 to {MAX_SEED}, got {seed}")


def check_seconds(value: float, option: str) -> None:
    if not (math.isfinite(value) and 0 < value <= MAX_SECONDS):
        raise fail(
            f"{option} must be a number of seconds above 0 and at most {MAX_SECONDS:g}, got {value}"
        )


def check_run_id(run_id: str, option: str = "RUN_ID") -> None:
    """Refuse anything but the shape of a run id before it names a file or folder (an id such
    as ``../../x`` or ``/tmp/x`` would otherwise place the run's files outside its folders)."""
    from dittobench.store.runs import RUN_ID_EXAMPLE, is_run_id

    if not is_run_id(run_id):
        raise fail(
            f"{option} {run_id!r} is not a run id (run ids look like {RUN_ID_EXAMPLE}; "
            "`dittobench runs` lists them)"
        )


def read_json(path: Path, what: str) -> Any:
    """Parse a JSON file, rejecting duplicate keys and NaN; exit 2 when it cannot be read."""

    def no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in pairs:
            if key in out:
                raise ValueError(f"duplicate key {key!r}")
            out[key] = value
        return out

    def no_constants(name: str) -> Any:
        raise ValueError(f"{name} is not valid JSON")

    try:
        data = path.read_bytes()
    except OSError as exc:
        raise fail(f"cannot read {what} {path}: {exc.strerror}") from None
    try:
        return json.loads(data, object_pairs_hook=no_duplicates, parse_constant=no_constants)
    except (ValueError, RecursionError) as exc:  # JSONDecodeError and UnicodeDecodeError too
        raise fail(f"{what} {path}: not valid JSON ({exc})") from None


def read_trusted_keys(path: Path | None) -> TrustedKeys | None:
    """The trusted-keys file, parsed (``None`` when not given); exit 2 when it is malformed. The
    whole output of ``keys show --json`` is taken too (its ``trusted_keys`` member)."""
    from dittobench.receipts.keys import KeyFileError, TrustedKeys

    if path is None:
        return None
    data = read_json(path, "trusted keys")
    if isinstance(data, dict) and "keys" not in data and isinstance(data.get("trusted_keys"), dict):
        data = data["trusted_keys"]
    try:
        return TrustedKeys.from_json(data)
    except KeyFileError as exc:
        raise fail(f"{path}: {exc}") from None


def same_file(a: Path, b: Path) -> bool:
    """True when both paths reach one file (through symlinks or hard links included)."""
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): the same only if they resolve alike
        pass
    try:
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError):  # a symlink loop: compare the paths as written
        return os.path.abspath(a) == os.path.abspath(b)


def refuse_overwriting(out: Path | None, option: str, inputs: dict[str, Path]) -> None:
    """Exit 2 when the output ``out`` would overwrite one of ``inputs`` (name -> path)."""
    if out is None:
        return
    for name, path in inputs.items():
        if same_file(out, path):
            raise fail(f"{option} {out} is the {name} ({path}); writing it would destroy it")


def check_out_folder(folder: Path, option: str) -> None:
    """A folder to write into: absent (it will be made) or a folder, under a folder."""
    here = folder
    while not os.path.lexists(here) and here.parent != here:
        here = here.parent
    if not here.is_dir():
        raise fail(f"{option} {folder}: {here} is not a folder")


def check_out_file(path: Path | None, option: str) -> None:
    """A file to write: not a folder, in a folder that exists."""
    if path is None:
        return
    if path.is_dir():
        raise fail(f"{option} {path} is a folder; give a file name")
    if not path.parent.is_dir():
        raise fail(f"{option} {path}: {path.parent} is not an existing folder")


def check_run_options(
    *,
    seed: int | None,
    run_size: str,
    bench_version: str,
    case_timeout: float,
    wait: float,
    harness: str | None,
    resume: str | None,
    out_dir: Path,
    json_out: Path | None,
    key: Path | None,
) -> None:
    """Every `run` option that can be checked without the store, checked before anything is
    started or written."""
    from dittobench.spec.sizes import UnknownRunSizeError
    from dittobench.spec.versions import UnknownVersionError, get_policy

    check_seed(seed)
    try:
        get_policy(bench_version).run_size(run_size)
    except (UnknownVersionError, UnknownRunSizeError) as exc:
        raise fail(str(exc)) from None
    check_seconds(case_timeout, "--case-timeout")
    check_seconds(wait, "--wait")
    if harness is not None:
        check_harness_option(harness, "--harness")
    if resume is not None:
        check_run_id(resume, "--resume")
    check_out_folder(out_dir, "--out-dir")
    check_out_file(json_out, "--json")
    if key is not None and not key.is_file():
        raise fail(f"--key {key}: no such file")
    refuse_overwriting(json_out, "--json", {"signing key": key} if key is not None else {})


def check_harness_option(harness: str, where: str) -> None:
    """``builtin`` or an http(s) URL with a host and a valid port."""
    import httpx

    if harness == BUILTIN:
        return
    try:
        url = httpx.URL(harness)
        valid = (
            url.scheme in ("http", "https")
            and bool(url.host)
            and url.port in (None, *range(1, 65536))
        )
    except (httpx.InvalidURL, ValueError, TypeError):
        valid = False
    if not valid:
        raise fail(
            f"{where} must be `builtin` or an http(s) URL such as http://127.0.0.1:8080, "
            f"got {harness!r}"
        )


def judge_endpoint(url: str | None, bench_version: str = "") -> JudgeEndpoint | None:
    """``--judge-url`` as an endpoint (its key from $DITTOBENCH_JUDGE_KEY), after checking the
    version (when given) has a judge; None without the option."""
    from dittobench.engine.judging import JudgeEndpoint
    from dittobench.spec.versions import get_policy

    if url is None:
        return None
    if bench_version and get_policy(bench_version).judge is None:
        raise fail(f"--judge-url: bench version {bench_version} has no open questions to judge")
    if not url.startswith(("http://", "https://")):
        raise fail(f"--judge-url must be an http(s) URL, got {url!r}")
    return JudgeEndpoint(url, os.environ.get("DITTOBENCH_JUDGE_KEY", ""))


def resumable_run(store: RunStore, run_id: str) -> RunRow:
    """The stored run ``run_id`` once everything a resume reads from it is known good: its row,
    its bench version and run size, and every recorded case. Exits 2 naming the run and the
    column (and the case) otherwise, before any harness is started."""
    from dittobench.spec.codec import DecodeError, decode
    from dittobench.spec.sizes import UnknownRunSizeError
    from dittobench.spec.transcript import CaseRecord
    from dittobench.spec.versions import UnknownVersionError, get_policy
    from dittobench.store import StoreError

    here = f"run {run_id!r} in {store.where}"
    try:
        row = store.get_run(run_id)
        records = store.recorded_cases(run_id)
    except StoreError as exc:
        raise fail(str(exc)) from None
    if row.status == "done":
        raise fail(f"run {run_id} is already done; `dittobench show {run_id}` prints it")
    try:
        policy = get_policy(row.bench_version)
    except UnknownVersionError as exc:
        raise fail(f"{here}: column bench_version: {exc}") from None
    try:
        policy.run_size(row.run_size)
    except UnknownRunSizeError as exc:
        raise fail(f"{here}: column run_size: {exc}") from None
    for case_id, data in records.items():
        try:
            decode(CaseRecord, data)
        except DecodeError as exc:
            raise fail(f"{here}: column record_json of case {case_id!r}: {exc}") from None
    return row


def stored_report(store: RunStore, run_id: str) -> tuple[RunRow, ScoreReport | None]:
    """A run's row and its decoded report (None while it has none), or exit 2 naming the run
    and the column (and the report's field) that cannot be read."""
    from dittobench.spec.codec import DecodeError
    from dittobench.spec.report import ScoreReport
    from dittobench.store import StoreError

    try:
        row = store.get_run(run_id)
        report = store.report(run_id)
    except StoreError as exc:
        raise fail(str(exc)) from None
    if report is None:
        return row, None
    try:
        parsed = ScoreReport.from_json(report)
    except DecodeError as exc:
        raise fail(f"run {run_id!r} in {store.where}: column report_json: {exc}") from None
    return row, parsed
