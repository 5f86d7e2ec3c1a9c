"""Direct routing to the six settings tools: look, answering model, thinking depth, helpers,
highlight shade and typeface.

Every prompt carries the value the tool must receive as a slot drawn from a small real-word pool,
so the pinned argument is exactly what the user typed. The grammars avoid the tools' own names
("theme", "model", "effort", "accent", "font" ...) so keyword routing gets no free signal.
"""

from __future__ import annotations

from dittobench.core.prng import Stream
from dittobench.generate.tools.category import Category, Pin
from dittobench.generate.tools.wording import with_wrap

MAY_I = ("can I have", "could I get", "may I have", "could I have")

THEMES = (
    "dark", "light", "high contrast", "sepia", "midnight", "solarized", "dim", "paper",
    "graphite", "ocean", "forest", "nord", "dracula", "dusk",
)  # fmt: skip
MODELS = (
    "gpt-5-mini", "gpt-5", "gpt-4.1", "claude-sonnet-4", "claude-opus-4", "claude-haiku-3.5",
    "llama-4-scout", "llama-4-maverick", "qwen3-32b", "mistral-large", "gemini-2.5-pro",
    "gemini-2.5-flash", "deepseek-r1", "deepseek-v3", "command-r-plus", "phi-4",
)  # fmt: skip
FEATURES = (
    "web results", "image generation", "code execution", "web browsing", "link reading",
    "calendar lookups", "email sending", "background jobs", "memory search", "image editing",
    "file previews", "document building",
)  # fmt: skip
COLORS = (
    "teal", "coral", "amber", "crimson", "indigo", "lavender", "mint", "olive", "magenta",
    "turquoise", "navy", "burgundy", "mustard", "peach", "plum", "emerald", "cobalt", "saffron",
    "chartreuse", "slate",
)  # fmt: skip
FONTS = (
    "Inter", "Georgia", "JetBrains Mono", "Fira Code", "Roboto", "Helvetica", "Merriweather",
    "Lato", "Open Sans", "Source Serif", "IBM Plex Sans", "Atkinson Hyperlegible", "Garamond",
    "Courier New", "Nunito", "Verdana",
)  # fmt: skip


def theme_name(stream: Stream) -> str:
    return stream.choice(THEMES)


def model_name(stream: Stream) -> str:
    return stream.choice(MODELS)


def any_level(stream: Stream) -> str:
    return stream.choice(("low", "medium", "high"))


def higher_level(stream: Stream) -> str:
    """A level that fits "think harder": never ``low``."""
    return stream.choice(("medium", "high"))


def lower_level(stream: Stream) -> str:
    """A level that fits "ease off": never ``high``."""
    return stream.choice(("low", "medium"))


def feature_name(stream: Stream) -> str:
    return stream.choice(FEATURES)


def color_name(stream: Stream) -> str:
    return stream.choice(COLORS)


def font_name(stream: Stream) -> str:
    return stream.choice(FONTS)


SETTINGS = Category(
    name="settings", group="direct_routing", tools=("set_theme",),
    grammar=with_wrap({
        "origin": (
            "#lead##go_to# {theme} #look##scope##why#.#trail#",
            "#lead##can_you# #switch_app# {theme} #look##when#?#trail#",
            "#lead##may_i# {theme} #look##when#, please?#trail#",
            "#lead##bored#, so #try# {theme} #look#.#trail#",
        ),
        "go_to": (
            "switch to", "change over to", "go with", "give me", "flip to", "move me to",
            "I'd like", "I want",
        ),
        "look": ("mode", "styling", "visuals"),
        "scope": ("", " for the app", " across the whole app", " everywhere", " from now on"),
        "why": ("", ", please", " if you can", ", just for a change", ", I fancy something new"),
        "can_you": ("can you", "could you", "would you", "any chance you could"),
        "switch_app": ("switch the app to", "change the interface to", "flip the app over to"),
        "when": ("", " from now on", " for a while", " for the rest of the day"),
        "may_i": MAY_I,
        "bored": (
            "I'm bored of how the app looks", "the current look is getting on my nerves",
            "I want a fresh look", "the interface feels stale", "I need a change of scenery",
        ),
        "try": ("let's try", "switch me over to", "I'd like to try", "go ahead and use"),
    }),
    slots={"theme": theme_name},
    pins=(Pin(0, "theme", "theme"),),
    banned=frozenset({"set", "theme", "themes"}),
)  # fmt: skip

