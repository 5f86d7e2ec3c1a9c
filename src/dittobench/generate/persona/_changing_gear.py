"""Changing attributes about things the user owns or pays for: car, phone, laptop, smartwatch
and mobile carrier."""

from __future__ import annotations

from dittobench.generate.persona._changing_kit import changing
from dittobench.generate.persona._value_pools import pool

CAR = changing(
    "car",
    "What I drive",
    pool(
        "Subaru Outback|Toyota Camry|Honda Civic|Mazda Miata|Volkswagen Passat|Ford Focus"
        "|Skoda Kodiaq|Kia Niro|Hyundai Ioniq|Nissan Leaf|Mini Cooper|Fiat Panda|Renault Megane"
        "|Jeep Wrangler|Ford Mustang|Toyota Prius|Subaru Forester|Citroen Berlingo"
        "|Mitsubishi Outlander|Dacia Duster|Chevrolet Bolt",
        {
            "Subaru Outback": ("Outback",),
            "Toyota Camry": ("Camry",),
            "Honda Civic": ("Civic",),
            "Mazda Miata": ("Miata", "MX-5"),
            "Volkswagen Passat": ("VW Passat", "Passat"),
            "Skoda Kodiaq": ("Kodiaq", "Škoda Kodiaq"),
            "Kia Niro": ("Niro",),
            "Hyundai Ioniq": ("Ioniq",),
            "Renault Megane": ("Megane", "Renault Mégane"),
            "Jeep Wrangler": ("Wrangler",),
            "Ford Mustang": ("Mustang",),
            "Toyota Prius": ("Prius",),
            "Subaru Forester": ("Forester",),
            "Citroen Berlingo": ("Berlingo", "Citroën Berlingo"),
            "Mitsubishi Outlander": ("Outlander",),
        },
    ),
    {
        "state": (
            "#lead#I drive a {value}#tail#.",
            "#lead#I've got a {value}#tail#.",
            "#lead#my ride is a {value}, #remark#.",
            "#lead#I've had a {value} for a while#tail#.",
            "#lead#I bought a {value} a while ago#tail#.",
            "#lead#I'm a {value} driver#tail#.",
        ),
        "tail": ("", ", nothing fancy", ", and it's been reliable", ", and I love it"),
        "remark": (
            "nothing fancy",
            "and it's been reliable",
            "though it badly needs a wash",
            "and I love it",
        ),
        "change": (
            "#news#I traded in the {old} for a {value}#c_tail#!",
            "#news#I bought a {value}#c_tail#.",
            "#news#I picked up my new {value} this week#c_tail#.",
            "#news#the {old} is gone and I drive a {value}#c_tail#.",
            "#news#I finally replaced the {old} with a {value}#c_tail#.",
            "#news#I sold the {old} and I'm driving a {value}#c_tail#.",
            "#news#I just signed the lease on a {value}#c_tail#.",
        ),
        "c_tail": (
            "",
            ", and it handles like a dream",
            ", still getting used to it",
            ", fingers crossed it's reliable",
        ),
        "other": (
            "#other_lead#{person} drives a {value}#other_tail#.",
            "#other_lead#{person} just bought a {value}#other_tail#.",
            "#other_lead#{person} picked up a {value}#other_tail#.",
            "#other_lead#{person} traded up to a {value}#other_tail#.",
            "#other_lead#{person} showed me the {value} they just bought#other_tail#.",
            "#other_lead#{person} leases a {value}#other_tail#.",
        ),
        "ask": (
            "What car do I have #now#?",
            "Which vehicle do I own #now#?",
            "What's the make and model of my car #now#?",
            "What am I behind the wheel of #now#?",
            "Which car is mine #now#?",
        ),
        "ask_then": (
            "What car did I have on {date}?",
            "Which vehicle did I own on {date}?",
            "As of {date}, what was the make and model of my car?",
            "On {date}, what was I behind the wheel of?",
        ),
        "topic": ("what I drive", "my car"),
    },
)

