"""Fixed facts about the people in the user's life: partner, siblings, best friend, grandparents,
their own middle name, a childhood pet and teacher, and where they got married.

Each attribute is stated once (``state``), may be held by a contact too (``other``, always
naming the contact as the holder), and is asked about in words the statements avoid (``ask``).
Name pools are disjoint from each other and from the contact names, so one name never answers
two questions.
"""

from __future__ import annotations

from dataclasses import replace

from dittobench.generate.persona._value_pools import surnamed
from dittobench.generate.persona.attribute import Attribute, AttributeKit, Choice

_LEAD = ("", "", "", "By the way, ", "Random fact, but ", "Oh, and ", "Side note: ")
_SO = ("So ", "Funny enough, ", "Apparently ", "Turns out ", "Oh, ", "Random, but ")


def _names(text: str) -> tuple[Choice, ...]:
    return tuple(Choice(name) for name in text.split())


_fixed = AttributeKit("fixed", {"lead": _LEAD, "so": _SO})


PARTNER = _fixed(
    "partner_name",
    "My partner",
    _names(
        "Mateo Anneliese Dominik Saoirse Idris Maren Caspar Yasmin Florian Noemi Rafferty Linnea"
        " Soren Talia Ezra Rhiannon Lorcan Esme Anders Mireille Kofi Priya Annika Benedek Leonie"
        " Dario Simone Oluwaseun Jessamy Tomasz"
    ),
    state=(
        "#lead#my partner is called {value}, in case they come up.",
        "#lead#{value} and I have been together for #span# now.",
        "#lead#I live with my partner, {value}.",
        "#lead#{value} is my partner. We met at a party #span# ago.",
        "Quick context: my partner is {value}.",
        "#lead#if I say {value}, that's my partner. We've been a couple for #span#.",
        "#lead#my partner {value} says hi, they're reading over my shoulder.",
    ),
    span=("six years", "almost a decade", "a couple of years", "ages"),
    other=(
        "#so#{person}'s partner is called {value}.",
        "#so#{person} has been with someone called {value} for #span#.",
        "Met {person}'s partner yesterday, a lovely person called {value}.",
        "Had dinner with {person} and their partner {value} last night.",
        "#so#{person} finally introduced me to their partner, {value}.",
        "#so#{person} and their partner {value} are off on holiday without me.",
    ),
    ask=(
        "Who am I in a relationship with?",
        "Who's my significant other?",
        "What's the name of the person I share my life with?",
        "Can you remind me who I'm romantically involved with?",
        "Who is the special someone in my life?",
    ),
    topic=("my partner", "who I'm in a relationship with"),
)

SISTER = _fixed(
    "sister_name",
    "My sister",
    _names(
        "Clara Freya Imogen Beatriz Agnieszka Sinead Tamsin Ottilie Marisol Katya Elodie Niamh"
        " Petra Zainab Henrietta Maeve Lucinda Rosalie Annabel Solveig Jolene Thea Orla Natalya"
        " Carys Ragnhild Mirela Xiomara Eilidh Giedre"
    ),
    state=(
        "#lead#my #age# sister is called {value}.",
        "#lead#my #age# sister {value} is coming to stay next week.",
        "#lead#{value}, my #age# sister, just sent me the funniest text.",
        "#lead#my sister {value} and I are really close.",
        "Talking to my sister {value} on the phone later, wish me luck.",
        "#lead#I was on the phone with my #age# sister {value} for two hours last night.",
    ),
    age=("older", "younger", "big", "little"),
    an_age=("an older", "a younger", "a big", "a little"),
    other=(
        "#so#{person}'s sister is called {value}.",
        "#so#{person} has #an_age# sister called {value}.",
        "Met {person}'s sister {value} at the weekend, they look so alike.",
        "#so#{person} is visiting their sister {value} this weekend.",
        "#so#{person}'s #age# sister {value} is getting married soon.",
        "#so#{person} can't stop complaining about their sister {value}.",
    ),
    ask=(
        "What's my sister's name?",
        "What's the name of my female sibling?",
        "Who's my sis again?",
        "Do you remember my sister's first name?",
    ),
    topic=("my sister", "my sister's name"),
)

