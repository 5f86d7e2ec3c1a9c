"""Changing attributes about work: employer, job title, manager and the daily trip in."""

from __future__ import annotations

from dittobench.generate.persona._changing_kit import changing
from dittobench.generate.persona._value_pools import pool

EMPLOYER = changing(
    "employer",
    "Where I work",
    pool(
        "Halvorsen Logistics|Brightwater Analytics|Castellan Health|Northgate Partners"
        "|Meridale Freight|Tidewell Systems|Caldermoor Group|Pemberton Labs|Kestrel Dynamics"
        "|Vantmoor Capital|Lumenridge Software|Corvane Consulting|Solenne Therapeutics"
        "|Ardley Clinical|Redfern Insurance|Quarrymoor Media|Thornbury Legal|Maristow Energy"
        "|Greyhaven Bank|Fenwick Robotics",
        {
            "Halvorsen Logistics": ("Halvorsen",),
            "Brightwater Analytics": ("Brightwater",),
            "Castellan Health": ("Castellan",),
            "Meridale Freight": ("Meridale",),
            "Tidewell Systems": ("Tidewell",),
            "Caldermoor Group": ("Caldermoor",),
            "Vantmoor Capital": ("Vantmoor",),
            "Lumenridge Software": ("Lumenridge",),
            "Corvane Consulting": ("Corvane",),
            "Solenne Therapeutics": ("Solenne",),
            "Quarrymoor Media": ("Quarrymoor",),
            "Maristow Energy": ("Maristow",),
            "Greyhaven Bank": ("Greyhaven",),
        },
    ),
    {
        "state": (
            "#lead#I'm with {value}#tail#.",
            "#lead#my job is at {value}#tail#.",
            "#lead#I've been at {value} a couple of years#tail#.",
            "#lead#I'm on staff at {value}, #remark#.",
            "#lead#my badge says {value}#tail#.",
            "#lead#I spend my weekdays at {value}, #remark#.",
        ),
        "tail": (
            "",
            ", and I like it there",
            ", and I mostly enjoy it",
            ", and the people are great",
        ),
        "remark": (
            "and the people are great",
            "and the hours are decent",
            "which is a good gig",
            "and I mostly enjoy it",
        ),
        "change": (
            "#news#I started the new job at {value} this week#c_tail#!",
            "#news#I accepted the offer from {value}#c_tail#.",
            "#news#I've left {old} and joined {value}#c_tail#.",
            "#news#I just signed with {value}#c_tail#.",
            "#news#first week at {value} is done#c_tail#.",
            "#news#I've moved on from {old} to {value}#c_tail#.",
            "#news#goodbye {old}! I'm officially at {value}#c_tail#.",
            "#news#I got hired by {value}#c_tail#.",
        ),
        "c_tail": ("", ", fingers crossed", ", and so far so good", ", which still feels surreal"),
        "other": (
            "#other_lead#{person} just got hired by {value}#other_tail#.",
            "#other_lead#{person} has a job at {value}#other_tail#.",
            "#other_lead#{person} joined {value}#other_tail#.",
            "#other_lead#{person} took an offer from {value}#other_tail#.",
            "#other_lead#{person} has been at {value} for years#other_tail#.",
            "#other_lead#{person}'s new gig is at {value}#other_tail#.",
        ),
        "ask": (
            "Who's my employer #now#?",
            "Which company do I work for #now#?",
            "Who do I work for #now#?",
            "Who signs my paychecks #now#?",
            "Which organisation am I employed by #now#?",
        ),
        "ask_then": (
            "Who was my employer on {date}?",
            "Which company was I working for on {date}?",
            "Who did I work for as of {date}?",
            "On {date}, which organisation employed me?",
            "Who was signing my paychecks on {date}?",
        ),
        "topic": ("where I work", "my employer", "the company I work for"),
    },
)

