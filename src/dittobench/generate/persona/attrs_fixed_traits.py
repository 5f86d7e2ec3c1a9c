"""Fixed facts about the user's origins and body: home town and childhood street, first
language, blood type, shoe size, birthday and allergy.

Each attribute is stated once (``state``), may be held by a contact too (``other``, always
naming the contact as the holder), and is asked about in words the statements avoid (``ask``).
"""

from __future__ import annotations

from dittobench.core.dates import ordinal
from dittobench.generate.persona._value_pools import plain
from dittobench.generate.persona.attribute import Attribute, AttributeKit, Choice

_LEAD = (
    "",
    "",
    "",
    "Random one, but ",
    "Oh, also, ",
    "For the record, ",
    "Not that it matters, but ",
)
_SO = ("So ", "Fun fact: ", "Small world: ", "Get this: ", "Oh, ", "Turns out ")


_fixed = AttributeKit("fixed", {"lead": _LEAD, "so": _SO})


def _birthdays(text: str) -> tuple[Choice, ...]:
    """Comma-separated day-month birthdays ("14 June"), each also accepted as "June 14",
    "June 14th", "14th June" and "14th of June"."""
    out = []
    for date in text.split(","):
        day, month = date.split()
        n = int(day)
        nth = ordinal(n)
        aliases = (f"{month} {n}", f"{month} {nth}", f"{nth} {month}", f"{nth} of {month}")
        out.append(Choice(date.strip(), aliases))
    return tuple(out)


HOMETOWN = _fixed(
    "hometown",
    "Where I grew up",
    (
        *plain(
            "Dundee, Tampere, Graz, Bergen, Lecce, Haarlem, Kilkenny, Bendigo, Galway, Coimbra,"
            " Innsbruck, Shrewsbury, Harrogate, Inverness, Whitby, Asheville, Ithaca, Missoula,"
            " Bozeman, Duluth, Flagstaff, Tralee, Trondheim, Ballarat, Timaru"
        ),
        Choice("Ghent", ("Gent",)),
        Choice("Aarhus", ("Århus",)),
        Choice("Poznan", ("Poznań",)),
    ),
    state=(
        "#lead#I grew up in {value}, so forgive my accent.",
        "#lead#I'm from {value} originally.",
        "#lead#I was born in {value} and stayed until I left for uni.",
        "#lead#my accent? That's {value}, where I grew up.",
        "Going back to {value} for the holidays; my folks are still there.",
        "#lead#everyone in {value}, where I grew up, knows everyone else.",
        "#lead#I spent my first eighteen years in {value}.",
    ),
    other=(
        "#so#{person} grew up in {value}.",
        "#so#{person} is from {value} originally.",
        "#so#{person} was born in {value}, and never stops talking about it.",
        "#so#{person} is heading back to {value}, where they grew up, for a wedding.",
        "#so#{person}'s accent comes from {value}, where they grew up.",
        "#so#{person} spent their first eighteen years in {value}.",
    ),
    ask=(
        "Where did I spend my childhood?",
        "Where are my roots?",
        "Which town did I live in as a child?",
        "What town do I hail from?",
        "Where was I raised?",
    ),
    topic=("where I grew up", "my home town"),
)

CHILDHOOD_STREET = _fixed(
    "childhood_street",
    "The street I grew up on",
    plain(
        "Larkspur Lane, Tanners Row, Mulberry Close, Holloway Road, Kestrel Drive, Chestnut Avenue,"
        " Wharf Street, Paddock Way, Bellevue Terrace, Orchard Crescent, Sycamore Grove,"
        " Pennington Road, Hawthorn Rise, Millbrook Drive, Juniper Way, Ravenscroft Avenue,"
        " Albion Street, Foxglove Lane, Lowther Gardens, Quarry Hill"
    ),
    state=(
        "#lead#I grew up on {value}, right by the bus stop.",
        "#lead#we lived on {value} until I was eighteen.",
        "Drove past {value} today, where I spent my whole youth. So weird.",
        "#lead#our old place on {value} has just been sold, feels strange.",
        "#lead#every kid on {value} played football together when I was growing up.",
        "#lead#I can still picture our front door on {value} from when I was a kid.",
    ),
    other=(
        "#so#{person} grew up on {value}, of all places.",
        "#so#{person}'s folks lived on {value} for thirty years.",
        "#so#{person} spent their whole youth on {value}.",
        "#so#{person} showed me where they grew up, on {value}.",
        "#so#{person} still dreams about their old place on {value}.",
        "#so#{person} was a kid on {value}, the best spot in town for sledging.",
    ),
    ask=(
        "What street was my childhood home on?",
        "Which road did my family live on when I was little?",
        "What was the address of the house I was raised in?",
        "Which street did young me call home?",
    ),
    topic=("the street I grew up on", "my childhood address"),
)

