"""Direct routing to the content and production tools: web, pages, pictures and built files.

Each grammar asks for the thing in everyday words and keeps every word of the expected tool's
name out of the prompt. Pinned values are coined names or addresses the agent must pass through
unchanged; free-form requests (a search phrase, a picture description) are not pinned.
"""

from __future__ import annotations

from dittobench.generate.tools import values
from dittobench.generate.tools.category import Category, Pin
from dittobench.generate.tools.wording import PLAIN_LEADS, with_wrap

GROUP = "direct_routing"


WEB_SEARCH = Category(
    name="web_search",
    group=GROUP,
    tools=("search_web",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##find# #news# the {subject}#source#.#trail#",
                "#lead##can# #find# #news# the {subject}#source#?#trail#",
                "#lead##wonder# the {subject}#nudge##trail#",
                "#lead##find# #news# the {topic}#source#.#trail#",
            ),
            "find": (
                "look up",
                "find",
                "dig up",
                "track down",
                "pull up",
                "check online for",
                "get me",
                "hunt down",
            ),
            "can": ("can you", "could you", "would you", "any chance you could"),
            "news": (
                "the latest news on",
                "recent reporting on",
                "the newest coverage of",
                "any recent announcements about",
                "the current status of",
                "the latest figures for",
                "the current numbers on",
                "this week's headlines about",
            ),
            "source": (
                "",
                "",
                " from reliable sources",
                " from a couple of different outlets",
                " from official sources where possible",
                ", whatever is publicly available",
            ),
            "wonder": (
                "what's the latest on",
                "has anything new come out about",
                "is there any recent news about",
                "what are the most recent figures for",
                "where do things stand right now with",
                "what's been reported lately about",
                "what happened this week with",
            ),
            "nudge": (
                "?",
                "? I need current info, not what you already know.",
                "? Please check what's out there now.",
                "? Something up to date would be great.",
                "? Check a few current sources.",
            ),
        }
    ),
    slots={"topic": values.news_topic},
    banned=frozenset({"search", "searching", "web", "google", "internet", "browse"}),
)

LINK_READ = Category(
    name="link_read",
    group=GROUP,
    tools=("read_links",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##digest# #at# {link}#digest_tail#.#trail#",
                "#lead##access# #at# {link} #access_tail#.#trail#",
                "#lead#could you #access# #at# {link} #access_tail#?#trail#",
                "#plain##got# {link} — #ask##trail#",
            ),
            "at": (
                "the page at",
                "the article at",
                "the post at",
                "what's at",
                "the write-up at",
                "the piece at",
            ),
            "digest": (
                "summarise",
                "summarize",
                "give me the gist of",
                "pull the main points from",
                "boil down",
                "sum up",
            ),
            "digest_tail": (
                "",
                " for me",
                " in a few bullet points",
                " in plain English",
                " in two or three sentences",
                ", keeping it short",
            ),
            "access": (
                "open",
                "go through",
                "look over",
                "check out",
                "skim",
                "have a look at",
                "take a look at",
            ),
            "access_tail": (
                "and tell me what it says",
                "and give me the key points",
                "and sum it up for me",
                "and tell me whether it's worth my time",
                "and pull out the main argument",
                "and tell me what it's about",
            ),
            "got": (
                "someone sent me this:",
                "a friend shared this:",
                "I got forwarded this:",
                "this came up in a group chat:",
                "my manager dropped this in our channel:",
            ),
            "plain": PLAIN_LEADS,
            "ask": (
                "what's it about?",
                "what does it say?",
                "what are the key takeaways?",
                "is it worth my time?",
                "can you give me the short version?",
                "what's the main point?",
                "anything in there I should know?",
            ),
        }
    ),
    pins=(Pin(0, "urls", "link"),),
    banned=frozenset({"read", "reading", "links", "link", "url", "urls"}),
)

