"""Standing tastes in leisure: music to focus to, holidays, books, exercise, colour, films and
where to stay when away.

Each attribute is a ``preference``, voiced as in ``attrs_tastes``: ``state`` for the user,
``other`` for a contact, ``apply`` for a later request that should honour the taste unprompted.
Values are what an honouring answer would say ("bouldering", "sage green", "boutique hotels"),
with singular or spelling aliases where an answer may well use them.
"""

from __future__ import annotations

from dittobench.generate.persona._tastes_kit import preference
from dittobench.generate.persona._value_pools import pool
from dittobench.generate.persona.attribute import Attribute

FOCUS_MUSIC = preference(
    "taste_focus_music",
    "What I listen to when I concentrate",
    pool(
        "lo-fi hip hop|classical piano|jazz|ambient music|synthwave|film scores|baroque"
        "|bossa nova|post-rock|drum and bass|techno|video game soundtracks|brown noise"
        "|rain sounds|Gregorian chant|string quartets",
        {
            "lo-fi hip hop": ("lo-fi", "lofi"),
            "ambient music": ("ambient",),
            "film scores": ("film score",),
            "drum and bass": ("drum & bass", "drum 'n' bass"),
            "video game soundtracks": ("video game soundtrack", "game soundtracks"),
            "post-rock": ("post rock",),
            "string quartets": ("string quartet",),
        },
    ),
    state=(
        "#lead#I can only concentrate with {value} in the background.",
        "#lead#when I need to get stuff done, I put on {value}.",
        "#lead#my secret weapon for a big task is {value} in my headphones.",
        "#lead#I've found nothing helps me concentrate like {value}.",
        "#lead#nothing gets me in the zone like {value}.",
        "#lead#I've got {value} on whenever I'm knuckling down#music_tail#.",
    ),
    music_tail=("", ", without fail", " — it's the only thing that works", ", every single time"),
    other=(
        "#other_lead#{person} can only concentrate with {value} on.",
        "#other_lead#{person} has {value} in their headphones all day.",
        "#other_lead#{person} swears {value} doubles their output.",
        "I borrowed {person}'s headphones and it was wall-to-wall {value}.",
        "Whenever {person} is up against a deadline, it's {value} on repeat.",
        "In our shared office, {person} always has {value} going.",
        "#other_lead#{person} says they can only get anything finished with {value} on.",
    ),
    apply=(
        "Can you make me a playlist for a long afternoon of writing?",
        "I've got an exam to revise for. What should I listen to while I study?",
        "Suggest something to have playing while I code this evening.",
        "What should I listen to while I sort out my tax return?",
        "Put together a soundtrack for my essay marathon tonight.",
        "I'm pulling an all-nighter on a report. What should I queue up?",
    ),
    topic=("what I listen to when I concentrate", "my focus music"),
)

HOLIDAY = preference(
    "taste_holiday",
    "My kind of holiday",
    pool(
        "beach holidays|city breaks|hiking trips|ski trips|cruises|road trips|camping|safaris"
        "|backpacking|cycling tours|spa retreats|food tours|island hopping|glamping"
        "|sailing trips|wine tours",
        {
            "beach holidays": ("beach holiday",),
            "city breaks": ("city break",),
            "hiking trips": ("hiking trip",),
            "ski trips": ("ski trip", "skiing trip"),
            "cruises": ("cruise",),
            "road trips": ("road trip",),
            "safaris": ("safari",),
            "cycling tours": ("cycling tour",),
            "spa retreats": ("spa retreat",),
            "food tours": ("food tour",),
            "sailing trips": ("sailing trip",),
            "wine tours": ("wine tour",),
        },
    ),
    state=(
        "#lead#for me, time off means {value}#holiday_tail#.",
        "#lead#I'm a big fan of {value}, #holiday_reason#.",
        "#lead#whenever I get some leave, I go for {value}.",
        "#lead#I've always loved {value} more than any other kind of getaway.",
        "#lead#nothing recharges me like {value}.",
        "#lead#if I'm taking a proper break, it's {value}#holiday_tail#.",
        "#lead#give me {value} over anything else when I'm off work.",
    ),
    holiday_tail=("", ", every time", " — always has been", ", no question"),
    holiday_reason=(
        "it's my favourite way to switch off",
        "nothing else comes close",
        "it's what I look forward to all year",
    ),
    other=(
        "#other_lead#{person} only ever does {value} when they go away.",
        "#other_lead#{person} is mad about {value}.",
        "#other_lead#{person} swears by {value} for recharging.",
        "For {person}, a proper break means {value}.",
        "Every year {person} insists on {value}, no matter what.",
        "Whenever {person} has leave, it's {value}, without fail.",
        "#other_lead#{person} has already booked {value} again for next year.",
    ),
    apply=(
        "Where should I go for a week in June?",
        "Help me plan something for my summer holiday.",
        "I've got ten days free in September. What should I book?",
        "Can you suggest an idea for my anniversary trip?",
        "What should I do with the bank holiday weekend in May?",
        "I want to get out of town next month. Any ideas?",
    ),
    topic=("my kind of holiday", "how I like to spend time off"),
)