BROTHER = _fixed(
    "brother_name",
    "My brother",
    _names(
        "Tobias Callum Joaquin Lukas Rohan Ciaran Matthew Emil Kasper Oisin Jonas Theo Anton"
        " Fabian Hamish Nikolai Bastian Declan Malik Ivo Felipe Stellan Rasmus Tiago Gideon"
        " Alasdair Cormac Hugo Yannick Eero"
    ),
    state=(
        "#lead#my #age# brother is called {value}.",
        "#lead#my #age# brother {value} is moving back to town soon.",
        "#lead#{value}, my #age# brother, just borrowed my car again.",
        "#lead#my brother {value} and I used to fight constantly as kids.",
        "Helping my brother {value} move flat this weekend, pray for my back.",
        "#lead#I spent the whole evening gaming with my #age# brother {value}.",
    ),
    age=("older", "younger", "big", "little"),
    an_age=("an older", "a younger", "a big", "a little"),
    other=(
        "#so#{person}'s brother is called {value}.",
        "#so#{person} has #an_age# brother called {value}.",
        "Met {person}'s brother {value} today, nice guy.",
        "#so#{person} is helping their brother {value} with his wedding.",
        "#so#{person}'s #age# brother {value} just started a band.",
        "#so#{person} spent the weekend with their brother {value}.",
    ),
    ask=(
        "What's my brother's name?",
        "What's the name of my male sibling?",
        "Who's my bro?",
        "Do you recall what my brother goes by?",
    ),
    topic=("my brother", "my brother's name"),
)

BEST_FRIEND = _fixed(
    "best_friend_name",
    "My best friend",
    _names(
        "Ayesha Kenji Lola Samir Fiona Tariq Bronwyn Magnus Sunita Oskar Harriet Nadia Rafael"
        " Tova Zeke Ingeborg Hamza Carmen Niko Wanjiru Chidi Giulia Svetlana Eamon Marta Leif"
        " Yusuf Beatrix Anouk Pilar"
    ),
    state=(
        "#lead#my best friend is {value}; we've been inseparable since school.",
        "#lead#{value} is my best mate, has been for #span#.",
        "#lead#I'm meeting my best friend {value} for coffee later.",
        "#lead#{value} and I have been best friends for #span#.",
        "Honestly, my best friend {value} is the funniest person alive.",
        "#lead#my best mate {value} talked me into trying this app.",
    ),
    span=("twenty years", "most of my life", "over a decade", "ages"),
    other=(
        "#so#{person}'s best friend is someone called {value}.",
        "#so#{person} and their best mate {value} are inseparable.",
        "#so#{person} brought their best friend {value} to the party.",
        "Met {person}'s best mate {value} last night, great laugh.",
        "#so#{person} has known their best friend {value} for #span#.",
        "#so#{person} is going travelling with their best mate {value}.",
    ),
    ask=(
        "Who's my closest pal?",
        "Who is my BFF?",
        "Which buddy of mine am I closest to?",
        "Who's my number one pal?",
        "Who's my best friend?",
    ),
    topic=("my best friend", "who I'm closest to"),
)

GRANDMOTHER = _fixed(
    "grandmother_name",
    "My grandmother",
    _names(
        "Edna Mildred Agnes Dorothy Winifred Gladys Ethel Beryl Hilda Doris Marjorie Phyllis"
        " Muriel Irene Rosamund Mabel Enid Lorna Ingrid Edith Maude Elspeth Gertrude Bernadette"
        " Philippa Theodora Lavinia Cordelia Eunice Imelda"
    ),
    state=(
        "#lead#my #gran# is called {value}.",
        "#lead#my #gran# {value} taught me to bake.",
        "#lead#I'm visiting my #gran# {value} on Sunday.",
        "#lead#my #gran# {value} is ninety and sharper than me.",
        "#lead#{value}, my #gran#, still beats me at cards.",
        "Just had tea with my #gran# {value}, she's a legend.",
    ),
    gran=("gran", "nan", "grandma", "granny"),
    other=(
        "#so#{person}'s #gran# is called {value}.",
        "#so#{person}'s #gran# {value} just turned ninety.",
        "#so#{person} spends every Sunday with their #gran#, {value}.",
        "Met {person}'s #gran# {value} today, sharp as a tack.",
        "#so#{person} is named after their #gran# {value}.",
        "#so#{person}'s #gran# {value} knits jumpers for everyone.",
    ),
    ask=(
        "What's my grandmother's first name?",
        "Who's my grandmother?",
        "What name does my grandmother go by?",
        "What is the first name of my father's or mother's mother?",
    ),
    topic=("my grandmother", "my grandmother's name"),
)

