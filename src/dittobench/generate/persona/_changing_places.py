"""Changing attributes about places in the user's week: home city, gym, coffee spot, hair salon
and supermarket."""

from __future__ import annotations

from dittobench.generate.persona._changing_kit import changing
from dittobench.generate.persona._value_pools import pool

HOME_CITY = changing(
    "home_city",
    "Where I live",
    pool(
        "Valencia|Bilbao|Marseille|Lyon|Lille|Bordeaux|Nantes|Rennes|Toulouse|Hamburg|Leipzig"
        "|Freiburg|Nuremberg|Basel|Lausanne|Stockholm|Gothenburg|Malmo|Oslo|Helsinki"
        "|Manchester|Leeds|Sheffield|Bristol|Cardiff|Amsterdam|Rotterdam|Utrecht|Eindhoven"
        "|Antwerp|Prague|Bologna|Turin|Toronto|Ottawa|Calgary|Winnipeg|Halifax|Seattle"
        "|Portland|Denver|Minneapolis|Pittsburgh|Melbourne|Brisbane|Wellington|Auckland",
        {
            "Nuremberg": ("Nürnberg",),
            "Gothenburg": ("Göteborg",),
            "Malmo": ("Malmö",),
            "Antwerp": ("Antwerpen",),
            "Prague": ("Praha",),
            "Turin": ("Torino",),
        },
    ),
    {
        "state": (
            "#lead#I live in {value}#tail#.",
            "#lead#I've been living in {value} for a few years#tail#.",
            "#lead#I rent #a_flat# in {value}#tail#.",
            "#lead#my #flat# is in {value}, and #remark#.",
            "#lead#I'm renting in {value}, and #remark#.",
            "#lead#I've settled in {value}, and #remark#.",
        ),
        "flat": ("flat", "apartment", "little one-bedroom"),
        "a_flat": ("a flat", "an apartment", "a little one-bedroom"),
        "tail": ("", ", in case that matters", ", and I love it", ", for what it's worth"),
        "remark": (
            "I love the area",
            "the rent is steep but worth it",
            "the neighbourhood suits me",
        ),
        "change": (
            "#news#I've moved to {value}#c_tail#.",
            "#news#I just relocated to {value}#c_tail#.",
            "#news#the move is done, so I live in {value}#c_tail#.",
            "#news#I've officially moved from {old} to {value}#c_tail#.",
            "#news#I packed up and left {old} for {value}#c_tail#.",
            "#news#goodbye {old}, hello {value}! The move finally happened.",
            "#news#after all the packing, I've relocated from {old} to {value}#c_tail#.",
            "#news#I finally moved to {value}, so long {old}!",
        ),
        "c_tail": (
            "",
            ", and I'm still unpacking",
            ", boxes everywhere",
            ", and I love it already",
        ),
        "other": (
            "#other_lead#{person} just moved to {value}#other_tail#.",
            "#other_lead#{person} has #a_flat# in {value}#other_tail#.",
            "#other_lead#{person} is relocating to {value}#other_tail#.",
            "#other_lead#{person} lives in {value} and keeps inviting me over.",
            "#other_lead#{person} rents #a_flat# in {value}#other_tail#.",
            "#other_lead#{person} is packing up for {value}#other_tail#.",
        ),
        "ask": (
            "Which city am I based in #now#?",
            "What city do I call home #now#?",
            "Where am I based #now#?",
            "Which city is home for me #now#?",
            "Remind me, which city do I reside in #now#?",
        ),
        "ask_then": (
            "Which city was I based in on {date}?",
            "Where was home for me on {date}?",
            "What city did I call home as of {date}?",
            "On {date}, which city was I based in?",
        ),
        "topic": ("where I live", "my home city", "the city I'm based in"),
    },
)