FIRST_LANGUAGE = _fixed(
    "first_language",
    "My first language",
    plain(
        "Portuguese, Tagalog, Welsh, Turkish, Finnish, Hungarian, Greek, Korean, Swahili,"
        " Romanian, Catalan, Bengali, Urdu, Yoruba, Icelandic, Czech, Dutch, Vietnamese, Tamil,"
        " Amharic, Ukrainian, Hebrew, Cantonese, Basque"
    ),
    state=(
        "#lead#I grew up speaking {value} at home.",
        "#lead#at home it was {value} all the way; English came later.",
        "#lead#I still dream in {value}, even after all these years.",
        "#lead#English came second for me; before that it was all {value}.",
        "My mum still only texts me in {value}.",
        "#lead#my parents raised me speaking {value}.",
    ),
    other=(
        "#so#{person} grew up speaking {value} at home.",
        "#so#{person} switches to {value} whenever their mum calls.",
        "#so#{person} still dreams in {value}.",
        "#so#{person} only learned English at school; at home it was {value}.",
        "#so#{person}'s family speaks {value} at home.",
        "#so#{person} was raised speaking {value}.",
    ),
    ask=(
        "What's my native language?",
        "What language did I learn to talk in?",
        "What was the first language I spoke?",
        "Which tongue did I pick up as a toddler?",
    ),
    topic=("my first language", "my mother tongue"),
)

BLOOD_TYPE = _fixed(
    "blood_type",
    "My blood type",
    tuple(
        Choice(f"{group} {sign}", (f"{group}{mark}", f"{group} {sign[:3]}", f"{group}-{sign}"))
        for group in ("O", "A", "B", "AB")
        for sign, mark in (("negative", "-"), ("positive", "+"))
    ),
    state=(
        "#lead#I'm {value}, according to my donor card.",
        "#lead#for medical stuff, I'm {value}.",
        "#lead#I found out at my last check-up that I'm {value}.",
        "#lead#the donation centre says I'm {value}, so they keep calling me.",
        "#lead#in case of an emergency, I'm {value}.",
        "Just gave a pint at the donation centre; they reminded me I'm {value}.",
    ),
    other=(
        "#so#{person} is {value}, according to their donor card.",
        "#so#{person} just found out they're {value}.",
        "#so#{person} donates every few months because they're {value}.",
        "#so#{person}'s medical card says {value}.",
        "#so#{person} and I compared donor cards; they're {value}.",
        "#so#{person} told the nurse they're {value}.",
    ),
    ask=(
        "What's my blood group?",
        "Which blood type am I?",
        "If I needed a transfusion, what type would I need?",
        "What kind of blood do I have?",
    ),
    topic=("my blood type", "my blood group"),
)