PHONE = changing(
    "phone",
    "My phone",
    pool(
        "iPhone SE|iPhone Pro Max|Google Pixel|Galaxy Z Flip|Galaxy Z Fold|Galaxy Note"
        "|Motorola Razr|Motorola Edge|OnePlus Nord|Sony Xperia|Asus Zenfone|Xiaomi Redmi"
        "|Fairphone|Oppo Reno|Honor Magic|Huawei Mate",
        {
            "Google Pixel": ("Pixel",),
            "Galaxy Z Flip": ("Z Flip", "Samsung Galaxy Z Flip"),
            "Galaxy Z Fold": ("Z Fold", "Samsung Galaxy Z Fold"),
            "Galaxy Note": ("Samsung Galaxy Note",),
            "Motorola Razr": ("Razr",),
            "Sony Xperia": ("Xperia",),
            "Asus Zenfone": ("Zenfone",),
            "Xiaomi Redmi": ("Redmi",),
        },
    ),
    {
        "state": (
            "#lead#I have the {value}#tail#.",
            "#lead#I'm on the {value}#tail#.",
            "#lead#the {value} is glued to my hand, #remark#.",
            "#lead#the {value} in my pocket does everything I need#tail#.",
            "#lead#I rely on the {value} for pretty much everything#tail#.",
            "#lead#I text and call from the {value}, #remark#.",
        ),
        "tail": (
            "",
            ", and it's held up well",
            ", cracked screen and all",
            ", and the camera is great",
        ),
        "remark": (
            "and the battery life is decent",
            "and the camera is great",
            "though the screen is cracked",
        ),
        "change": (
            "#news#I upgraded to the {value}#c_tail#!",
            "#news#I switched from the {old} to the {value}#c_tail#.",
            "#news#the {old} finally died, so I got the {value}#c_tail#.",
            "#news#I picked up the {value}#c_tail#.",
            "#news#I traded in the {old} for the {value}#c_tail#.",
            "#news#I treated myself to the {value}#c_tail#.",
            "#news#I'm texting you from my new {value}#c_tail#.",
        ),
        "c_tail": (
            "",
            ", and I'm still moving my apps over",
            ", and the camera is a big step up",
            ", and setting it up took forever",
        ),
        "other": (
            "#other_lead#{person} just got the {value}#other_tail#.",
            "#other_lead#{person} switched to the {value}#other_tail#.",
            "#other_lead#{person} is on the {value}#other_tail#.",
            "#other_lead#{person} keeps showing off their new {value}#other_tail#.",
            "#other_lead#{person} upgraded to the {value}#other_tail#.",
            "#other_lead#{person} won't stop talking about the {value} they bought#other_tail#.",
        ),
        "ask": (
            "What phone do I have #now#?",
            "Which smartphone am I using #now#?",
            "Which handset do I carry #now#?",
            "What model of phone is mine #now#?",
        ),
        "ask_then": (
            "What phone did I have on {date}?",
            "Which smartphone was I using on {date}?",
            "As of {date}, which handset did I carry?",
            "On {date}, what model of phone was mine?",
        ),
        "topic": ("my phone", "which phone I have"),
    },
)

