"""The nuance score where scores are shown: the command-line summary, the run page, the standalone
HTML report, the runs list, the leaderboard and the comparison. It stands beside the composite,
never in it (the composite's text is the same whatever the judge said), a run judged by another
model is marked unofficial, and a run nobody judged says "not judged"."""

from __future__ import annotations

import re
from dataclasses import replace

from dittobench.cli.summary import report_lines
from dittobench.spec.judging import JUDGE_1, NuanceScore
from dittobench.spec.open import MUST_NOT_REASONS
from dittobench.spec.report import ScoreReport
from dittobench.store import RunRow
from dittobench.store.listing import Listed
from dittobench.views.board import Board, board_row, leaderboard_page
from dittobench.views.comparing import compare_reports, comparison_json
from dittobench.views.frame import Chrome
from dittobench.views.nuance import NOTE_WORDS, nuance_text, open_texts, read_nuance
from dittobench.views.pages import CaseFilter, ListedRow, run_page, runs_page
from dittobench.views.pages_more import compare_page
from dittobench.views.ranking import RunFilter, leaderboard
from dittobench.views.report import standalone_report, summary_cards
from tests.helpers.judged_reports import VERSION, dataset, nuance, reports, transcript


def test_the_reports_differ_only_in_their_nuance_score() -> None:
    made = reports()
    assert nuance("none").score is None and nuance("none").judge_id == ""
    assert nuance("official").official and nuance("official").score is not None
    assert 0 < nuance("official").score < 1  # type: ignore[operator]
    assert not nuance("other").official
    assert nuance("errors").judge_errors == 1
    statuses = {v.status for v in nuance("official").per_case}
    assert statuses == {"judged", "no_answer"}
    for report in made.values():
        assert report.composite == made["none"].composite
        assert report.per_case == made["none"].per_case


# -- the command line --------------------------------------------------------------------------


def lines(name: str) -> list[str]:
    return report_lines(reports()[name])


def test_the_summary_shows_the_nuance_score_on_its_own_line() -> None:
    n = nuance("official")
    found = [line for line in lines("official") if line.startswith("nuance ")]
    assert found == [
        f"nuance       {n.score:.4f} ± {n.stderr:.4f} (7 of 8 open questions judged, "
        f"1 unanswered (scored 0); judge {JUDGE_1.id} · {JUDGE_1.model}, official)"
    ]
    assert any("beside the composite, never in it" in line for line in lines("official"))


def test_the_summary_composite_is_the_same_whatever_the_judge_said() -> None:
    def composite_lines(name: str) -> list[str]:
        # Everything but the nuance lines and the transcript's hash (it holds the judging).
        skipped = ("nuance", "   ", "judge", "dataset ")
        return [line for line in lines(name) if not line.startswith(skipped)]

    for name in ("official", "other", "errors"):
        assert composite_lines(name) == composite_lines("none")
    composite = next(line for line in lines("official") if line.startswith("composite"))
    assert f"{reports()['none'].composite:.4f}" in composite
    assert f"{nuance('official').score:.4f}" not in composite


def test_the_summary_says_not_judged_without_a_judge() -> None:
    found = [line for line in lines("none") if line.startswith("nuance ")]
    assert found == ["nuance       not judged (8 open questions; run with --judge-url)"]


def test_the_summary_marks_another_judge_unofficial_and_lists_judge_errors() -> None:
    other = next(line for line in lines("other") if line.startswith("nuance "))
    assert f"UNOFFICIAL: judged by other-model-7b, not the locked {JUDGE_1.model}" in other
    assert ", official" not in other
    errors = lines("errors")
    failed = nuance("errors").per_case[2]
    assert failed.status == "judge_error"
    assert "1 judge error (counted neither way)" in next(
        line for line in errors if line.startswith("nuance ")
    )
    assert f"judge errors 1: {failed.case_id} (no reply parsed after the retries)" in errors


def test_a_report_without_open_questions_has_no_nuance_line() -> None:
    older = replace(reports()["none"], nuance=None)
    assert not [line for line in report_lines(older) if "nuance" in line]


# -- the run page and the standalone report -----------------------------------------------------


