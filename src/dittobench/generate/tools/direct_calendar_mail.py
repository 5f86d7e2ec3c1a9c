"""Direct routing to the user's diary and outgoing mail: booking a meeting, finding one, and
sending a note.

Each grammar keeps every word of the expected tool's name out of the prompt. Pinned values are
coined (a meeting title or search term, an address), so the agent can only match them by passing
them through as written.
"""

from __future__ import annotations

from dittobench.generate.tools import schedules, values
from dittobench.generate.tools.category import Category, Pin
from dittobench.generate.tools.wording import with_wrap

GROUP = "direct_routing"

_CALENDAR_CREATE_BANNED = frozenset(
    {"calendar", "calendars", "create", "creating", "event", "events"}
)
_CALENDAR_SEARCH_BANNED = frozenset(
    {"calendar", "calendars", "search", "searching", "event", "events"}
)

CALENDAR_CREATE = Category(
    name="calendar_create",
    group=GROUP,
    tools=("calendar_create_event",),
    grammar=with_wrap(
        {
            "origin": (
                '#lead##put# "{title}" #on_sched# #when_for#.#trail#',
                "#lead#book #a_slot# for the {title} #when#.#trail#",
                "#lead#can you #arrange# the {title} #when#?#trail#",
                "#lead#I've got the {title} #when# — #add_it##trail#",
            ),
            "put": ("put", "add", "pencil in", "pop", "stick"),
            "on_sched": ("on my schedule", "in my diary", "on my agenda", "in my planner"),
            "when": (
                "on {date} at {time}",
                "this {weekday} at {time}",
                "next {weekday} at {time}",
                "on {weekday} at {time}",
                "at {time} on {date}",
                "on {date}, starting at {time}",
            ),
            "when_for": (
                "for {date} at {time}",
                "for this {weekday} at {time}",
                "for next {weekday} at {time}",
                "for {weekday} at {time}",
                "for {time} on {date}",
            ),
            "a_slot": ("a slot", "an hour", "half an hour", "some time", "a block of time"),
            "arrange": ("set up", "book", "line up", "slot in", "arrange", "schedule"),
            "add_it": (
                "please add it.",
                "can you get it down?",
                "could you pop it in my diary?",
                "make sure it's on my agenda.",
                "block it out for me.",
            ),
        }
    ),
    slots={
        "title": values.clear_of(_CALENDAR_CREATE_BANNED, values.meeting_title),
        "date": values.calendar_date,
        "time": schedules.meeting_time,
        "weekday": values.weekday,
    },
    pins=(Pin(0, "title", "title"),),
    banned=_CALENDAR_CREATE_BANNED,
)

CALENDAR_SEARCH = Category(
    name="calendar_search",
    group=GROUP,
    tools=("calendar_search_events",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead#when is the {query} #kind##again#?#trail#",
                "#lead##check# #when_booked# the {query} #kind#.#trail#",
                "#lead#can you #check# #when_booked# the {query} #kind#?#trail#",
                "#lead#do I have anything with {query} #coming#?#trail#",
                "#lead#which day is the {query} #kind# on#day_tail#?#trail#",
            ),
            "kind": (
                "meeting",
                "review",
                "offsite",
                "sync",
                "dinner",
                "workshop",
                "call",
                "check-in",
                "kickoff",
            ),
            "again": ("", " again", " happening", " set for"),
            "check": ("check", "find out", "look up", "see", "tell me"),
            "when_booked": (
                "when I've got",
                "what day I have",
                "what time I booked",
                "when we're doing",
                "when I'm due at",
            ),
            "coming": (
                "coming up",
                "on the books",
                "this week",
                "next week",
                "in the next month",
                "before the end of the month",
            ),
            "day_tail": ("", " again", ", and what time"),
        }
    ),
    slots={"query": values.clear_of(_CALENDAR_SEARCH_BANNED, values.coined_word)},
    pins=(Pin(0, "query", "query"),),
    banned=_CALENDAR_SEARCH_BANNED,
)

EMAIL_SEND = Category(
    name="email_send",
    group=GROUP,
    tools=("gmail_send",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##mail# {email_address} #body#.#trail#",
                "#lead#can you #mail# {email_address} #body#?#trail#",
                "#lead#please write to {email_address} with a short note that #news#.#trail#",
                "#lead#could you let {email_address} know by email that #news#?#trail#",
            ),
            "mail": (
                "email",
                "drop a note to",
                "write to",
                "fire off a quick email to",
                "message",
                "shoot a message to",
            ),
            "body": (
                "and let them know #news#",
                "to say #news#",
                "saying #news#",
                "and tell them #news#",
            ),
            "news": (
                "I'm running ten minutes late",
                "the draft is ready for review",
                "Thursday's lunch has moved to Friday",
                "I'll call them tomorrow morning",
                "the invoice has been paid",
                "the venue is confirmed",
                "I can't make it this week",
                "we're still on for Saturday",
            ),
        }
    ),
    slots={"email_address": values.email_address},
    pins=(Pin(0, "to", "email_address"),),
    banned=frozenset({"gmail", "send", "sending", "sent"}),
    # "email" is how people ask for this at all, and it is not a word of the tool's name; it is
    # listed here as a reviewed choice rather than left implicit.
    allowed=frozenset({"email"}),
)

CATEGORIES: tuple[Category, ...] = (
    CALENDAR_CREATE,
    CALENDAR_SEARCH,
    EMAIL_SEND,
)
