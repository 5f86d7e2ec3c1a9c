"""Things only the assistant ever said: a novel, podcast, long hike, gadget, recipe, film, board
game, album, museum and app it recommended.

Each attribute is ``assistant``: the user asks for a suggestion (``request``, no value), the
assistant's reply names one (``recommend``, with ``{value}``), and much later the user asks what
it was (``ask``) in words neither turn used. Requests stay general (no city, season-specific
need or genre), so whichever value is drawn fits the reply. Values without a leading article
take "the" in the grammar where English needs it ("the West Highland Way", "the Prado").
"""

from __future__ import annotations

from dittobench.generate.persona._value_pools import pool
from dittobench.generate.persona.attribute import Attribute, AttributeKit

_REQ_LEAD = ("", "", "Hey, ", "Okay, ", "Quick question: ", "So, ")
# Replies for values that read as names on their own and start with a capital.
_RECOMMEND = (
    "You might enjoy {value} — #praise#.",
    "I'd go for {value}. #praise#.",
    "How about {value}? #praise#.",
    "{value} would be a great choice: #praise#.",
    "Try {value}; #praise#.",
    "My pick would be {value}, because #praise#.",
)
# Replies for values that take "the" ("the Prado", "the AeroPress").
_RECOMMEND_THE = (
    "You'd love the {value} — #praise#.",
    "I'd go for the {value}. #praise#.",
    "How about the {value}? #praise#.",
    "The {value} would be my pick, since #praise#.",
    "Have a look at the {value}; #praise#.",
    "My top suggestion is the {value}: #praise#.",
)


_assistant = AttributeKit("assistant", {"req_lead": _REQ_LEAD})


NOVEL = _assistant(
    "suggested_novel",
    "The novel you recommended",
    pool(
        "A Gentleman in Moscow|The Night Circus|Piranesi|Never Let Me Go|The Goldfinch"
        "|The Shadow of the Wind|Klara and the Sun|Homegoing|Hamnet|The Overstory"
        "|Lonesome Dove|Americanah|The Name of the Rose|Shuggie Bain|The Book Thief"
        "|The Left Hand of Darkness|Demon Copperhead|The Song of Achilles|Bel Canto"
    ),
    request=(
        "#req_lead#can you recommend a novel #novel_for#?",
        "I need a new novel #novel_for#. Any ideas?",
        "#req_lead#what's a good novel to get lost in #novel_for#?",
        "I've just finished my last novel and need another #novel_for#. Suggestions?",
        "#req_lead#give me one novel you think everyone should experience.",
        "Recommend me some fiction #novel_for#, would you?",
    ),
    novel_for=(
        "for my holiday",
        "for the long flight next week",
        "for the evenings",
        "for the summer",
    ),
    recommend=_RECOMMEND,
    praise=(
        "it's beautifully written and hard to put down",
        "its characters stay with you long after the last page",
        "it's gripping from the first chapter",
        "it's moving without ever being heavy",
        "it's one people tend to press on all their friends",
    ),
    ask=(
        "What was the book you told me to get?",
        "What was the book you put me onto a while back?",
        "Remind me which story you said I'd love?",
        "What was the name of the book you pointed me towards?",
        "Which book did you say I should grab?",
    ),
)

PODCAST = _assistant(
    "suggested_podcast",
    "The podcast you recommended",
    pool(
        "Radiolab|This American Life|Hardcore History|Freakonomics Radio|The Rest Is History"
        "|No Such Thing As A Fish|Stuff You Should Know|Revisionist History|Song Exploder"
        "|Planet Money|Invisibilia|Desert Island Discs|Hidden Brain|The Infinite Monkey Cage"
        "|Twenty Thousand Hertz|Science Vs"
    ),
    request=(
        "#req_lead#can you recommend a podcast #pod_for#?",
        "I need a new podcast #pod_for#. Any ideas?",
        "#req_lead#what's a podcast worth subscribing to #pod_for#?",
        "I've run out of podcasts #pod_for#. Suggestions?",
        "#req_lead#give me one podcast you think I'd really get into.",
        "Recommend me a good podcast #pod_for#, would you?",
    ),
    pod_for=("for my commute", "for long drives", "for when I'm cooking", "for my runs"),
    recommend=_RECOMMEND,
    praise=(
        "it's clever, funny and never drags",
        "the episodes are packed with things you'll want to repeat to friends",
        "it's made with real care and it shows",
        "there's a huge back catalogue to work through",
        "it's the kind of thing that makes a boring trip fly by",
    ),
    ask=(
        "What was that show you said I should listen to?",
        "Which audio series did you point me towards?",
        "Remind me which show you told me to tune in to?",
        "What was the name of the programme you put me onto?",
    ),
)

