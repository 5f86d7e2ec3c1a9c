"""Things the user does over time: event lists, a hobby taken up and perhaps dropped, and codes
the user asks the assistant to keep.

The ten event lists live in ``_events_outings`` and ``_events_milestones`` (their shared grammar
pieces in ``_events_kit``); this module adds the ``hobby`` activity and the ``saved_code`` write
attribute, fixes the order and is the one list to register.

The hobby's ``quit`` lines say plainly that the activity ended; ``start`` and ``still`` never
hint at an ending, and ``ask`` is worded the same whichever happened. ``saved_code`` values are
labels ("locker combination"); the code itself is coined per seed and fills ``{value}``.
"""

from __future__ import annotations

from dittobench.generate.persona import _events_milestones as milestones
from dittobench.generate.persona import _events_outings as outings
from dittobench.generate.persona.attribute import Attribute, Choice

HOBBY = Attribute(
    name="hobby",
    title="My hobbies",
    kind="activity",
    values=(
        Choice("pottery", ("ceramics",)),
        Choice("bouldering"),
        Choice("learning Portuguese", ("Portuguese",)),
        Choice("sourdough baking", ("sourdough", "baking sourdough")),
        Choice("watercolour painting", ("watercolor painting", "watercolour", "watercolor")),
        Choice("trail running"),
        Choice("salsa dancing", ("salsa",)),
        Choice("chess"),
        Choice("birdwatching", ("bird watching", "birding")),
        Choice("beekeeping", ("bee keeping",)),
        Choice("archery"),
        Choice("kayaking"),
        Choice("crochet", ("crocheting",)),
        Choice("calligraphy"),
        Choice("woodworking", ("woodwork",)),
        Choice("open-water swimming", ("open water swimming", "wild swimming")),
        Choice("Brazilian jiu-jitsu", ("jiu-jitsu", "jiu jitsu", "BJJ")),
        Choice("stand-up paddleboarding", ("paddleboarding", "paddle boarding")),
        Choice("astrophotography"),
        Choice("mountain biking"),
        Choice("embroidery"),
        Choice("origami"),
        Choice("ballroom dancing"),
        Choice("rowing"),
        Choice("tai chi", ("t'ai chi",)),
        Choice("fly fishing", ("fly-fishing",)),
        Choice("candle making", ("candle-making",)),
        Choice("geocaching"),
        Choice("quilting"),
        Choice("skateboarding"),
        Choice("surfing"),
        Choice("learning Japanese", ("Japanese",)),
        Choice("Pilates"),
        Choice("improv theatre", ("improv", "improv theater")),
    ),
    grammar={
        "start": (
            "I've taken up {value}#bang##start_tail#",
            "Guess what: I've got really into {value} recently.#start_tail#",
            "Started {value} #recent# and I'm hooked#bang#",
            "New obsession: {value}.#start_tail#",
            "Tried {value} for the first time #recent# and loved it#bang#",
            "A friend talked me into {value}, and I'm hooked.",
            "Decided to give {value} a proper go this year, and I'm enjoying it so much.",
        ),
        "recent": ("this week", "last weekend", "on Sunday"),
        "bang": ("!", "."),
        "start_tail": (
            "",
            " Absolutely loving it.",
            " It's become the highlight of my week.",
            " I think this one will stick.",
        ),
        "still": (
            "Still loving {value}: I make time for it #freq#.",
            "At this point {value} is a fixture of my week, #freq# without fail.",
            "Another week, another few hours of {value}. Still hooked.",
            "Still at {value} #freq#, and getting better every time.",
            "Keeping up with {value} #freq#; it's the best bit of my week.",
            "Honestly, {value} continues to be my favourite way to unwind, #freq#.",
            "Made time for {value} again #recent#; it's a real habit at this point.",
        ),
        "freq": ("twice a week", "every weekend", "most evenings", "every Saturday morning"),
        "quit": (
            "I've given up {value} for good.#quit_reason#",
            "I quit {value} #past#, and I won't be returning to it.#quit_reason#",
            "No more {value} for me, I've stopped completely.#quit_reason#",
            "I'm officially done with {value}.#quit_reason#",
            "Called it quits on {value} #past#.#quit_reason#",
            "I dropped {value} #past# and won't be picking it up again.",
            "As of #past#, {value} is over for me; I've stopped for good.",
        ),
        "past": ("last week", "a couple of weeks ago", "this month"),
        "quit_reason": (
            "",
            " It stopped being fun.",
            " I never have the time for it anymore.",
            " My heart wasn't in it.",
            " It was costing too much.",
        ),
        "ask": (
            "How's {value} going for me these days?",
            "Am I into {value} at the moment?",
            "What's the latest with me and {value}?",
            "Is {value} something I do nowadays?",
            "Is {value} part of my life right now?",
            "Where do I stand with {value} lately?",
            "Is {value} on my schedule currently?",
        ),
    },
)

