"""Event lists of things the user gets done or brings home: projects, courses, races, books
and houseplants.

Each ``event`` says one happened today or just now; ``label`` names one event for ordering
questions; ``ask_count`` and ``ask_list`` ask how many and which, in words the event reports
avoid. ``other`` gives a contact's event of the same kind (the near miss).
"""

from __future__ import annotations

from dittobench.generate.persona._events_kit import BANG, OTHER_TAIL, SINCE, WHO
from dittobench.generate.persona._value_pools import choices
from dittobench.generate.persona.attribute import Attribute, Choice

PROJECTS = Attribute(
    name="projects_finished",
    title="Projects I've finished",
    kind="event_list",
    values=choices(
        "Halyard",
        "Copperline",
        "Tidewater",
        "Quillon",
        "Marrowstone",
        "Ironbark",
        "Cinderpath",
        "Wrenfield",
        "Oakhollow",
        "Bluefinch",
        "Glasswing",
        "Ravensbeck",
        "Emberline",
        "Larkmoor",
        "Saltreed",
        "Kestrelmark",
        "Brackenridge",
        "Silverfen",
    ),
    grammar={
        "event": (
            "Finally wrapped up {value} #when##bang##relief#",
            "{value} is officially done#bang##relief#",
            "Signed off on the last piece of {value} #when#.#relief#",
            "Handed {value} over to the client #when##bang##relief#",
            "We closed out {value} #when#, and it feels amazing.",
            "Delivered the final version of {value} #when##bang#",
            "Put the finishing touches on {value} #when#, so that one is done and dusted.",
        ),
        "when": ("today", "this afternoon", "this morning", "an hour ago"),
        "bang": BANG,
        "relief": ("", " Such a relief.", " Time to celebrate.", " Months of effort, all done."),
        "other": (
            "#who#{person} just wrapped up {value} at their company; I had nothing to do with "
            "it.#other_tail#",
            "#who#{person}'s team finally delivered {value} today. Not mine, but good for "
            "them.#other_tail#",
            "#who#{person} has been buried in {value} for months and got it out the door this "
            "week.#other_tail#",
            "#who#{person} is celebrating: they closed out {value} this afternoon.#other_tail#",
            "Big day for {person}, who handed {value} over to their client.#other_tail#",
            "#who#{person} keeps talking about {value}, which they just shipped. It's their baby, "
            "not mine.#other_tail#",
        ),
        "who": WHO,
        "other_tail": OTHER_TAIL,
        "label": ("finishing {value}", "the {value} project", "wrapping up {value}"),
        "ask_count": (
            "How many projects have I completed #since#?",
            "How many pieces of work have I got over the line #since#?",
            "Since we began chatting, how many projects have I brought to completion?",
            "What's the number of projects I've completed #since#?",
        ),
        "ask_list": (
            "Which projects have I completed?",
            "What work have I got over the line #since#?",
            "Name the projects I've brought to completion.",
            "Which of my projects have reached the end?",
        ),
        "since": SINCE,
    },
)

COURSES = Attribute(
    name="courses",
    title="Courses I've taken",
    kind="event_list",
    values=choices(
        "Conversational Italian",
        "Wilderness First Aid",
        "Introductory Bookkeeping",
        "Beginner Welding",
        "Public Speaking Fundamentals",
        "Digital Photography Basics",
        "Creative Nonfiction Writing",
        "Knife Skills for Home Cooks",
        "Furniture Restoration",
        "Backyard Astronomy",
        "Garden Design Essentials",
        "Wine Tasting Fundamentals",
        "Coastal Navigation",
        "Screen Printing",
        "Jazz Piano for Adults",
        "Mindful Leadership",
        "Data Analysis with Spreadsheets",
    ),
    grammar={
        "event": (
            "Just finished the last session of {value}#bang##tail#",
            "Got my certificate for {value} #when##bang##tail#",
            "Wrapped up {value} #when#, final assessment and all.",
            "Passed the final test for {value} #when##bang#",
            "That's {value} done#bang# The last lesson was #when#.",
            "Graduated from the {value} course #when#, feeling pretty proud.",
        ),
        "when": ("today", "this afternoon", "this morning", "this evening"),
        "bang": BANG,
        "tail": ("", " Onwards!", " Feeling pretty proud.", " Worth every evening I put in."),
        "other": (
            "#who#{person} just finished {value}; I've never tried it myself.#other_tail#",
            "#who#{person} got a certificate for {value} today and keeps showing it to "
            "everyone.#other_tail#",
            "#who#{person} signed up for {value} and passed it this week. Not something I've "
            "done.#other_tail#",
            "#who#{person} wrapped up {value} this evening, lucky them.#other_tail#",
            "#who#{person} wants me to try {value} after finishing it themselves.#other_tail#",
            "#who#{person} earned a pass in {value} this month, which I only know because they "
            "told me.#other_tail#",
        ),
        "who": WHO,
        "other_tail": OTHER_TAIL,
        "label": ("the {value} course", "finishing {value}", "my {value} course"),
        "ask_count": (
            "How many classes have I taken #since#?",
            "How many pieces of training have I got through #since#?",
            "Since we began chatting, how many classes have I completed?",
            "Count up the classes I've done: what's the number?",
        ),
        "ask_list": (
            "Which classes have I taken?",
            "What have I studied #since#?",
            "Name the training programmes I've got through.",
            "Which subjects have I taken classes in?",
        ),
        "since": SINCE,
    },
)