GRANDFATHER = _fixed(
    "grandfather_name",
    "My grandfather",
    _names(
        "Albert Cyril Wilfred Reginald Harold Stanley Herbert Norman Clifford Leonard Bernard"
        " Cecil Ernest Horace Archibald Percy Walter Alfred Gilbert Lionel Maurice Clarence"
        " Edmund Wilbur Mervyn Douglas Roland Ambrose Eustace Bertram"
    ),
    state=(
        "#lead#my #grandad# is called {value}.",
        "#lead#my #grandad# {value} taught me to fish.",
        "#lead#I'm visiting my #grandad# {value} on Sunday.",
        "#lead#my #grandad#, {value}, still tells the same war stories.",
        "#lead#{value}, my #grandad#, just got his first smartphone.",
        "Spent the afternoon with my #grandad# {value} in his shed.",
    ),
    grandad=("grandad", "grandpa", "gramps", "granddad"),
    other=(
        "#so#{person}'s #grandad# is called {value}.",
        "#so#{person}'s #grandad# {value} just turned ninety.",
        "#so#{person} spends every Sunday with their #grandad#, {value}.",
        "Met {person}'s #grandad# {value} today, a real character.",
        "#so#{person} is named after their #grandad# {value}.",
        "#so#{person}'s #grandad# {value} used to be a sailor.",
    ),
    ask=(
        "What's my grandfather's first name?",
        "Who's my grandfather?",
        "What name does my grandfather go by?",
        "What is my father's or mother's father called?",
    ),
    topic=("my grandfather", "my grandfather's name"),
)

MIDDLE_NAME = _fixed(
    "middle_name",
    "My middle name",
    _names(
        "Alistair Bartholomew Cornelius Evangeline Ignatius Josephine Leopold Marguerite Octavia"
        " Percival Seraphina Thaddeus Augustus Barnaby Cecily Desmond Emmeline Fitzroy Gwendolyn"
        " Horatio Isadora Lysander Mortimer Ophelia Peregrine Quentin Rupert Ursula Winston"
        " Aurelia Cassius"
    ),
    state=(
        "#lead#my middle name is {value}, which almost nobody knows.",
        "#lead#I've got a very old-fashioned middle name: {value}.",
        "Confession: my middle name is {value}, after a great-uncle.",
        "#lead#my mum chose {value} for my middle name and I've never forgiven her.",
        "#lead#my middle name's {value}. Please never bring it up at work.",
        "#lead#I secretly love my middle name, {value}.",
    ),
    other=(
        "#so#{person}'s middle name is {value}, which is hilarious.",
        "#so#{person} just admitted their middle name is {value}.",
        "Found out {person}'s middle name today: {value}.",
        "#so#{person} goes by their middle name, {value}, with family.",
        "#so#{person} got {value} as a middle name, after a grandparent.",
        "#so#{person} has the middle name {value}, of all things.",
    ),
    ask=(
        "What's my middle name?",
        "What comes between my first and last names?",
        "What's the second of my given names?",
        "What does the initial between my first name and surname stand for?",
        "Which extra forename did I get at birth?",
    ),
    topic=("my middle name", "the name between my first name and surname"),
)

CHILDHOOD_PET = _fixed(
    "childhood_pet_name",
    "My childhood pet",
    _names(
        "Pippin Rufus Ziggy Bruno Rocco Nala Simba Loki Toto Benji Dobby Pickwick Scooby Tigger"
        " Hobbes Marley Rolo Monty Alfie Figaro Zorro Baxter Chewie Kiki Pumbaa Biggles Snoopy"
        " Fergus"
    ),
    state=(
        "#lead#when I was a kid we had a #creature# named {value}.",
        "#lead#our family #creature#, {value}, lived to be really old.",
        "#lead#I still miss {value}, the #creature# we had when I was small.",
        "#lead#I cried for a week when our #creature# {value} died; I was nine.",
        "Found an old photo of {value}, our #creature# from back in primary school.",
        "#lead#{value} was our #creature# when I was a kid, the best one ever.",
    ),
    creature=("dog", "cat", "rabbit", "guinea pig", "hamster"),
    other=(
        "#so#{person} had a #creature# named {value} as a kid.",
        "#so#{person}'s #creature# back home was {value}, years ago.",
        "#so#{person} showed me pictures of {value}, their #creature# when they were small.",
        "#so#{person} named their old #creature# {value}, which I love.",
        "#so#{person}'s family had a #creature# named {value} for years.",
        "#so#{person} still talks about {value}, the #creature# they had at nine.",
    ),
    ask=(
        "What was my childhood pet called?",
        "What was the name of the animal I had when I was young?",
        "Which pet did I grow up with?",
        "What did we call our pet when I was younger?",
    ),
    topic=("my childhood pet", "the animal I grew up with"),
)