BOOKS = preference(
    "taste_books",
    "What I like to read",
    pool(
        "crime fiction|science fiction|fantasy|historical fiction|literary fiction|romance"
        "|thrillers|horror|memoirs|biographies|poetry|travel writing|true crime"
        "|popular science|graphic novels|cosy mysteries|short stories",
        {
            "crime fiction": ("crime novel", "crime novels"),
            "science fiction": ("sci-fi",),
            "thrillers": ("thriller",),
            "memoirs": ("memoir",),
            "biographies": ("biography",),
            "popular science": ("pop science",),
            "graphic novels": ("graphic novel",),
            "cosy mysteries": ("cosy mystery", "cozy mystery", "cozy mysteries"),
        },
    ),
    state=(
        "#lead#my shelves are full of {value}#book_tail#.",
        "#lead#I'm completely hooked on {value}.",
        "#lead#I devour {value}, #book_reason#.",
        "#lead#nothing keeps me up past midnight like {value}.",
        "#lead#I've always been drawn to {value} more than anything else.",
        "#lead#in a library I head straight for the {value} section.",
        "#lead#if I've got a spare hour, I'm curled up with {value}.",
    ),
    book_tail=("", ", honestly", " — always have been", ", and I keep buying more"),
    book_reason=("I can't get enough", "one after another", "it's my idea of a perfect evening"),
    other=(
        "#other_lead#{person} only ever reads {value}.",
        "#other_lead#{person} is obsessed with {value}.",
        "#other_lead#{person}'s shelves are packed with {value}.",
        "I swear {person} has gone through every bit of {value} ever published.",
        "Whenever {person} lends me something, it's {value}.",
        "These days {person} is on a real {value} binge.",
        "#other_lead#{person} has been recommending {value} to everyone they meet.",
    ),
    apply=(
        "What should I read on the flight to Lisbon?",
        "Pick a novel for me to take on holiday.",
        "My book club wants my pick for next month. What should I put forward?",
        "I've got a long weekend with nothing planned. What should I get stuck into?",
        "Suggest something to load onto my e-reader for the beach.",
        "What should I bring along for the train to Edinburgh?",
    ),
    topic=("what I like to read", "my taste in books"),
)

WORKOUT = preference(
    "taste_workout",
    "How I like to exercise",
    pool(
        "yoga|spin classes|HIIT|barre|kettlebells|weightlifting|boxing|Zumba|circuit training"
        "|aqua aerobics|CrossFit|cycling|Nordic walking|step aerobics",
        {
            "spin classes": ("spin class", "spinning"),
            "kettlebells": ("kettlebell",),
            "weightlifting": ("weight lifting", "lifting weights"),
            "circuit training": ("circuits",),
        },
    ),
    state=(
        "#lead#my favourite way to work out is {value}.",
        "#lead#I'm at my happiest doing {value}#fit_tail#.",
        "#lead#if I'm going to break a sweat, it has to be {value}.",
        "#lead#I've tried everything, but {value} is the only exercise I actually enjoy.",
        "#lead#I fit in {value} whenever I can, #fit_reason#.",
        "#lead#nothing clears my head like {value}.",
    ),
    fit_tail=("", ", honestly", " — always have been", ", no contest"),
    fit_reason=("it keeps me sane", "it's the highlight of my week", "and I never regret it"),
    other=(
        "#other_lead#{person} fits in {value} #freq#.",
        "#other_lead#{person} is completely hooked on {value}.",
        "#other_lead#{person} swears by {value} for staying in shape.",
        "Whenever I see {person}, they've just come back from {value}.",
        "I swear {person} never misses a session of {value}.",
        "For {person}, {value} is the only exercise worth doing.",
        "#other_lead#{person} has signed up for even more {value}.",
    ),
    freq=("every morning", "four times a week", "religiously", "most evenings"),
    apply=(
        "Can you put together a fitness plan for the next month?",
        "I want to get fitter before summer. Where should I start?",
        "What should I do on my lunch break to stay active?",
        "Suggest a weekly routine to help me build stamina.",
        "I've got a free hour on Saturday. How should I use it to keep fit?",
        "Design a training schedule for me around a busy fortnight.",
    ),
    topic=("how I like to exercise", "my favourite workout"),
)