SHOE_SIZE = _fixed(
    "shoe_size",
    "My shoe size",
    tuple(Choice(f"size {n}", (f"EU {n}", str(n))) for n in range(35, 49)),
    state=(
        "#lead#I'm a {value} in shoes.",
        "#lead#I wear a {value}, European sizing.",
        "#lead#shoe shopping is a nightmare when you're a {value}.",
        "#lead#for shoes I'm a {value}, in case you ever see a bargain.",
        "Ordered trainers in a {value} and they fit perfectly.",
        "#lead#I always go for a {value} in trainers.",
    ),
    other=(
        "#so#{person} is a {value} in shoes.",
        "#so#{person} wears a {value}, they told me.",
        "#so#{person} can never find shoes in a {value}.",
        "#so#{person} ordered sandals in a {value} yesterday.",
        "#so#{person} borrowed my trainers, but they're a {value}, so no luck.",
        "#so#{person} just bought hiking shoes, a {value}.",
    ),
    ask=(
        "How big are my feet?",
        "What size footwear do I take?",
        "If you were buying me boots, what size should you get?",
        "What's my foot size?",
    ),
    topic=("my shoe size", "what size shoes I wear"),
)

BIRTHDAY = _fixed(
    "birthday",
    "My birthday",
    _birthdays(
        "2 January, 13 January, 17 January, 29 January, 9 February, 23 February, 4 April,"
        " 22 April, 28 April, 11 June, 26 June, 7 July, 19 July, 27 July, 3 August, 30 August,"
        " 12 September, 25 September, 6 October, 21 October, 15 November, 29 November,"
        " 8 December, 18 December"
    ),
    state=(
        "#lead#my birthday is {value}.",
        "#lead#my birthday's on {value}, mark your calendar.",
        "#lead#I always book {value} off work, since it's my birthday.",
        "Planning something small for my birthday on {value}.",
        "#lead#my birthday falls on {value}, which is a pain for parties.",
        "#lead#cake on {value}, please; that's my birthday.",
    ),
    other=(
        "#so#{person}'s birthday is {value}.",
        "#so#{person} is having a party on {value} for their birthday.",
        "#so#{person}'s birthday falls on {value}, I need to get a card.",
        "Note to self: {person}'s birthday is {value}.",
        "#so#{person} always takes {value} off for their birthday.",
        "#so#{person} is sulking because nobody remembered their birthday, {value}.",
    ),
    ask=(
        "When do I celebrate turning a year older?",
        "When's my birthday?",
        "What date should you wish me many happy returns?",
        "On what day of the year was I born?",
        "What's my date of birth, leaving out the year?",
    ),
    topic=("my birthday", "when I was born"),
)

ALLERGY = _fixed(
    "allergy",
    "My allergy",
    (
        *plain(
            "penicillin, latex, shellfish, sesame, lupin, buckwheat, nickel, codeine, celery,"
            " aloe vera, lanolin, peanuts"
        ),
        Choice("hazelnuts", ("hazelnut",)),
        Choice("kiwi fruit", ("kiwi", "kiwis")),
        Choice("sulphites", ("sulfites",)),
        Choice("mango", ("mangoes",)),
        Choice("dust mites", ("dust mite",)),
        Choice("macadamia nuts", ("macadamias", "macadamia")),
        Choice("cashews", ("cashew nuts", "cashew")),
    ),
    state=(
        "#lead#I react really badly to {value}.",
        "#lead#I can't go near {value}; I come out in hives.",
        "#lead#my doctor flagged {value} years ago, so I keep well away.",
        "Had a reaction to {value} again last week, not fun.",
        "#lead#I have to stay away from {value}, my body hates it.",
        "#lead#my medical record has a big warning about {value}.",
    ),
    other=(
        "#so#{person} reacts really badly to {value}.",
        "#so#{person} can't go near {value}; they come out in hives.",
        "#so#{person} had a scary reaction to {value} last week.",
        "#so#{person}'s medical record flags {value}.",
        "#so#{person} has to avoid {value} completely.",
        "#so#{person}'s doctor told them to stay away from {value}.",
    ),
    ask=(
        "What am I allergic to?",
        "What's my allergy?",
        "Which allergen do I have to watch out for?",
        "What sets off my allergies?",
    ),
    topic=("my allergy", "what I'm allergic to"),
)

ATTRIBUTES: tuple[Attribute, ...] = (
    HOMETOWN,
    CHILDHOOD_STREET,
    FIRST_LANGUAGE,
    BLOOD_TYPE,
    SHOE_SIZE,
    BIRTHDAY,
    ALLERGY,
)
