"""Topics the user keeps coming back to across sessions: a sore joint, the neighbours, a repair
the house needs, the trains, a kitchen project, a pet's early mornings, someone difficult at
work, the car, a struggling houseplant and a misbehaving gadget.

Each attribute is ``recurring``: one value (the topic, a noun phrase such as "my left knee") is
drawn per person and voiced by ``mention`` in several sessions. Every mention names the topic
as an object, never as the sentence's opening words, so values of any number read naturally.
``ask_count`` asks how often the topic came up, naming its category in words the mentions
avoid and never the value itself.
"""

from __future__ import annotations

from dittobench.generate.persona._value_pools import pool
from dittobench.generate.persona.attribute import Attribute, AttributeKit

_MOAN = ("", "", "Ugh. ", "Sigh. ", "Oh dear. ")


_recurring = AttributeKit("recurring", {"moan": _MOAN})


ACHE = _recurring(
    "recurring_ache",
    "My aches and pains",
    pool(
        "my left knee|my right knee|my lower back|my upper back|my left shoulder"
        "|my right shoulder|my neck|my left hip|my right hip|my left ankle|my right wrist"
        "|my right elbow|my left heel|my left calf|my right thumb"
    ),
    mention=(
        "Ugh, {value} is playing up again#ache_tail#.",
        "#moan#Had to ice {value} again last night#ache_tail#.",
        "#moan#I think I tweaked {value} carrying the shopping up the stairs.",
        "#moan#Not a great day: {value} has been throbbing since lunch.",
        "#moan#Any stretches for {value}? It's really stiff this morning.",
        "#moan#Took ibuprofen for {value} again, which I hate doing.",
        "#moan#The physio had another go at {value} today#ache_tail#.",
        "#moan#Skipped my run because of {value}, which is frustrating.",
        "Honestly, {value} is making it hard to sit at my desk.",
    ),
    ache_tail=("", ", and it's not fun", " — typical", ". Getting old, clearly"),
    ask_count=(
        "How many times have I grumbled to you about aches and pains?",
        "How often have I brought up my body hurting?",
        "On how many occasions have I told you about some physical pain?",
        "How many times has an injury of mine come up in our chats?",
    ),
)

NEIGHBOURS = _recurring(
    "recurring_neighbours",
    "The neighbours",
    pool(
        "the upstairs neighbours|the couple next door|the guy downstairs"
        "|the students across the hall|the family above me|the new tenants upstairs"
        "|the woman across the landing|the drummer two doors down|the lads next door"
        "|the man in the flat below|the teenagers over the road|the dog owners behind us"
    ),
    mention=(
        "#moan#Barely slept again thanks to {value}#neigh_tail#.",
        "#moan#Guess who was blasting music at midnight? Yep, {value}.",
        "#moan#I'm this close to leaving a note for {value}.",
        "#moan#Had to bang on the wall because of {value} again.",
        "#moan#Getting anything done at home is impossible with {value} making that racket.",
        "#moan#Wide awake at three because of {value}#neigh_tail#.",
        "#moan#Not sure how much longer I can put up with {value}.",
        "#moan#Earplugs are my new best friend, all because of {value}.",
        "#moan#Drilling at seven on a Sunday, courtesy of {value}.",
    ),
    neigh_tail=("", ", again", ". Unbelievable", ", as usual"),
    ask_count=(
        "How many times have I complained about the noise where I live?",
        "How often have I moaned to you about the people I share walls with?",
        "How many times has neighbour trouble come up between us?",
        "Roughly how often have I vented about disturbances in my building?",
    ),
)

HOUSE_REPAIR = _recurring(
    "recurring_house_repair",
    "What needs fixing at home",
    pool(
        "the leaking roof|the dripping kitchen tap|the damp patch in the bathroom"
        "|the broken boiler|the sticking front door|the cracked hall window|the blocked drain"
        "|the mould in the bedroom|the creaky staircase|the flickering hallway light"
        "|the wobbly banister|the rattling radiator|the jammed garage door"
        "|the broken extractor fan|the loose floorboard"
    ),
    mention=(
        "#moan#Still waiting on someone to come and look at {value}#repair_tail#.",
        "#moan#The landlord still hasn't done anything about {value}.",
        "#moan#Spent my Saturday messing about with {value} again.",
        "#moan#Nobody has sorted {value} yet, and I'm losing patience.",
        "#moan#Got a quote for fixing {value} and nearly fell over.",
        "#moan#Watched three tutorials on sorting {value} tonight#repair_tail#.",
        "#moan#I swear {value} gets worse every week.",
        "#moan#Had to call someone out about {value}, again.",
        "#moan#Another weekend gone, and {value} is still on my to-do list.",
    ),
    repair_tail=("", ". Typical", ". Classic", ", as ever"),
    ask_count=(
        "How many times have I brought up things that need mending in my house?",
        "How often have I moaned about household repairs?",
        "How many times has some maintenance issue at my place come up?",
        "Roughly how often have I griped about stuff breaking down at home?",
    ),
)