RACES = Attribute(
    name="races",
    title="Races I've run",
    kind="event_list",
    values=choices(
        "Harbourfront Half Marathon",
        "Cedar Ridge Trail Race",
        "Lakeshore Marathon",
        "Old Mill Fun Run",
        "Ember Valley Ultra",
        "Greystone Hill Climb",
        "Northgate Night Run",
        "Moorland Fell Race",
        "Canal Path Relay",
        "Saltflats Sprint Triathlon",
        "Pinecrest Trail Half",
        "Riverbend Turkey Trot",
        "Bayside Mile",
        "Highland Duathlon",
        "Frostbite Five Miler",
        "Thornbury Park Chase",
    ),
    grammar={
        "event": (
            "Just crossed the finish line at the {value}#bang##tail#",
            "Finished the {value} #when#, and my legs are wrecked.",
            "Got my medal from the {value} #when##bang##tail#",
            "The {value} is done and dusted#bang##tail#",
            "Set a personal best at the {value} #when##bang#",
            "Survived the {value} #when#.#tail#",
        ),
        "when": ("today", "this morning", "an hour ago"),
        "bang": BANG,
        "tail": ("", " Stairs are going to hurt tomorrow.", " Time for a big brunch."),
        "other": (
            "#who#{person} ran the {value} this morning; I was just cheering from the "
            "side.#other_tail#",
            "#who#{person} finished the {value} today, and I didn't take part.#other_tail#",
            "#who#{person} is training for the {value}, which I'm definitely not "
            "doing.#other_tail#",
            "#who#{person} got a medal from the {value} and won't take it off.#other_tail#",
            "#who#{person} set a personal best at the {value}. I watched from the "
            "cafe.#other_tail#",
            "I was at the {value} today, but only to hold {person}'s jacket while they "
            "ran.#other_tail#",
        ),
        "who": WHO,
        "other_tail": OTHER_TAIL,
        "label": ("the {value}", "running the {value}", "my {value} finish"),
        "ask_count": (
            "How many races have I run #since#?",
            "How many events have I competed in #since#?",
            "Count the races I've entered: how many is it?",
            "Since we began chatting, how many competitive runs have I entered?",
        ),
        "ask_list": (
            "Which races have I run?",
            "What events have I competed in #since#?",
            "Name every race I've entered.",
            "Which running events have I taken part in?",
        ),
        "since": SINCE,
    },
)

