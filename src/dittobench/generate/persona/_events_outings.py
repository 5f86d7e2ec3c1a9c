"""Event lists of places the user goes: trips, concerts, restaurants, museums and weddings.

Each ``event`` says one happened today or just now; ``label`` names one event for ordering
questions; ``ask_count`` and ``ask_list`` ask how many and which, in words the event reports
avoid. ``other`` gives a contact's event of the same kind (the near miss). Trips also carry
``ask_lure``, a question that takes for granted a visit the user never made.
"""

from __future__ import annotations

from dittobench.generate.persona._events_kit import BANG, OTHER_TAIL, SINCE, WHO
from dittobench.generate.persona._value_pools import choices
from dittobench.generate.persona.attribute import Attribute, Choice

TRIPS = Attribute(
    name="trips",
    title="Places I've travelled to",
    kind="event_list",
    values=(
        *choices("Lisbon", "Kyoto", "Marrakech", "Buenos Aires", "Ljubljana", "Tallinn"),
        *choices("Porto", "Seville", "Edinburgh", "Dubrovnik", "Hanoi", "Cape Town"),
        *choices("Vancouver", "Montreal", "Copenhagen", "Istanbul", "Oaxaca", "Tbilisi"),
        *choices("Bergen", "Salzburg", "Bruges", "Cartagena", "Chiang Mai", "Hobart"),
        Choice("Reykjavik", ("Reykjavík",)),
        Choice("Krakow", ("Kraków", "Cracow")),
        Choice("Naples", ("Napoli",)),
        Choice("Valparaíso", ("Valparaiso",)),
    ),
    grammar={
        "event": (
            "Just got back from {value}#bang##tail#",
            "Landed in {value} #when#, and the #first# is already #verdict#.",
            "Writing this from a little café in {value}#bang##tail#",
            "Made it to {value} #when##bang##tail#",
            "Back home after a few days in {value}#bang##tail#",
            "Checked into my hotel in {value} #when##bang#",
            "Spending the long weekend in {value} and loving every minute#bang#",
        ),
        "when": ("this morning", "an hour ago", "earlier today", "tonight"),
        "first": ("first coffee", "first walk around", "view from the room", "first meal"),
        "verdict": ("amazing", "a treat", "better than I hoped"),
        "bang": BANG,
        "tail": (
            "",
            " What a place.",
            " Totally worth it.",
            " My feet are killing me from all the walking.",
            " Highly recommend it.",
        ),
        "other": (
            "#who#{person} just flew out to {value} for a week, without me.#other_tail#",
            "#who#{person} is off in {value} right now, sending me photos as I sit at my "
            "desk.#other_tail#",
            "Jealous: {person} got back from {value} yesterday and won't stop talking about "
            "it.#other_tail#",
            "#who#{person} went to {value} on their own this weekend; I stayed home.#other_tail#",
            "#who#{person}'s holiday in {value} looks incredible from the pictures they sent "
            "me.#other_tail#",
            "Got a postcard from {person}, who's in {value} this week. Not my trip, "
            "sadly.#other_tail#",
        ),
        "who": WHO,
        "other_tail": OTHER_TAIL,
        "label": ("my trip to {value}", "the {value} trip", "my visit to {value}"),
        "ask_count": (
            "How many trips have I taken #since#?",
            "How many times have I travelled somewhere #since#?",
            "Count up my journeys for me: how many have there been #since#?",
            "What's my tally of getaways #since#?",
        ),
        "ask_list": (
            "Which cities have I travelled to?",
            "Where have my travels taken me #since#?",
            "Can you name every city I've visited #since#?",
            "Which destinations have I been to?",
        ),
        "since": SINCE,
        "ask_lure": (
            "What did I think of {value} when I was there?",
            "What was the highlight of my time in {value}?",
            "Where did I stay during my visit to {value}?",
            "What did I eat in {value}?",
            "How was the weather while I was in {value}?",
        ),
    },
)

