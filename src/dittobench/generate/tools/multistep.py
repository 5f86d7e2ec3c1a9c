"""Multi-step categories: requests that need two calls, the second often fed by the first.

Each grammar asks for both steps in plain words and keeps every word of the expected tools' names
out of the prompt. Values carried from an earlier result (the link a search returns, the id a
started task returns) are pinned without ever appearing in the prompt.
"""

from __future__ import annotations

from dittobench.core.prng import Stream
from dittobench.generate.tools import values
from dittobench.generate.tools.category import Category, Pin
from dittobench.generate.tools.wording import with_wrap

GROUP = "multi_step"

TOPIC_THINGS = (
    "bridge retrofit",
    "housing proposal",
    "river cleanup",
    "rail extension",
    "festival lineup",
    "vaccine trial",
    "wind farm plan",
    "library expansion",
    "harbour redevelopment",
    "school merger",
)

SCENES = (
    "a fox doing a crossword on a park bench",
    "a lighthouse on a rocky coast at dusk",
    "two otters sharing an umbrella by a river",
    "a tiny robot watering a bonsai on a balcony",
    "a red tram climbing a steep street",
    "a hot air balloon drifting over lavender fields",
    "a wooden cabin beside a mountain lake",
    "an old bicycle leaning against a café wall",
    "a heron standing in a misty marsh",
)

JOB_STARTS = (
    "kick off a background task to",
    "set something running in the background to",
    "start a long-running task that will",
    "spin up a task in the background to",
    "launch a task behind the scenes to",
)
"""Ways to ask for a background job, for the start-then-check chains here and in
``result_usage``; none uses a word of ``execute_agent_job``."""

JOB_BANS = frozenset({"execute", "agent", "agents", "job", "jobs", "status", "get"})
"""Every word of ``execute_agent_job`` and ``get_agent_job_status``, barred from job-chain
prompts."""


def coined_topic(stream: Stream) -> str:
    """A coined news topic such as ``the Drelo rail extension``."""
    return f"the {values.coined_word(stream)} {stream.choice(TOPIC_THINGS)}"


MULTI_WEB_READ = Category(
    name="multi_web_read",
    group=GROUP,
    tools=("search_web", "read_links"),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##find# #about##then##open#.#trail#",
                "#lead#could you #find# #about# and then #open#?#trail#",
                "#lead#first #find# #about#, and after that #open#.#trail#",
                "#lead#I want more than a snippet on #about#, so #find_it#, then #open#.#trail#",
            ),
            "find": (
                "track down a page about",
                "dig up an article on",
                "find a good source on",
                "hunt down a write-up about",
                "find me a page that covers",
                "locate a decent article about",
                "turn up a report on",
            ),
            "find_it": (
                "track down a page on it",
                "find a good source",
                "dig up an article about it",
                "turn up a proper write-up",
            ),
            "about": ("the {subject}", "the {subject}", "{topic}"),
            "then": (", then ", " and then ", ", and once you have one, ", " and "),
            "open": (
                "open it up and go through the whole thing",
                "open the page itself and take in all of it, not just the preview",
                "go through that page properly rather than skimming the summary",
                "open the best match and go over it in full",
                "pull up the page itself and give it a careful look",
                "open it and tell me what it actually says",
            ),
        }
    ),
    slots={"topic": coined_topic},
    pins=(Pin(1, "urls", "link"),),
    banned=frozenset(
        {
            "web",
            "search",
            "searching",
            "read",
            "reading",
            "links",
            "link",
            "url",
            "urls",
        }
    ),
)

PARALLEL_WEB_IMAGE = Category(
    name="parallel_web_image",
    group=GROUP,
    tools=("search_web", "create_image"),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##look#, and separately, #draw#.#trail#",
                "#lead##draw#, and while you're at it, #look#.#trail#",
                "#lead#could you #look#? Also, on a totally different note, #draw#.#trail#",
                "I've got two unrelated asks. First, #look#. Second, #draw#.#trail#",
                "#lead#could you #draw#? And #look# as well.#trail#",
                "Two separate things, not connected at all: #look#, and #draw#.#trail#",
            ),
            "look": (
                "look up the latest numbers for the {subject}",
                "find out how the {subject} is doing these days",
                "check what the most recent reports say about the {subject}",
                "dig up current news on the {subject}",
                "see what's being reported about the {subject} right now",
            ),
            "draw": (
                "make me a picture of #scene#",
                "draw #scene#",
                "do an illustration of #scene#",
                "paint #scene# for me",
                "sketch #scene#",
                "put together some artwork showing #scene#",
            ),
            "scene": SCENES,
        }
    ),
    unordered=True,
    banned=frozenset(
        {
            "web",
            "search",
            "searching",
            "create",
            "creating",
            "image",
            "images",
            "generate",
        }
    ),
)

