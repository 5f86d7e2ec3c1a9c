"""Content packs in receipts, on real runs through the real command line.

A pack made with `dittobench pack new --from public-1.1` (bench 2.0.0, whose datasets leave that
pack implied) gets new wording for one fixed attribute (the `state`
statements of `board_game`), and a small run of the built-in baseline (seed 6) is scored with it.
Its dataset, report, transcript and signed manifest all name the pack; `verify --regrade` rebuilds
the dataset only from that pack (`--pack DIR`), refuses without it (the pack is not shipped) and
refuses a pack with another hash. The edit changes only the pairs of that attribute.

A receipt of the format before packs (`dittobench-receipt-1`, made by the build before packs,
commit b604143, with `dittobench run --seed 6`: `data/receipt-1/`) still verifies and regrades.
"""

from __future__ import annotations

import json
import re
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.core.hashing import canonical_sha256
from dittobench.packs import load_pack, public_pack
from dittobench.receipts.keys import PRIVATE_KEY_NAME, load_private_key, trusted_entry
from dittobench.receipts.manifest import RECEIPT_FORMAT_1, RECEIPT_FORMAT_4
from dittobench.receipts.regrade import regrade_receipt
from tests.helpers.cli import dittobench
from tests.helpers.receipts import resign

SEED = "6"
VERSION = "2.0.0"
"""A version whose datasets leave their pack (public-1.1) implied, so the public run names none."""
ATTRIBUTE = "board_game"
NEW_STATE = [
    "#lead_3#my games-night weapon of choice is {value}, no contest.",
    "#lead_3#the box on my shelf with the most wear is {value}.",
    "#lead_3#my cousins refuse to play {value} with me any more.",
    "#lead_3#I could teach {value} in my sleep.",
    "#lead_3#I'd pick {value} over any party game.",
    "Taught the whole office {value} at lunch; they're hooked.",
]
"""New wording with the public wording's shape (as many alternatives, the same symbols in each),
so the generator draws exactly as before and only the words of these statements can change."""

TOKENS = re.compile(r"#[a-z_][a-z0-9_]*#|\{[a-z_][a-z0-9_]*\}")
OLD_REGRADE_FIXTURE = Path(__file__).parent / "data" / "receipt-1"


@dataclass(frozen=True)
class PackRun:
    home: Path
    pack: Path
    """The edited pack."""
    plain: Path
    """A `pack new` copy of the public pack with no edits."""
    pack_id: str
    pack_sha256: str
    folder: Path
    """The run's output folder (dataset, report, transcript, receipt)."""
    key: Ed25519PrivateKey
    trusted: Path

    def read(self, name: str) -> Any:
        return json.loads((self.folder / name).read_text(encoding="utf-8"))

    def verify(self, receipt: Path, *options: str) -> subprocess.CompletedProcess[str]:
        return dittobench("verify", str(receipt), "--trusted-keys", str(self.trusted), *options)

    @property
    def receipt(self) -> Path:
        return self.folder / "receipt.json"

    @property
    def transcript(self) -> Path:
        return self.folder / "transcript.json"


def edit_attribute(pack: Path) -> None:
    """Give ``ATTRIBUTE``'s statements ``NEW_STATE``, checking the shape is the public one."""
    path = pack / "attributes.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    [attribute] = [a for a in data["attributes"] if a["name"] == ATTRIBUTE]
    old = attribute["grammar"]["state"]
    assert [TOKENS.findall(t) for t in old] == [TOKENS.findall(t) for t in NEW_STATE]
    attribute["grammar"]["state"] = NEW_STATE
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def pack_hash(folder: Path) -> tuple[str, str]:
    """``(sha256, pack_id)`` as `dittobench pack hash` prints them."""
    result = dittobench("pack", "hash", str(folder))
    assert result.returncode == 0, result.stderr
    sha, pack_id = result.stdout.split()
    return sha, pack_id


@pytest.fixture(scope="module")
def run(tmp_path_factory: pytest.TempPathFactory) -> PackRun:
    home = tmp_path_factory.mktemp("packrun")
    pack, plain = home / "sealed-1", home / "plain-1"
    for folder in (pack, plain):
        made = dittobench("pack", "new", str(folder), "--from", "public-1.1", cwd=home)
        assert made.returncode == 0, made.stderr
    edit_attribute(pack)
    sha, pack_id = pack_hash(pack)
    assert pack_id == "sealed-1"
    ran = dittobench(
        "run",
        "--seed",
        SEED,
        "--bench-version",
        VERSION,
        "--pack",
        str(pack),
        "--db",
        str(home / "runs.db"),
        "--out-dir",
        str(home / "out"),
        cwd=home,
    )
    assert ran.returncode == 0, ran.stderr
    folder = next((home / "out").glob("*/receipt.json")).parent
    key = load_private_key(home / "keys" / PRIVATE_KEY_NAME)
    trusted = home / "trusted.json"
    entry = trusted_entry(key, "2000-01-01T00:00:00Z").to_json()
    trusted.write_text(json.dumps({"keys": [entry]}), encoding="utf-8")
    return PackRun(home, pack, plain, pack_id, sha, folder, key, trusted)


