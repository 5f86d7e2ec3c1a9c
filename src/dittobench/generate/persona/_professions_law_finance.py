"""Attributes only lawyers and people in finance hold.

Law: the practice area (changing) and the bar admission (fixed). Finance: the coverage sector
(changing) and the professional certification (fixed). ``professions`` gathers these with the
software and medicine attributes.
"""

from __future__ import annotations

from dittobench.generate.persona._professions_kit import LEAD, SOON, THEIRS, WHO
from dittobench.generate.persona._value_pools import choices
from dittobench.generate.persona.attribute import Attribute, Choice

PRACTICE_AREA = Attribute(
    name="practice_area",
    title="My area of legal practice",
    kind="changing",
    profession="law",
    values=(
        *choices("employment law", "family law", "intellectual property", "tax law"),
        *choices("commercial litigation", "criminal defence", "immigration law"),
        *choices("real estate law", "environmental law", "insolvency", "data protection"),
        *choices("personal injury", "construction disputes", "trusts and estates"),
        *choices("media law", "international arbitration"),
        Choice("mergers and acquisitions", ("M&A",)),
        Choice("competition law", ("antitrust", "antitrust law")),
        Choice("maritime law", ("shipping law", "admiralty law")),
    ),
    grammar={
        "state": (
            "#lead#I do {value}, mostly.",
            "#lead#what fills my caseload is {value}.",
            "Most of my files are {value} matters.#tail#",
            "#lead#I've built my career around {value}.",
            "My practice is {value}, through and through.#tail#",
            "#lead#I spend my weeks on {value} files.",
        ),
        "lead": LEAD,
        "tail": ("", " Never a dull day.", " Lots of paperwork."),
        "change": (
            "I've moved from {old} into {value}.#soon#",
            "Switched teams at the firm: no more {old}, I'm doing {value} now.#soon#",
            "My caseload is all {value} these days; {old} is behind me.#soon#",
            "Took a new role in {value} after years of {old}.#soon#",
            "Big career move: I've left {old} and I'm practising {value} now.#soon#",
            "Goodbye {old}, hello {value}.#soon#",
        ),
        "soon": SOON,
        "other": (
            "#who#{person} does {value} at a big firm.#theirs#",
            "#who#{person} just moved into {value}.#theirs#",
            "#who#{person} has spent years in {value}.#theirs#",
            "#who#{person} swears {value} is the most interesting field there is.#theirs#",
            "#who#{person} took a job in {value} this month.#theirs#",
            "#who#{person} handles {value} matters all day.#theirs#",
        ),
        "who": WHO,
        "theirs": THEIRS,
        "ask": (
            "What kind of legal work do I handle right now?",
            "Which area of law am I in currently?",
            "What's my legal specialism at present?",
            "Which field of law do I cover nowadays?",
        ),
        "ask_then": (
            "What kind of legal work did I handle on {date}?",
            "Which area of law was I in as of {date}?",
            "On {date}, what was my legal specialism?",
            "Back on {date}, which field of law did I cover?",
        ),
        "topic": ("my area of law", "the kind of legal work I do", "my practice area"),
    },
)

BAR = Attribute(
    name="bar_admission",
    title="Where I'm admitted to practise law",
    kind="fixed",
    profession="law",
    values=choices(
        "New York",
        "California",
        "Texas",
        "Illinois",
        "Massachusetts",
        "Florida",
        "Colorado",
        "Pennsylvania",
        "Ontario",
        "England and Wales",
        "Scotland",
        "New South Wales",
        "Ireland",
        "Singapore",
        "Hong Kong",
        "Quebec",
    ),
    grammar={
        "state": (
            "#lead#I was called to the bar in {value}.",
            "#lead#I'm admitted in {value}, nowhere else.",
            "I sat the bar exam in {value}, and that's where I'm admitted.#tail#",
            "#lead#my bar admission is {value}.",
            "I passed the bar in {value} years ago.#tail#",
            "#lead#{value} is the only place I'm admitted.",
        ),
        "lead": LEAD,
        "tail": ("", " Worst exam of my life.", " Feels like ages ago."),
        "other": (
            "#who#{person} was called to the bar in {value}.#theirs#",
            "#who#{person} is admitted in {value}.#theirs#",
            "#who#{person} just passed the bar exam in {value}.#theirs#",
            "#who#{person} sat the bar in {value}; I didn't.",
            "#who#{person} is studying for the {value} bar.#theirs#",
            "#who#{person} qualified in {value} last year.#theirs#",
        ),
        "who": WHO,
        "theirs": THEIRS,
        "ask": (
            "Where am I licensed to practise?",
            "Which jurisdiction am I qualified in?",
            "Where do I hold my licence as a lawyer?",
            "In which jurisdiction can I appear as an attorney?",
        ),
        "topic": ("where I'm licensed", "my jurisdiction", "where I qualified as a lawyer"),
    },
)

