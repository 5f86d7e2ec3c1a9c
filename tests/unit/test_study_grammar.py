"""The grammar attack (``study.grammar``) and pack distance (``packs.distance``).

The attack is a real inverse: on datasets of the pack it was built from it answers at least
0.95 of the memory and tool cases (the current version's public pack, and the independently
written one; medium runs, seeds the development never used). Built on the public pack and run
on the independently written pack it reads at most 0.35 of memory and 0.40 of the tool cases;
built on public-3.0 and run on a rule-reworded copy of it (bench 6.0.0), it loses most of
memory. Pack distance finds all of a pack in itself, less of the reworded copy, and names the
file at fault when a pack is missing or malformed.
"""

from __future__ import annotations

import atexit
import json
import shutil
import subprocess
import sys
import tempfile
from functools import cache
from pathlib import Path

import pytest

from dittobench.generate.assemble import build_dataset
from dittobench.grade.run import grade_run
from dittobench.packs import Pack, PackError, load_pack, public_pack
from dittobench.packs.distance import FAMILIES, pack_distance
from dittobench.spec.versions import CURRENT_VERSION, get_policy
from dittobench.study.run import run_study
from dittobench.study.strategies import across, grammar_answers
from dittobench.study.transcripts import build
from tests.helpers.cli import dittobench

ROOT = Path(__file__).resolve().parents[2]
PUBLIC = "public-3.0"
"""The pack ``benchmarks/reworded_pack.py`` rewords by default, with its version."""
REWORDED_VERSION = "6.0.0"
CURRENT_PUBLIC = get_policy().pack_id
INDEPENDENT = ROOT / "tests" / "packs" / "independent"


@cache
def reworded() -> Path:
    """benchmarks/reworded_pack.py's copy of the public pack, written once per process (a
    folder of its own, so parallel workers never read one half written)."""
    home = Path(tempfile.mkdtemp(prefix="reworded-pack-"))
    atexit.register(shutil.rmtree, home, True)
    folder = home / "reworded"
    subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "reworded_pack.py"), str(folder)],
        check=True,
        capture_output=True,
    )
    return folder


def _scores(
    seed: int, attack: Pack, data: Pack | None = None, version: str = CURRENT_VERSION
) -> tuple[float, float]:
    dataset = build_dataset(seed, version, "medium", data)
    answers = grammar_answers(dataset, attack)
    transcript = build(dataset, answers.memory, answers.tool, harness="study:grammar")
    report = grade_run(dataset, transcript).report
    return report.memory_mean, report.tool_mean


@pytest.mark.parametrize("seed", [7001, 7002])
def test_the_grammar_attack_inverts_its_own_pack(seed: int) -> None:
    memory, tool = _scores(seed, public_pack(CURRENT_PUBLIC))
    assert memory >= 0.95
    assert tool >= 0.95


def test_built_on_the_public_pack_it_reads_little_of_the_independent_one() -> None:
    pack = load_pack(INDEPENDENT)
    own_memory, own_tool = _scores(7008, pack, pack)
    across_memory, across_tool = _scores(7008, public_pack(CURRENT_PUBLIC), pack)
    assert own_memory >= 0.95 and own_tool >= 0.95
    assert across_memory <= 0.35 and across_tool <= 0.40


def test_built_on_the_public_pack_it_loses_memory_on_a_reworded_one() -> None:
    pack = load_pack(reworded())
    own_memory, own_tool = _scores(7003, pack, pack, REWORDED_VERSION)
    across_memory, across_tool = _scores(7003, public_pack(PUBLIC), pack, REWORDED_VERSION)
    assert own_memory >= 0.95 and own_tool >= 0.95
    assert across_memory <= own_memory - 0.3
    # the reworded copy keeps the public tool grammars, so the tool side still carries over
    assert across_tool >= 0.95


def test_the_reworded_pack_lints() -> None:
    result = dittobench("pack", "lint", str(reworded()), "--bench-version", REWORDED_VERSION)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_study_reports_the_attack_on_its_own_pack_and_across() -> None:
    pack = load_pack(reworded())
    result = run_study((7004, 7005), "small", REWORDED_VERSION, pack=pack, attack_pack=None)
    assert "grammar-across" not in [s.name for s in result.strategies]
    assert result.pack.startswith(f"{pack.pack_id} ({pack.sha256})")
    result = run_study(
        (7004, 7005), "small", REWORDED_VERSION, pack=pack, attack_pack=public_pack(PUBLIC)
    )
    assert result.strategy("grammar").memory_mean >= 0.95
    assert result.strategy("grammar-across").summary.startswith("the grammar attack built on")
    assert result.attack_pack.startswith(PUBLIC)
    assert result.to_json()["attack_pack"] == result.attack_pack
    assert across(public_pack(PUBLIC)).name == "grammar-across"