JOB_TITLE = changing(
    "job_title",
    "My job title",
    pool(
        "Senior Analyst|Practice Lead|Project Coordinator|Operations Manager|Associate Director"
        "|Chief of Staff|Programme Manager|Principal Consultant|Head of Strategy|Vice President"
        "|Deputy Director|Senior Associate|Managing Director|Regional Lead|Research Fellow"
        "|Compliance Officer|Operations Analyst|Head of Partnerships",
        {
            "Vice President": ("VP",),
            "Managing Director": ("MD",),
            "Programme Manager": ("Program Manager",),
        },
    ),
    {
        "state": (
            "#lead#my title is {value}#tail#.",
            "#lead#my email signature reads {value}#tail#.",
            "#lead#on paper I'm {value}, #remark#.",
            "#lead#the title on my badge is {value}#tail#.",
            "#lead#I've been {value} for a while#tail#.",
            "#lead#my business cards say {value}#tail#.",
        ),
        "tail": ("", ", for what it's worth", ", if that's useful", ", which sounds grand"),
        "remark": (
            "though the duties are broader",
            "which sounds grander than it is",
            "for what it's worth",
        ),
        "change": (
            "#news#I got promoted to {value}#c_tail#!",
            "#news#my title changed to {value}#c_tail#.",
            "#news#I'm officially {value}#c_tail#!",
            "#news#they bumped me from {old} to {value}#c_tail#.",
            "#news#I'm no longer {old}; my title is {value}#c_tail#.",
            "#news#the reorg made me {value}#c_tail#.",
            "#news#after my stint as {old}, I've moved up to {value}#c_tail#.",
            "#news#HR just confirmed me as {value}#c_tail#.",
        ),
        "c_tail": (
            "",
            ", and I'm thrilled",
            ", which still feels surreal",
            ", and the raise helps",
        ),
        "other": (
            "#other_lead#{person} just got promoted to {value}#other_tail#.",
            "#other_lead#{person}'s title is {value}#other_tail#.",
            "#other_lead#{person} was made {value}#other_tail#.",
            "#other_lead#{person} landed the {value} title#other_tail#.",
            "#other_lead#{person}'s business cards say {value}#other_tail#.",
            "#other_lead#{person} is officially {value}#other_tail#.",
        ),
        "ask": (
            "What's my role #now#?",
            "What position do I hold #now#?",
            "What's my designation at work #now#?",
            "Which rank do I hold in the org #now#?",
        ),
        "ask_then": (
            "What was my role on {date}?",
            "What position did I hold on {date}?",
            "As of {date}, what was my designation at work?",
            "Which rank did I hold in the org on {date}?",
        ),
        "topic": ("my job title", "what my position is called"),
    },
)

MANAGER = changing(
    "manager",
    "Who my manager is",
    pool(
        "Aldous Penhaligon|Brigitte Navarre|Cyrus Ambler|Greer Castellanos|Hollis Marchetti"
        "|Isolde Brennan|Jarrah Whitfield|Kiran Osei|Mathilde Sorensen|Nils Ekberg"
        "|Odile Marchand|Pascale Dubreuil|Roisin Calloway|Siddharth Menon|Thandiwe Mokoena"
        "|Wren Ashdown|Zoltan Farkas"
    ),
    {
        "state": (
            "#lead#I report to {value}#tail#.",
            "#lead#my boss is {value}, #remark#.",
            "#lead#I'm on {value}'s team#tail#.",
            "#lead#my one-on-ones are with {value}#tail#.",
            "#lead#the person I report to is {value}#tail#.",
            "#lead#I sit on {value}'s team, #remark#.",
        ),
        "tail": ("", ", who is pretty fair", ", and we get along well", ", who runs a tight ship"),
        "remark": (
            "who is pretty fair",
            "and we get along well",
            "who runs a tight ship",
            "and it's a very hands-off setup",
        ),
        "change": (
            "#news#I've got a new boss, {value}#c_tail#.",
            "#news#I was moved off {old}'s team and onto {value}'s#c_tail#.",
            "#news#after the reshuffle I report to {value}#c_tail#.",
            "#news#{value} is my new boss#c_tail#.",
            "#news#my first one-on-one with {value} as my new boss went fine.",
            "#news#no more reporting to {old}; {value} took over my team#c_tail#.",
            "#news#I switched teams and my boss is {value}#c_tail#.",
        ),
        "c_tail": (
            "",
            ", fingers crossed it goes well",
            ", and first impressions are good",
            ", which should be interesting",
        ),
        "other": (
            "#other_lead#{person} reports to {value}#other_tail#.",
            "#other_lead#{person}'s boss is {value}#other_tail#.",
            "#other_lead#{person} just got {value} as a new boss#other_tail#.",
            "#other_lead#{person} has weekly one-on-ones with {value}#other_tail#.",
            "#other_lead#{person} ended up on {value}'s team#other_tail#.",
            "#other_lead#{person} is stuck reporting to {value}#other_tail#.",
        ),
        "ask": (
            "Who's my manager #now#?",
            "Who do I answer to at work #now#?",
            "Who supervises me #now#?",
            "Who is my direct superior #now#?",
            "Who's in charge of me at the office #now#?",
        ),
        "ask_then": (
            "Who was my manager on {date}?",
            "Who supervised me on {date}?",
            "As of {date}, who did I answer to at work?",
            "On {date}, who was my direct superior?",
        ),
        "topic": ("who my manager is", "my boss", "who I report to"),
    },
)