HIKE = _assistant(
    "suggested_hike",
    "The long hike you recommended",
    pool(
        "West Highland Way|Pennine Way|South Downs Way|Cotswold Way|Camino de Santiago"
        "|Tour du Mont Blanc|Appalachian Trail|Pacific Crest Trail|Inca Trail|Milford Track"
        "|Overland Track|Kungsleden|Laugavegur Trail|Lycian Way|Cape Wrath Trail|Alta Via"
        "|Offa's Dyke Path|Haute Route",
        {"Camino de Santiago": ("Camino",), "Tour du Mont Blanc": ("TMB",)},
    ),
    request=(
        "#req_lead#I want to do a multi-day hike #hike_when#. Any recommendations?",
        "Can you recommend a hike for someone who wants a proper challenge?",
        "#req_lead#I'm planning a hiking holiday #hike_when#. Ideas?",
        "I'm after a hike with stunning scenery #hike_when#. What would you recommend?",
        "#req_lead#which hike would you put at the top of my bucket list?",
        "I've got a couple of weeks off #hike_when# and want to hike. Recommendations?",
    ),
    hike_when=("next summer", "this autumn", "in the spring", "later this year"),
    recommend=_RECOMMEND_THE,
    praise=(
        "the scenery is stunning the whole way",
        "it's well marked and has great places to stop overnight",
        "it's challenging without being brutal",
        "the views are worth every blister",
        "it's one of the most rewarding treks out there",
    ),
    ask=(
        "Which walking route did you point me to?",
        "What was that long-distance walk you told me about?",
        "Remind me which path you had in mind for me?",
        "What was the name of the route you put forward?",
    ),
)

GADGET = _assistant(
    "suggested_gadget",
    "The gadget you recommended",
    pool(
        "Kindle Paperwhite|AeroPress|Instant Pot|Oura Ring|Theragun|Steam Deck"
        "|reMarkable tablet|Sonos Roam|Garmin Forerunner|Philips Hue starter kit"
        "|Anker power bank|Nintendo Switch|Rocketbook|Ninja air fryer|Lumie sunrise alarm"
        "|Fellow Stagg kettle|Bose QuietComfort",
        {
            "reMarkable tablet": ("reMarkable",),
            "Philips Hue starter kit": ("Philips Hue",),
            "Lumie sunrise alarm": ("Lumie",),
            "Fellow Stagg kettle": ("Stagg kettle",),
            "Oura Ring": ("Oura",),
        },
    ),
    request=(
        "#req_lead#I want to treat myself to a new gadget. What would you recommend?",
        "Is there a gadget that would make my #gadget_part# easier?",
        "#req_lead#I'm after a birthday present for myself. Any gadget ideas?",
        "What's one gadget you think is genuinely worth the money?",
        "#req_lead#recommend a gadget that would improve my #gadget_part#.",
        "I've got some vouchers burning a hole in my pocket. Which gadget should it be?",
    ),
    gadget_part=("mornings", "evenings", "working day", "weekends"),
    recommend=_RECOMMEND_THE,
    praise=(
        "people who own one tend to use it every day",
        "it's well made and simple to use",
        "it does one thing really well",
        "it's the kind of thing you wonder how you lived without",
        "it pays for itself in convenience",
    ),
    ask=(
        "What was that device you told me to buy?",
        "Which bit of kit did you point me towards?",
        "Remind me of the product you put forward for me?",
        "What was the name of the gizmo you said I should get?",
    ),
)

RECIPE = _assistant(
    "suggested_recipe",
    "The recipe you recommended",
    pool(
        "shakshuka|mushroom risotto|chicken katsu curry|dal makhani|beef bourguignon"
        "|miso-glazed aubergine|bibimbap|chana masala|spanakopita|spaghetti carbonara"
        "|coq au vin|seafood paella|pad see ew|lamb tagine|fish tacos|French onion soup"
        "|Korean fried chicken|laksa",
        {"miso-glazed aubergine": ("miso glazed aubergine",)},
    ),
    request=(
        "#req_lead#I want to cook something new #recipe_when#. What do you recommend?",
        "I'm stuck in a cooking rut. Any recipe ideas #recipe_when#?",
        "#req_lead#what's a recipe I should try #recipe_when#?",
        "Give me one recipe that's worth learning by heart.",
        "#req_lead#I've got some time coming up. What should I cook #recipe_when#?",
        "Recommend something impressive but doable to cook #recipe_when#.",
    ),
    recipe_when=("this weekend", "for Sunday", "tonight", "for friends on Saturday"),
    recommend=(
        "You could have a go at {value} — #praise#.",
        "Why not try {value}? #praise#.",
        "I'd suggest {value}; #praise#.",
        "How about {value}? #praise#.",
        "My pick would be {value}, since #praise#.",
        "Try making {value}: #praise#.",
    ),
    praise=(
        "it's easier than it looks and tastes amazing",
        "it's forgiving if you're new to it",
        "the leftovers are even better the next day",
        "it's a real crowd-pleaser",
        "you probably have half the ingredients already",
    ),
    ask=(
        "What was that dish you told me to make?",
        "Which meal did you put forward for me to attempt?",
        "Remind me what food you had me lined up to prepare?",
        "What was the name of the thing you said I should whip up?",
    ),
)

