"""Cut a haystack into seeding waves and decide what gets a prepared topic index.

Material is grouped by attribute (a *cluster*), so everything said about one attribute, its
whole change history included, arrives in the same wave. Clusters go to waves in order of first
appearance, balanced by pair count; small talk follows its session. A seeded set of clusters is
delivered as raw pairs (no subject, no links) so the harness must index them itself; the rest get
one subject each, titled in plain words.
"""

from __future__ import annotations

from dataclasses import dataclass

from dittobench.core.ids import opaque_id
from dittobench.core.prng import Stream
from dittobench.generate.memory.haystack import Haystack
from dittobench.generate.texts import Texts
from dittobench.spec.wire import Link, SeedRequest, Subject

PINNED_TO_FIRST_WAVE = frozenset({"saved_code"})
"""Clusters that must be seeded before any instruction is asked (codes to update or delete)."""


@dataclass(frozen=True, slots=True)
class WavePlan:
    wave_of_cluster: dict[str, int]
    raw_clusters: frozenset[str]
    raw_share_permille: int
    """Realised share of fact-bearing pairs delivered raw (linked to no subject), in
    thousandths."""

    def wave_of_pair(self, clusters: tuple[str, ...]) -> int:
        """The wave a fact-bearing pair is seeded in: the earliest of its clusters' waves, so
        every cluster's material is seeded by its own wave."""
        return min(self.wave_of_cluster[c] for c in clusters)


def plan_waves(stream: Stream, haystack: Haystack, waves: int, raw_permille: int) -> WavePlan:
    """Cluster sizes count a pair once for each cluster it voices (one, before bench 3.0)."""
    sizes: dict[str, int] = {}
    for clusters in haystack.clusters:
        for cluster in clusters:
            sizes[cluster] = sizes.get(cluster, 0) + 1
    order = list(sizes)  # first appearance, since pairs are chronological
    total = sum(sizes.values())
    wave_of: dict[str, int] = {}
    running = 0
    for cluster in order:
        if cluster in PINNED_TO_FIRST_WAVE:
            wave_of[cluster] = 0
            continue
        wave_of[cluster] = min(waves - 1, running * waves // total)
        running += sizes[cluster]
    raw = _raw_clusters(stream, sizes, raw_permille)
    bearing = [c for c in haystack.clusters if c]
    unlinked = sum(1 for clusters in bearing if raw.issuperset(clusters))
    return WavePlan(wave_of, frozenset(raw), unlinked * 1000 // len(bearing))


def _raw_clusters(stream: Stream, sizes: dict[str, int], permille: int) -> set[str]:
    """Local search over a seeded order: toggle a cluster in or out of the raw set whenever that
    brings the raw share closer to the target, until a full pass changes nothing."""
    total = sum(sizes.values())
    target = total * permille
    raw: set[str] = set()
    count = 0
    order = stream.shuffle(list(sizes))
    changed = True
    while changed:
        changed = False
        for cluster in order:
            moved = count - sizes[cluster] if cluster in raw else count + sizes[cluster]
            if abs(moved * 1000 - target) < abs(count * 1000 - target):
                raw.symmetric_difference_update({cluster})
                count, changed = moved, True
    return raw


def seed_requests(
    root: Stream,
    haystack: Haystack,
    plan: WavePlan,
    waves: int,
    texts: Texts,
) -> tuple[SeedRequest, ...]:
    """One ``SeedRequest`` per wave, pairs in chronological order, subjects for indexed clusters
    (a pair is linked to the subject of each indexed cluster it voices)."""
    session_wave: dict[str, int] = {}
    for pair, clusters in zip(haystack.pairs, haystack.clusters, strict=True):
        if clusters:
            session_wave.setdefault(pair.session_id, plan.wave_of_pair(clusters))
    requests = []
    for wave in range(waves):
        pairs, subjects, links = [], {}, []
        for pair, clusters in zip(haystack.pairs, haystack.clusters, strict=True):
            home = plan.wave_of_pair(clusters) if clusters else session_wave.get(pair.session_id, 0)
            if home != wave:
                continue
            pairs.append(pair)
            for cluster in clusters:
                if cluster in plan.raw_clusters:
                    continue
                subject_id = opaque_id(
                    "subj", root.seed, root.content_version, haystack.user_id, cluster
                )
                if subject_id not in subjects:
                    subjects[subject_id] = Subject(
                        subject_id, _title(cluster, texts), _description(cluster, texts)
                    )
                links.append(Link(subject_id, pair.pair_id))
        requests.append(
            SeedRequest(
                haystack.user_id, wave, tuple(pairs), tuple(subjects.values()), tuple(links)
            )
        )
    return tuple(requests)


def _title(cluster: str, texts: Texts) -> str:
    return texts.questions.special_titles.get(cluster) or texts.library.get(cluster).title


def _description(cluster: str, texts: Texts) -> str:
    return texts.questions.wave_description.format(title=_title(cluster, texts).lower())