BOOKS = Attribute(
    name="books",
    title="Books I've finished",
    kind="event_list",
    values=choices(
        "The Salt Cartographer",
        "A Lantern for Marguerite",
        "The Orchard at Vell",
        "Nine Winters North",
        "The Quiet Ledger",
        "Harbour of Small Hours",
        "Ashes Over Carrow",
        "Letters from Ostrava",
        "The Lighthouse Accounts",
        "A Field Guide to Leaving",
        "The Tin Crown",
        "Under the Juniper Moon",
        "The Last Ferry to Halden",
        "Songs for an Empty House",
        "What the River Kept",
        "The Year of Small Fires",
    ),
    grammar={
        "event": (
            "Just finished {value}#bang##tail#",
            "Turned the last page of {value} #when#, and I'm a bit of a wreck.",
            "Stayed up far too late to get to the end of {value}#bang##tail#",
            "Finally got through {value} #when##bang##tail#",
            "Polished off {value} on the train #when##bang#",
            "Closed {value} for the last time #when#.#tail#",
        ),
        "when": ("today", "this morning", "tonight", "just now"),
        "bang": BANG,
        "tail": ("", " Couldn't put it down.", " That ending!", " I need a day to recover."),
        "other": (
            "#who#{person} just finished {value} and keeps quoting it at me. I haven't opened "
            "it.#other_tail#",
            "#who#{person} lent me their copy of {value} after getting to the end; it's unread on "
            "my shelf.#other_tail#",
            "#who#{person} stayed up all night with {value}, apparently. Not my kind of "
            "thing.#other_tail#",
            "#who#{person} got through {value} on holiday and wants to discuss it. I'd have to "
            "start it first.#other_tail#",
            "#who#{person} can't stop talking about the ending of {value}, which I know nothing "
            "about.#other_tail#",
            "#who#{person} finished {value} for their book club this week; I'm not in "
            "it.#other_tail#",
        ),
        "who": WHO,
        "other_tail": OTHER_TAIL,
        "label": ("finishing {value}", "reading {value}"),
        "ask_count": (
            "How many books have I read #since#?",
            "How many titles have I read #since#?",
            "What's my reading tally #since#?",
            "Count the books I've read: how many?",
        ),
        "ask_list": (
            "Which books have I read?",
            "What have I been reading #since#?",
            "Name the titles I've read.",
            "Which novels are on my completed reading list?",
        ),
        "since": SINCE,
    },
)

HOUSEPLANTS = Attribute(
    name="houseplants",
    title="Houseplants I've bought",
    kind="event_list",
    values=(
        Choice("fiddle-leaf fig", ("fiddle leaf fig",)),
        Choice("snake plant", ("sansevieria",)),
        Choice("ZZ plant", ("zamioculcas",)),
        Choice("peace lily", ("spathiphyllum",)),
        Choice("string of pearls"),
        Choice("bird of paradise", ("strelitzia",)),
        Choice("Chinese money plant", ("pilea", "Pilea peperomioides")),
        Choice("calathea"),
        Choice("rubber plant", ("rubber tree", "Ficus elastica")),
        Choice("spider plant"),
        Choice("Boston fern"),
        Choice("maidenhair fern"),
        Choice("aloe vera"),
        Choice("jade plant"),
        Choice("prayer plant", ("maranta",)),
        Choice("monstera", ("Monstera deliciosa", "Swiss cheese plant")),
        Choice("philodendron"),
        Choice("hoya", ("wax plant",)),
        Choice("anthurium"),
        Choice("staghorn fern"),
    ),
    grammar={
        "event": (
            "Say hello to my new {value}#bang##tail#",
            "Just brought my new {value} home#bang##tail#",
            "My new {value} is sitting on the windowsill right now, looking very pleased with "
            "itself.",
            "The garden centre had the loveliest {value}, so it came home with me #when#.",
            "Picked up my new {value} #when##bang##tail#",
            "Treated myself to a gorgeous {value} #when##bang##tail#",
        ),
        "when": ("today", "this morning", "this afternoon", "just now"),
        "bang": BANG,
        "tail": (
            "",
            " Now to find it a sunny spot.",
            " Fingers crossed I keep it alive.",
            " The shelf is getting crowded.",
        ),
        "other": (
            "#who#{person} just got a new {value} for their flat; I'm not allowed near "
            "it.#other_tail#",
            "#who#{person} showed me the {value} they picked up today. It's theirs, not "
            "mine.#other_tail#",
            "#who#{person} bought a new {value} this weekend and named it already.#other_tail#",
            "#who#{person} came home with a new {value} from the garden centre, while I just "
            "watched.#other_tail#",
            "#who#{person}'s new {value} is thriving on their balcony, apparently.#other_tail#",
            "#who#{person} asked my advice on the {value} they just got. I've never owned "
            "one.#other_tail#",
        ),
        "who": WHO,
        "other_tail": OTHER_TAIL,
        "label": ("buying the {value}", "the {value} I got", "getting my {value}"),
        "ask_count": (
            "How many plants have I bought #since#?",
            "How many houseplants have I acquired #since#?",
            "What's the count of potted greenery I've purchased #since#?",
            "Since we began chatting, how many plants have I added to my collection?",
        ),
        "ask_list": (
            "Which plants have I bought?",
            "What houseplants have I acquired #since#?",
            "Name the greenery I've purchased.",
            "Which species have I added to my collection?",
        ),
        "since": SINCE,
    },
)

EVENT_LISTS: tuple[Attribute, ...] = (PROJECTS, COURSES, RACES, BOOKS, HOUSEPLANTS)
"""The milestone event lists, in declaration order."""
