"""The served pages beyond one run: compare two runs, and a dataset as a harness sees it beside
its answer keys (the leaderboard is ``views.board``)."""

from __future__ import annotations

from collections.abc import Sequence

from dittobench.spec.dataset import Dataset
from dittobench.store.listing import Listed
from dittobench.views.comparing import RunComparison
from dittobench.views.frame import Chrome, page
from dittobench.views.html import esc, plus_minus, table
from dittobench.views.nuance import NOT_IN_COMPOSITE, nuance_cell
from dittobench.views.pages import run_link


def _run_options(runs: Sequence[Listed], chosen: str) -> str:
    return "".join(
        f'<option value="{esc(r.run_id)}"{" selected" if r.run_id == chosen else ""}>'
        f"{esc(r.run_id)} · {esc(r.harness)} · {esc(r.run_size)} · seed {r.seed} · "
        f"{plus_minus(r.composite, r.composite_stderr)}</option>"
        for r in runs
    )


def compare_page(
    runs: Sequence[Listed], a: str, b: str, made: RunComparison | None, chrome: Chrome
) -> str:
    """The form (two finished runs) and, when both are chosen, the comparison."""
    form = (
        '<form class=filters method=get action="/compare" aria-label="Choose two runs">'
        f'<label for=run-a>Run A<select id=run-a name=a required><option value="">choose…'
        f"</option>{_run_options(runs, a)}</select></label>"
        f'<label for=run-b>Run B<select id=run-b name=b required><option value="">choose…'
        f"</option>{_run_options(runs, b)}</select></label>"
        "<button type=submit>Compare</button></form>"
    )
    parts = ["<h1>Compare two runs</h1>", form]
    if made is not None:
        r = made.result
        d = r.composite
        verdict = (
            "B is higher" if d.low > 0 else "B is lower" if d.high < 0 else "no clear difference"
        )
        # The nuance score stands beside each composite, never in it or in the delta below.
        judged = made.a.nuance is not None or made.b.nuance is not None
        sides = [
            [
                name,
                f'<a href="{run_link(run_id)}">{esc(run_id)}</a>',
                plus_minus(report.composite, report.composite_stderr, 4),
                *(
                    [nuance_cell(report.nuance, report.bench_version) or "not judged"]
                    if judged
                    else []
                ),
            ]
            for name, run_id, report in (("A", made.a_id, made.a), ("B", made.b_id, made.b))
        ]
        headers = ["", "Run", "Composite ± SE", *(["Nuance ± SE (judged)"] if judged else [])]
        parts += [
            f'<p id=pairing class="{"ok" if r.paired else "warn"}">{esc(made.why)}</p>',
            table(headers, sides, table_id="sides"),
            f"<p class=muted>The nuance score: {NOT_IN_COMPOSITE}.</p>" if judged else "",
            f"<p id=delta>Composite delta (B − A): <strong>{d.value:+.4f}</strong> ± "
            f"{d.std_err:.4f}, 95% CI [{d.low:+.4f}, {d.high:+.4f}]: {verdict}.</p>",
        ]
        if r.paired:
            parts.append(
                f"<p id=wlt>Per case, B against A: <strong>{r.wins}</strong> wins, "
                f"<strong>{r.losses}</strong> losses, <strong>{r.ties}</strong> ties.</p>"
            )
        rows = [
            [
                esc(c.category),
                esc(c.kind),
                str(c.count),
                f"{c.mean_a:.3f}",
                f"{c.mean_b:.3f}",
                f"{c.delta.value:+.3f}",
                f"[{c.delta.low:+.3f}, {c.delta.high:+.3f}]",
            ]
            for c in r.categories
        ]
        parts += [
            "<h2>Per category (B − A), worst first</h2>",
            table(
                ["Category", "Kind", "Cases", "A", "B", "Delta", "95% CI"],
                rows,
                numeric=frozenset({2, 3, 4, 5, 6}),
                table_id="category-deltas",
            ),
        ]
    return page("Compare", "".join(parts), chrome)


def dataset_page(
    dataset: Dataset | None,
    seed: str,
    size: str,
    version: str,
    versions: Sequence[str],
    chrome: Chrome,
    problem: str = "",
) -> str:
    """A form (seed, size, version) and the dataset: each case as the harness sees it beside
    its answer key, and the history waves."""
    sizes = "".join(
        f"<option{' selected' if s == size else ''}>{s}</option>"
        for s in ("small", "medium", "full")
    )
    vers = "".join(
        f"<option{' selected' if v == version else ''}>{esc(v)}</option>" for v in versions
    )
    form = (
        '<form class=filters method=get action="/datasets" aria-label="Choose a dataset">'
        f"<label for=d-seed>Seed<input id=d-seed name=seed inputmode=numeric required "
        f'value="{esc(seed)}"></label>'
        f"<label for=d-size>Run size<select id=d-size name=run_size>{sizes}</select></label>"
        f"<label for=d-version>Bench version<select id=d-version name=bench_version>{vers}"
        "</select></label><button type=submit>Show</button></form>"
    )
    parts = ["<h1>Datasets</h1>", form]
    if problem:
        parts.append(f"<p class=bad role=alert>{esc(problem)}</p>")
    if dataset is not None:
        parts.append(_dataset_body(dataset))
    return page("Datasets", "".join(parts), chrome)


def _dataset_body(dataset: Dataset) -> str:
    tools = [
        [
            f"<code>{esc(t.id)}</code>",
            esc(t.prompt),
            esc(t.category),
            esc(", ".join(e.name for e in t.expected_tools) or "no call"),
            esc(t.expected_behavior),
        ]
        for t in dataset.tool_cases
    ]
    memory = [
        [
            f"<code>{esc(m.id)}</code>",
            esc(m.user_id),
            str(m.run_after_wave),
            esc(m.question),
            esc(m.question_type),
            esc(m.expected_answer or ", ".join(m.answer_items) or "–"),
            esc(", ".join(m.distractors) or "–"),
        ]
        for m in dataset.memory_cases
    ]
    waves = []
    for wave in dataset.memory_waves:
        pairs = [
            [esc(p.pair_id), esc(p.timestamp), esc(p.prompt), esc(p.response)] for p in wave.pairs
        ]
        waves.append(
            f"<details><summary>Wave {wave.wave}, user {esc(wave.user_id)}: {len(pairs)} pairs"
            "</summary>"
            + table(["Pair", "When", "User said", "Assistant said"], pairs)
            + "</details>"
        )
    return (
        f"<p>Seed {dataset.seed} · {esc(dataset.run_size)} · bench {esc(dataset.bench_version)}"
        f" · pack {esc(dataset.pack.id if dataset.pack else '–')}. What the harness is shown "
        "(left) beside the answer key it is never shown (right).</p>"
        f"<h2>Tool cases ({len(tools)})</h2>"
        + table(
            ["Case", "Prompt (shown)", "Category", "Expected tools", "Expected behaviour"], tools
        )
        + f"<h2>Memory cases ({len(memory)})</h2>"
        + table(
            ["Case", "User", "After wave", "Question (shown)", "Type", "Expected", "Distractors"],
            memory,
        )
        + f"<h2>History ({len(dataset.memory_waves)} waves, sent with POST /seed)</h2>"
        + "".join(waves)
    )


__all__ = ["compare_page", "dataset_page"]
