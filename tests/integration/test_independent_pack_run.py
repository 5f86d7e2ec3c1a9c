"""A run on the independently authored pack, as a user makes one: `dittobench run --pack` with
the built-in baseline harness completes, its report and receipt name the pack, and the receipt
regrades only with that pack's folder."""

from __future__ import annotations

import json
from pathlib import Path

from dittobench.spec.versions import CURRENT_VERSION
from tests.helpers.cli import dittobench
from tests.unit.test_independent_pack import FOLDER, PACK_SHA256

PUBLIC = Path(__file__).parents[2] / "src" / "dittobench" / "packs" / "public-3.0"


def test_a_baseline_run_on_the_independent_pack_completes_and_regrades(tmp_path: Path) -> None:
    ran = dittobench(
        "run", "--pack", str(FOLDER), "--run-size", "small", "--seed", "3", cwd=tmp_path
    )
    assert ran.returncode == 0, ran.stderr
    (folder,) = (tmp_path / "dittobench-runs").glob("r-*")
    report = json.loads((folder / "report.json").read_text(encoding="utf-8"))
    assert report["pack"] == {"id": "independent-1", "sha256": PACK_SHA256}
    assert report["bench_version"] == CURRENT_VERSION
    receipt = str(folder / "receipt.json")

    verified = dittobench("verify", receipt, "--regrade", "--pack", str(FOLDER), cwd=tmp_path)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert "verdict: VERIFIED" in verified.stdout

    for wrong in ([], ["--pack", str(PUBLIC)]):
        refused = dittobench("verify", receipt, "--regrade", *wrong, cwd=tmp_path)
        assert refused.returncode != 0
        assert "NOT VERIFIED" in refused.stdout
        assert "independent-1" in refused.stdout
