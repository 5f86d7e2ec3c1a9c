"""The four professions and the attributes only people of one profession hold.

Each profession has two attributes (``profession=`` set): software, the main programming
language and the code editor (both changing); medicine, the specialty (fixed) and the ward or
clinic (changing); law, the practice area (changing) and the bar admission (fixed); finance, the
coverage sector (changing) and the professional certification (fixed).

The law and finance attributes live in ``_professions_law_finance``, the grammar pieces all
four professions share in ``_professions_kit``; ``WORK_TALK`` (per profession) and
``WORK_REPLY`` (shared), fact-free shop talk, live in ``_work_talk``. This module gathers and
re-exports them and is the one place to register.
"""

from __future__ import annotations

from dittobench.generate.persona._professions_kit import LEAD, SOON, THEIRS, WHO
from dittobench.generate.persona._professions_law_finance import LAW_FINANCE
from dittobench.generate.persona._value_pools import choices
from dittobench.generate.persona._work_talk import WORK_REPLY, WORK_TALK
from dittobench.generate.persona.attribute import Attribute, Choice

__all__ = ["ATTRIBUTES", "PROFESSIONS", "WORK_REPLY", "WORK_TALK"]

PROFESSIONS: tuple[str, ...] = ("software", "medicine", "law", "finance")

LANGUAGE = Attribute(
    name="programming_language",
    title="The programming language I use at work",
    kind="changing",
    profession="software",
    values=(
        *choices("Python", "Rust", "TypeScript", "Kotlin", "Java", "Scala", "Elixir"),
        *choices("Haskell", "PHP", "Clojure", "OCaml", "Erlang", "Dart", "Lua", "Perl"),
        *choices("Fortran", "Zig"),
        Choice("JavaScript", ("JS",)),
        Choice("C#", ("C sharp", "CSharp")),
    ),
    grammar={
        "state": (
            "#lead#most of my working hours are spent writing {value}.",
            "#lead#I write {value} pretty much nonstop at the office.",
            "Our whole backend is in {value}, so that's what I live in.#tail#",
            "#lead#{value} is my bread and butter at the office.",
            "My team's codebase is all {value}, and I'm in it from morning to night.",
            "#lead#I spend my days knee-deep in {value}.#tail#",
        ),
        "lead": LEAD,
        "tail": ("", " Love it most of the time.", " It has its quirks."),
        "change": (
            "We've moved off {old}, so I'm writing {value} full-time now.#soon#",
            "Big switch at the office: goodbye {old}, hello {value}.#soon#",
            "I've joined a team that builds everything in {value}, so {old} is behind me.#soon#",
            "Ported the last service away from {old}; from here on I'm writing {value}.#soon#",
            "After years of {old}, my day job is now {value}.#soon#",
            "Switched my main stack to {value} this month.#soon#",
        ),
        "soon": SOON,
        "other": (
            "#who#{person} writes {value} all day, unlike me.#theirs#",
            "#who#{person}'s team is all-in on {value}.#theirs#",
            "#who#{person} just switched jobs and now builds everything in {value}.#theirs#",
            "#who#{person} swears by {value} for everything they build.#theirs#",
            "#who#{person} spent lunch telling me why {value} is the best thing that ever "
            "happened to them.#theirs#",
            "#who#{person} has been writing {value} for a decade; I've barely touched it.#theirs#",
        ),
        "who": WHO,
        "theirs": THEIRS,
        "ask": (
            "Which programming language do I mostly use at the moment?",
            "What language am I coding in these days?",
            "What do I program in nowadays?",
            "Which language do I use for my job currently?",
        ),
        "ask_then": (
            "Which programming language was I mostly using on {date}?",
            "What language was I coding in as of {date}?",
            "On {date}, what did I program in for my job?",
            "Back on {date}, which language did I use professionally?",
        ),
        "topic": ("the programming language I use", "what I code in", "my main coding language"),
    },
)

EDITOR = Attribute(
    name="code_editor",
    title="The code editor I use",
    kind="changing",
    profession="software",
    values=(
        *choices("Neovim", "Vim", "Emacs", "PyCharm", "Zed", "Helix", "Xcode"),
        *choices("Android Studio", "WebStorm", "CLion", "BBEdit", "Notepad++", "Kakoune"),
        Choice("VS Code", ("Visual Studio Code", "VSCode")),
        Choice("IntelliJ IDEA", ("IntelliJ",)),
        Choice("Sublime Text", ("Sublime",)),
    ),
    grammar={
        "state": (
            "#lead#I live in {value} all day.",
            "#lead#{value} is where I spend my working hours.",
            "My setup is {value} with a dark theme and way too many plugins.",
            "#lead#I've spent years tuning my {value} config.",
            "Everything I type at the office goes through {value}.#tail#",
            "#lead#{value} is open on my screen from nine to six.",
        ),
        "lead": LEAD,
        "tail": ("", " Keyboard shortcuts are my love language.", " I'm very attached to it."),
        "change": (
            "I finally ditched {old} for {value}.#soon#",
            "Moved from {old} to {value} this week, and I'm not looking back.",
            "Gave {value} a try after years on {old}, and I've switched for real.#soon#",
            "My whole setup is {value} now; {old} had to go.#soon#",
            "Rebuilt my workflow around {value}, goodbye {old}.#soon#",
            "Uninstalled {old} today. It's all {value} from here.#soon#",
        ),
        "soon": SOON,
        "other": (
            "#who#{person} keeps telling me how great {value} is; it's what they use.#theirs#",
            "#who#{person} has {value} set up with more plugins than I can count.#theirs#",
            "#who#{person} just moved their whole setup over to {value}.#theirs#",
            "#who#{person} tried to convert me to {value} at lunch. I held firm.",
            "#who#{person} demoed their {value} config for an hour today.#theirs#",
            "#who#{person} would defend {value} to the death.#theirs#",
        ),
        "who": WHO,
        "theirs": THEIRS,
        "ask": (
            "Which editor do I use at the moment?",
            "What's my text editor these days?",
            "What IDE am I on right now?",
            "What tool do I write code in currently?",
        ),
        "ask_then": (
            "Which editor was I using on {date}?",
            "What was my text editor as of {date}?",
            "On {date}, what IDE did I write code in?",
            "Back on {date}, which code editor did I use?",
        ),
        "topic": ("my code editor", "the editor I write code in", "my coding tool"),
    },
)