SET_MODEL = Category(
    name="set_model", group="direct_routing", tools=("set_main_model",),
    grammar=with_wrap({
        "origin": (
            "#lead##move_to# {model}#span##why#.#trail#",
            "#lead##can_you# #move_q# {model}#span#?#trail#",
            "#lead##rather# {model}#span#.#trail#",
            "#lead##reason#, so #then# {model}.#trail#",
        ),
        "move_to": (
            "switch to", "swap over to", "change over to", "use", "move us over to",
            "answer with", "put me on", "go with",
        ),
        "span": (
            "", " from now on", " for the rest of this conversation", " for this thread",
            " going forward", " instead",
        ),
        "why": ("", ", please", ", I want to compare answers", " if you can"),
        "can_you": ("can you", "could you", "would you", "any chance you could"),
        "move_q": ("switch to", "swap over to", "run on", "answer using", "start using"),
        "rather": (
            "I'd rather talk to", "I'd prefer answers from", "let's have my questions handled by",
            "I want replies coming from",
        ),
        "reason": (
            "I want to try a different engine", "I'd like a second opinion from another LLM",
            "my team standardised on another one", "the current answers feel a bit off",
            "a friend swears by a different one",
        ),
        "then": ("switch me to", "let's try", "please use", "go ahead and move to"),
    }),
    slots={"model": model_name},
    pins=(Pin(0, "model", "model"),),
    banned=frozenset({"set", "main", "model", "models"}),
)  # fmt: skip

SET_EFFORT = Category(
    name="set_effort", group="direct_routing", tools=("set_reasoning_effort",),
    grammar=with_wrap({
        "origin": (
            "#lead##dial# {effort}#span#.#trail#",
            "#lead##may_i# {effort} #depth##span#, please?#trail#",
            "#lead##fine# {effort} is fine for how long you #mull# before answering.#trail#",
            "#lead##harder#, #up#.#trail#",
            "#lead##easier#, #down#.#trail#",
        ),
        "dial": (
            "put your thinking level on", "change how hard you think to",
            "switch your thinking depth to", "I'd like the thinking dial at",
            "turn the deliberation level to", "keep your thinking depth at",
        ),
        "may_i": MAY_I,
        "depth": ("thinking depth", "deliberation", "thinking time"),
        "fine": ("honestly,", "frankly,", "for me,", "I think", "I reckon"),
        "mull": ("think", "mull things over", "chew on things", "deliberate"),
        "span": ("", " from now on", " for this conversation", " for the next few questions"),
        "harder": (
            "think harder on these questions", "I need more careful answers",
            "slow down and think things through", "take more time before replying",
            "these problems are tricky, so think them through properly",
        ),
        "up": (
            "go with {effort_up}", "bump it up to {effort_up}", "take it up to {effort_up}",
            "{effort_up} at least",
        ),
        "easier": (
            "you don't need to think so hard", "I just want quick answers",
            "ease off the deep thinking", "less pondering, more answering",
            "these are simple questions, no need to overthink",
        ),
        "down": (
            "go with {effort_down}", "drop it to {effort_down}", "take it down to {effort_down}",
            "{effort_down} is plenty",
        ),
    }),
    slots={"effort": any_level, "effort_up": higher_level, "effort_down": lower_level},
    pins=(
        Pin(0, "effort", "effort"), Pin(0, "effort", "effort_up"), Pin(0, "effort", "effort_down"),
    ),
    banned=frozenset({"set", "reasoning", "reason", "effort", "efforts"}),
)  # fmt: skip