def test_the_command_takes_a_pack_and_an_attack_pack(tmp_path: Path) -> None:
    out = tmp_path / "study.json"
    args: tuple[str, ...] = ("study", "--seeds", "2", "--run-size", "small", "--first-seed", "7006")
    args = (*args, "--bench-version", REWORDED_VERSION)
    result = dittobench(*args, "--pack", str(reworded()), "--json", str(out), timeout=300)
    assert result.returncode == 0, result.stderr
    assert "grammar-across built on pack public-3.0" in result.stdout
    names = [s["name"] for s in json.loads(out.read_text(encoding="utf-8"))["strategies"]]
    assert names[-1] == "grammar-across" and "grammar" in names
    bad = dittobench(*args, "--pack", str(reworded()), "--attack-pack", "no-such-pack")
    assert bad.returncode == 2
    assert "no-such-pack: no such pack folder, and no shipped pack of that id" in bad.stderr
    missing = dittobench(*args, "--pack", str(tmp_path / "nowhere"))
    assert missing.returncode == 2 and "not a folder holding a content pack" in missing.stderr


# -- distance --------------------------------------------------------------------------------


def test_a_pack_is_all_in_itself() -> None:
    distance = pack_distance(public_pack(PUBLIC), public_pack(PUBLIC))
    assert distance.summary == 1.0
    assert [f.family for f in distance.families] == list(FAMILIES)
    for family in distance.families:
        assert family.frames.found == family.frames.total > 0, family.family
        assert all(g.found == g.total > 0 for g in family.grams), family.family
    assert distance.pools.share == distance.coin.share == 1.0


def test_the_reworded_copy_is_further_away() -> None:
    pack = load_pack(reworded())
    distance = pack_distance(public_pack(PUBLIC), pack)
    figures = {f.family: f for f in distance.families}
    assert distance.summary < 0.8
    assert figures["lookalikes"].figure < 0.1
    assert figures["statements"].frames.share < 0.5
    assert figures["questions"].figure == figures["tools"].figure == 1.0  # left as they were
    assert distance.pools.share == 1.0
    # not symmetric in general, but deterministic
    assert pack_distance(public_pack(PUBLIC), pack).to_json() == distance.to_json()


def test_the_command_prints_the_figures_and_json(tmp_path: Path) -> None:
    result = dittobench("pack", "distance", PUBLIC, str(reworded()))
    assert result.returncode == 0, result.stderr
    assert "lookalikes" in result.stdout and "summary" in result.stdout
    data = json.loads(dittobench("pack", "distance", PUBLIC, PUBLIC, "--json").stdout)
    assert data["summary"] == 1.0
    assert set(data["families"]) == set(FAMILIES)
    assert data["families"]["statements"]["3grams"]["share"] == 1.0


def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "copy"
    result = dittobench("pack", "new", str(folder))
    assert result.returncode == 0, result.stderr
    return folder


def test_bad_packs_get_clear_errors(tmp_path: Path) -> None:
    missing = dittobench("pack", "distance", PUBLIC, str(tmp_path / "absent"))
    assert missing.returncode == 2
    assert "no such pack folder, and no shipped pack of that id" in missing.stderr
    folder = _copy(tmp_path)
    path = folder / "attributes.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    data["attributes"][0]["grammar"]["state"] = "not a list"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(PackError, match=r"attributes\.json: attributes\[0\]\.grammar\.state"):
        pack_distance(public_pack(PUBLIC), load_pack(folder))
    broken = dittobench("pack", "distance", str(folder), PUBLIC)
    assert broken.returncode == 2 and "expected a list of strings" in broken.stderr
    path.write_text("{not json", encoding="utf-8")
    bad_json = dittobench("pack", "distance", PUBLIC, str(folder))
    assert bad_json.returncode == 2 and "attributes.json: not valid JSON" in bad_json.stderr
    (folder / "tools.json").unlink()
    gone = dittobench("pack", "distance", PUBLIC, str(folder))
    assert gone.returncode == 2 and "missing tools.json" in gone.stderr