SPECIALTY = Attribute(
    name="medical_specialty",
    title="My medical specialty",
    kind="fixed",
    profession="medicine",
    values=(
        *choices("cardiology", "nephrology", "dermatology", "oncology", "neurology"),
        *choices("geriatrics", "rheumatology", "endocrinology", "gastroenterology"),
        *choices("radiology", "psychiatry", "emergency medicine", "ophthalmology"),
        *choices("infectious diseases"),
        Choice("paediatrics", ("pediatrics",)),
        Choice("anaesthetics", ("anesthesiology", "anaesthesia", "anesthesia")),
        Choice("haematology", ("hematology",)),
        Choice("respiratory medicine", ("pulmonology",)),
        Choice(
            "obstetrics and gynaecology", ("obstetrics and gynecology", "OB-GYN", "obs and gynae")
        ),
    ),
    grammar={
        "state": (
            "#lead#I trained in {value}, and it's been my field ever since.",
            "#lead#my whole career has been in {value}.",
            "I'm a consultant in {value}, for what it's worth.",
            "#lead#I work in {value}, and I wouldn't swap it.",
            "#lead#I went into {value} straight after my foundation years.",
            "Spent my residency in {value} and never looked elsewhere.#tail#",
        ),
        "lead": LEAD,
        "tail": ("", " No regrets.", " Still love it."),
        "other": (
            "#who#{person} went into {value}, unlike me.#theirs#",
            "#who#{person} is a consultant in {value}.#theirs#",
            "#who#{person} just finished training in {value}.#theirs#",
            "#who#{person} has spent twenty years in {value}.#theirs#",
            "#who#{person} tried to talk me into {value} back in med school.#theirs#",
            "#who#{person} chose {value} and loves it.#theirs#",
        ),
        "who": WHO,
        "theirs": THEIRS,
        "ask": (
            "What's my medical specialty?",
            "Which branch of medicine am I in?",
            "What area of medicine do I specialise in?",
            "What kind of doctor am I?",
        ),
        "topic": ("my medical specialty", "my branch of medicine", "what kind of doctor I am"),
    },
)

WARD = Attribute(
    name="hospital_ward",
    title="The ward or clinic I work on",
    kind="changing",
    profession="medicine",
    values=(
        Choice("acute medical unit", ("AMU",)),
        Choice("coronary care unit", ("CCU",)),
        Choice("high dependency unit", ("HDU",)),
        Choice("minor injuries unit"),
        Choice("surgical assessment unit"),
        *choices("stroke unit", "renal unit", "burns unit", "frailty unit"),
        *choices("fracture clinic", "memory clinic", "diabetes clinic", "pain clinic"),
        *choices("respiratory ward", "paediatric ward", "labour ward", "day surgery unit"),
    ),
    grammar={
        "state": (
            "#lead#I'm based in the {value}, rota permitting.",
            "#lead#my shifts are all in the {value}.",
            "I've been working in the {value} for a while now.#tail#",
            "#lead#the {value} is my home turf.",
            "Most of my shifts are in the {value}, and I know every corner of it.",
            "#lead#you'll find me in the {value} most weeks.",
        ),
        "lead": LEAD,
        "tail": ("", " Busy, but I like the team.", " It keeps me on my toes."),
        "change": (
            "Rotated out of the {old}; I'm in the {value} now.#soon#",
            "New rota: I've moved from the {old} to the {value}.#soon#",
            "First week in the {value} after leaving the {old}.#soon#",
            "They've shifted me over to the {value}.#soon#",
            "Goodbye {old}, hello {value}.#soon#",
            "I've started in the {value}, so no more {old} for me.#soon#",
        ),
        "soon": SOON,
        "other": (
            "#who#{person} works in the {value}.#theirs#",
            "#who#{person} just got moved to the {value}.#theirs#",
            "#who#{person} has been running the {value} for years.#theirs#",
            "#who#{person} covers the {value} on nights.#theirs#",
            "#who#{person} loves the {value}, though I've never worked there.",
            "#who#{person} started in the {value} this month.#theirs#",
        ),
        "who": WHO,
        "theirs": THEIRS,
        "ask": (
            "Which ward or clinic am I assigned to right now?",
            "Where in the hospital do I currently work?",
            "What unit am I posted to these days?",
            "Which department am I on at the moment?",
        ),
        "ask_then": (
            "Which ward or clinic was I assigned to on {date}?",
            "Where in the hospital was I posted as of {date}?",
            "On {date}, what unit was I on?",
            "Back on {date}, which department did I work in?",
        ),
        "topic": ("the ward I work on", "where I work in the hospital", "my clinical unit"),
    },
)

ATTRIBUTES: tuple[Attribute, ...] = (LANGUAGE, EDITOR, SPECIALTY, WARD, *LAW_FINANCE)
"""Two attributes per profession, each with ``profession`` set."""
