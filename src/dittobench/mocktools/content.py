"""Text served by the content tools: the only results that carry figures.

Every content result carries one *finding* about the case's subject. The bearer tool's finding
embeds the fixture's needle sentence verbatim; every other content tool's finding states the decoy
figure, worded as stale or preliminary. A fixture that carries its own ``decoy`` sentence (bench
3.0: both sentences drawn from the pack, in the same words, dated) is served as it stands: the
bearer says ``needle``, every other content tool ``decoy``, and no frame of this module is used.
Apart from that one figure (and its date), the templates hold no digits,
so the only numbers a result shows are the finding's figure and what the fixture or the caller
supplied (the link, the job id, echoed arguments).

``read_links`` serves a page only for the fixture's link (needle or decoy by the bearer rule); any
other address gets a "could not load" line, so the needle is reachable only through that link.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from dittobench.core import codes
from dittobench.core.prng import Stream
from dittobench.mocktools.echo import arg_list, arg_text
from dittobench.spec.dataset import ToolFixture
from dittobench.spec.wire import ToolExecResponse

SEARCH_RESULTS_DEFAULT = 3
SEARCH_RESULTS_MAX = 5
READ_LINKS_MAX = 5
_LETTERS = "abcdefghjkmnpqrstuvwxyz"
_TLDS = ("com", "org", "net", "io")
_SECTIONS = ("notes", "posts", "articles", "docs", "blog", "guide")

_NEEDLE_FRAMES = (
    "According to the final audited report, {needle}.",
    "The latest confirmed update states that {needle}.",
    "Final figures are now published: {needle}, as the project office confirmed.",
    "Per the most recent verified data, {needle}.",
)
_DECOY_FRAMES = (
    "An early estimate put the {subject} at {decoy} {unit}, a figure since superseded.",
    "A preliminary draft listed the {subject} at {decoy} {unit}; it was later revised.",
    "An older forecast had the {subject} at about {decoy} {unit}, before final numbers came in.",
    "A stale entry from last season gives the {subject} as {decoy} {unit}.",
)
_FIRST_TITLES = ("{Subject}: latest report", "{Subject} - status update", "Notes on the {subject}")
_OTHER_TITLES = ("weekly digest", "community forum", "glossary", "industry overview", "archive")
_OTHER_SNIPPETS = (
    "A general overview of {topic}; no specific figures are given.",
    "Background reading on {topic} and related subjects.",
    "A discussion thread that mentions {topic} in passing.",
    "An explainer covering common questions about {topic}.",
)
_PAGE_LEADS = (
    "This page collects what is known about the {subject}.",
    "Summary page for the {subject}.",
    "Project notes: the {subject}.",
)
_JOB_LEADS = ("Result:", "The agent reports:", "Findings:")
_WORKFLOW_LEADS = (
    "The agents split the work and merged their findings.",
    "All parallel tasks completed and their results were combined.",
)


def is_bearer(fixture: ToolFixture, name: str) -> bool:
    """True when tool ``name`` serves the needle for this fixture."""
    return bool(fixture.bearer) and bool(fixture.needle) and name == fixture.bearer


def finding(stream: Stream, fixture: ToolFixture, name: str) -> str:
    """One sentence about the subject: the needle from the bearer, the decoy from anything else."""
    if is_bearer(fixture, name):
        if fixture.decoy:
            return fixture.needle
        return stream.choice(_NEEDLE_FRAMES).format(needle=fixture.needle)
    if fixture.decoy:
        return fixture.decoy
    return stream.choice(_DECOY_FRAMES).format(
        subject=fixture.subject, decoy=fixture.decoy_figure, unit=fixture.unit
    )


def serve_content(
    stream: Stream,
    fixture: ToolFixture,
    name: str,
    args: Mapping[str, object],
    agreeing: bool = False,
) -> ToolExecResponse:
    """The response of content tool ``name`` (arguments already checked). ``agreeing`` (bench
    5.0): where the search result carries the needle, the page it links says the same."""
    if agreeing and name == "read_links" and fixture.bearer == "search_web":
        fixture = replace(fixture, bearer="read_links")
    return _SERVERS[name](stream, fixture, args)


def _search_web(
    stream: Stream, fixture: ToolFixture, args: Mapping[str, object]
) -> ToolExecResponse:
    queries = arg_list(args, "queries")
    topic = queries[0] if queries else f"the {fixture.subject}"
    count = _result_count(args.get("num_results"))
    subject_title = fixture.subject[:1].upper() + fixture.subject[1:]
    blocks = [
        "\n".join(
            (
                stream.choice(_FIRST_TITLES).format(Subject=subject_title, subject=fixture.subject),
                fixture.link,
                finding(stream, fixture, "search_web"),
            )
        )
    ]
    for _ in range(count - 1):
        title = f"{codes.coined_name(stream, 2)} {stream.choice(_OTHER_TITLES)}"
        snippet = stream.choice(_OTHER_SNIPPETS).format(topic=topic)
        blocks.append("\n".join((title, _coined_link(stream), snippet)))
    heading = "Search results for " + ", ".join(f'"{q}"' for q in queries) + ":"
    return ToolExecResponse(result="\n\n".join([heading, *blocks]))


def _read_links(
    stream: Stream, fixture: ToolFixture, args: Mapping[str, object]
) -> ToolExecResponse:
    pages: list[str] = []
    for url in arg_list(args, "urls")[:READ_LINKS_MAX]:
        if fixture.link and _same_link(url, fixture.link):
            lead = stream.choice(_PAGE_LEADS).format(subject=fixture.subject)
            pages.append(f"Page: {url}\n{lead} {finding(stream, fixture, 'read_links')}")
        else:
            pages.append(f"Could not load {url}: the page did not respond.")
    return ToolExecResponse(result="\n\n".join(pages))


def _job_status(
    stream: Stream, fixture: ToolFixture, args: Mapping[str, object]
) -> ToolExecResponse:
    job_id = arg_text(args, "job_id")
    if not fixture.job_id or job_id != fixture.job_id.strip():
        return ToolExecResponse(result="", error=f"no job with id {job_id}")
    lead = stream.choice(_JOB_LEADS)
    note = finding(stream, fixture, "get_agent_job_status")
    text = f"Job {fixture.job_id}: finished.\n{lead} {note}"
    return ToolExecResponse(result=text)


def _workflow(stream: Stream, fixture: ToolFixture, args: Mapping[str, object]) -> ToolExecResponse:
    goal = arg_text(args, "goal")
    lead = stream.choice(_WORKFLOW_LEADS)
    summary = finding(stream, fixture, "execute_agent_workflow")
    return ToolExecResponse(result=f"Workflow finished for the goal: {goal}\n{lead}\n{summary}")


def _list_jobs(
    stream: Stream, fixture: ToolFixture, args: Mapping[str, object]
) -> ToolExecResponse:
    job = fixture.job_id or "research job"
    note = finding(stream, fixture, "list_agent_jobs")
    other = f"{codes.coined_name(stream, 2)} cleanup job"
    return ToolExecResponse(result=f"Jobs:\n- {job} (finished): {note}\n- {other} (cancelled)")


def _result_count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return SEARCH_RESULTS_DEFAULT
    return max(1, min(SEARCH_RESULTS_MAX, value))


def _coined_link(stream: Stream) -> str:
    host = codes.coined_name(stream, 3).lower()
    slug = codes.coin_string(stream, 6, alphabet=_LETTERS)
    return f"https://{host}.{stream.choice(_TLDS)}/{stream.choice(_SECTIONS)}/{slug}"


def _same_link(url: str, link: str) -> bool:
    return url.strip().rstrip("/") == link.strip().rstrip("/")


_Server = Callable[[Stream, ToolFixture, Mapping[str, object]], ToolExecResponse]
_SERVERS: dict[str, _Server] = {
    "search_web": _search_web,
    "read_links": _read_links,
    "get_agent_job_status": _job_status,
    "execute_agent_workflow": _workflow,
    "list_agent_jobs": _list_jobs,
}
