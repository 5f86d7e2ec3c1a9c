"""Fixed facts about the user's schooling and firsts: university and degree, first job, first
car and first concert, and the job they dreamed of as a child.

Each attribute is stated once (``state``), may be held by a contact too (``other``, always
naming the contact as the holder), and is asked about in words the statements avoid (``ask``).
"""

from __future__ import annotations

from dittobench.generate.persona._value_pools import plain
from dittobench.generate.persona.attribute import Attribute, AttributeKit, Choice

_LEAD = ("", "", "", "Blast from the past: ", "Random, but ", "Oh, also, ", "For context, ")
_SO = ("So ", "Funny thing: ", "Apparently ", "Small world: ", "Oh, ", "Get this, ")


_fixed = AttributeKit("fixed", {"lead": _LEAD, "so": _SO})


UNIVERSITY = _fixed(
    "university",
    "Where I studied",
    (
        Choice("Edinburgh University", ("University of Edinburgh", "Edinburgh Uni")),
        Choice("Warwick University", ("University of Warwick", "Warwick Uni")),
        Choice("Glasgow University", ("University of Glasgow", "Glasgow Uni")),
        Choice("Durham University", ("Durham Uni",)),
        Choice("St Andrews", ("University of St Andrews", "St. Andrews")),
        Choice("Trinity College Dublin", ("TCD",)),
        Choice("McGill University", ("McGill",)),
        Choice("Heidelberg University", ("University of Heidelberg",)),
        Choice("Bocconi University", ("Bocconi",)),
        Choice("Carnegie Mellon", ("Carnegie Mellon University", "CMU")),
        Choice("Tufts University", ("Tufts",)),
        Choice("Vanderbilt University", ("Vanderbilt",)),
        Choice("Lund University", ("University of Lund",)),
        Choice("Uppsala University", ("University of Uppsala",)),
        Choice("ETH Zurich", ("ETH",)),
        Choice("Otago University", ("University of Otago",)),
        Choice("Monash University", ("Monash",)),
        Choice("KU Leuven", ("Leuven",)),
        Choice("Purdue University", ("Purdue",)),
        Choice("Cornell University", ("Cornell",)),
        Choice("Georgetown University", ("Georgetown",)),
        Choice("Dartmouth College", ("Dartmouth",)),
        Choice("Kyoto University", ("University of Kyoto",)),
        Choice(
            "Sciences Po",
        ),
    ),
    state=(
        "#lead#I went to {value}, back in my student days.",
        "#lead#I studied at {value} and loved every minute.",
        "#lead#I graduated from {value} #span# ago.",
        "Found my old hoodie from {value}; takes me right back to uni.",
        "#lead#my uni was {value}, and I still miss the campus.",
        "#lead#I spent four years at {value} and barely went to lectures.",
    ),
    span=("ten years", "a while", "ages", "over a decade"),
    other=(
        "#so#{person} studied at {value}.",
        "#so#{person} went to {value} and still wears the hoodie.",
        "#so#{person} graduated from {value} #span# ago.",
        "#so#{person}'s uni was {value}; they're very proud of it.",
        "#so#{person} spent four years at {value}, mostly in the library.",
        "#so#{person} is off to a reunion at {value}, their old uni.",
    ),
    ask=(
        "Where did I get my degree?",
        "What's my alma mater?",
        "Which institution did I graduate from?",
        "Where did I do my undergraduate studies?",
        "Which college or university did I attend?",
    ),
    topic=("my university", "where I studied"),
)

DEGREE = _fixed(
    "degree_subject",
    "What I studied",
    (
        *plain(
            "philosophy, marine biology, economics, art history, chemical engineering, classics,"
            " linguistics, geography, astrophysics, anthropology, mechanical engineering,"
            " sociology, archaeology, neuroscience, veterinary science, French literature,"
            " zoology, biochemistry, Japanese studies, civil engineering"
        ),
        Choice("mathematics", ("maths",)),
        Choice("political science", ("politics",)),
    ),
    state=(
        "#lead#I studied {value} at uni.",
        "#lead#my degree is in {value}, not that I use it much.",
        "#lead#I did {value} at uni and loved the #bit#.",
        "Three years of {value} and I still can't explain it at parties.",
        "#lead#I've got a degree in {value}, believe it or not.",
        "#lead#I graduated in {value}, and I'd pick it again.",
    ),
    bit=("lectures", "late-night essays", "dissertation year", "seminars"),
    other=(
        "#so#{person} studied {value} at uni.",
        "#so#{person} has a degree in {value}.",
        "#so#{person} did {value}, which explains a lot.",
        "#so#{person} graduated in {value}, top of their year.",
        "#so#{person} is going back to uni for more {value}.",
        "#so#{person}'s degree is in {value}, not that they use it.",
    ),
    ask=(
        "What did I major in?",
        "What subject did I read at university?",
        "What's my academic background?",
        "What field is my qualification in?",
        "What was I a student of at college?",
    ),
    topic=("my degree", "what I studied"),
)

