"""Direct routing to the personal tools: word to the app's makers, recurring routines and saved
procedures.

Each grammar keeps every word of the expected tool's name out of the prompt. Pinned values are
coined (an error code, a feature or routine name), so the agent can only match them by passing
them through as written.
"""

from __future__ import annotations

from dittobench.generate.tools import values
from dittobench.generate.tools.category import Category, Pin
from dittobench.generate.tools.wording import PLAIN_LEADS, with_wrap

GROUP = "direct_routing"

_FEEDBACK_BANNED = frozenset({"file", "filing", "feedback", "team", "teams"})
_RECIPE_CREATE_BANNED = frozenset({"create", "creating", "recipe", "recipes"})
_RECIPE_APPLY_BANNED = frozenset({"apply", "applying", "recipe", "recipes"})

_STEPS: dict[str, tuple[str, ...]] = {
    "steps": (
        "first #step_a#, then #step_b#, and finally #step_c#",
        "#step_a#, #step_b#, then #step_c#",
        "#step_a#, then #step_b#, then #step_c#",
    ),
    "step_a": (
        "check my inbox for anything urgent",
        "pull the latest sales figures",
        "look up today's weather",
        "collect the open support tickets",
        "go through my unread messages",
        "grab the top headlines",
    ),
    "step_b": (
        "summarise what you find",
        "draft a short status note",
        "flag anything overdue",
        "sort everything by priority",
        "pick out the three most important items",
    ),
    "step_c": (
        "send me the summary",
        "put it all in a table",
        "suggest next actions",
        "turn it into a checklist",
        "tell me what needs my attention first",
    ),
}

FEEDBACK = Category(
    name="feedback",
    group=GROUP,
    tools=("file_feedback_for_team",),
    grammar=with_wrap(
        {
            "origin": (
                "#plain##pass_on#: #bug#.#trail#",
                "#lead##bug##pass_after##trail#",
                "#plain##pass_on#: the {feature} #widget# #wish#.#trail#",
                "#lead#the {feature} #widget# #broken##pass_after##trail#",
            ),
            "plain": PLAIN_LEADS,
            "pass_on": (
                "please let the people who build you know",
                "tell whoever makes this app",
                "pass this on to your developers",
                "make sure the developers hear about this",
                "flag this for the folks behind the app",
                "here's something for the product people",
            ),
            "bug": (
                "I keep getting error {code} when I #action#",
                "the app shows {code} every time I #action#",
                "{code} pops up whenever I #action#",
                "I hit error {code} whenever I #action#",
            ),
            "action": (
                "upload a photo",
                "switch between chats",
                "open the settings",
                "log in on my phone",
                "export a conversation",
                "paste a long message",
            ),
            "pass_after": (
                ". Could you pass that on to the developers?",
                ". Please let the people who make you know.",
                " — can you make sure the builders of this app hear about it?",
                ". Whoever maintains this should probably know.",
                ", so please flag it for the folks behind the app.",
            ),
            "widget": ("button", "panel", "view", "screen", "sidebar", "menu"),
            "wish": (
                "should remember my last setting",
                "could use a dark mode",
                "would be great with keyboard shortcuts",
                "is really hard to find",
                "should let me undo",
                "needs bigger text",
            ),
            "broken": (
                "keeps freezing",
                "crashes the app",
                "stopped working after the last update",
                "shows a blank page",
                "won't load at all",
                "does nothing when I tap it",
            ),
        }
    ),
    slots={
        "code": values.error_code,
        "feature": values.clear_of(_FEEDBACK_BANNED, values.coined_word),
    },
    pins=(Pin(0, "message", "code"), Pin(0, "message", "feature")),
    banned=_FEEDBACK_BANNED,
    # "for" is a connective no English request can do without; it carries no routing signal.
    allowed=frozenset({"for"}),
)

