"""``build_dataset(seed, version, size)``: the whole artifact, a pure function of its arguments."""

from __future__ import annotations

from dittobench.core.prng import Stream, check_seed
from dittobench.generate.memory.build import build_memory
from dittobench.generate.texts import texts_of
from dittobench.generate.tools.build import build_tool_cases
from dittobench.packs import Pack, own_pack
from dittobench.spec.dataset import Dataset, PackRef
from dittobench.spec.versions import BENCHMARK_NAME, CURRENT_VERSION, get_policy


def build_dataset(
    seed: int,
    bench_version: str = CURRENT_VERSION,
    run_size: str = "small",
    pack: Pack | None = None,
) -> Dataset:
    """Generate one dataset from ``pack`` (default: the version's public pack). Raises
    ``SeedError``, ``UnknownVersionError``, ``UnknownRunSizeError`` or ``PackError`` on bad
    arguments. Never reads the clock or the environment."""
    check_seed(seed)
    policy = get_policy(bench_version)
    size = policy.run_size(run_size)
    default = own_pack(policy.version)
    chosen = pack or default
    texts = texts_of(chosen)
    root = Stream.root(seed, policy.content_version)
    tool_cases, fixtures = build_tool_cases(root, size.tool_cases, texts, policy.content)
    memory = build_memory(root, policy.epoch, size, texts, policy.content)
    return Dataset(
        benchmark=BENCHMARK_NAME,
        bench_version=policy.version,
        seed=seed,
        run_size=size.name,
        generated_at=policy.epoch,
        tool_cases=tool_cases,
        memory_waves=memory.waves,
        memory_cases=memory.cases,
        tool_fixtures=fixtures,
        telemetry=tuple(sorted(memory.telemetry.items())),
        pack=_named(chosen, default, policy.content.names_own_pack),
        open_cases=memory.open_cases,
    )


def _named(chosen: Pack, default: Pack, names_own_pack: bool) -> PackRef | None:
    """The dataset's ``pack`` key: any pack but the version's own is named; the own pack only
    when the version says so (older versions keep their bytes, the version implies the pack)."""
    if chosen.sha256 == default.sha256 and not names_own_pack:
        return None
    return chosen.ref()
