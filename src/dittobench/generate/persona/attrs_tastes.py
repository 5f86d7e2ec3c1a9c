"""Standing tastes in food and drink: diet, favourite cuisine, coffee, drink and dessert.

Each attribute is a ``preference``. ``state`` voices the user's own taste, ``other`` a
contact's (always naming the contact as the one who has it), and ``apply`` is a later request
whose good answer honours the taste without being reminded of it. Values are the words such an
answer would naturally use ("vegetarian", "Thai", "flat white"), so honouring the taste means
saying them; aliases cover the usual other spellings. ``apply`` avoids the statements' words.
"""

from __future__ import annotations

from dittobench.generate.persona._tastes_kit import preference
from dittobench.generate.persona._value_pools import pool
from dittobench.generate.persona.attribute import Attribute

_SPAN = ("years", "ages", "as long as I can remember", "most of my adult life")


DIET = preference(
    "taste_diet",
    "What I eat",
    pool(
        "vegetarian|vegan|pescatarian|gluten-free|dairy-free|nut-free|halal|kosher"
        "|keto|paleo|low-FODMAP|low-sodium|low-fat",
        {
            "pescatarian": ("pescetarian",),
            "gluten-free": ("gluten free",),
            "dairy-free": ("dairy free",),
            "nut-free": ("nut free",),
            "keto": ("ketogenic",),
            "low-FODMAP": ("low FODMAP",),
            "low-sodium": ("low sodium", "low-salt"),
            "low-fat": ("low fat",),
        },
    ),
    state=(
        "#lead#I stick to a {value} diet#diet_tail#.",
        "#lead#I only eat {value} food#diet_tail#.",
        "#lead#everything I eat has to be {value}#diet_tail#.",
        "#lead#I've kept to a {value} diet for #span#, and that's not changing.",
        "#lead#I keep my food strictly {value}, #diet_note#.",
        "#lead#I'm pretty strict about keeping everything {value}#diet_tail#.",
        "#lead#my diet is {value}, #diet_note#.",
    ),
    diet_tail=("", ", no exceptions", " and have done for ages", ", always"),
    span=_SPAN,
    diet_note=(
        "and that's not going to change",
        "so bear that in mind",
        "it's just what works for me",
        "and I take it seriously",
    ),
    other=(
        "#other_lead#{person} only eats {value} food.",
        "#other_lead#{person} has switched to a {value} diet.",
        "#other_lead#{person} has been on a {value} diet for years.",
        "I'm having {person} round soon, and they only eat {value} food.",
        "So {person} keeps to a {value} diet — news to me.",
        "Heads up: {person} is very strict about keeping everything {value}.",
        "#other_lead#{person} won't touch anything that isn't {value}.",
    ),
    apply=(
        "What should I cook for my dinner party on Saturday?",
        "Can you put together a week of dinners for me?",
        "I need a lunch idea for tomorrow. What could I make?",
        "I'm hosting brunch on Sunday. What should be on the menu?",
        "Give me a recipe I could make tonight.",
        "What's a good dish to bring to a potluck at work?",
        "Suggest a three-course menu for my anniversary.",
        "What snacks should I pack for the train journey on Friday?",
    ),
    topic=("what I eat", "my diet", "my eating habits"),
)

CUISINE = preference(
    "taste_cuisine",
    "My favourite cuisine",
    pool(
        "Thai|Japanese|Mexican|Indian|Italian|Korean|Vietnamese|Ethiopian|Lebanese|Greek"
        "|Turkish|Peruvian|Sichuan|Moroccan|Malaysian|Persian|Sri Lankan|Cantonese",
        {"Sichuan": ("Szechuan", "Szechwan"), "Persian": ("Iranian",)},
    ),
    state=(
        "#lead#I could eat {value} food every single day.",
        "#lead#my favourite cuisine is {value}, #no_contest#.",
        "#lead#nothing beats a proper {value} feast#cuisine_tail#.",
        "#lead#if it were up to me, we'd have {value} #every_time#.",
        "#lead#{value} cooking is my absolute favourite#cuisine_tail#.",
        "#lead#I'm a sucker for {value} flavours#cuisine_tail#.",
        "#lead#hands down, {value} is the cuisine I love most.",
    ),
    no_contest=("no contest", "by a mile", "and it's not even close"),
    cuisine_tail=("", ", if I'm honest", " — always has been", ", no question"),
    every_time=("every time", "every single time", "whenever possible"),
    other=(
        "#other_lead#{person} is obsessed with {value} food.",
        "#other_lead#{person} would eat {value} every day if they could.",
        "#other_lead#{person} says {value} is the best cuisine in the world.",
        "For {person}, nothing beats {value} cooking.",
        "Whenever {person} gets to choose, it's {value}, without fail.",
        "I swear {person} only ever wants {value} food.",
        "#other_lead#{person} drags everyone out for {value} whenever they can.",
    ),
    apply=(
        "Where should we go for dinner on Friday?",
        "I'm picking a restaurant for my birthday. Any ideas?",
        "What should I order for delivery tonight?",
        "Help me choose where to take my partner on our date next week.",
        "I want to try making something new this weekend. What should I attempt?",
        "Suggest a spot for a team lunch on Thursday.",
        "What should I make for a cosy evening in?",
    ),
    topic=("my favourite cuisine", "the food I love most"),
)