AUTOMATION_LIST = Category(
    name="automation_list",
    group=GROUP,
    tools=("list_automations",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead#what #routines# do I have #set_up##now#?#trail#",
                "#lead##show# #what_runs#.#trail#",
                "#lead#can you #show# #what_runs#?#trail#",
                "#lead#I've lost track — #lost#?#trail#",
                "#lead#do I have anything #recurring##now#?#trail#",
            ),
            "routines": (
                "recurring tasks",
                "repeating routines",
                "regular routines",
                "standing routines",
                "timed routines",
                "daily or weekly routines",
                "repeat tasks",
            ),
            "set_up": ("set up", "running", "going", "set up with you"),
            "now": ("", "", " right now", " at the moment", " currently", " these days"),
            "show": ("show me", "tell me", "walk me through", "give me a rundown of", "go over"),
            "what_runs": (
                "what you do for me on a repeating basis",
                "what's set to run automatically",
                "which tasks run on a timer for me",
                "everything that fires off on its own each day or week",
                "the recurring stuff I've got going",
                "whatever routines I've set up to repeat",
                "every routine that runs without me asking",
            ),
            "lost": (
                "which routines run on their own for me",
                "what did I set up to happen on a repeat",
                "what's been set to run every day or week",
                "what recurring tasks are still active",
            ),
            "recurring": ("running on a repeat", "set to recur", "recurring", "on a timer"),
        }
    ),
    banned=frozenset(
        {
            "list",
            "listing",
            "automations",
            "automation",
            "automated",
            "scheduled",
            "schedule",
            "existing",
        }
    ),
)

RECIPE_CREATE = Category(
    name="recipe_create",
    group=GROUP,
    tools=("create_recipe",),
    grammar=with_wrap(
        {
            "origin": (
                '#plain##save_as# called "{name}": #steps#.#trail#',
                '#plain#can you #save_q# "{name}" that goes: #steps#?#trail#',
                '#lead#when I say "{name}", I want you to #steps#. #keep#.#trail#',
            ),
            "plain": PLAIN_LEADS,
            "save_as": (
                "save these steps as a routine",
                "store this as a reusable procedure",
                "set up a reusable routine",
                "make a named routine",
                "keep this sequence on hand as a routine",
                "save a step-by-step routine",
            ),
            "save_q": (
                "save a routine named",
                "set up a reusable procedure called",
                "make me a repeatable routine called",
                "store a step-by-step routine called",
            ),
            "keep": (
                "Save that so I can reuse it",
                "Please store it as a reusable routine",
                "Keep it under that name for next time",
                "Set that up so I can run it again later",
            ),
            **_STEPS,
        }
    ),
    slots={"name": values.clear_of(_RECIPE_CREATE_BANNED, values.routine_name)},
    pins=(Pin(0, "name", "name"),),
    banned=_RECIPE_CREATE_BANNED,
)

RECIPE_APPLY = Category(
    name="recipe_apply",
    group=GROUP,
    tools=("apply_recipe",),
    grammar=with_wrap(
        {
            "origin": (
                '#lead##run# my "{name}" #proc##timing#.#trail#',
                '#lead#can you #run# the "{name}" #proc# I saved#saved_when#?#trail#',
                '#lead#time for "{name}" — #go#.#trail#',
                '#lead#"{name}", please — #go#.#trail#',
            ),
            "run": (
                "run",
                "go through",
                "do",
                "kick off",
                "start",
                "carry out",
                "fire up",
                "replay",
            ),
            "proc": ("routine", "procedure", "steps", "sequence", "checklist"),
            "timing": ("", "", " now", " again", " for today", " like last time", " one more time"),
            "saved_when": ("", "", " earlier", " last week", " before"),
            "go": (
                "same steps as before, please",
                "do the usual",
                "you know the drill",
                "go ahead",
                "run through it like last time",
                "just like before",
            ),
        }
    ),
    slots={"name": values.clear_of(_RECIPE_APPLY_BANNED, values.routine_name)},
    pins=(Pin(0, "name", "name"),),
    banned=_RECIPE_APPLY_BANNED,
)

CATEGORIES: tuple[Category, ...] = (
    FEEDBACK,
    AUTOMATION_LIST,
    RECIPE_CREATE,
    RECIPE_APPLY,
)