def statements_of(dataset: dict[str, Any]) -> dict[str, str]:
    """Every pair's user turn by pair id."""
    return {p["pair_id"]: p["prompt"] for w in dataset["memory_waves"] for p in w["pairs"]}


def words_of(template: str) -> str:
    """A statement template's longest run of its own words (no symbols, no slots)."""
    return max(TOKENS.split(template), key=len).strip(" .;,").lower()


def worded_by(text: str, templates: list[str]) -> bool:
    """Whether a user turn was made from one of ``templates``."""
    return any(words_of(t) in text.lower() for t in templates)


def new_wording(text: str) -> bool:
    return worded_by(text, NEW_STATE)


# -- the run names its pack everywhere -----------------------------------------------------------


def test_the_dataset_report_transcript_and_receipt_name_the_pack(run: PackRun) -> None:
    named = {"id": run.pack_id, "sha256": run.pack_sha256}
    assert load_pack(run.pack).describe() == named
    assert run.pack_sha256 != public_pack().sha256
    dataset = run.read("dataset.json")
    assert dataset["pack"] == named
    assert run.read("report.json")["pack"] == named
    transcript = run.read("transcript.json")
    assert transcript["pack"] == named
    manifest = run.read("receipt.json")["manifest"]
    # A run's transcript records its wire nonce and the run who chose its seed (here --seed:
    # the submitter), so its receipt is format 4 and signs both.
    assert manifest["format"] == RECEIPT_FORMAT_4 == "dittobench-receipt-4"
    assert manifest["wire_nonce"] == transcript["wire_nonce"]
    assert manifest["seed_source"] == "submitter"
    assert (manifest["pack_id"], manifest["pack_sha256"]) == (run.pack_id, run.pack_sha256)
    assert manifest["dataset_sha256"] == canonical_sha256(dataset)
    # The run was made from the edited words: the harness was told the new statement.
    assert any(new_wording(text) for text in statements_of(dataset).values())


def test_the_regrade_with_the_pack_passes(run: PackRun) -> None:
    for options in ((), ("--transcript", str(run.transcript))):
        result = run.verify(run.receipt, "--regrade", "--pack", str(run.pack), *options)
        assert result.returncode == 0, result.stdout + result.stderr
        assert f"pack {run.pack_id}: sha256 {run.pack_sha256}" in result.stdout
        assert "ok    12 cases regraded" in result.stdout
        assert "verdict: VERIFIED" in result.stdout


def test_the_regrade_without_the_pack_asks_for_it(run: PackRun) -> None:
    plain = run.verify(run.receipt, "--transcript", str(run.transcript))
    assert plain.returncode == 0, plain.stdout  # the receipt itself is intact and signed
    result = run.verify(run.receipt, "--regrade")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "verdict: NOT VERIFIED (signed, but it could not be regraded)" in result.stdout
    message = result.stderr
    assert f"pack '{run.pack_id}' (sha256 {run.pack_sha256})" in message
    assert "this build does not ship it" in message
    assert "pass --pack DIR with the pack's published folder" in message


def test_the_regrade_with_another_pack_fails_on_the_hash(run: PackRun) -> None:
    other_sha, other_id = pack_hash(run.plain)
    assert other_sha not in (run.pack_sha256, public_pack().sha256)  # a new id, a new hash
    result = run.verify(run.receipt, "--regrade", "--pack", str(run.plain))
    assert result.returncode == 1, result.stdout + result.stderr
    assert f"is pack '{other_id}' with sha256 {other_sha}" in result.stderr
    assert f"made with pack '{run.pack_id}', sha256 {run.pack_sha256}" in result.stderr
    assert "DIFF" not in result.stdout and "cases regraded" not in result.stdout


def test_pack_is_only_for_a_regrade(run: PackRun) -> None:
    result = run.verify(run.receipt, "--pack", str(run.pack))
    assert result.returncode == 2 and "add --regrade" in result.stderr


def test_a_transcript_naming_another_pack_is_refused(run: PackRun) -> None:
    """A transcript whose pack was swapped for the public one, with the receipt re-signed over
    its hash by the run's own key: only the pack comparison can catch it."""
    transcript = run.read("transcript.json")
    transcript["pack"] = public_pack().describe()
    forged = json.loads(json.dumps(run.read("receipt.json")))
    forged["manifest"]["transcript_sha256"] = canonical_sha256(transcript)
    receipt_path = run.home / "forged-pack.json"
    receipt_path.write_text(json.dumps(resign(forged, run.key)), encoding="utf-8")
    transcript_path = run.home / "forged-transcript.json"
    transcript_path.write_text(json.dumps(transcript), encoding="utf-8")
    result = run.verify(receipt_path, "--transcript", str(transcript_path))
    assert result.returncode == 1, result.stdout
    failed = [line for line in result.stdout.splitlines() if line.startswith("FAIL")]
    assert [line.split() for line in failed] == [
        ["FAIL", "transcript", "run", "transcript", "and", "manifest", "differ", "in:", "pack"]
    ]
    found = regrade_receipt(resign(forged, run.key), transcript, load_pack(run.pack))
    assert not found.ok and "the transcript names pack" in found.blocked
    assert public_pack().sha256 in found.blocked and run.pack_sha256 in found.blocked