COLOUR = preference(
    "taste_colour",
    "My favourite colour",
    pool(
        "navy blue|forest green|burnt orange|mustard yellow|lavender|teal|burgundy|terracotta"
        "|sage green|dusty pink|cobalt blue|charcoal grey|ochre|mint green|emerald green"
        "|turquoise|magenta|crimson",
        {"charcoal grey": ("charcoal gray",), "navy blue": ("navy",)},
    ),
    state=(
        "#lead#my favourite colour is {value}.",
        "#lead#I'd wear {value} every day if I could.",
        "#lead#I'm drawn to {value} #every_time#.",
        "#lead#half my wardrobe is {value}, #colour_reason#.",
        "#lead#nothing makes me happier than {value}.",
        "#lead#I've loved {value} since I was a kid.",
        "#lead#if I had to live with one colour forever, it'd be {value}.",
    ),
    every_time=("every time", "every single time", "without fail"),
    colour_reason=("and I'm not sorry", "which says it all", "and the other half wants to be"),
    other=(
        "#other_lead#{person}'s favourite colour is {value}.",
        "#other_lead#{person} painted their whole flat {value}.",
        "#other_lead#{person} is obsessed with {value}.",
        "I've never seen {person} in anything but {value}.",
        "Everything {person} owns seems to be {value}.",
        "At their wedding, {person} wants everything in {value}.",
        "#other_lead#{person} just bought a car in {value}.",
    ),
    apply=(
        "What shade should I paint the spare room?",
        "Help me choose a new winter coat.",
        "I'm redecorating my bedroom. What scheme should I go for?",
        "What should I get for my new phone case?",
        "Suggest a theme for my birthday party decorations.",
        "I'm ordering a new sofa. Which finish should I choose?",
    ),
    topic=("my favourite colour", "the colour I always go for"),
)

FILMS = preference(
    "taste_films",
    "The films I like",
    pool(
        "horror films|romantic comedies|documentaries|westerns|thrillers|sci-fi films"
        "|animated films|musicals|war films|heist films|period dramas|anime|film noir"
        "|martial arts films|courtroom dramas|disaster movies|coming-of-age films",
        {
            "horror films": ("horror film", "horror movie", "horror movies"),
            "romantic comedies": ("romantic comedy", "romcom", "romcoms", "rom-com", "rom-coms"),
            "documentaries": ("documentary",),
            "westerns": ("western film",),
            "thrillers": ("thriller",),
            "sci-fi films": ("sci-fi film", "sci-fi movie", "sci-fi"),
            "animated films": ("animated film", "animated movie"),
            "musicals": ("musical",),
            "war films": ("war film", "war movie"),
            "heist films": ("heist film", "heist movie"),
            "period dramas": ("period drama",),
            "martial arts films": ("martial arts film", "martial arts movie"),
            "courtroom dramas": ("courtroom drama",),
            "disaster movies": ("disaster movie", "disaster film"),
            "coming-of-age films": ("coming-of-age film", "coming-of-age movie"),
        },
    ),
    state=(
        "#lead#I'm a sucker for {value}.",
        "#lead#I could sit through {value} all day#film_tail#.",
        "#lead#when it comes to films, I'm all about {value}.",
        "#lead#I've seen more {value} than I can count.",
        "#lead#my streaming queue is nothing but {value}.",
        "#lead#I've always had a soft spot for {value}#film_tail#.",
    ),
    film_tail=("", ", honestly", " — always have", ", no question"),
    other=(
        "#other_lead#{person} only ever watches {value}.",
        "#other_lead#{person} is mad about {value}.",
        "#other_lead#{person} has seen every one of the classic {value}.",
        "Whenever it's {person}'s turn to choose, it's {value}.",
        "I swear {person}'s watchlist is wall-to-wall {value}.",
        "Once a month, {person} hosts a screening of {value} for friends.",
        "#other_lead#{person} can quote half the {value} ever made.",
    ),
    apply=(
        "What should we put on for movie night on Friday?",
        "Can you suggest something to stream this weekend?",
        "I've got a long flight tomorrow. What should I download for it?",
        "Pick something for a lazy Sunday on the sofa.",
        "What should I go and catch at the cinema this week?",
        "I've got the telly to myself tonight. Any suggestions?",
    ),
    topic=("the films I like", "my taste in films"),
)