LAPTOP = changing(
    "laptop",
    "My laptop",
    pool(
        "MacBook Air|MacBook Pro|Dell XPS|Lenovo ThinkPad|HP Spectre|Asus Zenbook|Razer Blade"
        "|Acer Swift|LG Gram|Galaxy Book|HP Envy|Dell Inspiron|Asus Vivobook|Huawei MateBook"
        "|Dell Latitude|HP EliteBook|Lenovo Legion|Google Pixelbook|MSI Stealth",
        {
            "Dell XPS": ("XPS",),
            "Lenovo ThinkPad": ("ThinkPad",),
            "HP Spectre": ("Spectre",),
            "Asus Zenbook": ("Zenbook",),
            "Dell Inspiron": ("Inspiron",),
            "Asus Vivobook": ("Vivobook",),
            "Huawei MateBook": ("MateBook",),
            "HP EliteBook": ("EliteBook",),
            "Google Pixelbook": ("Pixelbook",),
        },
    ),
    {
        "state": (
            "#lead#I do everything on my {value}#tail#.",
            "#lead#I'm typing this on my {value}#tail#.",
            "#lead#my {value} is my main machine, #remark#.",
            "#lead#I've got the {value}#tail#.",
            "#lead#the {value} goes everywhere with me#tail#.",
            "#lead#all my files live on my {value}#tail#.",
        ),
        "tail": ("", ", and it's held up well", ", for what it's worth", ", and I'm happy with it"),
        "remark": (
            "and the keyboard is lovely",
            "though the fan gets loud",
            "and it's held up well",
        ),
        "change": (
            "#news#I replaced my {old} with the {value}#c_tail#.",
            "#news#I finally bought the {value}#c_tail#!",
            "#news#my {old} died, so I picked up the {value}#c_tail#.",
            "#news#I'm typing this from my new {value}#c_tail#.",
            "#news#I switched to the {value}#c_tail#.",
            "#news#I retired the {old}; meet my new {value}#c_tail#.",
            "#news#I upgraded to the {value}#c_tail#.",
        ),
        "c_tail": (
            "",
            ", and moving my files over took all evening",
            ", and the battery is amazing",
            ", finally",
        ),
        "other": (
            "#other_lead#{person} just bought the {value}#other_tail#.",
            "#other_lead#{person} does everything on the {value}#other_tail#.",
            "#other_lead#{person} switched to the {value}#other_tail#.",
            "#other_lead#{person} upgraded to the {value}#other_tail#.",
            "#other_lead#{person} lugs the {value} everywhere#other_tail#.",
            "#other_lead#{person} got the {value} through their employer#other_tail#.",
        ),
        "ask": (
            "What laptop do I have #now#?",
            "Which computer am I working on #now#?",
            "What notebook do I use #now#?",
            "Which laptop is mine #now#?",
        ),
        "ask_then": (
            "What laptop did I have on {date}?",
            "Which computer was I working from on {date}?",
            "As of {date}, what notebook did I use?",
            "On {date}, which laptop was mine?",
        ),
        "topic": ("my laptop", "which laptop I have"),
    },
)

WEARABLE = changing(
    "wearable",
    "My smartwatch",
    pool(
        "Apple Watch|Garmin Instinct|Garmin Fenix|Garmin Venu|Fitbit Charge|Fitbit Sense"
        "|Pixel Watch|Galaxy Watch|Whoop Strap|Withings ScanWatch|Polar Vantage|Coros Pace"
        "|Suunto Vertical|Amazfit Bip|Xiaomi Smart Band|Huawei Watch",
        {
            "Garmin Fenix": ("Fenix",),
            "Garmin Venu": ("Venu",),
            "Withings ScanWatch": ("ScanWatch",),
            "Galaxy Watch": ("Samsung Galaxy Watch",),
            "Pixel Watch": ("Google Pixel Watch",),
            "Xiaomi Smart Band": ("Mi Band",),
        },
    ),
    {
        "state": (
            "#lead#I've got the {value}#tail#.",
            "#lead#the {value} logs my sleep and steps#tail#.",
            "#lead#I never take off my {value}#tail#.",
            "#lead#I check my {value} constantly, #remark#.",
            "#lead#I rely on the {value} for sleep stats#tail#.",
            "#lead#my {value} buzzes with every notification#tail#.",
        ),
        "tail": (
            "",
            ", and I love the data",
            ", which is a bit obsessive",
            ", and the battery is great",
        ),
        "remark": (
            "and the battery lasts ages",
            "and the sleep data is fascinating",
            "and it's basically glued on",
        ),
        "change": (
            "#news#I swapped the {old} for the {value}#c_tail#.",
            "#news#I got the {value}#c_tail#!",
            "#news#I upgraded to the {value}#c_tail#.",
            "#news#my {old} broke, so I bought the {value}#c_tail#.",
            "#news#the {value} arrived and I've already strapped it on.",
            "#news#I've moved from the {old} to the {value}#c_tail#.",
            "#news#I treated myself to the {value}#c_tail#.",
        ),
        "c_tail": (
            "",
            ", and the sleep stats are better",
            ", though syncing my history over was a pain",
            ", finally",
        ),
        "other": (
            "#other_lead#{person} just got the {value}#other_tail#.",
            "#other_lead#{person} never takes off the {value}#other_tail#.",
            "#other_lead#{person} swapped to the {value}#other_tail#.",
            "#other_lead#{person} keeps checking the {value} they bought#other_tail#.",
            "#other_lead#{person} logs everything on the {value}#other_tail#.",
            "#other_lead#{person} upgraded to the {value}#other_tail#.",
        ),
        "ask": (
            "What fitness tracker am I wearing #now#?",
            "Which smartwatch do I have #now#?",
            "What's on my wrist #now#?",
            "Which wearable am I using #now#?",
        ),
        "ask_then": (
            "What fitness tracker was I wearing on {date}?",
            "Which smartwatch did I have on {date}?",
            "As of {date}, what was on my wrist?",
            "On {date}, which wearable was I using?",
        ),
        "topic": ("my smartwatch", "the tracker I wear"),
    },
)

