"""Direct routing to the memory tools: recall, topic overview, open, change and forget.

Recall prompts ask about something the user said earlier without naming memory or searching;
the three id-based categories carry a stored-entry id, which is pinned, and keep the tool's own
verbs (fetch, update, delete) out of the wording.
"""

from __future__ import annotations

from dittobench.generate.tools import values
from dittobench.generate.tools.category import Category, Pin
from dittobench.generate.tools.wording import with_wrap

GROUP = "direct_routing"

# Ways to refer to one stored entry, each followed directly by its id.
_ENTRY: tuple[str, ...] = (
    "the entry",
    "the note",
    "the saved note",
    "the stored entry",
    "the record",
    "the item",
)

MEMORY_LOOKUP = Category(
    name="memory_lookup",
    group=GROUP,
    tools=("search_memories",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##name_q# #place# I #mentioned##when#?#trail#",
                "#lead##fact_q##again#?#told_before##trail#",
                "#lead##opener# #topic##when# — #recap_q#?#trail#",
            ),
            "name_q": (
                "what was the name of",
                "what's the name of",
                "can you tell me the name of",
                "do you know the name of",
            ),
            "place": (
                "that bakery",
                "the plumber",
                "the podcast",
                "the wine",
                "the hiking trail",
                "the hotel",
                "the band",
                "the board game",
                "the yoga studio",
                "the mechanic",
                "the ramen place",
                "the novel",
                "the tailor",
            ),
            "mentioned": (
                "told you about",
                "mentioned",
                "brought up",
                "was raving about",
                "was complaining about",
                "said I liked",
            ),
            "when": (
                "",
                " last week",
                " a while back",
                " the other day",
                " earlier this month",
                " a few days ago",
                " before",
            ),
            "fact_q": (
                "when's my sister's birthday",
                "what did I say my landlord's name was",
                "which airline did I tell you I prefer",
                "what shoe size did I say I take",
                "what was the budget I gave you for the kitchen",
                "which vet did I say we take the cat to",
                "what's my daughter's teacher called",
                "how far did I say I ran last weekend",
                "what did I say I was allergic to",
                "which train do I usually catch to work",
                "what did I tell you my new manager is called",
            ),
            "again": ("", " again"),
            "told_before": (
                "",
                " I'm sure I told you.",
                " I mentioned it a while back.",
                " We went over it at some point.",
                " It came up the other week.",
                " I know I've brought it up before.",
                " It should be in one of our old chats.",
            ),
            "opener": (
                "I told you about",
                "I filled you in on",
                "we talked about",
                "I went on about",
                "I told you all about",
            ),
            "topic": (
                "my marathon training",
                "the trip I'm planning",
                "my sister's wedding",
                "the trouble with my landlord",
                "the car I was thinking of buying",
                "my plans for the garden",
                "that job offer",
                "my new diet",
                "the leak in the bathroom",
                "the course I wanted to take",
            ),
            "recap_q": (
                "what did I say about it",
                "what were the details again",
                "can you go back over what I told you",
                "what was the plan",
                "what did I end up deciding",
                "what was the gist of it",
            ),
        }
    ),
    banned=frozenset({"search", "memories", "memory", "remember", "recall"}),
)

MEMORY_SUBJECT = Category(
    name="memory_subject",
    group=GROUP,
    tools=("search_subjects",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##which_topics# #have_come_up# #link# #theme##scope#?#trail#",
                "#lead##overview_lead##overview# #theme#.#trail#",
                "#lead#I want a map of what we've discussed about #theme#: #map_q#?#trail#",
            ),
            "which_topics": (
                "what topics",
                "which topics",
                "what broad areas",
                "which themes",
                "what general topics",
                "which threads",
            ),
            "have_come_up": (
                "have we covered",
                "have come up",
                "have I brought up",
                "have we gone into",
                "do you have on file from me",
                "have I shared with you",
            ),
            "link": ("about", "having to do with", "related to", "that touch on", "connected to"),
            "theme": (
                "travel",
                "my health",
                "money",
                "work",
                "cooking",
                "my kids",
                "fitness",
                "home repairs",
                "gardening",
                "music",
                "my car",
                "our pets",
                "school",
                "my hobbies",
                "family",
            ),
            "scope": (
                "",
                " so far",
                " over time",
                " in our past chats",
                " since we started talking",
            ),
            "overview_lead": (
                "",
                "before you dig into details, ",
                "at a high level, ",
                "just roughly, ",
                "in broad strokes, ",
            ),
            "overview": (
                "give me the main topics you've got from me on",
                "tell me which broad areas of our past chats relate to",
                "sketch out the themes we've covered around",
                "break down the areas I've talked about when it comes to",
                "name the main headings my notes fall under for",
            ),
            "map_q": (
                "which areas does it fall into",
                "what are the main themes",
                "how does it break down by topic",
                "what are the big buckets",
                "which headings would you group it under",
            ),
        }
    ),
    banned=frozenset({"search", "subjects", "subject"}),
)