TRAINS = _recurring(
    "recurring_trains",
    "My commute",
    pool(
        "the Northern line|the Piccadilly line|the Victoria line|the District line"
        "|the Central line|the Jubilee line|the Elizabeth line|the Bakerloo line|the Circle line"
        "|the Metropolitan line|the Overground|the Thameslink service|the Gatwick Express"
        "|the Brighton train"
    ),
    mention=(
        "#moan#Late again, thanks to {value}#train_tail#.",
        "#moan#Stuck going nowhere on {value} for twenty minutes this morning.",
        "#moan#Signal failure on {value}, obviously.",
        "#moan#Had to sprint into my meeting because {value} crawled the whole way.",
        "#moan#I swear {value} has been delayed every day this month.",
        "#moan#Severe delays on {value} again. Taking a cab#train_tail#.",
        "#moan#Another morning squashed like a sardine on {value}.",
        "#moan#Why is {value} always a disaster on a Monday?",
        "#moan#Wrote yet another angry email to the operator about {value}.",
    ),
    train_tail=("", ". Brilliant", ", as usual", ". Of course"),
    ask_count=(
        "How many times have I griped about getting to the office?",
        "How often have I moaned about my commute?",
        "How many times has public transport trouble come up between us?",
        "Roughly how often have I complained about my journey into work?",
    ),
)

KITCHEN_PROJECT = _recurring(
    "recurring_kitchen_project",
    "My kitchen experiments",
    pool(
        "my sourdough starter|my kombucha|the kimchi I'm fermenting|my homemade yoghurt"
        "|my ginger beer plant|my rye loaf|the croissant dough|my kefir grains|the macarons"
        "|my bagel dough|my sauerkraut|the choux pastry|my brioche|my miso paste"
    ),
    mention=(
        "#moan#Quick update on {value}: still not cooperating.",
        "#moan#Day three of trying to rescue {value}#bake_tail#.",
        "#moan#I think I've finally cracked {value}, fingers crossed.",
        "#moan#Back to square one with {value}, sadly.",
        "#moan#Watched another video about {value} last night#bake_tail#.",
        "#moan#Spent the whole evening fussing over {value}.",
        "#moan#Not sure what I'm doing wrong with {value}, honestly.",
        "#moan#My partner says I care more about {value} than about them.",
        "#moan#Had to bin {value} and start over.",
    ),
    bake_tail=("", ". Wish me luck", ", again", ". The saga continues"),
    ask_count=(
        "How many times have I told you about a kitchen experiment misbehaving?",
        "How often have I brought up a cooking project going wrong?",
        "How many times have I grumbled about a bake or ferment that won't behave?",
        "Roughly how often have I moaned about a cooking project not working out?",
    ),
)

PET_WAKEUP = _recurring(
    "recurring_pet_wakeup",
    "My pet's early mornings",
    pool(
        "the cat|the kitten|the puppy|the beagle|the parrot|the budgie|the cockatiel"
        "|the spaniel|the terrier|the greyhound|the husky|the dachshund|the labrador"
        "|the rescue whippet"
    ),
    mention=(
        "#moan#Woken up at five again by {value}#pet_tail#.",
        "#moan#Who decided half four was breakfast time? Yep, {value}.",
        "#moan#Another dawn wake-up call courtesy of {value}#pet_tail#.",
        "#moan#I'd kill for a lie-in, but {value} has other ideas.",
        "#moan#Tried shutting the bedroom door, but {value} kicked up a fuss until six.",
        "#moan#Running on four hours of rest because of {value}.",
        "#moan#Any tips for getting {value} to settle until a sensible hour?",
        "#moan#Didn't need my phone to wake me today; {value} took care of that at dawn.",
        "#moan#Fed {value} at half five just so I could get some peace.",
    ),
    pet_tail=("", ", naturally", ". So tired", ", as usual"),
    ask_count=(
        "How many times have I complained about my pet getting me up early?",
        "How often have I moaned about an animal ruling my mornings?",
        "How many times has my early-rising pet come up between us?",
        "Roughly how often have I grumbled about losing sleep to a creature in my home?",
    ),
)

DIFFICULT_PERSON = _recurring(
    "recurring_difficult_person",
    "Someone difficult at work",
    pool(
        "my manager|my team lead|the new director|my line manager|my supervisor"
        "|the head of department|the project sponsor|my boss|the account director"
        "|the senior partner|my co-lead|the new finance controller"
    ),
    mention=(
        "#moan#Guess who moved my deadline again. Yes, {value}.",
        "#moan#Another meeting, another lecture from {value}#boss_tail#.",
        "#moan#I'm honestly losing patience with {value}.",
        "#moan#Had a two-hour call with {value} that could have been an email.",
        "#moan#Got another passive-aggressive message from {value} this morning#boss_tail#.",
        "#moan#Just when I thought things were calm, {value} rewrote my whole plan.",
        "#moan#Why does {value} always wait until Friday afternoon to drop things on me?",
        "#moan#Spent half my lunch break ranting about {value}.",
        "#moan#Had to bite my tongue with {value} again today.",
    ),
    boss_tail=("", ", of course", ". Deep breaths", ", as ever"),
    ask_count=(
        "How many times have I complained about someone difficult at work?",
        "How often have I vented to you about a tricky colleague?",
        "How many times has a frustrating person at my job come up?",
        "Roughly how often have I grumbled about office politics with a particular person?",
    ),
)

