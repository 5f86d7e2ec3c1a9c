"""The independently authored pack (``tests/packs/independent``): written from the schema and
the generator's contracts, never from a shipped pack's words, it lints, generates every run size
for the current version, grades the oracle at 1.0 and the paraphrase oracle at 0.97 or more,
and every word of what it generates is its own: the generator carries no wording of its own."""

from __future__ import annotations

import json
import re
import shutil
import statistics
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from dittobench import study as T
from dittobench.generate.assemble import build_dataset
from dittobench.generate.grammar import Grammar
from dittobench.generate.lint import lint_pack
from dittobench.generate.texts import texts_of
from dittobench.grade.run import grade_run
from dittobench.packs import Pack
from dittobench.packs.distance import pack_distance
from dittobench.packs.load import load_pack
from dittobench.spec.dataset import Dataset
from dittobench.spec.versions import CURRENT_VERSION, get_policy
from tests.packs import make_independent

FOLDER = Path(__file__).parents[1] / "packs" / "independent"
PACK_SHA256 = "70575277626b7abef829ecd5ca3f38224cdf324301797dec2c60f808232fbdaf"
"""The committed pack's identity: a changed word must show up here (and in every dataset)."""
SEEDS = range(3)


@cache
def pack() -> Pack:
    return load_pack(FOLDER)


@cache
def medium(seed: int) -> Dataset:
    return build_dataset(seed, CURRENT_VERSION, "medium", pack())


WRITTEN_FOR = get_policy("6.0.0").content
"""The rules the pack was written to. Most of its look-alikes already transform the claim ("my #
isn't {value}"), but it predates bench 6.1's lint: a few hold an event's words ("got back from
{value}") and none is said in a frame its facts share."""


def test_the_pack_lints_clean() -> None:
    assert lint_pack(pack(), WRITTEN_FOR) == []


def test_its_hash_is_pinned_and_named_by_its_datasets() -> None:
    assert pack().pack_id == "independent-1"
    assert pack().sha256 == PACK_SHA256
    named = medium(0).pack
    assert named is not None
    assert (named.id, named.sha256) == ("independent-1", PACK_SHA256)


def test_the_committed_files_are_what_the_script_writes() -> None:
    built = make_independent.build()
    assert sorted(built) == sorted(p.stem for p in FOLDER.glob("*.json"))
    for name, content in built.items():
        assert json.loads((FOLDER / f"{name}.json").read_text(encoding="utf-8")) == content, name


@pytest.mark.parametrize("size", ["small", "medium", "full"])
def test_every_run_size_generates_and_the_oracle_scores_everything(size: str) -> None:
    seeds = SEEDS if size != "full" else range(1)
    for seed in seeds:
        dataset = (
            medium(seed) if size == "medium" else build_dataset(seed, run_size=size, pack=pack())
        )
        assert dataset.memory_cases and dataset.tool_cases
        report = grade_run(dataset, T.build(dataset)).report
        assert report.memory_mean == 1.0, (size, seed)
        assert report.composite == 1.0, (size, seed)


def test_the_paraphrase_oracle_keeps_scoring() -> None:
    means = [
        grade_run(d, T.build(d, memory=T.paraphrase_memory, tool=T.no_tools)).report.memory_mean
        for d in (medium(seed) for seed in SEEDS)
    ]
    assert statistics.mean(means) >= 0.97


def _texts(dataset: Dataset) -> list[str]:
    pairs = [p for wave in dataset.memory_waves for p in wave.pairs]
    subjects = [s for wave in dataset.memory_waves for s in wave.subjects]
    return [
        *(p.prompt for p in pairs),
        *(p.response for p in pairs),
        *(s.subject_text for s in subjects),
        *(s.description_text for s in subjects),
        *(c.question for c in dataset.memory_cases),
        *(c.prompt for c in dataset.tool_cases),
        *(c.expected_behavior for c in dataset.tool_cases),
        *(f.needle for f in dataset.tool_fixtures),
        *(f.decoy for f in dataset.tool_fixtures),
    ]