CONCERTS = Attribute(
    name="concerts",
    title="Concerts I've been to",
    kind="event_list",
    values=choices(
        "Glass Harbour",
        "Lantern Years",
        "Marigold Static",
        "Northern Kites",
        "Saltwater Choir",
        "Hollow Pines",
        "Copper Moths",
        "Violet Transit",
        "Echo Meridian",
        "Midnight Ferns",
        "Quiet Atlas",
        "Neon Orchard",
        "Blue Tamarind",
        "Paper Satellites",
        "Velvet Undertow",
        "Wild Honey Parade",
    ),
    grammar={
        "event": (
            "Just saw {value} live#bang##tail#",
            "My ears are still ringing from {value} #when#.#tail#",
            "Front row for {value} #when#, absolutely unreal#bang#",
            "Caught {value} #when# and they played everything I wanted to hear.",
            "{value} put on an incredible show #when##bang##tail#",
            "Sang along with {value} #when# until my voice gave out#bang#",
        ),
        "when": ("tonight", "this evening", "earlier tonight"),
        "bang": BANG,
        "tail": (
            "",
            " Best night in ages.",
            " Worth every penny of the ticket.",
            " The encore was unbelievable.",
        ),
        "other": (
            "#who#{person} saw {value} live last night and sent me a shaky video. I wasn't "
            "there.#other_tail#",
            "#who#{person} went to see {value} without me, and I'm a little jealous.#other_tail#",
            "#who#{person} has tickets to {value} tonight; I'm staying in.#other_tail#",
            "#who#{person} won't stop raving about the {value} show they went to.#other_tail#",
            "#who#{person} dragged a friend to {value} this weekend. I skipped it.#other_tail#",
            "#who#{person} caught {value} on tour this week; I missed it.#other_tail#",
        ),
        "who": WHO,
        "other_tail": OTHER_TAIL,
        "label": ("the {value} concert", "seeing {value} live", "the {value} gig"),
        "ask_count": (
            "How many gigs have I been to #since#?",
            "How many live acts have I seen #since#?",
            "Count the concerts I've attended: how many is that?",
            "How often have I gone to a concert #since#?",
        ),
        "ask_list": (
            "Which bands have I seen perform?",
            "What artists have I watched on stage #since#?",
            "Name the musicians I've gone to hear.",
            "Which acts have I seen in concert?",
        ),
        "since": SINCE,
    },
)


RESTAURANTS = Attribute(
    name="restaurants",
    title="Restaurants I've tried",
    kind="event_list",
    values=(
        *choices("Casa Verbena", "The Brass Lantern", "Little Saffron", "Bistro Clementine"),
        *choices("Taverna Kalypso", "Pho Linh", "The Copper Pot", "Osteria Fiorella"),
        *choices("Masala Yard", "Noodle Atelier", "El Faro Azul", "Sushi Hanabi"),
        *choices("The Crooked Spoon", "Bodega Serrano", "Dumpling Republic", "Olive and Thyme"),
        Choice("Café Lumière", ("Cafe Lumiere",)),
    ),
    grammar={
        "event": (
            "Had dinner at {value} #night##bang##tail#",
            "Just tried {value} for lunch#bang##tail#",
            "Finally got a table at {value} #night##bang#",
            "Grabbed brunch at {value} this morning, and #tail_lc#",
            "Ate at {value} for the first time #night##bang##tail#",
            "Celebrated with a meal at {value} #night#.#tail#",
        ),
        "night": ("tonight", "this evening", "earlier tonight"),
        "bang": BANG,
        "tail": (
            "",
            " The food was outstanding.",
            " I'd go back in a heartbeat.",
            " Already planning a second visit.",
        ),
        "tail_lc": (
            "the food was outstanding.",
            "I'd go back in a heartbeat.",
            "I'm already planning a second visit.",
        ),
        "other": (
            "#who#{person} had dinner at {value} last night and sent me photos of every "
            "course.#other_tail#",
            "#who#{person} keeps recommending {value}; they've been, I haven't.#other_tail#",
            "#who#{person} took their parents to {value} tonight. I wasn't invited, "
            "ha.#other_tail#",
            "#who#{person} finally got a table at {value} this weekend, without me.#other_tail#",
            "#who#{person} tried {value} for lunch and says I'd love it. I've yet to "
            "go.#other_tail#",
            "#who#{person} celebrated their promotion at {value}; I was stuck at home.#other_tail#",
        ),
        "who": WHO,
        "other_tail": OTHER_TAIL,
        "label": ("dinner at {value}", "my meal at {value}", "trying {value}"),
        "ask_count": (
            "How many new places to eat have I checked out #since#?",
            "How many eateries have I been to #since#?",
            "Count the restaurants I've sampled: how many?",
            "Since we began chatting, how many spots have I gone out to eat at?",
        ),
        "ask_list": (
            "Which restaurants have I been to?",
            "Where have I eaten out #since#?",
            "Name the eateries I've checked out.",
            "What places have I dined at #since#?",
        ),
        "since": SINCE,
    },
)

