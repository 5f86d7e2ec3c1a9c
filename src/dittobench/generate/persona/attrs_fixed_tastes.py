"""Fixed facts about the user's tastes: the instrument they learned and their favourite film,
band, team, board game, book and painter.

Each attribute is stated once (``state``), may be held by a contact too (``other``, always
naming the contact as the holder), and is asked about in words the statements avoid (``ask``).
Film and band pools are disjoint from the first-concert pool, so one title never answers
two questions.
"""

from __future__ import annotations

from dittobench.generate.persona._value_pools import plain, surnamed
from dittobench.generate.persona.attribute import Attribute, AttributeKit, Choice

_LEAD = ("", "", "", "Okay, confession: ", "Random, but ", "Oh, and ", "Honestly, ")
_SO = ("So ", "Funny thing: ", "Apparently ", "Turns out ", "Oh, ", "Get this, ")


_fixed = AttributeKit("fixed", {"lead": _LEAD, "so": _SO})


INSTRUMENT = _fixed(
    "instrument",
    "The instrument I learned",
    (
        *plain(
            "cello, oboe, bassoon, clarinet, trombone, violin, viola, flute, accordion, banjo,"
            " mandolin, tuba, French horn, harp, harmonica, bagpipes, trumpet, piano"
        ),
        Choice("ukulele", ("uke",)),
        Choice("saxophone", ("sax",)),
        Choice("double bass", ("upright bass", "contrabass")),
        Choice("drums", ("drum kit",)),
    ),
    state=(
        "#lead#I played the {value} all through school.",
        "#lead#I did all my grade exams on the {value}.",
        "#lead#I was in the school band on the {value} for years.",
        "#lead#I practised the {value} for an hour every day as a kid.",
        "#lead#I still pick up the {value} when I'm stressed.",
        "#lead#my neighbours hate it when I get the {value} out.",
    ),
    other=(
        "#so#{person} plays the {value} in a local band.",
        "#so#{person} has been practising the {value} for months.",
        "#so#{person} did grade eight on the {value}.",
        "#so#{person} brought their {value} to the party, for some reason.",
        "#so#{person} is teaching their kids the {value}.",
        "#so#{person} busks with the {value} on weekends.",
    ),
    ask=(
        "Which instrument did I learn as a child?",
        "What did I take music lessons on growing up?",
        "What can I make music on?",
        "What instrument do I know how to play?",
    ),
    topic=("the instrument I learned", "my instrument"),
)

FILM = _fixed(
    "favourite_film",
    "My favourite film",
    (
        *plain(
            "Spirited Away, Amadeus, Jurassic Park, Back to the Future, Groundhog Day, Gattaca,"
            " Princess Mononoke, Cinema Paradiso, Goodfellas, Blade Runner, Edward Scissorhands,"
            " Pulp Fiction, Trainspotting, Donnie Darko, Casablanca, Fight Club"
        ),
        Choice("The Shawshank Redemption", ("Shawshank Redemption", "Shawshank")),
        Choice("Eternal Sunshine of the Spotless Mind", ("Eternal Sunshine",)),
        Choice("The Grand Budapest Hotel", ("Grand Budapest Hotel", "Grand Budapest")),
        Choice("The Princess Bride", ("Princess Bride",)),
        Choice("Mad Max: Fury Road", ("Fury Road", "Mad Max Fury Road")),
        Choice("The Big Lebowski", ("Big Lebowski",)),
        Choice("Amelie", ("Amélie",)),
    ),
    state=(
        "#lead#I've seen {value} more times than I can count.",
        "#lead#nothing beats {value}. I cry every single time.",
        "#lead#I watched {value} again last night, still perfect.",
        "#lead#if {value} is on TV, my evening is sorted.",
        "Rewatching {value} for the hundredth time, no regrets.",
        "#lead#I'll defend {value} as the greatest thing ever put on a cinema screen.",
        "#lead#I can quote {value} word for word.",
    ),
    other=(
        "#so#{person} has seen {value} about forty times.",
        "#so#{person} thinks {value} is the greatest thing ever made.",
        "#so#{person} made me sit through {value} with them again.",
        "#so#{person} can quote {value} word for word.",
        "#so#{person}'s bedroom wall is covered in {value} posters.",
        "#so#{person} cries at {value} every time.",
    ),
    ask=(
        "What's my favourite movie?",
        "What's the one movie I'd take to a desert island?",
        "Which flick do I rate above all others?",
        "What film could I watch on a loop?",
    ),
    topic=("my favourite film", "the movie I love most"),
)

