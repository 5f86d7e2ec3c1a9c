"""Content packs: loading, identity, lint and the `dittobench pack` commands."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from dittobench.generate.assemble import build_dataset
from dittobench.generate.lint import lint_pack
from dittobench.packs import PACK_FILES, PackError, load_pack, public_pack
from dittobench.spec.versions import CURRENT_VERSION, get_policy
from tests.helpers.cli import dittobench

PUBLIC = public_pack().path


def copy_public(tmp_path: Path, pack_id: str = "trial") -> Path:
    folder = tmp_path / pack_id
    shutil.copytree(PUBLIC, folder)
    edit(folder, "pack", lambda d: d.update(pack_id=pack_id))
    return folder


def edit(folder: Path, name: str, change: Callable[[Any], object]) -> None:
    path = folder / f"{name}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")


def attribute(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(a for a in data["attributes"] if a["name"] == name)


def category(data: dict[str, Any], name: str) -> dict[str, Any]:
    return next(c for c in data["categories"] if c["name"] == name)


RELEASED_PACKS = {
    "public-1.1": "41bf35048502a1cf0c86ea049c0743c8b9a9e097484f470a7561aff34d1827db",
    "public-3.0": "7c50a1b613444252432da299cc427ea5471ac1c64a604521cdf9a999e2d9fccc",
    "public-6.1": "00ca8f93bc576714317e0f7c0da7d3fee97b5ba8257eea9a63c19e94af689d51",
    "public-7.1": "5dad751dfdb312443aa38c60a0956348150295dedf94a0c684619ba054081951",
    "public-8.0": "1179db3d98666853f940a0a011be3133406b6caa157edefe62cce1b660bf6a54",
}
"""The packs of released bench versions: frozen, like their datasets' golden hashes."""
LAST_VERSION = {
    "public-1.1": "2.0.0",
    "public-3.0": "6.0.0",
    "public-6.1": "7.0.0",
    "public-7.1": "7.1.0",
    "public-8.0": CURRENT_VERSION,
}
"""The last version each pack is the public pack of: its rules are the ones it passes."""


@pytest.mark.parametrize("pack_id", sorted(RELEASED_PACKS))
def test_the_public_packs_pass_lint_and_have_a_pinned_identity(pack_id: str) -> None:
    pack = public_pack(pack_id)
    assert pack.pack_id == pack_id
    assert pack.sha256 == RELEASED_PACKS[pack_id]
    assert lint_pack(pack, get_policy(LAST_VERSION[pack_id]).content) == []


def test_formatting_and_key_order_do_not_change_the_hash_but_a_word_does(tmp_path: Path) -> None:
    folder = copy_public(tmp_path)
    before = load_pack(folder).sha256
    for name in PACK_FILES:  # compact, keys reversed: the same parsed pack
        path = folder / f"{name}.json"
        data = json.loads(path.read_text(encoding="utf-8"))
        reordered = dict(reversed(list(data.items())))
        path.write_text(json.dumps(reordered, separators=(",", ":")), encoding="utf-8")
    assert load_pack(folder).sha256 == before
    edit(folder, "system", lambda d: d.update(system_prompt=d["system_prompt"] + " Be brief."))
    assert load_pack(folder).sha256 != before


@pytest.mark.parametrize(
    ("damage", "where"),
    [
        (lambda f: (f / "chatter.json").unlink(), "chatter.json"),
        (lambda f: (f / "extra.json").write_text("{}"), "extra.json"),
        (lambda f: (f / "values.json").write_text("{not json"), "values.json"),
        (lambda f: (f / "people.json").write_text('{"a": 1, "a": 2}'), "people.json"),
        (lambda f: (f / "tools.json").write_text("[]"), "tools.json"),
        (lambda f: edit(f, "pack", lambda d: d.update(pack_id="Bad Id")), "pack_id"),
        (lambda f: edit(f, "pack", lambda d: d.update(format="v0")), "format"),
    ],
)
def test_a_broken_pack_is_refused_naming_the_file(
    tmp_path: Path, damage: Callable[[Path], object], where: str
) -> None:
    folder = copy_public(tmp_path)
    damage(folder)
    with pytest.raises(PackError, match=where.replace(".", r"\.")):
        pack = load_pack(folder)
        pack.sha256  # noqa: B018 (reads every file)