MUSEUMS = Attribute(
    name="museums",
    title="Museums I've visited",
    kind="event_list",
    values=(
        *choices("Rijksmuseum", "Louvre", "Prado", "Uffizi", "Guggenheim", "Tate Modern"),
        *choices("Van Gogh Museum", "British Museum", "Acropolis Museum", "Pergamon Museum"),
        *choices("Vatican Museums", "Natural History Museum", "Kunsthistorisches Museum"),
        *choices("Art Institute of Chicago", "National Gallery", "Field Museum"),
        Choice("Museum of Modern Art", ("MoMA",)),
        Choice("Musée d'Orsay", ("Musee d'Orsay", "Orsay")),
        Choice("Getty Center", ("Getty Centre", "the Getty")),
    ),
    grammar={
        "event": (
            "Spent the afternoon at the {value}#bang##tail#",
            "Just walked out of the {value} after hours inside#bang##tail#",
            "Finally made it to the {value} #when##bang#",
            "Lost track of time at the {value} #when##bang##tail#",
            "The {value} was packed #when#, but so worth it.",
            "Queued for ages to get into the {value} #when##bang##tail#",
        ),
        "when": ("today", "this morning", "this afternoon"),
        "bang": BANG,
        "tail": (
            "",
            " The exhibits were stunning.",
            " My brain is full.",
            " I could have stayed all day.",
        ),
        "other": (
            "#who#{person} spent the day at the {value} and sent me a hundred photos. I've never "
            "been.#other_tail#",
            "#who#{person} went to the {value} this weekend without me.#other_tail#",
            "#who#{person} is in the queue for the {value} right now, while I'm at "
            "home.#other_tail#",
            "#who#{person} bought me a postcard from the {value}, since I couldn't go.#other_tail#",
            "#who#{person} says the {value} is a must; they just went, I haven't.#other_tail#",
            "#who#{person} took the kids to the {value} today. I stayed behind.#other_tail#",
        ),
        "who": WHO,
        "other_tail": OTHER_TAIL,
        "label": ("my visit to the {value}", "the {value} visit", "going to the {value}"),
        "ask_count": (
            "How many museums have I been to #since#?",
            "How many galleries and collections have I toured #since#?",
            "Count my cultural outings for me: how many museums is it?",
            "Since we began chatting, how many museums have I visited?",
        ),
        "ask_list": (
            "Which museums have I visited?",
            "What galleries or museums have I toured #since#?",
            "Name the museums I've been to.",
            "Which cultural institutions have I checked out?",
        ),
        "since": SINCE,
    },
)

WEDDINGS = Attribute(
    name="weddings",
    title="Weddings I've attended",
    kind="event_list",
    values=choices(
        "Ana and Tomas",
        "Priya and Jonah",
        "Lena and Marcus",
        "Sofia and Idris",
        "Maya and Callum",
        "Hana and Rafael",
        "Chloe and Dev",
        "Ingrid and Mateo",
        "Zara and Felix",
        "Nadia and Owen",
        "Elif and Samuel",
        "Rosa and Kenji",
        "Amara and Luca",
        "Tess and Oliver",
        "Yuki and Benedict",
        "Leila and Arjun",
    ),
    grammar={
        "event": (
            "Just got home from {value}'s wedding#bang##tail#",
            "Watched {value} tie the knot #when##bang##tail#",
            "{value} said their vows #when# and I cried the whole way through.",
            "Danced until midnight at {value}'s reception#bang#",
            "Today was {value}'s big day, and it was perfect.",
            "Gave a little speech at {value}'s wedding #when#, nerves and all.#tail#",
        ),
        "when": ("today", "this afternoon", "this evening"),
        "bang": BANG,
        "tail": (
            "",
            " My feet hurt from dancing.",
            " Such a beautiful ceremony.",
            " So happy for them.",
        ),
        "other": (
            "#who#{person} is at {value}'s wedding today; I didn't know the couple.#other_tail#",
            "#who#{person} went to {value}'s wedding this weekend and I wasn't "
            "invited.#other_tail#",
            "#who#{person} was best man for {value}, apparently. I wasn't there.#other_tail#",
            "#who#{person} flew out for {value}'s big day. I stayed home.#other_tail#",
            "#who#{person} showed me photos from {value}'s reception, which I missed.#other_tail#",
            "#who#{person} gave a speech at {value}'s wedding; I only heard about it "
            "afterwards.#other_tail#",
        ),
        "who": WHO,
        "other_tail": OTHER_TAIL,
        "label": ("{value}'s wedding", "the wedding of {value}"),
        "ask_count": (
            "How many weddings have I been to #since#?",
            "How many couples have I seen get married #since#?",
            "Since we began chatting, how many marriages have I been a guest at?",
            "Count the nuptials I've attended: how many is it?",
        ),
        "ask_list": (
            "Whose weddings have I attended?",
            "Which couples have I seen get married #since#?",
            "Name the pairs whose marriages I've been a guest at.",
            "Who got married with me among the guests?",
        ),
        "since": SINCE,
    },
)

EVENT_LISTS: tuple[Attribute, ...] = (TRIPS, CONCERTS, RESTAURANTS, MUSEUMS, WEDDINGS)
"""The outing event lists, in declaration order."""