def run_row(report: ScoreReport) -> RunRow:
    return RunRow(
        "r-20261201-000000-aaaaaa", report.seed, VERSION, "medium", report.dataset_sha256,
        "http://h.example", "done", "done", "", "2026-12-01T00:00:00Z", "2026-12-01T00:01:00Z",
        report.n, report.n, report.composite, report.composite_stderr,
        report.transcript_sha256, 0, seed_source="operator",
    )  # fmt: skip


def listed(report: ScoreReport, **changes: object) -> Listed:
    made = Listed(
        "r-20261201-000000-aaaaaa", "done", report.seed, VERSION, "medium", "http://h.example",
        "public-8.0", report.dataset_sha256, "2026-12-01T00:00:00Z", "2026-12-01T00:01:00Z",
        report.n, report.n, report.composite, report.composite_stderr, job=True,
        seed_source="operator",
    )  # fmt: skip
    return replace(made, **changes)  # type: ignore[arg-type]


def records() -> dict[str, dict[str, object]]:
    return {r.case_id: r.to_json() for r in transcript().cases}


def served(name: str, with_texts: bool = True) -> str:
    report = reports()[name]
    opens = open_texts(dataset(), records()) if with_texts else {}
    return run_page(
        run_row(report), listed(report), report, {}, CaseFilter(), Chrome(),
        tier="receipt-verified", receipt_note="", stage="done", opens=opens,
    )  # fmt: skip


def standalone(name: str) -> str:
    report = reports()[name]
    opens = open_texts(dataset(), records())
    return standalone_report(run_row(report), report, {}, "self-reported", opens)


def composite_card(page: str) -> str:
    found = re.search(r"<div class=cards>(.*?)</div><p class=muted>composite = .*?</p>", page)
    assert found
    return re.sub(r"<div class=card id=nuance>.*", "", found.group(0))


def nuance_card(page: str) -> str:
    found = re.search(r"<div class=card id=nuance>.*?</div></div>", page)
    assert found, "no nuance card"
    return found.group(0)


def open_rows(page: str) -> list[str]:
    table = re.search(r'<table id="open-table">.*?</table>', page, re.S)
    assert table
    return re.findall(r"<tr><td>.*?</tr>", table.group(0))


def test_the_run_page_shows_the_nuance_card_beside_the_composite() -> None:
    for render in (served, standalone):
        page = render("official")
        n = nuance("official")
        card = nuance_card(page)
        assert f"{n.score:.4f} ± {n.stderr:.4f}" in card
        assert "7 of 8 open questions judged, 1 unanswered (scored 0)" in card
        assert f"judge {JUDGE_1.id} · {JUDGE_1.model}" in card and "official" in card
        assert "unofficial" not in card
        assert "Nuance (judged; not in the composite)" in card


def test_the_composite_on_the_pages_is_unchanged_by_the_judge() -> None:
    for render in (served, standalone):
        plain = composite_card(render("none"))
        for name in ("official", "other", "errors"):
            assert composite_card(render(name)) == plain
        assert f"{nuance('official').score:.4f}" not in plain
    assert summary_cards(replace(reports()["official"], nuance=None)) in served("none").replace(
        nuance_card(served("none")), ""
    )


def test_the_pages_mark_another_judge_unofficial() -> None:
    for render in (served, standalone):
        card = nuance_card(render("other"))
        assert "<span class=warn>unofficial</span>" in card
        assert f"judged by other-model-7b, not the locked {JUDGE_1.model}" in card


def test_the_pages_say_not_judged_without_a_judge() -> None:
    for render in (served, standalone):
        page = render("none")
        card = nuance_card(page)
        assert "<div class=big>not judged</div>" in card
        assert "0 of 8 open questions judged" in card and "the run had no judge" in card
        rows = open_rows(page)
        assert sum("not judged" in row for row in rows) == 7
        assert sum("no answer" in row for row in rows) == 1


