"""Changing attributes about what the user watches and plays: streaming service and podcast."""

from __future__ import annotations

from dittobench.generate.persona._changing_kit import changing
from dittobench.generate.persona._value_pools import pool

STREAMING_SERVICE = changing(
    "streaming_service",
    "What I stream on",
    pool(
        "Netflix|Hulu|Disney Plus|HBO Max|Apple TV Plus|Paramount Plus|Crunchyroll|Mubi"
        "|Criterion Channel|BritBox|Prime Video|Starz|Tubi|Kanopy|Curiosity Stream"
        "|Discovery Plus|Acorn TV|Viaplay",
        {
            "Disney Plus": ("Disney+",),
            "Apple TV Plus": ("Apple TV+", "Apple TV"),
            "Paramount Plus": ("Paramount+",),
            "Discovery Plus": ("Discovery+",),
            "Prime Video": ("Amazon Prime Video", "Amazon Prime"),
            "Criterion Channel": ("The Criterion Channel",),
        },
    ),
    {
        "state": (
            "#lead#my one subscription is {value}#tail#.",
            "#lead#I'm subscribed to {value}#tail#.",
            "#lead#I only keep {value}, since #remark#.",
            "#lead#{value} is the only subscription I keep#tail#.",
            "#lead#I binge everything on {value}#tail#.",
            "#lead#I've got {value} and nothing else#tail#.",
        ),
        "tail": ("", ", for what it's worth", ", and it's plenty", ", and it covers what I like"),
        "remark": ("one is plenty", "juggling several is too much", "it covers what I like"),
        "change": (
            "#news#I cancelled {old} and signed up for {value}#c_tail#.",
            "#news#I switched my subscription to {value}#c_tail#.",
            "#news#I dropped {old} and I'm on {value}#c_tail#.",
            "#news#I signed up for {value} and cancelled the other one#c_tail#.",
            "#news#I rotated my subscription again, to {value} this month#c_tail#.",
            "#news#bye {old}, hello {value}#c_tail#!",
            "#news#I dropped {old}; {value} is my one subscription#c_tail#.",
        ),
        "c_tail": (
            "",
            " since the catalogue is better",
            " for the shows I'm into",
            ", and it's cheaper",
        ),
        "other": (
            "#other_lead#{person} is subscribed to {value}#other_tail#.",
            "#other_lead#{person} binges everything on {value}#other_tail#.",
            "#other_lead#{person} just signed up for {value}#other_tail#.",
            "#other_lead#{person} cancelled everything except {value}#other_tail#.",
            "#other_lead#{person} switched to {value}#other_tail#.",
            "#other_lead#{person} keeps only {value}#other_tail#.",
        ),
        "ask": (
            "Which streaming service do I pay for #now#?",
            "What streaming platform am I on #now#?",
            "What's my streaming service of choice #now#?",
            "Which service do I watch things on #now#?",
        ),
        "ask_then": (
            "Which streaming service did I pay for on {date}?",
            "What streaming platform was I on as of {date}?",
            "On {date}, what was my streaming service of choice?",
            "Which service did I watch things on as of {date}?",
        ),
        "topic": ("what I stream on", "my streaming subscription"),
    },
)

PODCAST = changing(
    "podcast",
    "The podcast I'm hooked on",
    pool(
        "Armchair Expert|Crime Junkie|Hard Fork|Decoder Ring|Darknet Diaries|Huberman Lab"
        "|Ologies|The Allusionist|My Favorite Murder|Dolly Parton's America|Ear Hustle"
        "|Snap Judgment|Maintenance Phase|Cautionary Tales|The Anthropocene Reviewed"
        "|Office Ladies|SmartLess|Normal Gossip|The Dollop",
        {
            "The Allusionist": ("Allusionist",),
            "My Favorite Murder": ("My Favourite Murder",),
            "Dolly Parton's America": ("Dolly Parton’s America",),
            "The Anthropocene Reviewed": ("Anthropocene Reviewed",),
        },
    ),
    {
        "state": (
            "#lead#I'm obsessed with {value}#tail#.",
            "#lead#{value} is my obsession, and #remark#.",
            "#lead#I've been bingeing {value}#tail#.",
            "#lead#I can't stop playing {value} on walks#tail#.",
            "#lead#I'm working through every episode of {value}#tail#.",
            "#lead#my dish-washing soundtrack is {value}#tail#.",
        ),
        "tail": ("", ", for what it's worth", ", and I recommend it", ", episode after episode"),
        "remark": (
            "every episode is a gem",
            "I queue up new episodes the second they drop",
            "I've caught up on the whole archive",
        ),
        "change": (
            "#news#I've moved on from {old} to {value}#c_tail#.",
            "#news#my new obsession is {value}#c_tail#.",
            "#news#I dropped {old} and started {value}#c_tail#.",
            "#news#I started {value} and can't stop#c_tail#.",
            "#news#I'm bingeing {value} after finishing {old}#c_tail#.",
            "#news#{value} has replaced {old} in my rotation#c_tail#.",
            "#news#I'm all about {value}#c_tail#.",
        ),
        "c_tail": ("", ", highly recommend", ", and I'm three episodes deep", ", it's that good"),
        "other": (
            "#other_lead#{person} is obsessed with {value}#other_tail#.",
            "#other_lead#{person} keeps quoting episodes of {value}#other_tail#.",
            "#other_lead#{person} is bingeing {value}#other_tail#.",
            "#other_lead#{person} can't stop talking about {value}#other_tail#.",
            "#other_lead#{person} plays {value} on every road trip#other_tail#.",
            "#other_lead#{person} caught up on every episode of {value}#other_tail#.",
        ),
        "ask": (
            "Which podcast am I hooked on #now#?",
            "What am I listening to in my earbuds #now#?",
            "What show is in my headphones #now#?",
            "Which podcast am I into #now#?",
        ),
        "ask_then": (
            "On {date}, which podcast was I hooked on?",
            "What was I listening to in my earbuds on {date}?",
            "As of {date}, what show was in my headphones?",
            "Which podcast was I into on {date}?",
        ),
        "topic": ("the podcast I'm hooked on", "what I'm listening to"),
    },
)