FIRST_JOB = _fixed(
    "first_job",
    "My first job",
    (
        Choice("lifeguard", ("lifeguarding",)),
        Choice("cinema usher", ("usher",)),
        Choice("pizza delivery driver", ("pizza delivery",)),
        Choice("strawberry picker", ("fruit picker", "strawberry picking")),
        Choice("supermarket cashier", ("cashier",)),
        Choice("hotel receptionist", ("receptionist",)),
        Choice("golf caddie", ("caddie", "caddy")),
        Choice("camp counsellor", ("camp counselor",)),
        Choice("dog walker", ("dog walking",)),
        Choice("babysitter", ("babysitting",)),
        Choice("ski lift operator", ("lift operator",)),
        Choice("museum tour guide", ("tour guide",)),
        Choice("car park attendant", ("parking attendant",)),
        *plain("barista, bookshop assistant, farm labourer, sandwich maker, deckhand"),
    ),
    state=(
        "#lead#my first job was as a {value}, back when I was sixteen.",
        "#lead#I worked as a {value} the summer I turned sixteen.",
        "#lead#before anything else, I was a {value} for two summers.",
        "#lead#my career began as a {value}, believe it or not.",
        "Fun memory: my first ever job, as a {value}, paid terribly.",
        "#lead#at fifteen I got hired as a {value}, and I loved it.",
    ),
    other=(
        "#so#{person}'s first job was as a {value}.",
        "#so#{person} worked as a {value} in their teens.",
        "#so#{person} started out as a {value}, of all things.",
        "#so#{person} spent two summers as a {value}.",
        "#so#{person} got hired as a {value} at fifteen.",
        "#so#{person} still has their name badge from being a {value}.",
    ),
    ask=(
        "What did I do to earn money as a teenager?",
        "What was my earliest employment?",
        "How did I make my very first paycheck?",
        "What line of work did I start out in?",
    ),
    topic=("my first job", "how I first earned money"),
)

FIRST_CAR = _fixed(
    "first_car",
    "My first car",
    (
        Choice("Ford Fiesta", ("Fiesta",)),
        Choice("Vauxhall Corsa", ("Corsa",)),
        Choice("Volkswagen Golf", ("VW Golf",)),
        Choice("Renault Clio", ("Clio",)),
        Choice("Nissan Micra", ("Micra",)),
        Choice("Toyota Corolla", ("Corolla",)),
        Choice("Skoda Fabia", ("Fabia",)),
        Choice("Citroen Saxo", ("Saxo", "Citroën Saxo")),
        Choice("Volkswagen Beetle", ("VW Beetle",)),
        Choice("Subaru Impreza", ("Impreza",)),
        Choice("Opel Astra", ("Astra",)),
        Choice("Toyota Yaris", ("Yaris",)),
        Choice("Kia Picanto", ("Picanto",)),
        Choice("Daewoo Matiz", ("Matiz",)),
        Choice("Fiat Punto", ("Punto",)),
        Choice("Seat Ibiza", ("SEAT Ibiza",)),
    ),
    state=(
        "#lead#my first car was a #worn# {value}.",
        "#lead#I bought my first car, a #worn# {value}, for five hundred quid.",
        "Saw a #worn# {value} today, just like my first car. Nostalgia!",
        "#lead#I passed my test and drove a #worn# {value} for years.",
        "#lead#my very first car? A #worn# {value} with no heating.",
        "#lead#I fell in love with cars thanks to a #worn# {value}, my first.",
    ),
    worn=("battered", "rusty old", "secondhand", "clapped-out", "bright red"),
    other=(
        "#so#{person}'s first car was a #worn# {value}.",
        "#so#{person} drove a #worn# {value} for years.",
        "#so#{person} bought a #worn# {value} as their first car.",
        "#so#{person} still has their first car, a #worn# {value}.",
        "#so#{person} learned to drive in a #worn# {value}.",
        "#so#{person} showed me a photo of their first car, a #worn# {value}.",
    ),
    ask=(
        "What was the earliest vehicle I owned?",
        "What did I get around in once I got my licence?",
        "Which make and model did I start driving in?",
        "What set of wheels did I have as a new driver?",
    ),
    topic=("my first car", "the car I started out with"),
)