def _foreign_words(folder: Path, dataset: Dataset) -> dict[str, str]:
    """Words of ``dataset`` that the pack in ``folder`` does not hold (a word, case folded, of
    its files, or a coined name: the pack's syllables, then one of its coin ``ends``)."""
    vocabulary: set[str] = set()
    for path in folder.glob("*.json"):
        vocabulary |= set(re.findall(r"[a-z]+", path.read_text(encoding="utf-8").lower()))
    syllables = json.loads((folder / "values.json").read_text(encoding="utf-8"))["syllables"]
    ends = {
        end.lower()
        for record in json.loads((folder / "attributes.json").read_text(encoding="utf-8"))[
            "attributes"
        ]
        for part in record.get("coin", {}).get("parts", {}).values()
        if isinstance(part, dict)
        for end in part.get("ends", [])
    }

    def one_of(items: set[str]) -> str:
        return "(?:" + "|".join(re.escape(i) for i in sorted(items, key=len, reverse=True)) + ")"

    syllable = one_of(set(syllables["onsets"])) + one_of(set(syllables["vowels"]))
    syllable += one_of(set(syllables["codas"]))
    coined = re.compile(f"(?:{syllable})+{one_of(ends | {''})}")
    foreign: dict[str, str] = {}
    for text in _texts(dataset):
        # addresses and codes (e-mail, links, ids, keys) are coined strings, not words
        spoken = re.sub(r"\S*[@/\d]\S*|\b[A-Z][A-Z-]{4,}\b", " ", text)
        for word in re.findall(r"[A-Za-z]+", spoken):
            folded = word.lower()
            if folded not in vocabulary and not coined.fullmatch(folded):
                foreign[folded] = text
    return foreign


def test_every_word_of_its_datasets_comes_from_the_pack() -> None:
    for seed in SEEDS:
        assert _foreign_words(FOLDER, medium(seed)) == {}, seed
    full = build_dataset(1, run_size="full", pack=pack())
    assert _foreign_words(FOLDER, full) == {}


def test_a_word_check_that_can_fail(tmp_path: Path) -> None:
    """The provenance check above sees a word the pack lost: rewrite one chatter word in a
    copy's datasets' source and the copy no longer holds the original's words."""
    copy = tmp_path / "pack"
    shutil.copytree(FOLDER, copy)
    chatter = json.loads((copy / "chatter.json").read_text(encoding="utf-8"))
    chatter["reply"]["r"] = ["Splendiferous."]
    (copy / "chatter.json").write_text(json.dumps(chatter), encoding="utf-8")
    changed = build_dataset(0, run_size="medium", pack=load_pack(copy))
    assert load_pack(copy).sha256 != PACK_SHA256
    assert "splendiferous" in _foreign_words(FOLDER, changed)


def test_a_broken_copy_fails_the_lint(tmp_path: Path) -> None:
    copy = tmp_path / "pack"
    shutil.copytree(FOLDER, copy)
    attributes = json.loads((copy / "attributes.json").read_text(encoding="utf-8"))
    del attributes["attributes"][0]["grammar"]["state"]
    (copy / "attributes.json").write_text(json.dumps(attributes), encoding="utf-8")
    problems = [str(p) for p in lint_pack(load_pack(copy), WRITTEN_FOR)]
    assert problems and "home_town" in problems[0] and "state" in problems[0]


def test_it_shares_little_wording_with_the_public_pack() -> None:
    """Measured with ``pack distance``: the share of this pack's wording found in the public
    pack, per grammar family, stays small (closed classes such as months and star signs are
    shared values, not wording)."""
    from dittobench.packs.load import public_pack

    distance = pack_distance(public_pack("public-3.0"), pack())
    figures = {f.family: f.figure for f in distance.families}
    assert set(figures) == {"statements", "lookalikes", "questions", "tools", "chatter"}
    assert max(figures.values()) <= 0.2, figures
    assert distance.summary <= 0.15


_SYMBOL = re.compile(r"#([a-z_][a-z0-9_]*)#")
FACT_SYMBOLS = ("state", "change", "event", "start", "still", "mention", "recommend", "implied")
LOOK_ALIKE_SYMBOLS = ("twin", "suggest_aside")


def _expansions(grammar: Grammar, symbol: str) -> list[str]:
    """Every expansion of ``symbol`` (slots left as they are)."""
    out: list[str] = []
    for alternative in grammar[symbol]:
        texts = [""]
        for index, piece in enumerate(_SYMBOL.split(alternative)):
            if index % 2 == 0:
                texts = [t + piece for t in texts]
            else:
                texts = [t + e for t in texts for e in _expansions(grammar, piece)]
        out.extend(texts)
    return out