COFFEE = preference(
    "taste_coffee",
    "My coffee order",
    pool(
        "flat white|cappuccino|cortado|macchiato|mocha|cold brew|latte|filter coffee|long black"
        "|ristretto|piccolo|lungo|pour-over|Turkish coffee|café con leche|Vietnamese iced coffee",
        {
            "cold brew": ("cold-brew",),
            "pour-over": ("pour over",),
            "café con leche": ("cafe con leche",),
        },
    ),
    state=(
        "#lead#my go-to coffee is a {value}#coffee_tail#.",
        "#lead#I always order a {value}#coffee_tail#.",
        "#lead#a {value} is the only coffee I ever drink.",
        "#lead#I can't start the day without a {value}.",
        "#lead#if you ever see me with a coffee, it'll be a {value}.",
        "#lead#I've had a {value} every morning for #span#.",
        "#lead#give me a {value} and I'm happy#coffee_tail#.",
    ),
    coffee_tail=("", ", every time", " — nothing else comes close", ", without fail"),
    span=_SPAN,
    other=(
        "#other_lead#{person} always orders a {value}.",
        "#other_lead#{person} drinks a {value} every morning and swears by it.",
        "#other_lead#{person} won't touch coffee unless it's a {value}.",
        "I grabbed a {value} for {person}; it's the only thing they drink.",
        "Whenever we go out, {person} gets a {value}, without fail.",
        "Every single morning, {person} has a {value}.",
        "#other_lead#{person} can't function before their first {value}.",
    ),
    apply=(
        "I'm stopping at the café on my walk to the office. What should I get?",
        "My colleague is doing a café run. What should I ask for?",
        "I need a pick-me-up this afternoon. What should I pick up?",
        "Write a note for the barista with what I'd like.",
        "What should I get at the station kiosk before my train?",
        "I'm meeting a friend at a café at ten. What should I have?",
    ),
    topic=("my coffee order", "how I take my coffee"),
)

DRINK = preference(
    "taste_drink",
    "My drink of choice",
    pool(
        "gin and tonic|negroni|Campari soda|margarita|mojito|whisky sour|dirty martini|pale ale"
        "|Guinness|cider|red wine|prosecco|Moscow mule|mezcal|pisco sour|non-alcoholic lager",
        {
            "gin and tonic": ("G&T", "gin & tonic"),
            "whisky sour": ("whiskey sour",),
            "pale ale": ("IPA",),
            "non-alcoholic lager": ("non alcoholic lager", "alcohol-free lager"),
        },
    ),
    state=(
        "#lead#my drink of choice is a {value}#drink_tail#.",
        "#lead#when I'm out, I nearly always end up with a {value}.",
        "#lead#give me a {value} and I'm a happy camper.",
        "#lead#nothing beats a {value} at the end of a long week.",
        "#lead#I've been ordering a {value} for #span#.",
        "#lead#I'll pick a {value} over anything else on offer#drink_tail#.",
        "#lead#if I'm having a drink, it's a {value}#drink_tail#.",
    ),
    drink_tail=("", ", every time", ", no question", " — can't go wrong"),
    span=_SPAN,
    other=(
        "#other_lead#{person} only ever drinks {value}.",
        "#other_lead#{person} always orders a {value}, wherever we are.",
        "#other_lead#{person}'s drink of choice is a {value}.",
        "I got {person} a {value} as a thank-you, because it's all they drink.",
        "At the leaving do, {person} stuck to {value} all evening.",
        "Whenever we're out, {person} goes straight for a {value}.",
        "#other_lead#{person} won't have anything but {value}.",
    ),
    apply=(
        "I've got friends coming round on Friday. What should I stock the bar with?",
        "What should I get at the bar for quiz night?",
        "Help me plan the bar for my birthday party.",
        "Suggest something to toast with at my promotion celebration.",
        "What should I pour myself to unwind tonight?",
        "I'm doing a supermarket run before the barbecue. What should I get for myself?",
    ),
    topic=("my drink of choice", "what I like to drink"),
)

DESSERT = preference(
    "taste_dessert",
    "My favourite dessert",
    pool(
        "tiramisu|cheesecake|crème brûlée|sticky toffee pudding|apple crumble|panna cotta"
        "|chocolate mousse|lemon tart|pavlova|baklava|carrot cake|banoffee pie|key lime pie"
        "|brownies|Eton mess|churros|treacle tart|tarte Tatin",
        {
            "crème brûlée": ("creme brulee", "crème brulée"),
            "brownies": ("brownie",),
            "churros": ("churro",),
        },
    ),
    state=(
        "#lead#my favourite dessert is {value}.",
        "#lead#I can never say no to {value}.",
        "#lead#if I spot {value} on offer, I'm having some.",
        "#lead#I've got a real weakness for {value}#dessert_tail#.",
        "#lead#nothing beats {value} after a big meal.",
        "#lead#I'd happily have {value} every day of the week.",
        "#lead#when it comes to puddings, I go for {value} #every_time#.",
    ),
    dessert_tail=("", ", honestly", " — always have", ", it's a problem"),
    every_time=("every time", "hands down", "by a mile"),
    other=(
        "#other_lead#{person} is obsessed with {value}.",
        "#other_lead#{person} always orders {value} when we eat out.",
        "#other_lead#{person}'s all-time favourite is {value}.",
        "I swear {person} would walk a mile for {value}.",
        "Whenever we go out, {person} saves room for {value}.",
        "For {person}, no meal is complete without {value}.",
        "#other_lead#{person} can never resist {value}.",
    ),
    apply=(
        "What should I bake for my mum's birthday?",
        "I'm hosting a dinner on Saturday. What should I make for afters?",
        "Can you suggest a sweet treat to bring to the office on Friday?",
        "Help me choose something sweet for a picnic.",
        "I want to try a new bake this weekend. Any ideas?",
        "What should I serve to finish off a Sunday roast?",
    ),
    topic=("my favourite dessert", "my sweet tooth"),
)

ATTRIBUTES: tuple[Attribute, ...] = (DIET, CUISINE, COFFEE, DRINK, DESSERT)
