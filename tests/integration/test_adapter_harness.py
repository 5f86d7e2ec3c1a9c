"""`dittobench harness serve --adapter` as a user runs it: a real process serving a memory system
over the protocol, scored by a real `dittobench run`, its declaration carried into the report, the
signed receipt and `show`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers.cli import dittobench
from tests.integration.test_cli_harness_serve import OPENER, serving


def _run(url: str, tmp_path: Path, seed: str) -> tuple[str, Path]:
    out = tmp_path / "out"
    result = dittobench(
        "run", "--harness", url, "--seed", seed, "--run-size", "small",
        "--db", str(tmp_path / "runs.db"), "--out-dir", str(out),
        timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert "measured     adapter lexical 1 · system sqlite-fts5-bm25" in result.stdout
    assert "reader dittobench-extractive-1, locked (declared by the harness" in result.stdout
    lines = result.stdout.splitlines()
    run_id = next(line.split()[-1] for line in lines if line.startswith("run id"))
    return run_id, out / run_id


def test_a_served_adapter_is_scored_and_named_in_the_signed_receipt(tmp_path: Path) -> None:
    with serving("--adapter", "lexical") as url:
        with OPENER.open(f"{url}/health", timeout=5) as reply:
            health = json.loads(reply.read())
        run_id, folder = _run(url, tmp_path, "11")
    assert health["identity"]["adapter"] == "lexical"
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    transcript = json.loads((folder / "transcript.json").read_text(encoding="utf-8"))
    assert report["identity"] == transcript["identity"] == health["identity"]
    assert report["memory_mean"] > 0  # the extractive reader answers from what BM25 recalls
    verified = dittobench(
        "verify", str(folder / "receipt.json"), "--transcript", str(folder / "transcript.json")
    )
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "measured: adapter lexical 1 · system sqlite-fts5-bm25" in verified.stdout
    # The declaration is bound: a transcript naming another adapter no longer verifies.
    transcript["identity"]["adapter"] = "mem0"
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(transcript), encoding="utf-8")
    refused = dittobench("verify", str(folder / "receipt.json"), "--transcript", str(forged))
    assert refused.returncode != 0
    shown = dittobench("show", run_id, "--db", str(tmp_path / "runs.db"))
    assert shown.returncode == 0 and "adapter lexical" in shown.stdout


def test_a_bad_adapter_config_stops_the_server_with_a_clear_error(tmp_path: Path) -> None:
    config = tmp_path / "config.json"
    config.write_text('{"dbb": "x"}', encoding="utf-8")
    result = dittobench("harness", "serve", "--adapter", "lexical", "--adapter-config", str(config))
    assert result.returncode != 0
    assert "unknown config key 'dbb'" in result.stderr
    result = dittobench("harness", "serve", "--adapter", "lexical", "--adapter-config", "[1]")
    assert result.returncode != 0 and "configuration is a JSON object" in result.stderr
    result = dittobench("harness", "serve", "--reader-url", "http://127.0.0.1:9/v1")
    assert result.returncode != 0 and "need --adapter" in result.stderr


def test_the_documented_example_adapter_runs_by_module_path(tmp_path: Path) -> None:
    with serving("--adapter", "tests.adapters.example_notes:NotesAdapter") as url:
        with OPENER.open(f"{url}/health", timeout=5) as reply:
            identity = json.loads(reply.read())["identity"]
        result = dittobench(
            "run", "--harness", url, "--seed", "12", "--run-size", "small",
            "--db", str(tmp_path / "runs.db"), "--out-dir", str(tmp_path / "out"),
            timeout=300,
        )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert identity["adapter"] == "notes" and identity["adapter_capabilities"] == "delete,save"
    assert "measured     adapter notes 1" in result.stdout
    documented = (Path(__file__).parents[2] / "docs" / "adapters.md").read_text(encoding="utf-8")
    example = (Path(__file__).parents[1] / "adapters" / "example_notes.py").read_text("utf-8")
    body = example[example.index("class NotesAdapter") :]
    assert body.strip() in documented  # the docs show the tested code, word for word