BAND = _fixed(
    "favourite_band",
    "My favourite band",
    (
        *plain(
            "Radiohead, Arctic Monkeys, Fleetwood Mac, Portishead, Massive Attack, Talking Heads,"
            " Fleet Foxes, Bon Iver, Vampire Weekend, Khruangbin, Tame Impala,"
            " Wolf Alice, Led Zeppelin, Pink Floyd, Depeche Mode, Foo Fighters, Daft Punk,"
            " Gorillaz, Kings of Leon, Stereophonics, Metallica, Blondie, Snow Patrol, Haim, ABBA"
        ),
        Choice("Sigur Ros", ("Sigur Rós",)),
    ),
    state=(
        "#lead#I've been obsessed with {value} since I was a teenager.",
        "#lead#{value} is the best band on the planet, no contest.",
        "#lead#I've seen {value} live #count# times and I'd go again tomorrow.",
        "#lead#I know every word of every {value} album.",
        "Just got tickets to see {value}, I'm shaking.",
        "#lead#nobody comes close to {value}; they've been on repeat for a decade.",
    ),
    count=("five", "seven", "a dozen", "nine"),
    other=(
        "#so#{person} is obsessed with {value}.",
        "#so#{person} got tickets to see {value} and won't stop bragging.",
        "#so#{person} thinks {value} is the best band ever.",
        "#so#{person} has seen {value} live #count# times.",
        "#so#{person} made me sit through an entire {value} album in the car.",
        "#so#{person} got a tattoo of the {value} logo.",
    ),
    ask=(
        "Who's my favourite group?",
        "Which musicians do I like most?",
        "What music act means the most to me?",
        "Whose music do I play more than anyone else's?",
        "Which artists dominate my playlists?",
    ),
    topic=("my favourite band", "the music I love"),
)

TEAM = _fixed(
    "sports_team",
    "The team I support",
    (
        *plain(
            "Everton, Sunderland, Ajax, Benfica, Napoli, Leinster, Feyenoord, Galatasaray,"
            " Wrexham, Anderlecht, Olympiacos, Lazio, Aston Villa, Sevilla"
        ),
        Choice("Newcastle United", ("Newcastle",)),
        Choice("Borussia Dortmund", ("Dortmund", "BVB")),
        Choice("Boca Juniors", ("Boca",)),
        Choice("Fenerbahce", ("Fenerbahçe",)),
        Choice("Atletico Madrid", ("Atletico", "Atlético Madrid")),
        Choice("Hibernian", ("Hibs",)),
        Choice("Bayern Munich", ("Bayern",)),
        Choice("Juventus", ("Juve",)),
        Choice("FC Porto", ("Porto",)),
        Choice("Red Star Belgrade", ("Red Star",)),
        Choice("Rapid Vienna", ("Rapid Wien",)),
    ),
    state=(
        "#lead#I support {value}, always have.",
        "#lead#I'm a lifelong {value} supporter.",
        "#lead#I've had a season ticket for {value} since I was twelve.",
        "#lead#{value} lost again and I'm in a terrible mood.",
        "#lead#I was raised to support {value}; my dad made sure of it.",
        "Watching {value} tonight with a pint, bliss.",
        "#lead#nothing makes me happier than {value} winning.",
    ),
    other=(
        "#so#{person} supports {value}, sadly.",
        "#so#{person} is a lifelong {value} supporter.",
        "#so#{person} has a season ticket for {value}.",
        "#so#{person} is in a foul mood because {value} lost.",
        "#so#{person} dragged me to watch {value} last night.",
        "#so#{person} was raised to support {value}.",
    ),
    ask=(
        "Which team do I cheer for?",
        "Who do I root for?",
        "What club am I loyal to?",
        "Whose results can ruin my entire weekend?",
    ),
    topic=("the team I support", "my sports loyalty"),
)

BOARD_GAME = _fixed(
    "board_game",
    "My favourite board game",
    (
        *plain(
            "Ticket to Ride, Carcassonne, Scrabble, Cluedo, Azul, Wingspan, Dixit, Codenames,"
            " Terraforming Mars, Agricola, Twilight Imperium, Gloomhaven, Backgammon,"
            " Trivial Pursuit, Stratego, Pictionary, Mysterium, Everdell, Blokus, Kingdomino,"
            " Cosmic Encounter"
        ),
        Choice("Catan", ("Settlers of Catan",)),
        Choice("Mahjong", ("mah-jong", "mahjongg")),
    ),
    state=(
        "#lead#I'm unbeatable at {value}, ask anyone.",
        "#lead#every family gathering ends with {value}, and I usually win.",
        "#lead#nothing beats a rainy Sunday with {value}.",
        "#lead#I own three copies of {value}; it's a problem.",
        "#lead#I get weirdly competitive when it comes to {value}.",
        "Just won at {value} again, my flatmates are furious.",
    ),
    other=(
        "#so#{person} is unbeatable at {value}.",
        "#so#{person} made everyone sit through {value} at their party.",
        "#so#{person} takes {value} on every holiday.",
        "#so#{person} gets far too competitive over {value}.",
        "#so#{person} taught their kids {value} and now keeps losing.",
        "#so#{person} stormed off during {value} last night.",
    ),
    ask=(
        "What's my favourite board game?",
        "Which tabletop title do I love most?",
        "What do I reach for first on games night?",
        "What's my go-to pick when friends want to play something at the table?",
    ),
    topic=("my favourite board game", "the game I like best"),
)