TEACHER = _fixed(
    "favourite_teacher",
    "My favourite teacher",
    surnamed(
        "Mrs Abernathy, Mr Pemberton, Miss Castellano, Mr Okonkwo, Mrs Haverford,"
        " Mr Lindqvist, Ms Delacroix, Mrs Featherstone, Mr Achterberg, Miss Quigley,"
        " Mr Barrowclough, Mrs Ferreira, Mr Kowalczyk, Ms Oyelaran, Mrs Whitlock,"
        " Mr Dunleavy, Miss Tremaine, Mr Varga, Mrs Iwasaki, Mr Fairweather, Mrs Ashworth,"
        " Mr Rosenthal"
    ),
    state=(
        "#lead#{value} taught me #subject# and honestly changed my life.",
        "#lead#the reason I love #subject# is {value}, who taught it to us at fifteen.",
        "Nobody believed in me like {value}, who ran our #subject# lessons.",
        "#lead#I bumped into {value} today, who taught me #subject# years ago. Best class ever.",
        "#lead#I owe a lot to {value}, my #subject# tutor in sixth form.",
        "#lead#{value} was the one adult who made #subject# click for me as a teenager.",
    ),
    subject=("chemistry", "English", "history", "maths", "French", "biology", "art"),
    other=(
        "#so#{person} keeps in touch with {value}, who taught them #subject#.",
        "#so#{person}'s #subject# tutor back in the day was {value}.",
        "#so#{person} credits {value}, their #subject# tutor, for everything.",
        "#so#{person} says {value} made #subject# click for them.",
        "#so#{person} had {value} for #subject# and loved every lesson.",
        "#so#{person} bumped into {value}, who taught them #subject#, at the supermarket.",
    ),
    ask=(
        "Who was my favourite teacher?",
        "Which teacher made the biggest impression on me?",
        "Who's the educator I rave about?",
        "Which of my teachers meant the most to me?",
        "Which of my schoolteachers did I look up to most?",
    ),
    topic=("my favourite teacher", "the teacher who shaped me"),
)

WEDDING_VENUE = _fixed(
    "wedding_venue",
    "Where I got married",
    (
        Choice("Ashcombe Manor", ("Ashcombe",)),
        Choice("Larchfield Barn", ("Larchfield",)),
        Choice("Ravensworth Hall", ("Ravensworth",)),
        Choice("Penhallow Castle", ("Penhallow",)),
        Choice("Kirkstead Priory", ("Kirkstead",)),
        Choice("Villa Montalto", ("Montalto",)),
        Choice("Glenmorran House", ("Glenmorran",)),
        Choice("Brackenfell Lodge", ("Brackenfell",)),
        Choice("Hartwell Orangery", ("Hartwell",)),
        Choice("Saltmarsh Boathouse", ("Saltmarsh",)),
        Choice("Chateau de Vernay", ("Vernay", "Château de Vernay")),
        Choice("Wexcombe Mill", ("Wexcombe",)),
        Choice("Oakhurst Vineyard", ("Oakhurst",)),
        Choice("Finca Los Olivos", ("Los Olivos",)),
        Choice("Thistlebrook Farm", ("Thistlebrook",)),
        Choice("Elmstead Observatory", ("Elmstead",)),
        Choice("Havenridge Lighthouse", ("Havenridge",)),
        Choice("Foxley Walled Garden", ("Foxley",)),
    ),
    state=(
        "#lead#we got married at {value}, and it poured with rain.",
        "#lead#our wedding was at {value} and I'd do it all again tomorrow.",
        "#lead#we tied the knot at {value} #when#.",
        "#lead#my partner and I said 'I do' at {value}.",
        "Looking at our wedding photos from {value} again, still gorgeous.",
        "#lead#the wedding was at {value}; the food alone was worth it.",
        "#lead#I married my partner at {value}, #when#.",
    ),
    when=("three summers back", "a few years back", "in early autumn", "one freezing January"),
    other=(
        "#so#{person} got married at {value} #when#.",
        "#so#{person}'s wedding was at {value}, stunning place.",
        "#so#{person} tied the knot at {value}.",
        "Went to {person}'s wedding at {value} #when#, lovely do.",
        "#so#{person} is showing everyone their wedding photos from {value}.",
        "#so#{person} and their partner married at {value}, very fancy.",
    ),
    ask=(
        "Where did I exchange vows?",
        "What was the venue for my big day?",
        "Where was my marriage ceremony held?",
        "Where did I get hitched?",
    ),
    topic=("my wedding", "where I got married"),
)

ATTRIBUTES: tuple[Attribute, ...] = (
    PARTNER,
    replace(SISTER, kin=True),
    replace(BROTHER, kin=True),
    BEST_FRIEND,
    replace(GRANDMOTHER, kin=True),
    replace(GRANDFATHER, kin=True),
    MIDDLE_NAME,
    CHILDHOOD_PET,
    TEACHER,
    WEDDING_VENUE,
)