# -- the edit changes only its attribute ---------------------------------------------------------


def generated(run: PackRun, name: str, *pack: str) -> dict[str, Any]:
    out = run.home / f"{name}.json"
    args = ("--seed", SEED, "--bench-version", VERSION, "--run-size", "medium", "--out", str(out))
    made = dittobench("generate", *args, *pack)
    assert made.returncode == 0, made.stderr
    data: dict[str, Any] = json.loads(out.read_text(encoding="utf-8"))
    return data


def subjects_of(dataset: dict[str, Any]) -> dict[str, str]:
    """Each linked pair's subject title, by pair id."""
    out: dict[str, str] = {}
    for wave in dataset["memory_waves"]:
        titles = {s["id"]: s["subject_text"] for s in wave.get("subjects", [])}
        out |= {link["pair_id"]: titles[link["subject_id"]] for link in wave.get("links", [])}
    return out


def test_the_edited_pack_changes_only_the_pairs_of_its_attribute(run: PackRun) -> None:
    public = generated(run, "medium-public")
    sealed = generated(run, "medium-sealed", "--pack", str(run.pack))
    assert "pack" not in public and sealed.pop("pack")["sha256"] == run.pack_sha256
    assert sealed["tool_cases"] == public["tool_cases"]
    assert sealed["tool_fixtures"] == public["tool_fixtures"]
    [attribute] = [
        a for a in public_pack().file("attributes")["attributes"] if a["name"] == ATTRIBUTE
    ]
    before, after = statements_of(public), statements_of(sealed)
    assert list(before) == list(after)  # the same pairs, in the same order
    changed = {pair_id for pair_id in before if before[pair_id] != after[pair_id]}
    assert changed, "the attribute's statement is in the dataset"
    title = attribute["title"]
    for pair_id in sorted(changed):
        assert new_wording(after[pair_id]), after[pair_id]
        assert worded_by(before[pair_id], attribute["grammar"]["state"]), before[pair_id]
        for links in (subjects_of(public), subjects_of(sealed)):
            assert links.get(pair_id, title) == title
    # Everything but those pairs' user turns is the same: responses, sessions, times, subjects.
    for old_wave, new_wave in zip(public["memory_waves"], sealed["memory_waves"], strict=True):
        for old_pair, new_pair in zip(old_wave["pairs"], new_wave["pairs"], strict=True):
            assert {**old_pair, "prompt": ""} == {**new_pair, "prompt": ""}
        assert {**old_wave, "pairs": []} == {**new_wave, "pairs": []}
    # A question differs only where its evidence is one of the changed pairs.
    old_cases, new_cases = public["memory_cases"], sealed["memory_cases"]
    assert [c["id"] for c in old_cases] == [c["id"] for c in new_cases]
    for old_case, new_case in zip(old_cases, new_cases, strict=True):
        if old_case != new_case:
            assert {**old_case, "question": ""} == {**new_case, "question": ""}
            assert changed & set(new_case["evidence_pair_ids"]), new_case["id"]
    assert {**public, "memory_waves": [], "memory_cases": []} == {
        **sealed,
        "memory_waves": [],
        "memory_cases": [],
    }


# -- a receipt of the format before packs --------------------------------------------------------


def test_a_format_1_receipt_still_verifies_and_regrades(tmp_path: Path) -> None:
    receipt = OLD_REGRADE_FIXTURE / "receipt.json"
    transcript = OLD_REGRADE_FIXTURE / "transcript.json"
    manifest = json.loads(receipt.read_text(encoding="utf-8"))["manifest"]
    assert manifest["format"] == RECEIPT_FORMAT_1 and "pack_id" not in manifest
    assert "pack" not in json.loads(transcript.read_text(encoding="utf-8"))
    # Its signer is a key of the fixture's own, known to no one: integrity and regrade only.
    result = dittobench(
        "verify", str(receipt), "--any-key", "--regrade", "--transcript", str(transcript)
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "FAIL" not in result.stdout
    # The version's own public pack is implied, and the dataset it makes is the one signed.
    own = public_pack()
    assert f"pack {own.pack_id}: sha256 {own.sha256}" in result.stdout
    assert (
        f"dataset rebuilt from the manifest: sha256 {manifest['dataset_sha256']}" in result.stdout
    )
    assert "ok    12 cases regraded from the transcript" in result.stdout
    # --pack works for it too: the shipped folder passes, a copy under another id does not.
    shipped = dittobench("verify", str(receipt), "--any-key", "--regrade", "--pack", str(own.path))
    assert shipped.returncode == 0, shipped.stdout + shipped.stderr
    copy = tmp_path / "copy-1"
    assert dittobench("pack", "new", str(copy)).returncode == 0
    refused = dittobench("verify", str(receipt), "--any-key", "--regrade", "--pack", str(copy))
    assert refused.returncode == 1 and f"sha256 {own.sha256}" in refused.stderr