MEMORY_FETCH = Category(
    name="memory_fetch",
    group=GROUP,
    tools=("fetch_memories",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##open_verb# #record# {pair_id}#whole#.#trail#",
                "#lead#could you #open_verb# #record# {pair_id}#whole#?#trail#",
                "#lead#show me #record# {pair_id}#whole#.#trail#",
                "#lead#{pair_id} — #about_it##trail#",
                "#lead#I've got an ID here, {pair_id}#from# — #need_text#.#trail#",
            ),
            "open_verb": ("pull up", "open", "bring up", "dig out", "load up", "retrieve", "grab"),
            "record": (
                "the entry",
                "the record",
                "the saved exchange",
                "the stored chat",
                "the item with ID",
                "the exchange saved as",
                "whatever's stored under",
                "the note filed as",
            ),
            "whole": (
                "",
                " in its entirety",
                ", word for word",
                " exactly as it was stored",
                " with nothing cut",
                " so I can read all of it",
                " from start to finish",
            ),
            "about_it": (
                "can you open that one up?",
                "what does it say, word for word?",
                "I need the complete text of that one.",
                "bring the whole thing up, please.",
                "show me everything in it.",
                "what's in there, exactly?",
            ),
            "from": ("", " from one of your notes", " from earlier", " from last week"),
            "need_text": (
                "I'd like to read everything stored under it",
                "please bring up what it contains",
                "I want to see all of it",
                "show me the complete text",
                "open it up for me",
            ),
        }
    ),
    slots={"pair_id": values.pair_id},
    pins=(Pin(0, "pairIds", "pair_id"),),
    banned=frozenset(
        {"fetch", "memory", "memories", "pair", "pairs", "conversation", "conversations", "full"}
    ),
)

MEMORY_UPDATE = Category(
    name="memory_update",
    group=GROUP,
    tools=("update_memory",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##change# #entry# {pair_id} #so_it# #new_content#.#trail#",
                "#lead#could you #change# #entry# {pair_id} #so_it# #new_content#?#trail#",
                "#lead#{pair_id} #stale#; #should_say# #new_content#.#trail#",
                "#lead#what's under {pair_id} #stale# — #should_say# #new_content#.#trail#",
                "#lead#swap out what #entry# {pair_id} says for this: #new_content#.#trail#",
            ),
            "change": ("change", "correct", "fix", "revise", "amend", "rewrite", "adjust"),
            "entry": _ENTRY,
            "so_it": ("so it says", "so that it reads", "to say", "to read", "so it now says"),
            "stale": ("is out of date", "is no longer right", "needs correcting", "is wrong now"),
            "should_say": (
                "it should say",
                "it should now read",
                "make it say",
                "the correct version is that",
                "change it to say",
            ),
            "new_content": (
                "my flat is on the fourth floor, not the second",
                "I work from home on Fridays",
                "I've switched from cow's milk to oat milk",
                "my daughter's school starts at 8:15",
                "my gym membership renews in June",
                "I'm allergic to penicillin as well as peanuts",
                "my sister lives in Leeds these days",
                "I drive a blue hatchback",
                "my team meeting has moved to Wednesdays",
                "I prefer aisle seats on long flights",
                "my dentist's practice is on Harbour Street",
                "the cat sees the vet every six months",
            ),
        }
    ),
    slots={"pair_id": values.pair_id},
    pins=(Pin(0, "pair_id", "pair_id"),),
    banned=frozenset({"update", "updates", "memory", "memories"}),
)

MEMORY_DELETE = Category(
    name="memory_delete",
    group=GROUP,
    tools=("delete_memory",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##please##remove# #entry# {pair_id}#reason#.#trail#",
                "#lead#could you #remove# #entry# {pair_id}#for_good#?#trail#",
                "#lead#{pair_id} — #drop_ask##trail#",
                "#lead#I'd like #entry# {pair_id} #gone##reason#.#trail#",
                "#lead#I don't want you keeping {pair_id} any more#so_remove#.#trail#",
            ),
            "please": ("", "please ", "go ahead and "),
            "remove": ("forget", "erase", "remove", "wipe", "get rid of", "drop", "scrap"),
            "entry": _ENTRY,
            "reason": (
                "",
                " for good",
                " permanently",
                ", it's no longer true",
                " — I don't want it kept",
                ", it's out of date",
                " — I shouldn't have shared that",
            ),
            "for_good": ("", " for good", " permanently", " completely", " once and for all"),
            "drop_ask": (
                "can you get rid of that one?",
                "please wipe it, it's not accurate any more.",
                "I'd like that gone.",
                "forget you ever heard it, please.",
                "no need to keep that one, please erase it.",
                "scrap it completely.",
            ),
            "gone": ("gone", "erased", "wiped", "removed", "taken out"),
            "so_remove": (
                "",
                ", so please erase it",
                " — get rid of it",
                ", wipe it",
                " — please forget it",
            ),
        }
    ),
    slots={"pair_id": values.pair_id},
    pins=(Pin(0, "pair_id", "pair_id"),),
    banned=frozenset({"delete", "deleted", "memory", "memories"}),
)

CATEGORIES: tuple[Category, ...] = (
    MEMORY_LOOKUP,
    MEMORY_SUBJECT,
    MEMORY_FETCH,
    MEMORY_UPDATE,
    MEMORY_DELETE,
)