SECTOR = Attribute(
    name="coverage_sector",
    title="The sector I cover",
    kind="changing",
    profession="finance",
    values=(
        *choices("semiconductors", "regional banks", "consumer staples", "oil and gas"),
        *choices("medical devices", "luxury goods", "renewable energy", "homebuilders"),
        *choices("aerospace and defence", "fintech", "casino operators", "agribusiness"),
        *choices("water utilities", "media and entertainment"),
        Choice("biotech", ("biotechnology",)),
        Choice("REITs", ("real estate investment trusts",)),
        Choice("telecoms", ("telecommunications", "telecom")),
        Choice("mining stocks", ("miners", "mining")),
    ),
    grammar={
        "state": (
            "#lead#I cover {value} on the desk.",
            "#lead#my patch is {value}.",
            "I'm the {value} analyst on my team.#tail#",
            "#lead#my coverage universe is {value}.",
            "All my models are {value} names.#tail#",
            "#lead#I spend my days on {value}.",
        ),
        "lead": LEAD,
        "tail": ("", " Never boring.", " Earnings season is brutal."),
        "change": (
            "I've been moved off {old} and onto {value}.#soon#",
            "New coverage for me: {value}, after years on {old}.#soon#",
            "Handed my {old} names to a colleague; I'm on {value} now.#soon#",
            "Switched desks, so it's {value} instead of {old}.#soon#",
            "Goodbye {old}, hello {value}.#soon#",
            "My patch changed from {old} to {value} this quarter.#soon#",
        ),
        "soon": SOON,
        "other": (
            "#who#{person} covers {value}.#theirs#",
            "#who#{person} just took over {value} on their desk.#theirs#",
            "#who#{person} has been the {value} analyst for years.#theirs#",
            "#who#{person} won't shut up about {value}; it's their patch.",
            "#who#{person} moved onto {value} this quarter.#theirs#",
            "#who#{person} builds models for {value} names all day.#theirs#",
        ),
        "who": WHO,
        "theirs": THEIRS,
        "ask": (
            "Which sector do I follow as an analyst right now?",
            "What industry am I responsible for currently?",
            "What's my research focus at present?",
            "Which part of the market am I tracking nowadays?",
        ),
        "ask_then": (
            "Which sector did I follow on {date}?",
            "What industry was I responsible for as of {date}?",
            "On {date}, what was my research focus?",
            "Back on {date}, which part of the market was I tracking?",
        ),
        "topic": ("the sector I follow", "my research focus", "my coverage"),
    },
)

CERTIFICATION = Attribute(
    name="finance_certification",
    title="My finance qualification",
    kind="fixed",
    profession="finance",
    values=(
        Choice("CFA", ("Chartered Financial Analyst",)),
        Choice("CPA", ("Certified Public Accountant",)),
        Choice("CFP", ("Certified Financial Planner",)),
        Choice("ACCA", ("Chartered Certified Accountant",)),
        Choice("CAIA", ("Chartered Alternative Investment Analyst",)),
        Choice("FRM", ("Financial Risk Manager",)),
        Choice("CMA", ("Certified Management Accountant",)),
        Choice("CIMA", ("Chartered Management Accountant",)),
        Choice("PRM", ("Professional Risk Manager",)),
        Choice("CQF", ("Certificate in Quantitative Finance",)),
        Choice("ChFC", ("Chartered Financial Consultant",)),
        Choice("CTP", ("Certified Treasury Professional",)),
        Choice("CFE", ("Certified Fraud Examiner",)),
        Choice("CIPM", ("Certificate in Investment Performance Measurement",)),
    ),
    grammar={
        "state": (
            "#lead#I hold the {value}.",
            "#lead#I passed the final {value} exam a few years back.",
            "Got my {value} after far too many weekends of study.#tail#",
            "#lead#the {value} is what comes after my name on my business card.",
            "My {value} certificate hangs above my desk.#tail#",
            "#lead#I earned the {value} designation early in my career.",
        ),
        "lead": LEAD,
        "tail": ("", " Worth the pain.", " Never again, though."),
        "other": (
            "#who#{person} just passed the {value}.#theirs#",
            "#who#{person} holds the {value}.#theirs#",
            "#who#{person} is studying for the {value} and hates it.#theirs#",
            "#who#{person} got the {value} last year.#theirs#",
            "#who#{person} keeps telling me to do the {value} like they did.#theirs#",
            "#who#{person} has the {value} letters after their name.#theirs#",
        ),
        "who": WHO,
        "theirs": THEIRS,
        "ask": (
            "What professional qualification do I have?",
            "Which finance credential have I got?",
            "What certification do I have as a finance professional?",
            "Which accreditation did I earn?",
        ),
        "topic": ("my finance qualification", "my professional credential", "my certification"),
    },
)

LAW_FINANCE: tuple[Attribute, ...] = (PRACTICE_AREA, BAR, SECTOR, CERTIFICATION)
"""The law and finance attributes, two per profession."""
