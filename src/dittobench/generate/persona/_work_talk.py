"""Shop talk: user remarks thick with one profession's vocabulary, and the assistant's replies.

Nothing here is a fact: no remark names a value any question asks about, so the talk only adds
specialist text for retrieval to wade through. Each grammar's ``origin`` is one turn.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from dittobench.generate.grammar import Grammar

_LEAD = ("", "Long day. ", "Ugh, ", "Quick vent: ", "Work update: ")

SOFTWARE: Grammar = {
    "origin": ("#lead##core##tail#",),
    "lead": _LEAD,
    "core": (
        "spent the whole afternoon chasing a flaky integration test that only fails in CI.",
        "the deploy got rolled back twice because of a race condition in the caching layer.",
        "on-call was rough; I got paged at three in the morning for a memory leak in a worker.",
        "sprint planning ran over again, and half the tickets had no acceptance criteria.",
        "a huge refactor of the auth middleware has been stuck in review for three days.",
        "the code review queue is at fourteen pull requests and I'm the only approver today.",
        "the postmortem found a feature flag flipped in staging and production at once.",
        "a schema migration locked a table for twenty minutes and every dashboard went red.",
        "untangled a dependency conflict after someone bumped a major version without telling "
        "anyone.",
        "tail latency doubled overnight and nobody can work out why yet.",
        "pair programmed for three hours on a gnarly deadlock in the job scheduler.",
        "a one-line linter change turned into a two-day argument in the review comments.",
        "spent hours on retry logic with exponential backoff, and the error rate barely moved.",
        "the load balancer health checks kept failing after the certificate rotation.",
    ),
    "tail": ("", " Classic.", " Send coffee.", " Tomorrow can only be better.", " Anyway."),
}

MEDICINE: Grammar = {
    "origin": ("#lead##core##tail#",),
    "lead": _LEAD,
    "core": (
        "rounds ran long again, two admissions with sepsis and a chest drain to review.",
        "the bleep went off all night: three falls, a hypo and someone pulling out a cannula.",
        "handover took forever because the list was forty patients deep.",
        "spent an hour chasing a CT head report for a query subdural.",
        "the MDT meeting overran and I've got a pile of discharge summaries left to write.",
        "had a hard conversation with a family about ceilings of care and DNACPR today.",
        "a potassium came back sky-high, so that was an hour of ECGs and calcium gluconate.",
        "clerked five patients in a row, all chest pain, all with normal troponins.",
        "the drug chart was a mess; half the antibiotics had been prescribed twice.",
        "finally got the arterial blood gas on the fourth attempt, and my thumbs are numb.",
        "a locum didn't turn up, so one doctor covered two floors overnight.",
        "spent my break re-siting a cannula on someone with impossible veins.",
        "the bed manager rang six times about flow and there's nowhere to put anyone.",
        "consent forms, lactates and a lumbar puncture, all before lunch.",
    ),
    "tail": ("", " Classic.", " Send coffee.", " Such is life on call.", " Anyway."),
}

LAW: Grammar = {
    "origin": ("#lead##core##tail#",),
    "lead": _LEAD,
    "core": (
        "the disclosure deadline moved up a week and the document review team is drowning.",
        "spent all day on redlines for a share purchase agreement, mostly the indemnities.",
        "the hearing got adjourned at the last minute after we'd prepared the whole bundle.",
        "counsel wants a skeleton argument by Friday and we haven't agreed the chronology.",
        "billed nine hours and it feels like all I did was answer email.",
        "the other side sent a without prejudice offer at ten to five, naturally.",
        "a witness statement needed eleven rounds of amendments before the client would sign.",
        "conflict checks held up a new matter for three days.",
        "the judge asked about a point nobody had briefed, so I was scrambling through "
        "authorities.",
        "due diligence is endless; the data room has four hundred contracts in it.",
        "the limitation period is close, so the claim gets issued tomorrow whatever happens.",
        "drafted a letter before action, then rewrote it because the partner hated the tone.",
        "deposition prep ran until midnight and the exhibit list still isn't finished.",
        "settlement talks collapsed at mediation after eight hours in separate rooms.",
    ),
    "tail": ("", " Classic.", " Send coffee.", " The billable hours never lie.", " Anyway."),
}

FINANCE: Grammar = {
    "origin": ("#lead##core##tail#",),
    "lead": _LEAD,
    "core": (
        "the earnings call ran long and guidance came in below the street, so the model needs a "
        "rework.",
        "spreads widened all afternoon and the whole desk was glued to the screens.",
        "rebuilt a DCF after the auditors changed the discount rate assumptions.",
        "risk flagged a VaR limit breach that turned out to be a bad data feed.",
        "the comps table had stale multiples, so half the valuation was off.",
        "quarter-end close is a nightmare; three reconciliations still don't tie out.",
        "the central bank minutes dropped and the yield curve did something strange.",
        "compliance bounced my note twice over one sentence about price targets.",
        "rebalancing day, so a flood of trades to check and ugly bid-ask spreads.",
        "the investment committee grilled me on downside scenarios for an hour.",
        "spent the whole day reconciling the P&L to the trade blotter.",
        "liquidity dried up after lunch and every fill was worse than expected.",
        "the client meeting went fine until they asked about drawdowns in a rate shock.",
        "a sell-side contact rang to pitch a roadshow I definitely don't have time for.",
    ),
    "tail": ("", " Classic.", " Send coffee.", " Markets, eh.", " Anyway."),
}

WORK_TALK: Mapping[str, Grammar] = MappingProxyType(
    {"software": SOFTWARE, "medicine": MEDICINE, "law": LAW, "finance": FINANCE}
)
"""Per profession, a grammar whose ``origin`` is a fact-free remark about the working day."""

WORK_REPLY: Grammar = {
    "origin": ("#ack##follow#",),
    "ack": (
        "That sounds exhausting.",
        "Oof, what a day.",
        "That's a lot to juggle.",
        "Sounds intense.",
        "Ugh, that's frustrating.",
        "That does sound like a long one.",
    ),
    "follow": (
        "",
        " Hope you get a proper break tonight.",
        " Want to talk any of it through?",
        " Is there anything I can take off your plate?",
        " Make sure you eat something decent.",
    ),
}
"""The assistant's reply to a work remark, shared by every profession."""
