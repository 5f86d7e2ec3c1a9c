"""The mock tools' reply words are pack data: every shipped pack serves them, a pack of format
``dittobench-pack-2`` words its own (committed to by ``pack_sha256``), and the endpoint answers in
the words of the pack it is given."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from dittobench.catalog import MEMORY_TOOLS, SHAPE_TABLES, tool_names
from dittobench.catalog.content import CONTENT_TOOLS
from dittobench.catalog.shown import shown_by
from dittobench.mocktools import execute
from dittobench.packs import (
    PACK_FORMATS,
    REPLIES_FORMAT,
    PackError,
    RepliesError,
    format_replies,
    load_pack,
    public_pack,
    public_pack_ids,
)
from dittobench.spec.dataset import ToolCase, ToolFixture

INDEPENDENT = Path(__file__).resolve().parents[1] / "packs" / "independent"
CASE = ToolCase("tool-0001", "settings", "direct_routing", "p", (), 2, False, False, "b")
FIXTURE = ToolFixture(
    case_id=CASE.id, subject="s", unit="u", decoy_figure="1", job_id="job-1", link="l"
)


def shipped() -> list[Any]:
    return [*(public_pack(p) for p in public_pack_ids()), load_pack(INDEPENDENT)]


def replies_data(pack_id: str = "public-8.0") -> dict[str, Any]:
    words = public_pack(pack_id).replies
    return {
        "confirm": {k: list(v) for k, v in words.confirm.items()},
        "lists": {k: list(v) for k, v in words.lists.items()},
        "lines": dict(words.lines),
    }


def copy_pack(tmp: Path, pack_format: str, replies: dict[str, Any] | None) -> Path:
    folder = tmp / f"copy-{pack_format}"
    shutil.copytree(public_pack("public-8.0").path, folder)
    head = json.loads((folder / "pack.json").read_text(encoding="utf-8"))
    head.update(format=pack_format, pack_id="copy")
    (folder / "pack.json").write_text(json.dumps(head), encoding="utf-8")
    if replies is not None:
        (folder / "replies.json").write_text(json.dumps(replies), encoding="utf-8")
    return folder


def test_every_shipped_pack_serves_replies_for_every_action_tool_of_its_catalog() -> None:
    for pack in shipped():
        words = pack.replies
        assert pack.catalog_id in SHAPE_TABLES, pack.pack_id
        actions = set(tool_names(pack.catalog_id)) - set(MEMORY_TOOLS) - CONTENT_TOOLS
        assert actions <= set(words.confirm), (pack.pack_id, actions - set(words.confirm))
        assert shown_by(pack).replies is words


def test_format_one_packs_share_their_format_s_replies() -> None:
    ones = [pack for pack in shipped() if pack.format == "dittobench-pack-1"]
    assert ones, "the packs of 1.1.0-8.0.0 are format 1"
    for pack in ones:
        assert pack.replies == format_replies(pack.format)


def test_a_format_two_pack_words_its_own_replies(tmp_path: Path) -> None:
    data = replies_data()
    data["confirm"]["set_theme"] = ["Theme switched: {theme}."]
    own = load_pack(copy_pack(tmp_path, REPLIES_FORMAT, data))
    plain = load_pack(copy_pack(tmp_path, "dittobench-pack-1", None))
    assert own.files == PACK_FORMATS[REPLIES_FORMAT]
    reply = execute(1, "8.0", CASE, FIXTURE, "set_theme", {"theme": "dusk"}, [], own.replies)
    assert reply.result == "Theme switched: dusk."
    served = execute(1, "8.0", CASE, FIXTURE, "set_theme", {"theme": "dusk"}, [], plain.replies)
    assert "dusk" in served.result and served.result != reply.result
    assert own.sha256 != plain.sha256


def test_the_commitment_covers_a_format_two_pack_s_replies(tmp_path: Path) -> None:
    first = load_pack(copy_pack(tmp_path / "a", REPLIES_FORMAT, replies_data())).sha256
    data = replies_data()
    data["lines"]["unreachable"] = "No page at {url}."
    second = load_pack(copy_pack(tmp_path / "b", REPLIES_FORMAT, data)).sha256
    assert first != second


def test_a_replies_file_must_match_the_format(tmp_path: Path) -> None:
    with pytest.raises(PackError, match=r"missing replies\.json"):
        load_pack(copy_pack(tmp_path / "a", REPLIES_FORMAT, None))
    with pytest.raises(PackError, match=r"unknown pack files replies\.json"):
        load_pack(copy_pack(tmp_path / "b", "dittobench-pack-1", replies_data()))
    with pytest.raises(PackError, match="key 'format'"):
        load_pack(copy_pack(tmp_path / "c", "dittobench-pack-9", None))


@pytest.mark.parametrize(
    ("key", "broken", "message"),
    [
        ("lines", {"about": "x"}, "key 'lines' must give exactly"),
        ("lists", {"generic": ["Done."]}, "key 'lists' must give exactly"),
        ("confirm", {"set_theme": []}, r"confirm\.set_theme must be a non-empty list"),
    ],
)
def test_a_malformed_replies_file_names_its_key(
    tmp_path: Path, key: str, broken: dict[str, Any], message: str
) -> None:
    data = {**replies_data(), key: broken}
    pack = load_pack(copy_pack(tmp_path, REPLIES_FORMAT, data))
    with pytest.raises(PackError, match=message):
        _ = pack.replies


def test_an_unknown_format_has_no_replies() -> None:
    with pytest.raises(RepliesError, match="dittobench-pack-1"):
        format_replies("dittobench-pack-0")