BOOK = _fixed(
    "favourite_book",
    "My favourite book",
    (
        *plain(
            "Middlemarch, Jane Eyre, Wuthering Heights, One Hundred Years of Solitude,"
            " Anna Karenina, Frankenstein, Dracula, Brideshead Revisited, Crime and Punishment,"
            " Don Quixote, Mrs Dalloway, Watership Down, Cloud Atlas, Wolf Hall, Life of Pi,"
            " Station Eleven, Pachinko"
        ),
        Choice("The Remains of the Day", ("Remains of the Day",)),
        Choice("The Master and Margarita", ("Master and Margarita",)),
        Choice("The Secret History", ("Secret History",)),
        Choice("The Name of the Wind", ("Name of the Wind",)),
        Choice("Moby-Dick", ("Moby Dick",)),
        Choice("The Count of Monte Cristo", ("Count of Monte Cristo",)),
        Choice("The Hobbit", ("Hobbit",)),
        Choice("The Little Prince", ("Little Prince",)),
    ),
    state=(
        "#lead#I reread {value} every summer.",
        "#lead#{value} changed my life when I was nineteen.",
        "#lead#I've worn out three copies of {value}.",
        "#lead#nothing will top {value} for me.",
        "Started {value} again on the train this morning; it never gets old.",
        "#lead#I cry at the ending of {value}, without fail.",
        "#lead#I'd happily get a quote from {value} tattooed on my arm.",
    ),
    other=(
        "#so#{person} rereads {value} every year.",
        "#so#{person} swears {value} changed their life.",
        "#so#{person} has three copies of {value}.",
        "#so#{person} keeps pushing {value} on me.",
        "#so#{person} named their cat after a character in {value}.",
        "#so#{person} is reading {value} for the fifth time.",
    ),
    ask=(
        "What's my favourite book?",
        "Which novel do I treasure most?",
        "What would I grab off my shelves in a fire?",
        "What's the one read I recommend to everybody?",
    ),
    topic=("my favourite book", "the novel I love most"),
)

PAINTER = _fixed(
    "favourite_painter",
    "My favourite painter",
    (
        *surnamed(
            "Frida Kahlo, Mark Rothko, Gustav Klimt, Egon Schiele, Edward Hopper, Henri Rousseau,"
            " Claude Monet, Wassily Kandinsky, Paul Klee, Amedeo Modigliani, Hieronymus Bosch,"
            " David Hockney, Yayoi Kusama, Artemisia Gentileschi, Henri Matisse, Pieter Bruegel,"
            " Tamara de Lempicka, Hilma af Klint"
        ),
        *plain("Vermeer, Caravaggio, Hokusai, Rembrandt"),
    ),
    state=(
        "#lead#I've got {value} prints all over my flat.",
        "#lead#I queued three hours for the {value} show at the gallery.",
        "#lead#nobody moves me like {value}.",
        "Bought a huge {value} poster for the hallway.",
        "#lead#I'd happily stare at {value} all day.",
        "#lead#I travelled abroad just for the {value} retrospective.",
    ),
    other=(
        "#so#{person} adores {value}.",
        "#so#{person} has {value} prints all over their flat.",
        "#so#{person} queued for hours to see the {value} show.",
        "#so#{person} wrote their dissertation on {value}.",
        "#so#{person} is flying abroad just for the {value} retrospective.",
        "#so#{person} sent me a postcard from the {value} show, more their thing than mine.",
    ),
    ask=(
        "Who's my favourite painter?",
        "Which artist do I admire most?",
        "Whose canvases would I hang in every room if I could?",
        "Whose paintings speak to me like no one else's?",
    ),
    topic=("my favourite painter", "the art I love"),
)

ATTRIBUTES: tuple[Attribute, ...] = (
    INSTRUMENT,
    FILM,
    BAND,
    TEAM,
    BOARD_GAME,
    BOOK,
    PAINTER,
)