LODGING = preference(
    "taste_lodging",
    "Where I like to stay when I travel",
    pool(
        "boutique hotels|hostels|campsites|B&Bs|holiday cottages|treehouses|houseboats|ryokans"
        "|guesthouses|farm stays|all-inclusive resorts|capsule hotels|motels|country inns"
        "|serviced apartments|eco-lodges",
        {
            "boutique hotels": ("boutique hotel",),
            "hostels": ("hostel",),
            "campsites": ("campsite",),
            "B&Bs": ("B&B", "bed and breakfast", "bed and breakfasts"),
            "holiday cottages": ("holiday cottage",),
            "treehouses": ("treehouse", "tree house"),
            "houseboats": ("houseboat",),
            "ryokans": ("ryokan",),
            "guesthouses": ("guesthouse", "guest house"),
            "farm stays": ("farm stay", "farmstay"),
            "all-inclusive resorts": ("all-inclusive resort", "all-inclusive"),
            "capsule hotels": ("capsule hotel",),
            "motels": ("motel",),
            "country inns": ("country inn",),
            "serviced apartments": ("serviced apartment",),
            "eco-lodges": ("eco-lodge",),
        },
    ),
    state=(
        "#lead#when I travel, I always stay in {value}.",
        "#lead#I'm a big fan of {value}, #lodging_reason#.",
        "#lead#I'd choose {value} over a big chain #every_time#.",
        "#lead#whenever I'm away, I hunt out {value}#lodging_tail#.",
        "#lead#I've stayed in {value} pretty much everywhere I've been.",
        "#lead#I sleep best in {value}; they just suit me.",
        "#lead#for me, nothing beats {value} on the road.",
    ),
    lodging_reason=("they just feel right", "the character wins me over", "and I'm not changing"),
    every_time=("every time", "any day", "without a second thought"),
    lodging_tail=("", ", without fail", " — it's half the fun", ", always"),
    other=(
        "#other_lead#{person} only ever stays in {value}.",
        "#other_lead#{person} swears by {value} when they travel.",
        "#other_lead#{person} spent the whole summer hopping between {value}.",
        "I swear {person} refuses to sleep anywhere but {value}.",
        "Whenever {person} goes away, it's {value}, no exceptions.",
        "For {person}, nothing beats {value} on the road.",
        "#other_lead#{person} has booked nothing but {value} for their next getaway.",
    ),
    apply=(
        "Find me somewhere to spend three nights in Edinburgh next month.",
        "Where should I base myself for a long weekend in Porto?",
        "Help me sort out where to lay my head in Kyoto this April.",
        "Help me pick accommodation for the wedding in Cornwall.",
        "What kind of place should I look for on my trip to Lisbon?",
        "I need somewhere for one night near the airport before an early flight.",
    ),
    topic=("where I like to stay when I travel", "my kind of accommodation"),
)

ATTRIBUTES: tuple[Attribute, ...] = (
    FOCUS_MUSIC,
    HOLIDAY,
    BOOKS,
    WORKOUT,
    COLOUR,
    FILMS,
    LODGING,
)