GYM = changing(
    "gym",
    "My gym",
    pool(
        "Anytime Fitness|PureGym|Equinox|Crunch Fitness|Gold's Gym|Planet Fitness|Virgin Active"
        "|David Lloyd|Fitness First|Blink Fitness|Snap Fitness|Orangetheory|LA Fitness"
        "|Nuffield Health|Gymbox|Ironworks Strength|Barry's Bootcamp|YMCA",
        {
            "Gold's Gym": ("Golds Gym",),
            "Orangetheory": ("Orangetheory Fitness", "Orange Theory"),
            "Barry's Bootcamp": ("Barry's",),
            "David Lloyd": ("David Lloyd Clubs",),
        },
    ),
    {
        "state": (
            "#lead#I'm a member at {value}#tail#.",
            "#lead#my gym is {value}#tail#.",
            "#lead#I lift at {value} #freq##tail#.",
            "#lead#I go to {value} #freq#, and #remark#.",
            "#lead#I pay for a membership at {value}#tail#.",
            "#lead#I do classes at {value}#tail#.",
        ),
        "freq": ("most mornings", "three evenings a week", "before breakfast"),
        "tail": (
            "",
            ", and it's never too busy",
            ", and the staff are friendly",
            ", for the record",
        ),
        "remark": ("it's never too busy", "the showers are decent", "the staff are friendly"),
        "change": (
            "#news#I cancelled {old} and joined {value}#c_tail#.",
            "#news#I signed up at {value}#c_tail#.",
            "#news#I switched gyms; {value} it is#c_tail#.",
            "#news#I joined {value}#c_tail#!",
            "#news#my first session at {value} went well#c_tail#.",
            "#news#goodbye {old}! I've got a membership at {value}#c_tail#.",
            "#news#I moved my membership over to {value}#c_tail#.",
        ),
        "c_tail": (
            "",
            ", and it's closer",
            ", and the equipment is much better",
            ", and the price is better",
        ),
        "other": (
            "#other_lead#{person} goes to {value}#other_tail#.",
            "#other_lead#{person} just joined {value}#other_tail#.",
            "#other_lead#{person} has a membership at {value}#other_tail#.",
            "#other_lead#{person} lifts at {value}#other_tail#.",
            "#other_lead#{person} keeps inviting me to {value}, but I'm not switching.",
            "#other_lead#{person} signed up at {value}#other_tail#.",
        ),
        "ask": (
            "Where do I work out #now#?",
            "Where do I exercise #now#?",
            "Which club do I belong to #now#?",
            "Where am I doing my workouts #now#?",
            "Where do I train #now#?",
        ),
        "ask_then": (
            "Where did I work out on {date}?",
            "Which club did I belong to on {date}?",
            "As of {date}, where was I exercising?",
            "On {date}, where did I do my workouts?",
        ),
        "topic": ("my gym", "where I work out"),
    },
)

