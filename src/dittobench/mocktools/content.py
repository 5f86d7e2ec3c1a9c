"""Text served by the content tools: the only results that carry figures.

Every content result carries one *finding* about the case's subject. The bearer tool's finding
embeds the fixture's needle sentence verbatim; every other content tool's finding states the decoy
figure, worded as stale or preliminary. A fixture that carries its own ``decoy`` sentence (bench
3.0: both sentences drawn from the pack, in the same words, dated) is served as it stands: the
bearer says ``needle``, every other content tool ``decoy``, and no needle or decoy frame is used.
Every word around them (frames, titles, leads, headings, job lines) is the pack's
(``packs/replies.py``). Apart from that one figure (and its date), the replies hold no digits,
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
from dittobench.packs import Replies
from dittobench.spec.dataset import ToolFixture
from dittobench.spec.wire import ToolExecResponse

SEARCH_RESULTS_DEFAULT = 3
SEARCH_RESULTS_MAX = 5
READ_LINKS_MAX = 5
_LETTERS = "abcdefghjkmnpqrstuvwxyz"


def is_bearer(fixture: ToolFixture, name: str) -> bool:
    """True when tool ``name`` serves the needle for this fixture."""
    return bool(fixture.bearer) and bool(fixture.needle) and name == fixture.bearer


def finding(stream: Stream, fixture: ToolFixture, name: str, replies: Replies) -> str:
    """One sentence about the subject: the needle from the bearer, the decoy from anything else."""
    if is_bearer(fixture, name):
        if fixture.decoy:
            return fixture.needle
        return stream.choice(replies.lists["needle_frames"]).format(needle=fixture.needle)
    if fixture.decoy:
        return fixture.decoy
    return stream.choice(replies.lists["decoy_frames"]).format(
        subject=fixture.subject, decoy=fixture.decoy_figure, unit=fixture.unit
    )


def serve_content(
    stream: Stream,
    fixture: ToolFixture,
    name: str,
    args: Mapping[str, object],
    replies: Replies,
    agreeing: bool = False,
) -> ToolExecResponse:
    """The response of content tool ``name`` (arguments already checked). ``agreeing`` (bench
    5.0): where the search result carries the needle, the page it links says the same."""
    if agreeing and name == "read_links" and fixture.bearer == "search_web":
        fixture = replace(fixture, bearer="read_links")
    return _SERVERS[name](stream, fixture, args, replies)


def _search_web(
    stream: Stream, fixture: ToolFixture, args: Mapping[str, object], replies: Replies
) -> ToolExecResponse:
    words, lines = replies.lists, replies.lines
    queries = arg_list(args, "queries")
    topic = queries[0] if queries else lines["topic"].format(subject=fixture.subject)
    count = _result_count(args.get("num_results"))
    subject_title = fixture.subject[:1].upper() + fixture.subject[1:]
    first_title = stream.choice(words["first_titles"])
    blocks = [
        "\n".join(
            (
                first_title.format(Subject=subject_title, subject=fixture.subject),
                fixture.link,
                finding(stream, fixture, "search_web", replies),
            )
        )
    ]
    for _ in range(count - 1):
        title = f"{codes.coined_name(stream, 2)} {stream.choice(words['other_titles'])}"
        snippet = stream.choice(words["other_snippets"]).format(topic=topic)
        blocks.append("\n".join((title, _coined_link(stream, replies), snippet)))
    quoted = lines["joined"].join(lines["quoted"].format(text=q) for q in queries)
    heading = lines["search_heading"].format(queries=quoted)
    return ToolExecResponse(result="\n\n".join([heading, *blocks]))


def _read_links(
    stream: Stream, fixture: ToolFixture, args: Mapping[str, object], replies: Replies
) -> ToolExecResponse:
    pages: list[str] = []
    for url in arg_list(args, "urls")[:READ_LINKS_MAX]:
        if fixture.link and _same_link(url, fixture.link):
            lead = stream.choice(replies.lists["page_leads"]).format(subject=fixture.subject)
            found = finding(stream, fixture, "read_links", replies)
            pages.append(replies.lines["page"].format(url=url, lead=lead, finding=found))
        else:
            pages.append(replies.lines["unreachable"].format(url=url))
    return ToolExecResponse(result="\n\n".join(pages))


def _job_status(
    stream: Stream, fixture: ToolFixture, args: Mapping[str, object], replies: Replies
) -> ToolExecResponse:
    job_id = arg_text(args, "job_id")
    if not fixture.job_id or job_id != fixture.job_id.strip():
        return _error(f"no job with id {job_id}")
    lead = stream.choice(replies.lists["job_leads"])
    note = finding(stream, fixture, "get_agent_job_status", replies)
    text = replies.lines["job_status"].format(job_id=fixture.job_id, lead=lead, finding=note)
    return ToolExecResponse(result=text)


def _workflow(
    stream: Stream, fixture: ToolFixture, args: Mapping[str, object], replies: Replies
) -> ToolExecResponse:
    goal = arg_text(args, "goal")
    lead = stream.choice(replies.lists["workflow_leads"])
    summary = finding(stream, fixture, "execute_agent_workflow", replies)
    text = replies.lines["workflow"].format(goal=goal, lead=lead, finding=summary)
    return ToolExecResponse(result=text)


def _list_jobs(
    stream: Stream, fixture: ToolFixture, args: Mapping[str, object], replies: Replies
) -> ToolExecResponse:
    job = fixture.job_id or replies.lines["unnamed_job"]
    note = finding(stream, fixture, "list_agent_jobs", replies)
    other = replies.lines["other_job"].format(name=codes.coined_name(stream, 2))
    text = replies.lines["jobs"].format(job=job, finding=note, other=other)
    return ToolExecResponse(result=text)


def _error(message: str) -> ToolExecResponse:
    return ToolExecResponse(result="", error=message)


def _result_count(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return SEARCH_RESULTS_DEFAULT
    return max(1, min(SEARCH_RESULTS_MAX, value))


def _coined_link(stream: Stream, replies: Replies) -> str:
    host = codes.coined_name(stream, 3).lower()
    slug = codes.coin_string(stream, 6, alphabet=_LETTERS)
    tld = stream.choice(replies.lists["link_tlds"])
    return f"https://{host}.{tld}/{stream.choice(replies.lists['link_sections'])}/{slug}"


def _same_link(url: str, link: str) -> bool:
    return url.strip().rstrip("/") == link.strip().rstrip("/")


_Server = Callable[[Stream, ToolFixture, Mapping[str, object], Replies], ToolExecResponse]
_SERVERS: dict[str, _Server] = {
    "search_web": _search_web,
    "read_links": _read_links,
    "get_agent_job_status": _job_status,
    "execute_agent_workflow": _workflow,
    "list_agent_jobs": _list_jobs,
}