def _unknown_symbol(f: Path) -> None:
    edit(f, "attributes", lambda d: attribute(d, "hobby")["grammar"]["start"].append("#nope#"))


def _unreachable_symbol(f: Path) -> None:
    edit(f, "attributes", lambda d: attribute(d, "hobby")["grammar"].update(spare=["unused"]))


def _trigger_word(f: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        category(d, "settings")["grammar"]["origin"].append("please set the theme to {theme}")

    edit(f, "tools", change)


def _tiny_pool(f: Path) -> None:
    edit(f, "values", lambda d: d["pools"].update(first_names=["Ann", "Bo"]))


def _answer_in_question(f: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        hometown = attribute(d, "hometown")
        first = hometown["values"][0]
        value = first if isinstance(first, str) else first[0]
        hometown["grammar"]["ask"].append(f"Was it {value} where I grew up?")

    edit(f, "attributes", change)


def _schema_error(f: Path) -> None:
    edit(f, "people", lambda d: d.update(relations="friend"))


@pytest.mark.parametrize(
    ("damage", "file", "key"),
    [
        (_unknown_symbol, "attributes.json", "attributes.hobby.grammar"),
        (_unreachable_symbol, "attributes.json", "attributes.hobby.grammar.spare"),
        (_trigger_word, "tools.json", "categories.settings.grammar"),
        (_tiny_pool, "values.json", "pools.first_names"),
        (_answer_in_question, "attributes.json", "attributes.hometown.grammar.ask["),
        (_schema_error, "people.json", "'relations'"),
    ],
)
def test_lint_rejects_a_broken_pack_naming_file_and_key(
    tmp_path: Path, damage: Callable[[Path], None], file: str, key: str
) -> None:
    folder = copy_public(tmp_path)
    damage(folder)
    problems = [str(p) for p in lint_pack(load_pack(folder))]
    assert problems, "lint passed a broken pack"
    assert any(file in p and key in p for p in problems), problems


PACK_3_0 = public_pack("public-3.0").path


def copy_3_0(tmp_path: Path) -> Path:
    folder = tmp_path / "pack-3.0"
    shutil.copytree(PACK_3_0, folder)
    edit(folder, "pack", lambda d: d.update(pack_id="copy-3.0"))
    return folder


def _cue_word(f: Path) -> None:
    def change(d: dict[str, Any]) -> None:
        category(d, "image_create")["grammar"]["origin"].append("#lead#two pictures of #scene#.")

    edit(f, "tools", change)


def _cue_not_banned(f: Path) -> None:
    edit(f, "tools", lambda d: category(d, "image_create")["banned"].remove("scratch"))


def _cues_malformed(f: Path) -> None:
    edit(f, "tools", lambda d: d.update(cues={"max_shared": "three"}))


def _results_symbol(f: Path) -> None:
    edit(f, "tools", lambda d: d["results"]["finding"].append("#nowhere#, {subject}."))


def _cue_value(f: Path) -> None:
    edit(f, "values", lambda d: d["pools"]["themes"].append("dark"))


@pytest.mark.parametrize(
    ("damage", "key", "says"),
    [
        (_cue_word, "categories.image_create.grammar", "'pictures', a distinctive word of"),
        (_cue_not_banned, "categories.image_create.banned", "must ban 'scratch'"),
        (_cues_malformed, "cues", "must be"),
        (_results_symbol, "results", "#nowhere#"),
    ],
)
def test_lint_rejects_a_3_0_pack_with_cues(
    tmp_path: Path, damage: Callable[[Path], None], key: str, says: str
) -> None:
    folder = copy_3_0(tmp_path)
    damage(folder)
    problems = [str(p) for p in lint_pack(load_pack(folder))]
    assert any(f"tools.json: {key}" in p and says in p for p in problems), problems


def test_lint_rejects_a_pool_value_that_says_a_banned_word(tmp_path: Path) -> None:
    """A slot value is said as it is, so a theme called "dark" would cue set_theme."""
    folder = copy_3_0(tmp_path)
    _cue_value(folder)
    problems = [str(p) for p in lint_pack(load_pack(folder))]
    assert any(
        "tools.json" in p and "categories.settings.slots.theme.pool" in p and "'dark'" in p
        for p in problems
    ), problems


def test_pack_commands_make_check_and_hash_a_pack(tmp_path: Path) -> None:
    folder = tmp_path / "window-7"
    made = dittobench("pack", "new", str(folder))
    assert made.returncode == 0, made.stderr
    assert json.loads((folder / "pack.json").read_text())["pack_id"] == "window-7"
    assert dittobench("pack", "new", str(folder)).returncode == 2  # never over an edited pack
    linted = dittobench("pack", "lint", str(folder))
    assert linted.returncode == 0, linted.stdout + linted.stderr
    hashed = dittobench("pack", "hash", str(folder))
    assert hashed.stdout.split() == [load_pack(folder).sha256, "window-7"]
    _tiny_pool(folder)
    failed = dittobench("pack", "lint", str(folder))
    assert failed.returncode == 1
    assert "values.json: pools.first_names: needs at least 8 values" in failed.stdout


def test_a_pack_other_than_the_versions_own_is_named_in_the_dataset(tmp_path: Path) -> None:
    own = build_dataset(11, "2.0.0", "small").to_json()
    assert "pack" not in own  # released versions keep their bytes: the version implies it
    same_words = load_pack(copy_public(tmp_path))
    named = build_dataset(11, "2.0.0", "small", same_words).to_json()
    assert named["pack"] == {"id": "trial", "sha256": same_words.sha256}
    assert {k: v for k, v in named.items() if k != "pack"} == own
    assert build_dataset(11, "2.0.0", "small", public_pack()).to_json() == own


def _asking_symbol(f: Path) -> None:
    edit(f, "questions", lambda d: d["asking"]["value"].append("#nowhere# {subject}?"))


def _asking_unreached(f: Path) -> None:
    edit(f, "questions", lambda d: d["asking"].update(stray=["a question nobody asks?"]))


def _asking_family_missing(f: Path) -> None:
    edit(f, "questions", lambda d: d["asking"].pop("mentions"))


def _subjects_missing(f: Path) -> None:
    edit(f, "questions", lambda d: d["subjects"].pop("partner_name"))


def _subjects_unknown(f: Path) -> None:
    edit(f, "questions", lambda d: d["subjects"].update(ghost=["my ghost"]))


def _subject_names_a_value(f: Path) -> None:
    edit(f, "questions", lambda d: d["subjects"]["partner_name"].append("my partner Mateo"))


@pytest.mark.parametrize(
    ("damage", "key", "says"),
    [
        (_asking_symbol, "asking", "#nowhere#"),
        (_asking_unreached, "asking.stray", "never reached"),
        (_asking_family_missing, "asking", "needs the symbols mentions"),
        (_subjects_missing, "subjects.partner_name", "needs at least one phrase"),
        (_subjects_unknown, "subjects.ghost", "names no attribute"),
        (_subject_names_a_value, "subjects.partner_name", "names one of the attribute's values"),
    ],
)
def test_lint_checks_the_shared_question_families_and_subjects(
    tmp_path: Path, damage: Callable[[Path], None], key: str, says: str
) -> None:
    """questions.json ``asking`` and ``subjects`` (bench 3.0): symbols defined and reached from
    a family, every asked attribute given phrases, none unknown, none naming a value."""
    folder = copy_3_0(tmp_path)
    damage(folder)
    problems = [str(p) for p in lint_pack(load_pack(folder))]
    assert any(f"questions.json: {key}:" in p and says in p for p in problems), problems