COFFEE_SHOP = changing(
    "coffee_shop",
    "My usual coffee spot",
    pool(
        "Bluebird Roasters|Copper Kettle|Little Owl Espresso|Monarch Roasters|Hearth and Crumb"
        "|Fernwood Espresso|Paper Crane|Saltwater Roasters|Oakleaf Bakehouse|Driftwood Espresso"
        "|Mulberry Kitchen|Beanstalk|Lantern Espresso Bar|Grindstone|Fennec Roasters"
        "|Tidemark Espresso|Sparrow Street Roastery|Kiln Espresso Bar",
        {
            "Bluebird Roasters": ("Bluebird",),
            "Little Owl Espresso": ("Little Owl",),
            "Hearth and Crumb": ("Hearth & Crumb",),
            "Fernwood Espresso": ("Fernwood",),
            "Oakleaf Bakehouse": ("Oakleaf",),
            "Driftwood Espresso": ("Driftwood",),
            "Fennec Roasters": ("Fennec",),
            "Tidemark Espresso": ("Tidemark",),
            "Sparrow Street Roastery": ("Sparrow Street",),
        },
    ),
    {
        "state": (
            "#lead#I'm a regular at {value}#tail#.",
            "#lead#{value} is my spot, and #remark#.",
            "#lead#the baristas at {value} know my order#tail#.",
            "#lead#I stop at {value} on the way in#tail#.",
            "#lead#my daily latte comes from {value}#tail#.",
            "#lead#I answer my emails from a corner table at {value}#tail#.",
        ),
        "tail": (
            "",
            ", and I love it",
            ", for what it's worth",
            ", and the pastries are dangerous",
        ),
        "remark": (
            "their flat white is perfect",
            "the pastries are dangerous",
            "it's always buzzing",
        ),
        "change": (
            "#news#I've found a new spot called {value}#c_tail#.",
            "#news#I ditched {old} for {value}#c_tail#.",
            "#news#I've become a regular at {value}#c_tail#.",
            "#news#{old} changed their beans, so I switched to {value}#c_tail#.",
            "#news#I've switched allegiance to {value}#c_tail#.",
            "#news#my new daily stop is {value}#c_tail#.",
            "#news#the baristas at {value} already know my order#c_tail#.",
        ),
        "c_tail": (
            "",
            ", and their oat latte is unreal",
            ", sorry to my old haunt",
            ", it's on my way",
        ),
        "other": (
            "#other_lead#{person} is a regular at {value}#other_tail#.",
            "#other_lead#{person} swears by the lattes at {value}#other_tail#.",
            "#other_lead#{person} stops at {value} every single day#other_tail#.",
            "#other_lead#{person} found a new spot, {value}#other_tail#.",
            "#other_lead#{person} practically lives at {value}#other_tail#.",
            "#other_lead#{person} answers emails from {value}#other_tail#.",
        ),
        "ask": (
            "Where do I get my coffee #now#?",
            "Which café is my go-to #now#?",
            "Where do I grab my caffeine fix #now#?",
            "Which coffee place do I frequent #now#?",
        ),
        "ask_then": (
            "Where did I get my coffee on {date}?",
            "Which café was my go-to on {date}?",
            "As of {date}, where did I grab my caffeine fix?",
            "On {date}, which coffee place did I frequent?",
        ),
        "topic": ("my usual coffee spot", "where I get coffee"),
    },
)

HAIR_SALON = changing(
    "hair_salon",
    "Where I get my hair cut",
    pool(
        "Fadeaway Barbers|Shear Genius|The Mane Room|Halcyon Studio|Velvet Chair"
        "|Ferro Barbershop|Ivy Lounge|Mirror Mirror|Copperfield Barbers|Snip Society"
        "|Studio Amara|Golden Comb|Rook and Razor|Tressa|Studio Lumiere"
        "|Cutthroat Barbers|Blade and Bristle|Lockwood and Vane",
        {
            "Fadeaway Barbers": ("Fadeaway",),
            "The Mane Room": ("Mane Room",),
            "Ferro Barbershop": ("Ferro",),
            "Copperfield Barbers": ("Copperfield",),
            "Rook and Razor": ("Rook & Razor",),
            "Cutthroat Barbers": ("Cutthroat",),
            "Blade and Bristle": ("Blade & Bristle",),
            "Lockwood and Vane": ("Lockwood & Vane",),
        },
    ),
    {
        "state": (
            "#lead#I've been a client at {value} for a while#tail#.",
            "#lead#my stylist is at {value}#tail#.",
            "#lead#I book my trims at {value}#tail#.",
            "#lead#I always see the same stylist at {value}#tail#.",
            "#lead#{value} does my haircuts#tail#.",
            "#lead#I'm loyal to {value} for haircuts, and #remark#.",
        ),
        "tail": ("", ", and they never rush", ", for what it's worth", ", and I'm happy with it"),
        "remark": (
            "they never rush",
            "the scalp massage alone is worth it",
            "booking is a pain but worth it",
        ),
        "change": (
            "#news#I've switched from {old} to {value}#c_tail#.",
            "#news#I booked my next trim at {value}#c_tail#.",
            "#news#I found a new barber at {value}#c_tail#.",
            "#news#from here on, my trims are at {value}#c_tail#.",
            "#news#I broke up with {old}, and {value} is my new spot.",
            "#news#my stylist moved to {value}, so I followed#c_tail#.",
            "#news#I gave {value} a try and I'm staying#c_tail#.",
        ),
        "c_tail": (
            "",
            ", and they nailed it",
            ", honestly a huge upgrade",
            ", and it's cheaper too",
        ),
        "other": (
            "#other_lead#{person} books haircuts at {value}#other_tail#.",
            "#other_lead#{person} swears by the stylists at {value}#other_tail#.",
            "#other_lead#{person} just switched to {value} for trims#other_tail#.",
            "#other_lead#{person} has a standing appointment at {value}#other_tail#.",
            "#other_lead#{person} found a great barber at {value}#other_tail#.",
            "#other_lead#{person} won't let anyone but {value} near their head#other_tail#.",
        ),
        "ask": (
            "Where do I get my hair done #now#?",
            "Which salon do I go to #now#?",
            "Who cuts my hair #now#?",
            "Where do I go for a cut #now#?",
        ),
        "ask_then": (
            "Where did I get my hair done on {date}?",
            "Which salon did I go to on {date}?",
            "Who was cutting my hair on {date}?",
            "As of {date}, where did I go for a cut?",
        ),
        "topic": ("where I get my hair cut", "my barber or salon"),
    },
)