FIRST_CONCERT = _fixed(
    "first_concert",
    "My first concert",
    (
        *plain(
            "Spice Girls, Westlife, McFly, Green Day, Avril Lavigne, Britney Spears, Girls Aloud,"
            " Backstreet Boys, Hanson, Shania Twain, Kylie Minogue, Robbie Williams, Jamiroquai,"
            " Bon Jovi, Iron Maiden, Def Leppard, Tina Turner, Elton John, Justin Bieber,"
            " Slipknot, Linkin Park, Limp Bizkit, Savage Garden, Taylor Swift,"
            " Ed Sheeran"
        ),
    ),
    state=(
        "#lead#my first gig was {value}, when I was twelve.",
        "#lead#the first time I saw live music, it was {value}.",
        "#lead#I still have the ticket stub from my first gig: {value}, aged eleven.",
        "#lead#I was thirteen when my mum took me to see {value}. My first gig!",
        "Found the T-shirt from my first gig, {value}, in a drawer.",
        "#lead#I screamed myself hoarse at my first gig: {value}.",
    ),
    other=(
        "#so#{person}'s first gig was {value}.",
        "#so#{person} saw {value} as their first gig, aged ten.",
        "#so#{person} still has the ticket from their first gig, {value}.",
        "#so#{person} got taken to see {value} for their first gig.",
        "#so#{person} swears their first gig was {value}, and they're not embarrassed.",
        "#so#{person} lost their voice at their first gig, {value}.",
    ),
    ask=(
        "Who did I see at my very first concert?",
        "Which artist kicked off my concert-going life?",
        "Whose show was my earliest musical outing?",
        "Who was on stage at the earliest performance I attended?",
    ),
    topic=("my first concert", "the first gig I went to"),
)

DREAM_JOB = _fixed(
    "childhood_dream_job",
    "What I wanted to be as a child",
    (
        *plain(
            "fighter pilot, ballet dancer, train driver, zookeeper, detective, racing driver,"
            " pop star, jockey, marine biologist, lighthouse keeper, magician, deep-sea diver,"
            " storm chaser, cartoonist, lion tamer, weather presenter"
        ),
        Choice("firefighter", ("fireman",)),
        Choice("palaeontologist", ("paleontologist",)),
        Choice("footballer", ("football player", "professional footballer")),
    ),
    state=(
        "#lead#when I was six I was desperate to be a {value}.",
        "#lead#all I wanted, aged seven, was to be a {value}.",
        "#lead#I spent primary school convinced I'd be a {value}.",
        "Found my old school drawings; every single one is me as a {value}.",
        "#lead#I had a {value} costume I wore until it fell apart.",
        "#lead#as a small child I told everyone I'd grow up to be a {value}.",
    ),
    other=(
        "#so#{person} wanted to be a {value} when they were small.",
        "#so#{person} was set on being a {value} at age seven.",
        "#so#{person} still has their {value} costume from primary school.",
        "#so#{person} told me they'd planned to be a {value} as a child.",
        "#so#{person}'s parents have photos of them dressed as a {value}.",
        "#so#{person} was convinced they'd grow up to be a {value}.",
    ),
    ask=(
        "What career did I fantasise about when I was little?",
        "What did young me hope to become?",
        "What was my dream occupation as a kid?",
        "What profession did I long for in my early years?",
    ),
    topic=("what I wanted to be as a child", "my childhood ambition"),
)

ATTRIBUTES: tuple[Attribute, ...] = (
    UNIVERSITY,
    DEGREE,
    FIRST_JOB,
    FIRST_CAR,
    FIRST_CONCERT,
    DREAM_JOB,
)