def test_the_open_table_shows_each_case_with_its_verdicts_in_words() -> None:
    data, n = dataset(), nuance("official")
    for render in (served, standalone):
        page = render("official")
        rows = open_rows(page)
        assert len(rows) == len(data.open_cases) == len(n.per_case)
        for row, verdict, case in zip(rows, n.per_case, data.open_cases, strict=True):
            assert verdict.case_id == case.id and case.id in row
            assert f"<td>{case.question}</td>".replace("'", "&#x27;") in row
            assert case.open_kind in row
            if verdict.status == "judged":
                assert f"{verdict.score:.3f}" in row
                item = case.must_state[0]
                assert f"<code>{item.id}</code> <span class=ok>YES: stated</span>" in row
                assert f"{item.about}: {item.value}".replace("'", "&#x27;") in row
            else:
                assert "no answer" in row and "(scores 0)" in row
        first = rows[0]  # it asserted a value it must not
        assert "<code>N1</code> <span class=bad>YES: asserted</span>" in first
        assert "<script>" not in page and "&lt;script&gt;alert(&quot;x&quot;)" in first
        assert "(a look-alike nobody holds)" in page and "look_alike" not in page


def test_every_rubric_note_has_words() -> None:
    assert set(MUST_NOT_REASONS) | {"current"} <= set(NOTE_WORDS)


def test_the_open_table_without_the_dataset_shows_scores_without_words() -> None:
    page = served("official", with_texts=False)
    rows = open_rows(page)
    assert len(rows) == 8
    case = dataset().open_cases[0]
    assert case.question.replace("'", "&#x27;") not in page
    assert "<code>S1</code> <span class=ok>YES: stated</span></li>" in rows[0]


def test_judge_errors_are_shown_per_case_and_counted() -> None:
    page = served("errors")
    assert "1 judge error (counted neither way)" in nuance_card(page)
    row = open_rows(page)[2]
    assert "judge error</span> (counted neither way)" in row and "<td class=num>–</td>" in row


def test_a_run_without_open_questions_shows_no_nuance() -> None:
    report = replace(reports()["official"], nuance=None)
    page = standalone_report(run_row(report), report, {}, "self-reported", {})
    body = page.split("</style>", 1)[1]
    assert "nuance" not in body.lower() and "open-table" not in body


# -- the runs list, the leaderboard, the comparison ---------------------------------------------


NO_CHOICES: dict[str, list[str]] = {"status": [], "bench_version": [], "run_size": []}


def test_the_runs_list_has_a_nuance_column_beside_the_composite() -> None:
    base = reports()["none"]
    rows = [
        ListedRow(listed(base, run_id=f"r-20261201-00000{i}-aaaaaa"), "x", 0.5, 0.5, nuance(name))
        for i, name in enumerate(("official", "other", "none"))
    ]
    page = runs_page(rows, RunFilter(), NO_CHOICES, Chrome(), 3)
    assert '<th scope="col" class=num>Nuance ± SE (judged)</th>' in page
    cells = re.findall(r"<tr><td>.*?</tr>", page)
    n, other = nuance("official"), nuance("other")
    composite = f"{base.composite:.4f} ± {base.composite_stderr:.4f}"
    assert (
        f"<td class=num>{composite}</td><td class=num>{n.score:.4f} ± {n.stderr:.4f}</td>"
        in (cells[0])
    )
    assert f"{other.score:.4f} ± {other.stderr:.4f} <span class=warn" in cells[1]
    assert ">unofficial</span>" in cells[1] and "unofficial" not in cells[0]
    assert f"<td class=num>{composite}</td><td class=num></td>" in cells[2]  # blank: unjudged
    older = runs_page([replace(rows[0], nuance=None)], RunFilter(), NO_CHOICES, Chrome(), 1)
    assert "Nuance" not in older


def board_items() -> list[Listed]:
    """Three harnesses: "high" has the best composite and an unjudged run, "judged" a lower
    composite and the best nuance score, "other" was judged by another model."""
    base = reports()["none"]

    def item(n: int, harness: str, composite: float) -> Listed:
        return listed(
            base, run_id=f"r-20261201-00000{n}-aaaaaa", harness=f"http://{harness}.example",
            composite=composite, composite_stderr=0.001, created_at=f"2026-12-01T00:00:0{n}Z",
        )  # fmt: skip

    return [
        item(1, "high", 0.9), item(2, "high", 0.9), item(3, "judged", 0.5),
        item(4, "other", 0.3),
    ]  # fmt: skip