MULTI_SUBJECT_SCOPE = Category(
    name="multi_subject_scope",
    group=GROUP,
    tools=("search_subjects", "search_memories_in_subjects"),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##first# #area#, then #inside# #detail#.#trail#",
                "#lead#could you #first# #area#, and then #inside# #detail#?#trail#",
                "#lead#don't trawl through everything: #first# #area# and #inside# "
                "#detail#.#trail#",
                "#lead#I'm after #detail# from when we talked about #area#. #two_step#.#trail#",
            ),
            "two_step": (
                "Work out which topic that sits under first, then look only inside it",
                "Find the topic it belongs to before looking, and stay within it",
                "Pin down the right topic first and only then dig into it",
                "Narrow it to the one topic that covers it, then check there",
            ),
            "first": (
                "work out which topic from our past chats covers",
                "figure out which part of our old conversations is about",
                "find whichever topic area of our previous talks deals with",
                "pick out the stored topic that holds everything about",
                "narrow things down to the topic where we discussed",
            ),
            "inside": (
                "look within just that topic for",
                "dig through only that area for",
                "check within it for",
                "keep to that area while you look for",
                "go through that topic alone to find",
            ),
            "area": (
                "my allotment",
                "the {project} renovation",
                "my marathon training",
                "the wedding planning",
                "my job hunt",
                "the {project} product launch",
                "my sourdough experiments",
                "the house move",
                "my Spanish lessons",
                "the {project} book club",
            ),
            "detail": (
                "what I decided about the budget",
                "the dates I settled on",
                "who I said I'd ask for help",
                "what I was most worried about",
                "the things I still had to buy",
                "the advice I was given",
                "the deadline I mentioned",
                "what I said went wrong last time",
            ),
        }
    ),
    slots={"project": values.coined_word},
    banned=frozenset({"search", "subjects", "subject", "memories", "memory"}),
    # "in" is a token of search_memories_in_subjects; no natural request can avoid it.
    allowed=frozenset({"in"}),
)

MULTI_JOB_STATUS = Category(
    name="multi_job_status",
    group=GROUP,
    tools=("execute_agent_job", "get_agent_job_status"),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##start# #task#, #check#.#trail#",
                "#lead#could you #start# #task#, #check#?#trail#",
                "This one will take a while: #start# #task#. Once it's going, #progress#.#trail#",
                "#lead#I'd like you to #start# #task#. After it's underway, #progress#.#trail#",
            ),
            "start": JOB_STARTS,
            "task": (
                "compile a full competitor review for {topic}",
                "pull together every public filing that mentions {topic}",
                "go through the {topic} supplier contracts and flag anything unusual",
                "put together a long briefing on the {topic} acquisition",
                "comb the {topic} documentation and summarise the breaking changes",
                "draft a market-sizing study for {topic}",
            ),
            "check": (
                "then check how it's getting on",
                "then tell me how far along it is",
                "and then see whether it's finished yet",
                "then look in on its progress",
                "and once it's going, tell me where it's at",
                "then look in on it and tell me how it's doing",
            ),
            "progress": (
                "check how it's getting on",
                "tell me how far along it is",
                "look in on it and report back",
                "see whether it has finished",
            ),
        }
    ),
    slots={"topic": values.coined_word},
    pins=(Pin(0, "task", "topic"), Pin(1, "job_id", "job_id")),
    banned=JOB_BANS,
    carries_job_id=True,
)

MULTI_IMAGE_EDIT = Category(
    name="multi_image_edit",
    group=GROUP,
    tools=("create_image", "edit_image"),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##make#, then #tweak#.#trail#",
                "#lead##make#. Once it's done, #tweak#.#trail#",
                "#lead#could you #make# and then #tweak#?#trail#",
                "#lead##make#; after that, take the result and #tweak#.#trail#",
            ),
            "make": (
                "make me a picture of #scene#",
                "draw #scene#",
                "paint #scene#",
                "do an illustration of #scene#",
                "sketch #scene#",
            ),
            "scene": SCENES,
            "tweak": (
                "make the sky stormier",
                "turn it into a night-time scene",
                "switch it to black and white",
                "add a small red kite in one corner",
                "give it a watercolour look",
                "warm up the colours",
                "put a dusting of snow over everything",
                "change the season to autumn",
            ),
        }
    ),
    banned=frozenset(
        {
            "create",
            "creating",
            "image",
            "images",
            "edit",
            "edits",
            "edited",
            "editing",
        }
    ),
)

CATEGORIES: tuple[Category, ...] = (
    MULTI_WEB_READ,
    PARALLEL_WEB_IMAGE,
    MULTI_SUBJECT_SCOPE,
    MULTI_JOB_STATUS,
    MULTI_IMAGE_EDIT,
)