def _wrapped_statements(folder: Path) -> list[tuple[str, str, str]]:
    """(attribute, statement, look-alike) where a look-alike holds one of its attribute's
    statements (without its opener) as a contiguous part: the wrapper a longest-match parser
    classifies without reading (issue 26, item 2)."""

    def plain(text: str) -> str:
        return re.sub(r"\s+", " ", text).strip().lower().rstrip(".!?")

    found = []
    for attribute in texts_of(load_pack(folder)).library.attributes:
        grammar = {**attribute.grammar, "fo": ("",)}  # a statement at its shortest
        looks = [
            plain(t) for s in LOOK_ALIKE_SYMBOLS if s in grammar for t in _expansions(grammar, s)
        ]
        facts = {plain(t) for s in FACT_SYMBOLS if s in grammar for t in _expansions(grammar, s)}
        found += [(attribute.name, f, look) for f in sorted(facts) for look in looks if f in look]
    return found


def test_no_look_alike_wraps_a_statement(tmp_path: Path) -> None:
    assert _wrapped_statements(FOLDER) == []
    copy = tmp_path / "pack"
    shutil.copytree(FOLDER, copy)
    attributes = json.loads((copy / "attributes.json").read_text(encoding="utf-8"))
    attributes["shared"]["twin_deny"].append("it's not true that my #np# #cop# {value}.")
    (copy / "attributes.json").write_text(json.dumps(attributes), encoding="utf-8")
    wrapped = _wrapped_statements(copy)
    assert ("home_town", "my home town was {value}") in [(a, f) for a, f, _ in wrapped]


def _without_attribute(data: dict[str, Any], name: str) -> None:
    data["attributes"]["attributes"] = [
        a for a in data["attributes"]["attributes"] if a["name"] != name
    ]
    data["questions"]["subjects"].pop(name, None)


def _renamed_write(data: dict[str, Any], name: str) -> None:
    for record in data["attributes"]["attributes"]:
        if record["name"] == name:
            record["name"] = "stored_codes"


def _no_token_title(data: dict[str, Any], name: str) -> None:
    data["questions"]["special_titles"].pop(name)


def _no_value_key(data: dict[str, Any], name: str) -> None:
    key, sub = name.split(".")
    data["values"][key].pop(sub)


@pytest.mark.parametrize(
    ("change", "name", "where"),
    [
        (_without_attribute, "trips", "attributes.trips"),
        (_renamed_write, "saved_code", "'saved_code'"),
        (_without_attribute, "hobby", "needs an activity attribute"),
        (_no_token_title, "integrity_token", "special_titles.integrity_token"),
        (_no_value_key, "formats.job_id", "values.json: formats.job_id: missing"),
        (_no_value_key, "pools.fixture_units", "values.json: pools.fixture_units: missing"),
        (_no_value_key, "pools.tlds", "values.json: pools.tlds: missing"),
        (_no_value_key, "schedules.month_day", "values.json: schedules.month_day: missing"),
        (_no_value_key, "pools.years", "values.json: pools.years: missing"),
    ],
)
def test_the_lint_names_what_the_generator_reads_by_name(
    tmp_path: Path, change: Any, name: str, where: str
) -> None:
    """A pack without a name the code asks for (the never-visited trips, the write path's
    codes, an activity, the token's subject title, a pool, format or timetable form a maker,
    fixture or finding reads) fails the lint, naming it, instead of failing a run half-way
    with a bare KeyError."""
    copy = tmp_path / "pack"
    shutil.copytree(FOLDER, copy)
    data = {p.stem: json.loads(p.read_text(encoding="utf-8")) for p in copy.glob("*.json")}
    change(data, name)
    for stem, content in data.items():
        (copy / f"{stem}.json").write_text(json.dumps(content), encoding="utf-8")
    problems = [str(p) for p in lint_pack(load_pack(copy), WRITTEN_FOR)]
    assert len(problems) == 1 and where in problems[0], problems


def test_every_answer_is_stated_as_a_fact_in_the_independent_packs_words() -> None:
    """The support checks of bench 3.0 (``test_support_3_0.py``: each expected value stated as
    a fact by its evidence, never only by a look-alike or a slip, never contradicted later)
    hold for histories told in this pack's words too."""
    from dittobench.core.prng import Stream
    from dittobench.generate.memory.build import build_memory
    from dittobench.spec.versions import get_policy
    from tests.unit.test_support_3_0 import History, check_case

    policy = get_policy(CURRENT_VERSION)
    checked = 0
    for seed in SEEDS:
        side = build_memory(
            Stream.root(seed, policy.content_version),
            policy.epoch,
            policy.run_size("medium"),
            texts_of(pack()),
            policy.content,
        )
        histories = {user: History(side, user) for user in side.persons}
        for case in side.cases:
            check_case(histories[case.user_id], case)
            checked += 1
    assert checked >= 150
