"""Direct routing to background work and the assistant's own abilities: a single job, a
split-up workflow and a tour of what the assistant can do.

Each grammar keeps every word of the expected tool's name out of the prompt. The pinned value is
a coined company or project name the agent must pass through unchanged.
"""

from __future__ import annotations

from dittobench.generate.tools import values
from dittobench.generate.tools.category import Category, Pin
from dittobench.generate.tools.wording import PLAIN_LEADS, with_wrap

GROUP = "direct_routing"


AGENT_JOB = Category(
    name="agent_job",
    group=GROUP,
    tools=("execute_agent_job",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##hand_off# #task##after#.#trail#",
                "#lead#can you #task# #away##after_q#?#trail#",
                "#plain##big#: #task##after#.#trail#",
            ),
            "hand_off": (
                "I need you to go off and",
                "please go off and",
                "take your time and",
                "working on your own, please",
                "as a longer piece of work, please",
                "in the background, please",
                "I'd like you to quietly",
            ),
            "task": (
                "research {topic}'s main competitors and write up a comparison",
                "compile everything public about {topic} into a short dossier",
                "go through {topic}'s customer reviews and summarise the common complaints",
                "put together a market overview for {topic}",
                "trace {topic}'s funding history and draft a timeline",
                "collect pricing for every {topic} plan and build a comparison table",
                "audit {topic}'s website for broken pages and outdated claims",
                "work out who {topic}'s biggest suppliers are",
            ),
            "after": (
                "",
                "",
                ", then let me know when it's done",
                ", then ping me when you're finished",
                " — I'll check back later",
                " — no need to wait on me",
            ),
            "away": ("in the background", "on your own", "as a separate task", "behind the scenes"),
            "after_q": (
                "",
                " and let me know when it's done",
                " and ping me once it's finished",
                " and tell me when you're through",
            ),
            "plain": PLAIN_LEADS,
            "big": (
                "here's a bigger task to run on your own",
                "something to work through in the background",
                "a longer task for while I'm away",
                "one for you to grind through without me",
            ),
        }
    ),
    slots={"topic": values.org_name},
    pins=(Pin(0, "task", "topic"),),
    banned=frozenset({"execute", "executing", "agent", "agents", "job", "jobs"}),
)

AGENT_WORKFLOW = Category(
    name="agent_workflow",
    group=GROUP,
    tools=("execute_agent_workflow",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead#I need #goal_np# for {topic}, #split#.#trail#",
                "#lead#can you #split_verb# the {topic} #project# into #parts# and run them "
                "#simul#?#trail#",
                "#plain##goal_intro# #goal_vp# the {topic} #project#. #coord##trail#",
            ),
            "goal_np": (
                "a full launch plan",
                "a complete market-entry study",
                "a due-diligence package",
                "a relaunch strategy",
                "a competitive teardown",
                "an end-to-end event plan",
                "a twelve-month hiring plan",
            ),
            "split": (
                "split into #strands# that get worked on in parallel",
                "with #named# all tackled at the same time",
                "broken up so #strands# run side by side",
                "with separate streams for #named#",
            ),
            "strands": ("#named#", "three or four independent pieces", "several separate strands"),
            "named": (
                "research, budget and timeline",
                "pricing, messaging and competitors",
                "the market, the risks and the costs",
                "legal, finance and marketing",
            ),
            "split_verb": ("break", "split", "divide", "carve up"),
            "project": (
                "rollout",
                "product launch",
                "office move",
                "rebrand",
                "fundraising push",
                "conference",
                "website overhaul",
            ),
            "parts": (
                "separate streams",
                "independent pieces",
                "separate tracks",
                "a handful of sub-tasks",
                "three or four strands",
            ),
            "simul": (
                "all at once",
                "at the same time",
                "side by side",
                "in parallel",
                "simultaneously",
            ),
            "plain": PLAIN_LEADS,
            "goal_intro": ("big goal:", "here's the goal:", "the overall aim:", "what I'm after:"),
            "goal_vp": ("plan", "prepare", "map out", "organise", "pull together everything for"),
            "coord": (
                "Have separate pieces run at once and pull them together at the end.",
                "Split it up and work on the parts in parallel.",
                "Run the different parts side by side, then combine them.",
                "Break it into streams that can go at the same time.",
                "Tackle the pieces simultaneously and give me one combined result.",
            ),
        }
    ),
    slots={"topic": values.org_name},
    pins=(Pin(0, "goal", "topic"),),
    banned=frozenset({"execute", "executing", "agent", "agents", "workflow", "workflows"}),
)

CAPABILITY_DISCOVERY = Category(
    name="capability_discovery",
    group=GROUP,
    tools=("discover_capabilities",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead#what #can_you# #do_verb##area#?#trail#",
                "#lead##newbie# — #ask##area_q#?#trail#",
                "#lead##tell# #what_you##area_q#.#trail#",
                "#lead#are there things you can do#area# that most people don't know about?#trail#",
            ),
            "can_you": ("can you", "are you able to", "could you"),
            "do_verb": ("do", "help me with", "handle", "take care of"),
            "area": (
                "",
                "",
                " when it comes to #domain#",
                " in terms of #domain#",
                " for #domain#",
            ),
            "area_q": ("", "", " when it comes to #domain#", " in terms of #domain#"),
            "domain": (
                "travel planning",
                "writing and editing",
                "research",
                "coding",
                "spreadsheets and numbers",
                "email",
                "organising my week",
                "pictures and design",
                "studying",
            ),
            "newbie": (
                "I'm new here",
                "I just started using this app",
                "first time trying you out",
                "I've only used you for quick questions so far",
                "a friend told me to try you",
            ),
            "ask": (
                "what sorts of things can you help with",
                "what are you actually able to do",
                "what kinds of tasks can I hand to you",
                "what's possible beyond chatting",
                "what should I be using you for",
                "what are you good at",
            ),
            "tell": (
                "give me a rundown of",
                "tell me",
                "walk me through",
                "show me",
                "fill me in on",
            ),
            "what_you": (
                "what you can do",
                "what you're able to help with",
                "the kinds of things you can handle",
                "everything you're set up to do",
                "what you're good at",
            ),
        }
    ),
    banned=frozenset({"discover", "discovering", "capabilities", "capability"}),
)

CATEGORIES: tuple[Category, ...] = (
    AGENT_JOB,
    AGENT_WORKFLOW,
    CAPABILITY_DISCOVERY,
)
