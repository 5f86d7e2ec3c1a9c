"""`dittobench harness serve --adapter` as a user runs it: a real process serving a memory system
over the protocol, scored by a real `dittobench run`, its declaration carried into the report, the
signed receipt and `show`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.cli import dittobench
from tests.integration.test_cli_harness_serve import OPENER, serving


def _run(url: str, tmp_path: Path, seed: str, adapter: str = "lexical") -> tuple[str, Path]:
    out = tmp_path / "out"
    result = dittobench(
        "run", "--harness", url, "--seed", seed, "--run-size", "small",
        "--db", str(tmp_path / "runs.db"), "--out-dir", str(out),
        timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert f"measured     adapter {adapter} 1 · system " in result.stdout
    assert "reader dittobench-extractive-1, locked (declared by the harness" in result.stdout
    lines = result.stdout.splitlines()
    run_id = next(line.split()[-1] for line in lines if line.startswith("run id"))
    return run_id, out / run_id


def quoted_turns(folder: Path) -> list[str]:
    """The user turns of the run's history that its memory answers quote word for word."""
    dataset = json.loads((folder / "dataset.json").read_text(encoding="utf-8"))
    transcript = json.loads((folder / "transcript.json").read_text(encoding="utf-8"))
    turns = {p["prompt"] for wave in dataset["memory_waves"] for p in wave["pairs"]}
    said = [
        c["response"]["final_text"] or ""
        for c in transcript["cases"]
        if c["kind"] == "memory" and c["response"]
    ]
    return sorted(t for t in turns if any(f"\u201c{t}\u201d" in text for text in said))


def test_a_served_adapter_is_scored_and_named_in_the_signed_receipt(tmp_path: Path) -> None:
    with serving("--adapter", "lexical") as url:
        with OPENER.open(f"{url}/health", timeout=5) as reply:
            health = json.loads(reply.read())
        run_id, folder = _run(url, tmp_path, "11")
    assert health["identity"]["adapter"] == "lexical"
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    transcript = json.loads((folder / "transcript.json").read_text(encoding="utf-8"))
    assert report["identity"] == transcript["identity"] == health["identity"]
    # The extractive reader answers from what BM25 recalls: it quotes a turn of the history
    # (whether the quote scores depends on the seed's wording, which every version rotates).
    assert quoted_turns(folder), [c["response"] for c in transcript["cases"]]
    verified = dittobench(
        "verify", str(folder / "receipt.json"), "--transcript", str(folder / "transcript.json"),
        "--any-key",
    )  # fmt: skip
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "measured: adapter lexical 1 · system sqlite-fts5-bm25" in verified.stdout
    # The declaration is bound: a transcript naming another adapter no longer verifies.
    transcript["identity"]["adapter"] = "mem0"
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(transcript), encoding="utf-8")
    refused = dittobench(
        "verify", str(folder / "receipt.json"), "--transcript", str(forged), "--any-key"
    )
    assert refused.returncode == 1
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


@contextmanager
def _config(adapter: str, tmp_path: Path) -> Iterator[dict[str, Any]]:
    """The adapter's configuration against its real system (skipped, saying why, when the
    system is not installed here)."""
    if adapter == "embedding":
        pytest.importorskip("wordllama", reason="the embedding extra is not installed")
        yield {"db": str(tmp_path / "vectors.db")}
    elif adapter == "mcp":
        pytest.importorskip("mcp", reason="the mcp extra is not installed")
        from tests.adapters.test_mcp_adapter import memory_config

        yield memory_config(tmp_path / "memory.jsonl")
    else:
        pytest.importorskip("mem0", reason="the mem0 extra is not installed")
        from tests.adapters.test_mem0_adapter import mem0_settings
        from tests.helpers.scripted_llm import scripted_llm

        with scripted_llm() as (url, _script):
            yield {"mem0": mem0_settings(url, tmp_path)}


@pytest.mark.parametrize("adapter", ["mcp", "embedding", "mem0"])
def test_each_real_adapter_completes_a_signed_run(adapter: str, tmp_path: Path) -> None:
    with _config(adapter, tmp_path) as config:
        flags = ("--adapter", adapter, "--adapter-config", json.dumps(config))
        with serving(*flags) as url:
            _run_id, folder = _run(url, tmp_path, "13", adapter)
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    assert report["identity"]["adapter"] == adapter
    assert report["identity"]["reader"] == "dittobench-extractive-1"
    verified = dittobench(
        "verify", str(folder / "receipt.json"), "--transcript", str(folder / "transcript.json"),
        "--any-key",
    )  # fmt: skip
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert f"measured: adapter {adapter} 1" in verified.stdout