SAVED_CODE = Attribute(
    name="saved_code",
    title="Codes I've asked you to keep",
    kind="write",
    values=(
        Choice("locker combination"),
        Choice("bike lock code"),
        Choice("gym member number", ("gym membership number",)),
        Choice("parking permit number"),
        Choice("library card number"),
        Choice("garage door code"),
        Choice("frequent flyer number", ("frequent flier number",)),
        Choice("luggage lock combination"),
        Choice("storage unit code"),
        Choice("building entry code"),
        Choice("voicemail PIN", ("voicemail pin code",)),
        Choice("house alarm code"),
        Choice("loyalty card number"),
        Choice("office door code"),
        Choice("vet client number"),
        Choice("pharmacy account number"),
    ),
    grammar={
        "state": (
            "#aside#typed my {label} wrong twice this morning. It's {value}, you'd think I'd have "
            "it down by now.",
            "#aside#my {label} is {value}, and I always mix up the middle bit.",
            "#aside#had to dig out my {label} today: {value}. Took me ages to find it.",
            "#aside#the {label} they gave me is {value}, which I can never keep in my head.",
            "#aside#my {label}, {value}, came up at the front desk today and I blanked for a "
            "second.",
            "#aside#I nearly wrote my {label} ({value}) on a sticky note at work, then thought "
            "better of it.",
        ),
        "aside": ("", "By the way, ", "Random thing: ", "Funny moment today: "),
        "save": (
            "#please#keep a note: my {label} is {value}.#thanks#",
            "Can you remember that my {label} is {value}?#thanks#",
            "Save this for me: {label}, {value}.#thanks#",
            "#please#store my {label} somewhere safe. It's {value}.#thanks#",
            "#please#jot down my {label}, it's {value}.#thanks#",
            "For future reference, my {label} is {value}. Hang on to that for me.#thanks#",
            "I'd like you to remember my {label}: {value}.#thanks#",
        ),
        "please": ("Please ", ""),
        "thanks": ("", " Thanks.", " Cheers!", " Appreciate it."),
        "update": (
            "My {label} changed: it's {value} now, please update it.#thanks#",
            "Heads up, my {label} has been reset to {value}. Swap out the old one.#thanks#",
            "New {label}: {value}. The old one no longer works, so please replace it.#thanks#",
            "They gave me a new {label}; from now on it's {value}. Update your note, "
            "please.#thanks#",
            "Please overwrite my {label} with {value}; the previous one is dead.#thanks#",
            "Correction to what you've got saved: my {label} is now {value}.#thanks#",
        ),
        "delete": (
            "Please forget my {label}, I don't want it stored.#thanks#",
            "Can you delete my {label} from your notes?#thanks#",
            "Wipe my {label} from memory; I'd rather it wasn't kept anywhere.#thanks#",
            "Remove my {label}, please. I don't need you holding onto it.#thanks#",
            "Scrap the {label} you have for me and erase it completely.#thanks#",
            "I've changed my mind about my {label}: get rid of it, don't keep it on file.#thanks#",
        ),
        "ask": (
            "What's my {label}?",
            "Remind me, what's my {label} again?",
            "I'm blanking here: what's my {label}?",
            "Could you tell me my {label}?",
            "Do you have my {label} handy?",
            "What was my {label}, do you know?",
        ),
    },
)

ATTRIBUTES: tuple[Attribute, ...] = (
    *outings.EVENT_LISTS,
    *milestones.EVENT_LISTS,
    HOBBY,
    SAVED_CODE,
)
"""Every event list, the hobby and the saved codes, in declaration order."""