MOBILE_CARRIER = changing(
    "mobile_carrier",
    "My mobile carrier",
    pool(
        "Verizon|T-Mobile|Vodafone|Giffgaff|Mint Mobile|Google Fi|Telstra|Optus|Movistar"
        "|Telekom|Swisscom|Telia|Telenor|Lebara|Lycamobile|Sky Mobile|Bouygues Telecom",
        {"Telekom": ("Deutsche Telekom",), "Bouygues Telecom": ("Bouygues",)},
    ),
    {
        "state": (
            "#lead#my plan is with {value}#tail#.",
            "#lead#my SIM is from {value}#tail#.",
            "#lead#I'm on a plan with {value}, #remark#.",
            "#lead#my contract is with {value}#tail#.",
            "#lead#{value} handles my data and calls#tail#.",
            "#lead#I get my data from {value}, #remark#.",
        ),
        "tail": ("", ", and the signal is fine", ", which is cheap enough", ", and it's been fine"),
        "remark": (
            "and the signal is fine",
            "and coverage is patchy but cheap",
            "and the roaming deal is good",
        ),
        "change": (
            "#news#I ported my number to {value}#c_tail#.",
            "#news#I left {old} for {value}#c_tail#.",
            "#news#I switched my plan over to {value}#c_tail#.",
            "#news#my new SIM from {value} arrived#c_tail#.",
            "#news#I finally ditched {old}; my contract is with {value}#c_tail#.",
            "#news#I signed up with {value}#c_tail#.",
            "#news#{old} hiked their prices, so I jumped to {value}#c_tail#.",
        ),
        "c_tail": (
            "",
            ", and the signal is much better",
            ", and the plan is half the price",
            ", fingers crossed the coverage holds",
        ),
        "other": (
            "#other_lead#{person} is with {value}#other_tail#.",
            "#other_lead#{person}'s plan is with {value}#other_tail#.",
            "#other_lead#{person} ported their number to {value}#other_tail#.",
            "#other_lead#{person} swears by the coverage from {value}#other_tail#.",
            "#other_lead#{person} just switched to {value}#other_tail#.",
            "#other_lead#{person} got a SIM from {value}#other_tail#.",
        ),
        "ask": (
            "Which network am I with #now#?",
            "Which carrier do I use #now#?",
            "Who provides my cell service #now#?",
            "Who's my wireless provider #now#?",
        ),
        "ask_then": (
            "Which network was I with on {date}?",
            "Which carrier did I use on {date}?",
            "As of {date}, who provided my cell service?",
            "On {date}, who was my wireless provider?",
        ),
        "topic": ("my mobile carrier", "which network my phone is on"),
    },
)