FILM = _assistant(
    "suggested_film",
    "The film you recommended",
    pool(
        "Paddington|Rear Window|Some Like It Hot|Singin' in the Rain|My Neighbour Totoro"
        "|Hunt for the Wilderpeople|The Lives of Others|Portrait of a Lady on Fire"
        "|Pan's Labyrinth|Little Miss Sunshine|Howl's Moving Castle|Good Will Hunting"
        "|The Third Man|Local Hero|Withnail and I|Babette's Feast|Seven Samurai|The Red Shoes",
        {
            "Singin' in the Rain": ("Singing in the Rain", "Singin’ in the Rain"),
            "My Neighbour Totoro": ("My Neighbor Totoro", "Totoro"),
            "Pan's Labyrinth": ("Pan’s Labyrinth",),
            "Howl's Moving Castle": ("Howl’s Moving Castle",),
            "Babette's Feast": ("Babette’s Feast",),
        },
    ),
    request=(
        "#req_lead#can you recommend a film for #film_when#?",
        "I want a good film for #film_when#. Any ideas?",
        "#req_lead#what film would you recommend for #film_when#?",
        "I'm in the mood for a film I've never come across. What do you recommend?",
        "#req_lead#give me one film you think everybody should experience.",
        "Recommend a film that's perfect for #film_when#, would you?",
    ),
    film_when=("a quiet evening in", "a Sunday afternoon", "the weekend", "a long flight"),
    recommend=_RECOMMEND,
    praise=(
        "it's funny, warm and beautifully made",
        "it holds up brilliantly however many times you revisit it",
        "it's a proper classic for a reason",
        "it's the kind of film people end up quoting for years",
        "it's gorgeous to look at and quietly moving",
    ),
    ask=(
        "What was the movie you told me to put on?",
        "Which movie did you say I ought to catch?",
        "Remind me which picture you thought I should stream?",
        "What was the name of that picture you pointed me towards?",
    ),
)

BOARD_GAME = _assistant(
    "suggested_board_game",
    "The board game you recommended",
    pool(
        "Splendor|Cascadia|Sushi Go|Hanabi|The Quacks of Quedlinburg|Scythe|Takenoko"
        "|Spirit Island|Viticulture|Brass: Birmingham|Power Grid|Lost Ruins of Arnak"
        "|Tokaido|King of Tokyo|Sagrada|Dune: Imperium|Lords of Waterdeep|Flamecraft",
        {
            "The Quacks of Quedlinburg": ("Quacks of Quedlinburg",),
            "Brass: Birmingham": ("Brass Birmingham",),
            "Dune: Imperium": ("Dune Imperium",),
        },
    ),
    request=(
        "#req_lead#can you recommend a board game for #game_for#?",
        "We need a new board game for #game_for#. What do you recommend?",
        "#req_lead#what's a good board game for #game_for#?",
        "Our board games are getting stale. Which one should we get for #game_for#?",
        "#req_lead#recommend a board game that's easy to teach but still fun.",
        "I'm buying a board game for #game_for#. Any ideas?",
    ),
    game_for=("family evenings", "two players", "a group of friends", "rainy weekends"),
    recommend=_RECOMMEND,
    praise=(
        "it's quick to learn and hard to put down",
        "nobody sits around waiting for their turn",
        "it looks gorgeous and plays brilliantly",
        "it's become a modern classic for good reason",
        "it works just as well for beginners as for seasoned players",
    ),
    ask=(
        "Which tabletop title did you suggest for us?",
        "What was that thing you told me we should play?",
        "Remind me what you thought we should get out on the table next time?",
        "What was that tabletop thing called, the one you put forward?",
    ),
)

