"""``dittobench study``: the validity instrument (docs/study.md).

Built-in strategies over N datasets, scored by the real grader: per strategy the composite's
spread over seeds, the tool and memory means and the noise floor; how far apart neighbouring
strategies stand; per category its difficulty, discrimination and flags. Tables go to stdout,
progress to stderr, the full figures to ``--json FILE``.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from dittobench.cli.common import (
    RunSizeName,
    app,
    fail,
    open_pack_option,
    open_pack_or_id,
    warn_if_draft,
)
from dittobench.spec.versions import CURRENT_VERSION

if TYPE_CHECKING:
    from dittobench.study.run import StudyResult

STUDY_HELP = """Score built-in strategies over N datasets with the real grader: the validity
instrument that keeps the exam honest.

Strategies: oracle (the answer key), paraphrase (the key in other words: the honest ceiling),
parser (the public pack's grammar read back), grammar (the real parse attack: the datasets'
own pack compiled into an inverse, the ceiling of any run on a public pack), regex (issue
13's parser: one pattern per statement wording, the last mention wins), lexical (the stored
turn sharing most words with the question), canned (the best constant per answer kind),
dump (everything stored), decline, router (the catalog tool whose description shares most
words with the request). With --pack DIR the datasets come from DIR and grammar-across is
added: the grammar attack built on --attack-pack (default: the version's public pack), how
much of an attack on one pack carries over to another.

Per strategy: composite mean, SD and min/p10/median/p90/max over seeds, tool and memory means,
and the noise floor: the mean absolute difference of its composite between consecutive seeds.
Per category (tool category or memory question type): each strategy's mean; difficulty = the
paraphrase oracle's mean minus the mean of the strategies that do not know the key;
discrimination = the best minus the worst of those; flags saturated (a strategy that neither
knows the key nor reads the history scores >= 0.98), floor (oracle or paraphrase <= 0.02),
parser-solvable (parser or regex >= 0.9). Seeds are first-seed .. first-seed + N - 1."""

SHORT = {
    "paraphrase": "paraph",
    "lexical": "lexic",
    "decline": "declin",
    "grammar-across": "across",
    **{f"window-{n}": f"w{n}" for n in ("8k", "32k", "128k")},
    **{f"window-parser-{n}": f"wp{n}" for n in ("8k", "32k", "128k")},
}

LONG_NOTE = (
    "note: every strategy on long datasets takes minutes a seed (on 2 cores the grammar attack "
    "reads a history for about 2.5 min, and grading the dump strategy's answers about 6 min); "
    "name fewer with --strategies, e.g. oracle,parser,window-8k,window-32k,window-128k"
)
"""Said before a long study of every strategy starts (``docs/study.md``, "Context windows")."""

SeedsOpt = Annotated[
    int, typer.Option("--seeds", help="How many datasets (consecutive seeds); at least 2.")
]
FirstSeedOpt = Annotated[int, typer.Option("--first-seed", help="The first seed.")]
RunSizeOpt = Annotated[
    RunSizeName, typer.Option("--run-size", help="How many cases: small, medium, full or long.")
]
BenchVersionOpt = Annotated[
    str, typer.Option("--bench-version", help="Bench version whose datasets are studied.")
]
JsonOpt = Annotated[
    Path | None,
    typer.Option("--json", help="Also write every figure here as JSON.", dir_okay=False),
]
PackOpt = Annotated[
    Path | None,
    typer.Option(
        "--pack",
        help="Make the datasets from this pack folder (default: the version's public "
        "pack); adds grammar-across, the grammar attack built on --attack-pack.",
        show_default=False,
    ),
]
AttackPackOpt = Annotated[
    str | None,
    typer.Option(
        "--attack-pack",
        help="The pack grammar-across is built on: a folder or a shipped pack id "
        "(default with --pack: the version's public pack). Not reported when it is the "
        "datasets' own pack.",
        show_default=False,
    ),
]
StrategiesOpt = Annotated[
    str | None,
    typer.Option(
        "--strategies",
        help="Run only these strategies, comma-separated (default: every strategy above); "
        "the context-window ones run only when named: window-8k, window-32k, window-128k, "
        "window-parser-8k, window-parser-32k, window-parser-128k.",
        show_default=False,
    ),
]


@app.command(help=STUDY_HELP)
def study(
    seeds: SeedsOpt = 20,
    first_seed: FirstSeedOpt = 1,
    run_size: RunSizeOpt = RunSizeName.medium,
    bench_version: BenchVersionOpt = CURRENT_VERSION,
    json_out: JsonOpt = None,
    pack_dir: PackOpt = None,
    attack: AttackPackOpt = None,
    names: StrategiesOpt = None,
) -> None:
    from dittobench.packs import PackError, own_pack
    from dittobench.spec.versions import UnknownVersionError, get_policy
    from dittobench.study.run import StudyError, run_study, select_strategies, study_seeds
    from dittobench.study.strategies import STRATEGIES

    try:
        chosen = study_seeds(seeds, first_seed)
        strategies = STRATEGIES if names is None else select_strategies(_names(names))
        get_policy(bench_version)
    except (StudyError, UnknownVersionError) as exc:
        raise fail(str(exc)) from None
    pack = open_pack_option(pack_dir)
    attack_pack = None
    if attack is not None:
        attack_pack = open_pack_or_id(attack)
    elif pack is not None:
        attack_pack = own_pack(bench_version)
    warn_if_draft(bench_version)
    if run_size is RunSizeName.long and names is None:
        typer.echo(LONG_NOTE, err=True)
    try:
        result = run_study(
            chosen,
            run_size.value,
            bench_version,
            strategies=strategies,
            progress=_Progress(),
            pack=pack,
            attack_pack=attack_pack,
        )
    except PackError as exc:
        raise fail(str(exc)) from None
    for line in study_lines(result):
        typer.echo(line)
    if json_out is not None:
        text = json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n"
        try:
            json_out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise fail(f"cannot write {json_out}: {exc.strerror}") from None


def _names(text: str) -> list[str]:
    return [name.strip() for name in text.split(",") if name.strip()]


class _Progress:
    """``[study] seed 3/20`` on stderr, at most once a second and at the end."""

    def __init__(self) -> None:
        self._last = 0.0

    def __call__(self, done: int, total: int) -> None:
        moment = time.monotonic()
        if done < total and moment - self._last < 1.0:
            return
        self._last = moment
        typer.echo(f"[study] seed {done}/{total}", err=True)
        sys.stderr.flush()


def study_lines(result: StudyResult) -> list[str]:
    """The study as plain lines: strategies, separations, categories."""
    first, last = result.seeds[0], result.seeds[-1]
    wide = max(15, *(len(s.name) + 1 for s in result.strategies))
    lines = [
        f"dittobench {result.bench_version} · {result.run_size} · "
        f"{len(result.seeds)} seeds ({first}..{last})",
        f"datasets from pack {result.pack}",
        *([f"grammar-across built on pack {result.attack_pack}"] if result.attack_pack else []),
        "",
        f"{'strategy':<{wide}}{'composite':>10}{'sd':>8}{'min':>8}{'p10':>8}{'median':>8}"
        f"{'p90':>8}{'max':>8}{'tool':>8}{'memory':>8}{'noise':>8}",
    ]
    for s in result.strategies:
        c = s.composite
        lines.append(
            f"{s.name:<{wide}}{c.mean:>10.3f}{c.sd:>8.3f}{c.minimum:>8.3f}{c.p10:>8.3f}"
            f"{c.median:>8.3f}{c.p90:>8.3f}{c.maximum:>8.3f}{s.tool_mean:>8.3f}"
            f"{s.memory_mean:>8.3f}{s.noise_floor:>8.3f}"
        )
    lines += [
        "",
        f"noise floor {result.noise_floor:.3f} (largest mean |composite(seed k+1) - "
        "composite(seed k)| of the strategies that do not know the key)",
        "separation (paired by seed: mean gap ± SD, share of seeds the higher one wins):",
    ]
    for sep in result.separations:
        lines.append(
            f"  {sep.higher:>10} > {sep.lower:<10} {sep.gap:+.3f} ± {sep.sd:.3f}"
            f"  wins {sep.wins:.2f}"
        )
    lines += ["", *_category_lines(result)]
    return lines


def _category_lines(result: StudyResult) -> list[str]:
    names = [s.name for s in result.strategies]
    width = max(len(c.category) for c in result.categories)
    heads = "".join(f"{SHORT.get(n, n)[:6]:>7}" for n in names)
    lines = [
        f"{'category':<{width}}  {'kind':<6} {'n':>5}{heads}{'diff':>7}{'discr':>7}  flags",
    ]
    for c in result.categories:
        means = "".join(f"{c.means[n]:>7.3f}" for n in names)
        lines.append(
            f"{c.category:<{width}}  {c.kind:<6} {c.cases:>5}{means}{c.difficulty:>7.3f}"
            f"{c.discrimination:>7.3f}  {', '.join(c.flags)}"
        )
    return lines