COMMUTE = changing(
    "commute",
    "How I get to work",
    pool(
        "commuter train|express bus|tram|ferry|subway|light rail|water taxi|company shuttle"
        "|bicycle|motorbike|moped|electric scooter|skateboard|cable car|monorail|trolleybus",
        {
            "commuter train": ("the train", "by train"),
            "express bus": ("the bus", "by bus"),
            "company shuttle": ("shuttle",),
            "bicycle": ("my bike", "by bike", "cycling"),
            "motorbike": ("motorcycle",),
            "electric scooter": ("e-scooter",),
        },
    ),
    {
        "state": (
            "#lead#I head in by {value} #when##tail#.",
            "#lead#I take the {value} in #when##tail#.",
            "#lead#the {value} is how I head in#tail#.",
            "#lead#my morning trip in is by {value}#tail#.",
            "#lead#I rely on the {value} to head in #when#, #remark#.",
            "#lead#I go in by {value}#tail#.",
        ),
        "when": ("every weekday", "most mornings", "each morning"),
        "tail": ("", ", rain or shine", ", and honestly I don't mind it", ", which suits me fine"),
        "remark": ("rain or shine", "and it's pretty reliable", "and I honestly don't mind it"),
        "change": (
            "#news#I've switched to going in by {value}#c_tail#.",
            "#news#I swapped the {old} for the {value}#c_tail#.",
            "#news#I gave up on the {old}; I head in by {value}#c_tail#.",
            "#news#I started taking the {value} in#c_tail#.",
            "#news#from this week on, I'm heading in by {value}#c_tail#.",
            "#news#I ditched the {old} and started going in by {value}#c_tail#.",
            "#news#my new routine is the {value} in every morning#c_tail#.",
        ),
        "c_tail": (
            "",
            ", and it's so much faster",
            ", let's see if it sticks",
            ", which saves a lot",
        ),
        "other": (
            "#other_lead#{person} heads in by {value} #when##other_tail#.",
            "#other_lead#{person} switched to the {value} for the trip in#other_tail#.",
            "#other_lead#{person} swears by the {value} for the morning trip in#other_tail#.",
            "#other_lead#{person} takes the {value} in #when##other_tail#.",
            "#other_lead#{person} started going in by {value}#other_tail#.",
            "#other_lead#{person} relies on the {value} to head in#other_tail#.",
        ),
        "ask": (
            "How do I get to work #now#?",
            "How am I getting to the office #now#?",
            "What does my commute look like #now#?",
            "What's my mode of transport for work #now#?",
            "How do I travel to my job #now#?",
        ),
        "ask_then": (
            "How did I get to work on {date}?",
            "What did my commute look like on {date}?",
            "As of {date}, how was I travelling to the office?",
            "On {date}, what was my mode of transport for work?",
        ),
        "topic": ("how I get to work", "my commute"),
    },
)