GROCERY_STORE = changing(
    "grocery_store",
    "Where I shop for groceries",
    pool(
        "Trader Joe's|Whole Foods|Aldi|Lidl|Sainsbury's|Waitrose|Tesco|Kroger|Safeway|Wegmans"
        "|Costco|Publix|Albertsons|Morrisons|Asda|Carrefour|Migros|Rewe|Meijer"
        "|Marks and Spencer",
        {
            "Trader Joe's": ("Trader Joes", "Trader Joe’s"),
            "Sainsbury's": ("Sainsburys", "Sainsbury’s"),
            "Whole Foods": ("Whole Foods Market",),
            "Marks and Spencer": ("M&S", "Marks & Spencer"),
        },
    ),
    {
        "state": (
            "#lead#I do my weekly shop at {value}#tail#.",
            "#lead#I shop at {value}#tail#.",
            "#lead#my loyalty card is for {value}#tail#.",
            "#lead#{value} is where I fill the trolley, and #remark#.",
            "#lead#the weekly run is always to {value}#tail#.",
            "#lead#I'm loyal to {value} for the weekly shop#tail#.",
        ),
        "tail": ("", ", for what it's worth", ", and it's close by", ", and the prices are fair"),
        "remark": ("the prices are fair", "the produce is decent", "it's the closest option"),
        "change": (
            "#news#I switched my weekly shop to {value}#c_tail#.",
            "#news#I've given up on {old} and shop at {value}#c_tail#.",
            "#news#I signed up for the {value} loyalty card#c_tail#.",
            "#news#I moved my weekly run over to {value}#c_tail#.",
            "#news#I ditched {old} because {value} has better prices#c_tail#.",
            "#news#I've started shopping at {value}#c_tail#.",
            "#news#{value} opened nearby, so that's my weekly run#c_tail#.",
        ),
        "c_tail": (
            "",
            ", and the self-checkouts actually work",
            ", and the bakery section is great",
            ", let's see how it goes",
        ),
        "other": (
            "#other_lead#{person} does their weekly shop at {value}#other_tail#.",
            "#other_lead#{person} shops at {value}#other_tail#.",
            "#other_lead#{person} swears by {value} for the weekly run#other_tail#.",
            "#other_lead#{person} switched their weekly shop to {value}#other_tail#.",
            "#other_lead#{person} carries a loyalty card for {value}#other_tail#.",
            "#other_lead#{person} drives out to {value} every Saturday#other_tail#.",
        ),
        "ask": (
            "Where do I buy groceries #now#?",
            "Which supermarket do I use #now#?",
            "Where do I stock up on food #now#?",
            "Which store gets my grocery money #now#?",
        ),
        "ask_then": (
            "Where did I buy groceries on {date}?",
            "Which supermarket did I use on {date}?",
            "As of {date}, where did I stock up on food?",
            "On {date}, which store got my grocery money?",
        ),
        "topic": ("where I shop for groceries", "my supermarket"),
    },
)