ALBUM = _assistant(
    "suggested_album",
    "The album you recommended",
    pool(
        "Kind of Blue|Pet Sounds|OK Computer|The Miseducation of Lauryn Hill"
        "|Random Access Memories|To Pimp a Butterfly|Purple Rain|Hounds of Love"
        "|Songs in the Key of Life|Carrie & Lowell|Astral Weeks|Remain in Light"
        "|Channel Orange|In Rainbows|Graceland|Abbey Road|Blue Lines|Innervisions",
        {"Carrie & Lowell": ("Carrie and Lowell",)},
    ),
    request=(
        "#req_lead#can you recommend an album #album_for#?",
        "I want to get into some new music. Which album should I start with?",
        "#req_lead#what's an album everyone should hear at least once?",
        "Recommend me a full album to have on #album_for#.",
        "I'm bored of my playlists. Any album ideas #album_for#?",
        "#req_lead#give me one album you think I'd love.",
    ),
    album_for=(
        "for a long drive",
        "for Sunday mornings",
        "to cook along to",
        "for a rainy afternoon",
    ),
    recommend=_RECOMMEND,
    praise=(
        "it rewards listening all the way through",
        "there isn't a weak track on it",
        "it sounds as fresh today as when it came out",
        "it's a landmark for good reason",
        "it gets better with every listen",
    ),
    ask=(
        "What was that record you told me to put on?",
        "Which LP did you point me towards?",
        "Remind me which record you said I ought to check out?",
        "What was the LP you said I should stick on?",
    ),
)

MUSEUM = _assistant(
    "suggested_museum",
    "The museum you recommended",
    pool(
        "Hermitage|Smithsonian|Vasa Museum|Ashmolean|Kelvingrove|Egyptian Museum|Mauritshuis"
        "|Fitzwilliam|Hunterian|Reina Sofía|Belvedere|Munch Museum|Pitt Rivers Museum"
        "|Alte Pinakothek|Kröller-Müller Museum|Museum of Old and New Art",
        {
            "Hermitage": ("Hermitage Museum",),
            "Kelvingrove": ("Kelvingrove Art Gallery",),
            "Fitzwilliam": ("Fitzwilliam Museum",),
            "Hunterian": ("Hunterian Museum",),
            "Reina Sofía": ("Reina Sofia",),
            "Belvedere": ("Belvedere Museum",),
            "Kröller-Müller Museum": ("Kroller-Muller Museum", "Kröller-Müller"),
            "Museum of Old and New Art": ("MONA",),
        },
    ),
    request=(
        "#req_lead#which museum do you think is worth planning a trip around?",
        "I'd love to see a world-class museum #museum_when#. Where should I go?",
        "#req_lead#what's one museum everybody should experience at least once?",
        "Recommend a museum worth travelling to #museum_when#.",
        "I'm planning a culture-heavy trip #museum_when#. Which museum should top my list?",
        "#req_lead#can you recommend a museum I'd really enjoy?",
    ),
    museum_when=("next year", "this spring", "for my birthday", "in the autumn"),
    recommend=_RECOMMEND_THE,
    praise=(
        "you could spend days there and still find something new",
        "the works on show are extraordinary",
        "it's worth every minute in the queue",
        "the building alone is worth the journey",
        "it's a highlight of any trip",
    ),
    ask=(
        "Which gallery did you tell me to visit?",
        "What was that place full of exhibits you said I shouldn't miss?",
        "Remind me which place you told me to spend a day exploring?",
        "What was the name of the collection you pointed me to?",
    ),
)

APP = _assistant(
    "suggested_app",
    "The app you recommended",
    pool(
        "Duolingo|Headspace|Strava|Todoist|Anki|Goodreads|Komoot|AllTrails|Citymapper"
        "|Splitwise|Yousician|Pocket Casts|Merlin Bird ID|PictureThis|Insight Timer|Readwise"
        "|Habitica|Babbel|Memrise",
        {"Merlin Bird ID": ("Merlin",)},
    ),
    request=(
        "#req_lead#is there an app you'd recommend that could make my life a bit easier?",
        "What's one app you think I should have on my phone#app_for#?",
        "#req_lead#I'm clearing out my phone. Which app is actually worth keeping?",
        "Recommend an app that's genuinely useful#app_for#.",
        "#req_lead#I want to pick up a good new habit this year. Any app ideas?",
        "Give me one app you think I'd get a lot out of#app_for#.",
    ),
    app_for=("", " day to day", ", honestly", " right now"),
    recommend=_RECOMMEND,
    praise=(
        "it's well designed and doesn't nag you",
        "the free version does plenty",
        "it quietly becomes part of your routine",
        "people stick with it long after the novelty wears off",
        "it's simple, reliable and surprisingly fun",
    ),
    ask=(
        "Which download did you tell me to get?",
        "What was that thing you said I should install?",
        "Remind me what software you pointed me towards?",
        "What was the name of the program you put forward?",
    ),
)

ATTRIBUTES: tuple[Attribute, ...] = (
    NOVEL,
    PODCAST,
    HIKE,
    GADGET,
    RECIPE,
    FILM,
    BOARD_GAME,
    ALBUM,
    MUSEUM,
    APP,
)
