"""Result-usage categories: the answer must state the figure a tool returned for the subject.

Every prompt names the case's subject (the ``{subject}`` slot, filled with the needle's subject
such as "Velmorix turbine"), so the figure can only come from the mock tool's response. Variants
carry a link or a job id from one call into the next, or must retry after a failed first call.
"""

from __future__ import annotations

from dittobench.generate.tools.category import Category, Pin
from dittobench.generate.tools.multistep import JOB_BANS, JOB_STARTS
from dittobench.generate.tools.wording import with_wrap

GROUP = "result_usage"

_WEB_BANS = frozenset({"web", "search", "searches", "searching", "internet", "google"})


_EXACT: tuple[str, ...] = (
    "",
    " I want the exact number.",
    " The exact figure, please.",
    " Give me the precise number, not a ballpark.",
    " Just the number is fine.",
)

WEB_RESULT_USAGE = Category(
    name="web_result_usage",
    group=GROUP,
    tools=("search_web",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead#what's #figure#?#exact##trail#",
                "#lead#can you look up #figure#?#exact##trail#",
                "#lead#I need #figure#. #source#.#trail#",
                "#lead#what has the {subject} reached so far? #source#.#trail#",
                "#lead#how high has the {subject} climbed by now?#exact##trail#",
            ),
            "figure": (
                "the latest figure for the {subject}",
                "the current reported total for the {subject}",
                "the most recent number for the {subject}",
                "the up-to-date figure on the {subject}",
                "the newest published total for the {subject}",
            ),
            "source": (
                "Check a current source rather than guessing",
                "Please find it from an up-to-date source",
                "Look it up instead of estimating",
                "I'd like the exact number from a recent report",
            ),
            "exact": _EXACT,
        }
    ),
    pins=(Pin(0, "queries", "subject"),),
    banned=_WEB_BANS,
    uses_result=True,
    behavior="Call search_web, then state the figure it returned for the subject in the answer.",
)

MULTI_WEB_RESULT_USAGE = Category(
    name="multi_web_result_usage",
    group=GROUP,
    tools=("search_web", "read_links"),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##find# the {subject}, then #open# and #report#.#trail#",
                "#lead#could you #find# the {subject}, #open#, and #report#?#trail#",
                "#lead#I want the exact figure for the {subject} straight from the source: "
                "#find_it#, #open#, and #report_short#.#trail#",
                "#lead#don't trust the preview text for the {subject}. #find_cap#, #open#, "
                "and #report#.#trail#",
            ),
            "find": (
                "find the page that reports on",
                "track down the original source on",
                "dig up the primary write-up about",
                "locate the official page covering",
                "hunt down the main article about",
            ),
            "find_it": (
                "find the page that covers it",
                "track down where it's published",
                "dig up the original write-up",
                "locate the official page",
            ),
            "find_cap": (
                "Find the page that covers it",
                "Track down where it's published",
                "Dig up the original write-up",
            ),
            "open": (
                "open that page",
                "go through the page itself",
                "open it up properly rather than relying on the snippet",
                "look over the full page",
            ),
            "report": (
                "tell me the exact figure it gives",
                "give me the precise number it states",
                "tell me exactly what total it reports",
                "quote the exact number it lists",
            ),
            "report_short": (
                "tell me the number it gives",
                "quote the figure it states",
                "give me that number exactly",
            ),
        }
    ),
    pins=(Pin(0, "queries", "subject"), Pin(1, "urls", "link")),
    banned=_WEB_BANS | {"read", "reading", "links", "link", "url", "urls"},
    uses_result=True,
    behavior=(
        "Call search_web, then read_links on the link it returned, then state the figure the "
        "page gives for the subject in the answer."
    ),
)

JOB_CHAIN_RESULT_USAGE = Category(
    name="job_chain_result_usage",
    group=GROUP,
    tools=("execute_agent_job", "get_agent_job_status"),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##start# #task#, #follow#.#trail#",
                "#lead#could you #start# #task#, #follow#?#trail#",
                "#lead#I need the exact figure for the {subject}. Please #start# work it out, "
                "then #follow_short#.#trail#",
            ),
            "start": JOB_STARTS,
            "task": (
                "work out the latest figure for the {subject}",
                "compile the current total for the {subject}",
                "pull together the up-to-date numbers on the {subject}",
                "tally what the {subject} has reached so far",
            ),
            "follow": (
                "then check what it came back with and tell me the number",
                "then look in on it and tell me the figure it found",
                "and once it's done, tell me exactly what total it reports",
                "then report the exact number it turns up",
            ),
            "follow_short": (
                "check on it and tell me what it found",
                "look in on it and give me the number it reports",
                "tell me the exact figure it comes back with",
            ),
        }
    ),
    pins=(Pin(0, "task", "subject"), Pin(1, "job_id", "job_id")),
    banned=JOB_BANS,
    carries_job_id=True,
    uses_result=True,
    behavior=(
        "Call execute_agent_job, then get_agent_job_status with the job id it returned, then "
        "state the figure it reported for the subject in the answer."
    ),
)

WEB_RECOVERY_RESULT_USAGE = Category(
    name="web_recovery_result_usage",
    group=GROUP,
    tools=("search_web",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead#find out #clause#.#exact##flaky##trail#",
                "#lead#could you find out #clause#?#exact##flaky##trail#",
                "#lead#I'm after #wanted#.#exact##flaky##trail#",
                "#lead#where does the {subject} stand at the moment, numbers-wise?#exact##flaky#"
                "#trail#",
            ),
            "clause": (
                "what figure the {subject} has reached",
                "how the {subject} is tracking in numbers right now",
                "what the current total for the {subject} is",
                "what the latest published count for the {subject} is",
            ),
            "wanted": (
                "the current figure for the {subject}",
                "the latest total the {subject} has reached",
                "an up-to-date number for the {subject}",
                "whatever the newest reported count for the {subject} is",
            ),
            "exact": _EXACT,
            "flaky": (
                "",
                "",
                " The service has been flaky today, so try again if it errors.",
                " Things have been timing out on and off, so don't give up after one failure.",
                " If the first attempt falls over, just have another go.",
                " Connections have been patchy today, so retry if needed.",
            ),
        }
    ),
    pins=(Pin(0, "queries", "subject"),),
    banned=_WEB_BANS,
    allow_extra_tools=True,
    fail_first=True,
    uses_result=True,
    behavior=(
        "Call search_web, retry after the first call fails, then state the figure it returned "
        "for the subject in the answer."
    ),
)

CATEGORIES: tuple[Category, ...] = (
    WEB_RESULT_USAGE,
    MULTI_WEB_RESULT_USAGE,
    JOB_CHAIN_RESULT_USAGE,
    WEB_RECOVERY_RESULT_USAGE,
)