def board_page(nuances: dict[str, NuanceScore], judged: bool = True) -> str:
    items = board_items()
    rows = tuple(
        board_row(r, lambda _i: "operator-run", lambda _i: None, nuances)
        for r in leaderboard(items, VERSION, "medium")
    )
    return leaderboard_page(VERSION, [VERSION], [Board("medium", rows, 0, judged)], Chrome())


def test_the_board_ranks_by_the_composite_and_shows_the_nuance_beside_it() -> None:
    items = board_items()
    best = replace(nuance("official"), score=1.0, stderr=0.0)
    nuances = {
        items[1].run_id: nuance("official"),
        items[2].run_id: best,
        items[3].run_id: nuance("other"),
    }
    page = board_page(nuances)
    plain = board_page({}, judged=False)
    rows = re.findall(r"<tr(?: class=tied)?><td class=num>.*?</tr>", page)
    assert [re.search(r"http://(\w+)", row).group(1) for row in rows] == [  # type: ignore[union-attr]
        "high",
        "judged",
        "other",
    ]
    ranks = [re.match(r"<tr(?: class=tied)?><td class=num>(\d+)", row).group(1) for row in rows]  # type: ignore[union-attr]
    assert ranks == ["1", "2", "3"]
    n = nuance("official")
    assert (
        f"{n.score:.4f} ± {n.stderr:.4f} <span class=muted>(1 of 2 runs judged)</span>" in (rows[0])
    )
    assert "<td class=num>1.0000 ± 0.0000</td>" in rows[1]
    assert ">unofficial</span>" in rows[2] and "unofficial" not in rows[0] + rows[1]
    assert "Nuance ± SE (judged, not ranked)" in page and "never changes a rank" in page
    # The composite cells are the board's without any nuance.
    figure = r"<td class=num>([\d.]+ ± [\d.]+)</td>"
    before = re.findall(r"<tr(?: class=tied)?><td class=num>.*?</tr>", plain)
    assert [re.findall(figure, row)[0] for row in rows] == [
        re.findall(figure, row)[0] for row in before
    ]


def test_the_board_leaves_the_cell_blank_when_unjudged() -> None:
    page = board_page({})
    rows = re.findall(r"<tr(?: class=tied)?><td class=num>.*?</tr>", page)
    assert rows and all(re.search(r"</td><td class=num></td><td>", row) for row in rows)
    assert "Nuance ± SE" not in board_page({}, judged=False)


def test_a_comparison_shows_both_scores_side_by_side() -> None:
    a, b = reports()["none"], reports()["official"]
    made = compare_reports("r-20261201-000001-aaaaaa", a, "r-20261201-000002-aaaaaa", b)
    assert made.result.composite.value == 0.0  # the judge moves nothing of the composite
    data = comparison_json(made)
    assert data["a"]["nuance"]["score"] is None and data["a"]["nuance"]["judge_id"] == ""
    assert data["b"]["nuance"]["score"] == nuance("official").score
    assert "per_case" not in data["b"]["nuance"]
    assert data["composite_delta"]["value"] == 0.0
    page = compare_page([], made.a_id, made.b_id, made, Chrome())
    sides = re.search(r'<table id="sides">.*?</table>', page)
    assert sides and "Nuance ± SE (judged)" in sides.group(0)
    n = nuance("official")
    assert "<td>not judged</td>" in sides.group(0)
    assert f"{n.score:.4f} ± {n.stderr:.4f}" in sides.group(0)
    older = replace(a, nuance=None)
    plain = compare_reports(made.a_id, older, made.b_id, older)
    assert "nuance" not in comparison_json(plain)["a"]
    assert "Nuance" not in compare_page([], made.a_id, made.b_id, plain, Chrome())


def test_a_stored_nuance_reads_back_and_texts_agree() -> None:
    n = nuance("other")
    assert (read := read_nuance(n.to_json())) is not None and read.to_json() == n.to_json()
    assert read_nuance({"score": "x"}) is None and read_nuance(None) is None
    assert nuance_text(n, VERSION).startswith(f"{n.score:.4f} ± {n.stderr:.4f} (")