CAR_TROUBLE = _recurring(
    "recurring_car_trouble",
    "My car troubles",
    pool(
        "the dodgy clutch|the squeaky brakes|the dying battery|the rattling exhaust"
        "|the check-engine light|the slow puncture|the broken wing mirror|the faulty air con"
        "|the leaky sunroof|the temperamental ignition|the grinding gearbox"
        "|the squealing fan belt|the cracked windscreen|the sticky handbrake"
    ),
    mention=(
        "#moan#Back to the garage about {value}#car_tail#.",
        "#moan#The mechanic reckons {value} needs another look.",
        "#moan#Drove in with {value} and a prayer this morning.",
        "#moan#Still haven't sorted {value}, and it's driving me mad.",
        "#moan#Another eye-watering bill for {value}#car_tail#.",
        "#moan#I'm starting to think {value} will outlive me.",
        "#moan#Got stuck on the ring road because of {value} today.",
        "#moan#Spent my Saturday watching videos on fixing {value}.",
        "#moan#My dad keeps telling me to get {value} seen to properly.",
    ),
    car_tail=("", ", again", ". Fantastic", ", naturally"),
    ask_count=(
        "How many times have I complained about problems with my car?",
        "How often has something wrong with my vehicle come up?",
        "How many times have I moaned to you about my motor?",
        "Roughly how often have I griped about car trouble?",
    ),
)

HOUSEPLANT = _recurring(
    "recurring_houseplant",
    "My struggling houseplant",
    pool(
        "the fiddle-leaf fig|the monstera|my bonsai|the orchid|the peace lily"
        "|the basil on the windowsill|the lemon tree|the snake plant|the rubber plant"
        "|the Boston fern|the olive tree|the calathea|the spider plant|the cactus"
        "|the bird of paradise"
    ),
    mention=(
        "Bad news: {value} is dropping leaves again.",
        "#moan#Moved {value} to a sunnier spot, fingers crossed#plant_tail#.",
        "#moan#I think I overwatered {value}#plant_tail#.",
        "#moan#Found little bugs all over {value}.",
        "#moan#Spent the evening googling why {value} looks so sad.",
        "#moan#Repotted {value} this weekend and now it's sulking.",
        "#moan#Is it normal for {value} to go yellow like this?",
        "#moan#Misted {value} twice today, which is probably too much.",
        "#moan#Someone at the garden centre gave me advice about {value}; we'll see.",
    ),
    plant_tail=("", ". Poor thing", ". We'll see", ", again"),
    ask_count=(
        "How many times have I fretted to you about my houseplants?",
        "How often have I brought up a houseplant that's struggling?",
        "How many times has an ailing potted plant of mine come up in our chats?",
        "Roughly how often have I worried aloud about keeping something green alive?",
    ),
)

GADGET = _recurring(
    "recurring_gadget",
    "My misbehaving gadget",
    pool(
        "my laptop|my phone|the smart TV|the printer|the router|the smart speaker"
        "|my Bluetooth headset|my smartwatch|the tablet|the games console|the e-reader"
        "|the webcam|the smart thermostat|the robot vacuum"
    ),
    mention=(
        "#moan#Guess what froze again in the middle of a call: {value}.",
        "#moan#Spent an hour restarting {value} today#tech_tail#.",
        "#moan#I'm about ready to throw {value} out of the window.",
        "#moan#Yet another update, and {value} is slower than ever.",
        "#moan#Had to switch {value} off and on again, for the third time this week.",
        "#moan#Customer support had no idea how to fix {value}#tech_tail#.",
        "#moan#Lost half my morning fighting with {value}.",
        "#moan#Why does {value} always die right when I need it?",
        "#moan#Seriously looking at replacements for {value} now.",
    ),
    tech_tail=("", ", again", ". Brilliant", ", as usual"),
    ask_count=(
        "How many times have I ranted about tech that won't behave?",
        "How often have I complained to you about a misbehaving device?",
        "How many times have I brought up a gadget giving me grief?",
        "Roughly how often have I moaned about my electronics?",
    ),
)

ATTRIBUTES: tuple[Attribute, ...] = (
    ACHE,
    NEIGHBOURS,
    HOUSE_REPAIR,
    TRAINS,
    KITCHEN_PROJECT,
    PET_WAKEUP,
    DIFFICULT_PERSON,
    CAR_TROUBLE,
    HOUSEPLANT,
    GADGET,
)
