"""Reading LongMemEval and LoCoMo files into external suites: good files, malformed ones (named
by file and JSON path), and files whose hash matches no known release (refused, or allowed on
purpose and said so)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from dittobench.core.hashing import sha256_hex
from dittobench.generate.external import ExternalFileError, UnknownReleaseError, load_external
from dittobench.generate.external.classify import facts_of, graded_by_of
from dittobench.generate.external.longmemeval import pair_turns
from dittobench.generate.external.releases import KNOWN_RELEASES, release_of
from dittobench.spec.external import ExternalSuite

DATA = Path(__file__).resolve().parents[1] / "data" / "external"
LONGMEMEVAL = DATA / "longmemeval-mini.json"
LOCOMO = DATA / "locomo-mini.json"


def _write(tmp_path: Path, data: Any, name: str = "file.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _mini(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


# --- good files --------------------------------------------------------------------------------


def test_longmemeval_instances_are_users_with_waves_in_date_order() -> None:
    suite = load_external(LONGMEMEVAL, "longmemeval", allow_unknown=True)
    assert len(suite.users) == len(suite.questions) == 8
    bikes = suite.user("user:mini-ms-1")
    # Sessions dated 06-02, 05-28 and an empty one: two waves, oldest first, empty one skipped.
    assert [w.wave for w in bikes.waves] == [0, 1]
    assert [w.pairs[0].timestamp for w in bikes.waves] == [
        "2023-05-28T08:15:00Z",
        "2023-06-02T12:00:00Z",
    ]
    assert suite.skipped_sessions == 1
    # Two user turns in a row: the first makes a pair with no response.
    first = bikes.waves[0].pairs
    assert [(p.prompt[:8], p.response[:3]) for p in first] == [
        ("I own tw", ""),
        ("Also, is", "Oil"),
    ]
    assert all(w.user_id == "user:mini-ms-1" for w in bikes.waves)


def test_longmemeval_questions_carry_date_type_and_grading_class() -> None:
    suite = load_external(LONGMEMEVAL, "longmemeval", allow_unknown=True)
    by_id = {q.id: q for q in suite.questions}
    assert by_id["mini-ms-1"].gold == "3"  # an integer answer, as text
    assert by_id["mini-ms-1"].graded_by == "value"
    assert by_id["mini-ssu-1"].question_date == "2023-05-30T23:40:00Z"
    assert by_id["mini-ssu-2_abs"].abstention and by_id["mini-ssu-2_abs"].graded_by == "decline"
    assert by_id["mini-ssp-1"].graded_by == "open"  # a preference rubric is never a value
    assert by_id["mini-tr-2"].graded_by == "open"  # "7 days. 8 days … also acceptable."
    assert by_id["mini-tr-1"].graded_by == "value"  # "21 days"
    assert by_id["mini-tr-1"].evidence == ("s-t-1", "s-t-2")


def test_locomo_samples_are_users_and_turns_pair_with_speaker_names() -> None:
    suite = load_external(LOCOMO, "locomo", allow_unknown=True)
    assert [u.id for u in suite.users] == ["user:mini-a", "user:mini-b"]
    mini_a = suite.user("user:mini-a")
    assert len(mini_a.waves) == 2  # session_3 has a date only, session_4 no turn
    assert suite.skipped_sessions == 1
    pair = mini_a.waves[0].pairs[0]
    assert pair.prompt.startswith("Caroline: Hey Mel!")
    assert pair.response.startswith("Melanie: That's great")
    assert pair.timestamp == "2023-05-08T13:56:00Z"
    shared = mini_a.waves[1].pairs[0]
    assert shared.prompt.endswith("[shared a photo of a blue ceramic bowl on a table]")
    assert mini_a.waves[1].pairs[-1].response == ""  # an odd last turn
    assert mini_a.waves[1].pairs[0].timestamp == "2023-06-27T10:37:00Z"


def test_locomo_questions_by_category() -> None:
    suite = load_external(LOCOMO, "locomo", allow_unknown=True)
    by_id = {q.id: q for q in suite.questions}
    assert by_id["mini-a:0"].source_type == "temporal" and by_id["mini-a:0"].graded_by == "value"
    assert by_id["mini-a:1"].gold == "2022"
    assert by_id["mini-a:4"].graded_by == "open"
    assert by_id["mini-a:4"].facts == ("Camping", "painting", "pottery")
    assert by_id["mini-a:5"].source_type == "open-domain"
    assert by_id["mini-a:5"].facts == ("Likely yes",)  # LoCoMo reads the part before ";"
    assert by_id["mini-a:6"].graded_by == "open"  # a relative date
    adversarial = by_id["mini-a:7"]
    assert adversarial.abstention and adversarial.graded_by == "decline"
    assert adversarial.not_answers == ("self-care is important",)
    # Asked after the last wave: on its date-time.
    assert adversarial.question_date == "2023-06-27T10:37:00Z"


def test_selection_by_type_and_limit() -> None:
    suite = load_external(LOCOMO, "locomo", allow_unknown=True, types=("adversarial",))
    assert [q.id for q in suite.questions] == ["mini-a:7", "mini-b:1"]
    limited = load_external(LOCOMO, "locomo", allow_unknown=True, limit=3)
    assert [q.id for q in limited.questions] == ["mini-a:0", "mini-a:1", "mini-a:2"]
    assert [u.id for u in limited.users] == ["user:mini-a"]  # a user with no question is not seeded
    assert limited.sha256 != suite.sha256
    lme = load_external(LONGMEMEVAL, "longmemeval", allow_unknown=True, types=("multi-session",))
    assert [q.id for q in lme.questions] == ["mini-ms-1"]
    with pytest.raises(ExternalFileError, match="no locomo question type 'multi-session'"):
        load_external(LOCOMO, "locomo", allow_unknown=True, types=("multi-session",))


def test_the_suite_is_deterministic_and_round_trips() -> None:
    one = load_external(LOCOMO, "locomo", allow_unknown=True)
    two = load_external(LOCOMO, "locomo", allow_unknown=True)
    assert one.sha256 == two.sha256
    assert ExternalSuite.from_json(json.loads(json.dumps(one.to_json()))) == one


# --- releases ----------------------------------------------------------------------------------


def test_an_unknown_file_is_refused_naming_file_and_hash() -> None:
    digest = sha256_hex(LOCOMO.read_bytes())
    with pytest.raises(UnknownReleaseError) as caught:
        load_external(LOCOMO, "locomo")
    assert str(LOCOMO) in str(caught.value) and digest in str(caught.value)
    assert "--allow-unknown-file" in str(caught.value)


def test_an_allowed_unknown_file_says_so() -> None:
    suite = load_external(LOCOMO, "locomo", allow_unknown=True)
    assert suite.source.release == "" and suite.source.allow_unknown
    assert suite.source.sha256 == sha256_hex(LOCOMO.read_bytes())


def test_known_releases_are_pinned_hashes() -> None:
    assert KNOWN_RELEASES, "at least locomo10.json is pinned"
    for release in KNOWN_RELEASES:
        assert len(release.sha256) == 64 and release.sha256 == release.sha256.lower()
        assert release_of(release.format, release.sha256) is release
    assert release_of("locomo", KNOWN_RELEASES[1].sha256) is None  # a format's own only


def test_a_file_with_a_known_hash_is_run_as_that_release(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from dittobench.generate import external
    from dittobench.generate.external.releases import Release

    digest = sha256_hex(LOCOMO.read_bytes())
    pinned = Release("locomo", "locomo-mini (test)", digest, LOCOMO.stat().st_size)
    monkeypatch.setattr(
        external, "release_of", lambda f, h: pinned if (f, h) == ("locomo", digest) else None
    )
    suite = load_external(LOCOMO, "locomo")
    assert suite.source.release == "locomo-mini (test)" and not suite.source.allow_unknown


# --- malformed files ---------------------------------------------------------------------------


def _broken(tmp_path: Path, source: Path, change: Any) -> Path:
    data = copy.deepcopy(_mini(source))
    change(data)
    return _write(tmp_path, data)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d[1].pop("question"), "$[1].question: missing"),
        (lambda d: d[2].update(question_type="trivia"), "$[2].question_type: 'trivia'"),
        (lambda d: d[0].update(question_date="May 30th"), "$[0].question_date: expected a date"),
        (lambda d: d[1]["haystack_dates"].pop(), "$[1].haystack_sessions: 3 sessions, 2"),
        (
            lambda d: d[0]["haystack_sessions"][1][0].update(role="system"),
            "$[0].haystack_sessions[1][0].role: expected user or assistant",
        ),
        (
            lambda d: d[3]["haystack_sessions"][0][1].update(content=7),
            "$[3].haystack_sessions[0][1].content: expected a string, got number",
        ),
        (lambda d: d[4].update(answer=None), "$[4].answer: expected a string or a number"),
        (lambda d: d[5].update(question_id="mini-ssu-1"), "$[5].question_id: 'mini-ssu-1' is also"),
    ],
)
def test_malformed_longmemeval_names_file_and_path(tmp_path: Path, change: Any, where: str) -> None:
    path = _broken(tmp_path, LONGMEMEVAL, change)
    with pytest.raises(ExternalFileError) as caught:
        load_external(path, "longmemeval", allow_unknown=True)
    assert str(caught.value).startswith(f"{path}: ")
    assert where in str(caught.value)


@pytest.mark.parametrize(
    ("change", "where"),
    [
        (lambda d: d[0]["qa"][2].update(category=9), "$[0].qa[2].category: expected a number"),
        (lambda d: d[0]["qa"][2].update(category="1"), "got string"),
        (lambda d: d[0]["qa"][0].pop("answer"), "$[0].qa[0].answer: missing"),
        (
            lambda d: d[0]["conversation"].pop("session_2_date_time"),
            "$[0].conversation.session_2_date_time: missing",
        ),
        (
            lambda d: d[1]["conversation"].update(session_1_date_time="yesterday"),
            "$[1].conversation.session_1_date_time: expected a date-time",
        ),
        (
            lambda d: d[0]["conversation"]["session_1"][2].pop("speaker"),
            "$[0].conversation.session_1[2].speaker: missing",
        ),
        (lambda d: d[1].update(conversation=[]), "$[1].conversation: expected an object"),
        (lambda d: d[1].update(sample_id="mini-a"), "$[1].sample_id: 'mini-a' is also $[0]"),
    ],
)
def test_malformed_locomo_names_file_and_path(tmp_path: Path, change: Any, where: str) -> None:
    path = _broken(tmp_path, LOCOMO, change)
    with pytest.raises(ExternalFileError) as caught:
        load_external(path, "locomo", allow_unknown=True)
    assert str(caught.value).startswith(f"{path}: ")
    assert where in str(caught.value)


def test_not_json_or_wrong_top_level(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("[{", encoding="utf-8")
    with pytest.raises(ExternalFileError, match="not valid JSON"):
        load_external(bad, "locomo", allow_unknown=True)
    with pytest.raises(ExternalFileError, match=r"\$: expected an array, got object"):
        load_external(_write(tmp_path, {"a": 1}), "longmemeval", allow_unknown=True)
    with pytest.raises(ExternalFileError, match="cannot read"):
        load_external(tmp_path / "absent.json", "locomo", allow_unknown=True)


# --- what rules grade --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("gold", "graded_by"),
    [
        ("Business Administration", "value"),
        ("7 May 2023", "value"),
        ("2022", "value"),
        ("$400,000", "value"),
        ("4 years", "value"),
        ("Psychology, counseling certification", "open"),
        ("The week before 9 June 2023", "open"),
        ("10 years ago", "open"),
        ("Yes", "open"),
        ("7 days. 8 days (including the last day) is also acceptable.", "open"),
    ],
)
def test_only_one_short_value_is_graded_by_rules(gold: str, graded_by: str) -> None:
    assert graded_by_of(gold) == graded_by


def test_facts_of_a_list_and_of_a_sentence() -> None:
    assert facts_of("Pottery, camping, painting, swimming") == (
        "Pottery",
        "camping",
        "painting",
        "swimming",
    )
    assert facts_of("A, B and C") == ("A", "B", "C")
    sentence = "The user would prefer tutorials for Premiere Pro. Nothing generic."
    assert facts_of(sentence) == (sentence,)


def test_pairing_turns() -> None:
    turns = [("assistant", "hi"), ("user", "a"), ("user", "b"), ("assistant", "c"), ("user", "d")]
    assert pair_turns(turns) == [("", "hi"), ("a", ""), ("b", "c"), ("d", "")]
