"""Routing traps between remembering and looking up: a lookup that is really about what the user
said, a question that sounds like a recollection but needs today's public figure, and a "do you
know" that hands over a value to keep. ``traps`` says how the grammars are worded.
"""

from __future__ import annotations

from dittobench.generate.tools import values
from dittobench.generate.tools.category import Category, Pin
from dittobench.generate.tools.wording import with_wrap

GROUP = "routing_traps"


ROUTE_MEMORY_NOT_WEB = Category(
    name="route_memory_not_web",
    group=GROUP,
    tools=("search_memories",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##look_up# #detail# #item# I #told##when#.#trail#",
                "#lead#can you #look_up# #detail# #item# I #told##when#?#trail#",
                "#lead#I need to find #item# I #told##when# — #blank#.#trail#",
                "#lead##check_intro# #personal_q#?#trail#",
            ),
            "look_up": ("look up", "find", "track down", "dig up", "check", "hunt down"),
            "detail": ("the name of", "the exact name of", "the details of", "what you've got on"),
            "item": (
                "that restaurant",
                "the bookshop",
                "the hiking trail",
                "the wine",
                "the little hotel",
                "the ramen place",
                "the dentist",
                "the board game",
                "the bakery",
                "the pottery studio",
                "the florist",
                "the podcast",
            ),
            "told": (
                "told you about",
                "mentioned",
                "recommended to you",
                "said I loved",
                "was talking about",
                "brought up",
            ),
            "when": (
                "",
                " last month",
                " a few weeks back",
                " the other day",
                " earlier",
                " when we were planning my trip",
                " when we chatted about my birthday",
            ),
            "blank": (
                "the name's gone right out of my head",
                "I can't think what it was called",
                "it's on the tip of my tongue",
                "all I know is it was near the station",
            ),
            "check_intro": (
                "do a quick lookup for me —",
                "check something for me —",
                "can you find this out for me —",
                "quick fact check —",
            ),
            "personal_q": (
                "which airline did I say I always fly with",
                "what was the name of the vet I said we use",
                "what did I say my sister's new job was",
                "which gym did I tell you I joined",
                "what's the title of the book I said I was halfway through",
                "which neighbourhood did I say I was moving to",
                "what did I tell you my landlord charges for parking",
            ),
        }
    ),
    banned=frozenset({"memories", "memory", "search", "remember", "recall"}),
)

ROUTE_WEB_NOT_MEMORY = Category(
    name="route_web_not_memory",
    group=GROUP,
    tools=("search_web",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead#remind me, what's #public# #now#?#trail#",
                "#lead#I forget what #public# is #now# — can you check?#trail#",
                "#lead#what did #they# #say_about# #event#?#trail#",
                "#lead#last time I asked, #public# was something else — what is it #now#?#trail#",
                "#lead#what was it again, #public# #now#?#trail#",
            ),
            "public": (
                "the euro to dollar exchange rate",
                "the pound to yen rate",
                "the price of Bitcoin",
                "the price of gold per ounce",
                "the latest stable release of Python",
                "the newest version of Firefox",
                "the latest iOS version",
                "the price of a barrel of Brent crude",
                "the latest version of Node.js",
                "the price of a litre of petrol in Germany",
                "the dollar to Canadian dollar rate",
                "the newest Android version",
            ),
            "now": ("today", "right now", "at the moment", "these days"),
            "they": ("they", "the forecasters", "the experts", "the papers", "people"),
            "say_about": ("say about", "end up saying about", "have to say about"),
            "event": (
                "the central bank's interest rate decision this week",
                "the weather in Dublin for this weekend",
                "the storm heading towards Florida",
                "today's US jobs report",
                "last night's Champions League match",
                "the stock market this morning",
                "the latest Python release",
                "the new EU rules on phone chargers",
                "the election results in Portugal",
            ),
        }
    ),
    banned=frozenset({"web", "search", "online", "internet", "google", "browse", "news"}),
)

MEMORY_SAVE_NOT_SEARCH = Category(
    name="memory_save_not_search",
    group=GROUP,
    tools=("save_memory",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##q_open# my #code_noun#? It's {code}#keep#.#trail#",
                "#lead##q_open# my #ref_noun#? It's {ref}#keep#.#trail#",
                "#lead#who's my #person_role#? It's {person}#keep#.#trail#",
                "#lead##fyi#my #code_noun# is {code}.#trail#",
                "#lead##fyi#my #ref_noun# is {ref}.#trail#",
                "#lead##fyi#my #person_role# is {person}.#trail#",
                "#lead#if I ever ask what my #code_noun# is, the answer is {code}.#trail#",
                "#lead#if I ever ask who my #person_role# is, it's {person}.#trail#",
                "#lead#I may ask you later what my #ref_noun# is, so here it is: {ref}.#trail#",
                "#lead#no need to look anything up — my #code_noun# is {code}#keep#.#trail#",
            ),
            "q_open": ("what's", "do you know", "want to know", "can you guess"),
            "code_noun": (
                "locker code",
                "bike lock combination",
                "door code at the new office",
                "gate code",
                "storage unit PIN",
                "code for the garage door",
            ),
            "ref_noun": (
                "booking reference for the Lisbon trip",
                "library card number",
                "membership number at the climbing gym",
                "order number for the new sofa",
                "tracking number for the parcel",
                "insurance policy number",
            ),
            "person_role": (
                "new dentist",
                "landlord",
                "daughter's piano teacher",
                "accountant",
                "new line manager",
                "son's football coach",
            ),
            "keep": (
                "",
                ", so hang on to that",
                " — keep that for me",
                ", and I'll want it later",
                " — file that away for next time",
                ", keep it handy",
            ),
            "fyi": (
                "for future reference, ",
                "just so you have it, ",
                "in case it comes up later, ",
                "for next time, ",
                "heads up for later — ",
            ),
        }
    ),
    slots={
        "code": values.digit_code,
        "ref": values.reference_code,
        "person": values.person_name,
    },
    pins=(Pin(0, "content", "code"), Pin(0, "content", "ref"), Pin(0, "content", "person")),
    banned=frozenset({"save", "memory", "memories", "remember", "memorise", "memorize", "note"}),
)

CATEGORIES: tuple[Category, ...] = (
    ROUTE_MEMORY_NOT_WEB,
    ROUTE_WEB_NOT_MEMORY,
    MEMORY_SAVE_NOT_SEARCH,
)