IMAGE_CREATE = Category(
    name="image_create",
    group=GROUP,
    tools=("create_image",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##want# #pic# of #scene##style##use#.#trail#",
                "#lead##draw# #scene##use#.#trail#",
                "#lead##can# #make# #pic# of #scene##style##use#?#trail#",
                "#lead##can# #draw# #scene#?#trail#",
            ),
            "want": (
                "make me",
                "I'd like",
                "I need",
                "I'd love",
                "put together",
                "come up with",
                "whip up",
            ),
            "can": ("can you", "could you", "would you"),
            "make": ("make me", "put together", "whip up", "come up with", "do"),
            "pic": (
                "a picture",
                "an illustration",
                "some artwork",
                "a graphic",
                "a piece of art",
                "a visual",
            ),
            "draw": ("draw", "paint", "sketch", "illustrate", "draw me", "paint me", "doodle"),
            "scene": ("#thing##setting#",),
            "thing": (
                "a red fox",
                "an old lighthouse",
                "a cosy reading nook",
                "a tiny robot",
                "a mountain village",
                "two cats",
                "a vintage bicycle",
                "a friendly dragon",
                "a sailboat",
                "a steaming cup of coffee",
                "a hedgehog in a scarf",
                "a treehouse",
            ),
            "setting": (
                "",
                "",
                " at sunset",
                " in the snow",
                " in the rain",
                " under a starry sky",
                " in autumn",
                " at dawn",
                " floating through space",
                " surrounded by wildflowers",
            ),
            "style": (
                "",
                "",
                " in watercolour",
                " in a flat vector style",
                " in a retro travel-ad style",
                " as pixel art",
                " in a photorealistic style",
                " as a pencil sketch",
                " in a cosy storybook style",
                " with bold neon colours",
            ),
            "use": (
                "",
                "",
                "",
                " for a birthday card",
                " for my blog header",
                " to hang in the kitchen",
                " for a presentation slide",
            ),
        }
    ),
    banned=frozenset({"create", "creating", "image", "images", "generate"}),
)

ARTIFACTS_CREATE = Category(
    name="artifacts_create",
    group=GROUP,
    tools=("artifacts",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##build# #thing##detail#.#trail#",
                "#lead##can# #build_q# #thing##detail_q#?#trail#",
                "#lead#I want the real thing, not a description — #build# #thing#.#trail#",
            ),
            "build": (
                "build me",
                "make me",
                "put together",
                "whip up",
                "knock together",
                "set me up with",
            ),
            "can": ("can you", "could you", "would you be able to"),
            "build_q": ("build", "make", "make me", "put together", "whip up", "knock together"),
            "thing": (
                "a spreadsheet that tracks #tracked#",
                "a small web app that #app_does#",
                "a one-page document #doc_about#",
                "a diagram showing #diagram_of#",
                "a short interactive quiz on #quiz_on#",
                "a printable checklist for #checklist_for#",
            ),
            "tracked": (
                "my monthly expenses",
                "our team's holiday days",
                "the books I read this year",
                "my running mileage week by week",
                "household chores and who does them",
                "the flats I'm viewing and their rents",
            ),
            "app_does": (
                "splits a restaurant bill between friends",
                "converts recipes between metric and imperial",
                "times focus sessions with breaks",
                "picks a random lunch spot from a shortlist",
                "tracks how much water I drink each day",
            ),
            "doc_about": (
                "outlining a proposal for a four-day week",
                "explaining our new expense policy",
                "with onboarding steps for new starters",
                "laying out a plan for a garden makeover",
                "summarising the house rules for our flat share",
            ),
            "diagram_of": (
                "how an online order flows from checkout to delivery",
                "the reporting lines in a ten-person startup",
                "the steps of brewing pour-over coffee",
                "how a bill becomes law",
                "the stages of our hiring process",
            ),
            "quiz_on": (
                "world capitals",
                "the solar system",
                "basic kitchen safety",
                "famous paintings",
            ),
            "checklist_for": (
                "moving house",
                "a week-long camping trip",
                "launch day",
                "closing up the office at night",
            ),
            "detail": (
                "",
                "",
                ", ready to use",
                " — keep it simple",
                ", something I can share with others",
                ", nicely formatted",
                ", ready to download",
                " — an actual file, please",
            ),
            "detail_q": ("", "", ", ready to use", ", nicely formatted", ", ready to download"),
        }
    ),
    banned=frozenset({"artifacts", "artifact", "artefacts", "artefact"}),
)

CATEGORIES: tuple[Category, ...] = (
    WEB_SEARCH,
    LINK_READ,
    IMAGE_CREATE,
    ARTIFACTS_CREATE,
)