SET_TOOL_PREFS = Category(
    name="set_tool_prefs", group="direct_routing", tools=("set_chat_tool_preferences",),
    grammar=with_wrap({
        "origin": (
            "#lead##stop# {feature}#here##unless#.#trail#",
            "#lead##start# {feature}#here##whenever#.#trail#",
            "#lead#can you #q_switch# {feature}#here#?#trail#",
            "#lead##from_now#only use {feature} when I #explicit#.#trail#",
        ),
        "stop": (
            "stop using", "don't use", "please skip", "hold off on", "switch off", "turn off",
            "no more", "I don't want",
        ),
        "here": ("", " in this conversation", " for this thread", " here", " for now"),
        "unless": ("", " unless I ask", " unless I say so", " unless I specifically ask"),
        "start": (
            "go ahead and use", "feel free to use", "switch on", "turn on", "please lean on",
            "make use of", "you can use",
        ),
        "whenever": (
            "", " whenever it helps", " if it helps", " without asking me first",
            " whenever it makes sense",
        ),
        "q_switch": (
            "stop using", "stop relying on", "switch off", "avoid", "turn on", "start using",
        ),
        "from_now": ("", "in this conversation, ", "for this thread, ", "from now on, "),
        "explicit": ("explicitly ask", "say so", "tell you to", "mention it"),
    }),
    slots={"feature": feature_name},
    pins=(Pin(0, "preferences", "feature"),),
    banned=frozenset({"set", "chat", "tool", "tools", "preferences", "preference"}),
)  # fmt: skip

SET_ACCENT = Category(
    name="set_accent", group="direct_routing", tools=("set_accent_color",),
    grammar=with_wrap({
        "origin": (
            "#lead##change# #part# to {color}#scope#.#trail#",
            "#lead#make #part# {color}#scope#.#trail#",
            "#lead#I'd like #part# in {color}#scope#.#trail#",
            "#lead#can #part# be {color} instead#scope#?#trail#",
            "#lead##may_i# {color} highlights#scope#, please?#trail#",
            "#lead##dull#, so #try# {color}.#trail#",
        ),
        "change": ("change", "switch", "turn"),
        "part": (
            "the highlight shade", "the highlight tint", "the highlights", "the buttons and links",
            "the highlighted bits",
        ),
        "scope": ("", " across the app", " everywhere", " from now on"),
        "may_i": MAY_I,
        "dull": (
            "I'm not a fan of the current highlight tint", "the highlights feel a bit dull",
            "I fancy a different highlight shade", "the buttons all blend in right now",
        ),
        "try": ("let's try", "switch over to", "go with", "I'd like"),
    }),
    slots={"color": color_name},
    pins=(Pin(0, "color", "color"),),
    banned=frozenset({"set", "accent", "color", "colour", "colors", "colours"}),
)  # fmt: skip

SET_FONT = Category(
    name="set_font", group="direct_routing", tools=("set_chat_font",),
    grammar=with_wrap({
        "origin": (
            "#lead##change# #text# to {font}#span#.#trail#",
            "#lead#I'd like #shown# #displayed# in {font}#span#.#trail#",
            "#lead#can you #display# #shown# in {font}#span#?#trail#",
            "#lead##may_i# {font} for the text#span#, please?#trail#",
            "#lead##cramped#, so #try# {font}.#trail#",
        ),
        "change": ("change", "switch", "swap"),
        "text": (
            "the typeface", "the lettering", "the text style", "the message text",
            "the typeface for messages",
        ),
        "span": ("", " from now on", " across the app", " going forward"),
        "shown": ("the messages", "everything I read", "our conversation", "the replies"),
        "displayed": ("shown", "displayed", "rendered"),
        "display": ("show", "display", "render"),
        "may_i": MAY_I,
        "cramped": (
            "the current lettering is hard on my eyes", "the text looks a bit cramped",
            "I'm tired of how the messages look", "reading in here feels like a chore",
        ),
        "try": ("let's try", "switch the typeface to", "give me", "I'd like to try"),
    }),
    slots={"font": font_name},
    pins=(Pin(0, "font", "font"),),
    banned=frozenset({"set", "chat", "font", "fonts"}),
)  # fmt: skip

CATEGORIES: tuple[Category, ...] = (
    SETTINGS, SET_MODEL, SET_EFFORT, SET_TOOL_PREFS, SET_ACCENT, SET_FONT,
)  # fmt: skip
