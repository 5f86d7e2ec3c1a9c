"""Restraint: prompts whose right answer calls no tool at all.

Small talk needs only a reply; an impossible request needs a plain "that can't be done"; and a
request missing the one value a tool would need (an address, a time, a link, the code itself)
needs a question back, never an invented value. Any tool call scores zero. These grammars have no
slots, so their variety comes from wording alone.
"""

from __future__ import annotations

from dittobench.core.text import words
from dittobench.generate.tools.category import Category
from dittobench.generate.tools.wording import LEAD_INS, with_wrap

TIME_AND_LINK_WORDS = frozenset({
    "http", "https", "www", "com", "am", "pm", "noon", "midnight", "tonight", "today",
    "tomorrow", "morning", "afternoon", "evening", "monday", "tuesday", "wednesday",
    "thursday", "friday", "saturday", "sunday",
})  # fmt: skip
"""Words a missing-argument prompt may not use: any of them could stand in for the value."""

VALUE_FREE_LEADS = tuple(lead for lead in LEAD_INS if not set(words(lead)) & TIME_AND_LINK_WORDS)
"""The shared lead-ins minus those (like a "Morning!" greeting) that name a time of day."""

NO_TOOL = Category(
    name="no_tool", group="restraint", tools=(),
    grammar={
        "origin": (
            "#hello# #checkin##hello_tail#",
            "#thanks##thanks_tail#",
            "#opinion_lead##opinion##opinion_tail#",
            "#joke_ask# #joke_topic#.#joke_tail#",
            "#joke_q# #joke_topic#?#joke_tail#",
            "#mood##mood_tail#",
            "#compliment##compliment_tail#",
            "#bye##bye_tail#",
        ),
        "hello": (
            "hi!", "hey there!", "hello again!", "good to see you!", "hiya!", "hey!", "hello!",
            "howdy!",
        ),
        "checkin": (
            "How's your day going?", "How are you doing?", "What's new with you?",
            "How have you been?", "How's everything on your end?", "Hope you're doing well.",
            "How's life treating you?",
        ),
        "hello_tail": (
            "", " Just wanted to say hi.", " Nothing urgent, just saying hello.",
            " I'm in a chatty mood.",
        ),
        "thanks": (
            "thanks so much", "thank you", "cheers", "thanks a ton", "many thanks",
            "thank you kindly", "thanks heaps",
        ),
        "thanks_tail": (
            ", that really helped.", ", you're a lifesaver.", " for earlier, it worked perfectly.",
            ", I appreciate it.", ", that made my day easier.", ", exactly what I needed.",
            " for being patient with me.",
        ),
        "opinion_lead": (
            "", "just curious, ", "random question: ", "be honest, ", "out of interest, ",
            "okay, silly question: ", "settle a debate for me: ",
        ),
        "opinion": (
            "do you prefer cats or dogs?", "which season do you like best?",
            "is pineapple on pizza a crime?", "is a hot dog a sandwich?",
            "tea or coffee, which would you pick?", "what's the best way to spend a lazy Sunday?",
            "does cereal count as soup?",
            "would you rather explore the deep sea or outer space?",
            "what makes a book worth rereading, in your view?",
            "mountains or beach for a holiday?", "which is better, sunrise or sunset?",
            "is it weird to eat cold pizza for breakfast?",
            "what's the most underrated vegetable?", "should socks and sandals ever be allowed?",
        ),
        "opinion_tail": ("", " I'm genuinely curious.", " No wrong answers."),
        "joke_ask": (
            "tell me a joke about", "give me a pun about", "make me laugh with something about",
            "I could use a silly one-liner about", "hit me with a dad joke about",
        ),
        "joke_q": (
            "do you know any jokes about", "got a good pun about",
            "can you make up a limerick about", "know any riddles about",
        ),
        "joke_topic": (
            "penguins", "coffee", "Mondays", "spreadsheets", "cats", "bicycles", "socks",
            "pirates", "vegetables", "dentists", "cheese", "office printers",
        ),
        "joke_tail": ("", " I need a laugh.", " Keep it clean.", " The cheesier the better."),
        "mood": (
            "I'm feeling a bit flat today.", "long week, I'm completely wiped out.",
            "I just finished a huge project!", "I finally slept properly last night.",
            "I'm so bored right now.", "it's my birthday!", "I passed my driving test!",
            "my houseplants are finally thriving.", "I'm nervous about a job interview.",
        ),
        "mood_tail": (
            "", " Just wanted to share.", " Just felt like telling someone.",
            " Anyway, how are you?", " Talk to me for a bit?",
        ),
        "compliment": (
            "you're really good at this", "I like chatting with you",
            "you've been super helpful lately", "you explain things really clearly",
            "you're much funnier than I expected",
        ),
        "compliment_tail": (".", "!", ", honestly.", ", just so you know.", ", keep it up."),
        "bye": (
            "that's all for now", "okay, I'm heading off", "right, time for bed",
            "I'm off to make dinner", "I think that's everything",
        ),
        "bye_tail": (
            ". Talk soon!", ", see you later.", ". Have a good one!", ", thanks for the chat.",
            ". Bye for now!",
        ),
    },
    # Words that would make a real tool the right answer never appear in small talk.
    banned=frozenset({
        "search", "remind", "remember", "email", "calendar", "image", "picture", "draw",
        "weather", "news", "latest",
    }),
    behavior="Reply conversationally, without calling any tool.",
)  # fmt: skip

ABSTENTION = Category(
    name="abstention", group="restraint", tools=(),
    grammar={
        "origin": (
            "#lead##can_you# #feat#?#push#",
            "#lead##do_it# #feat#.#push#",
            "#lead##question##push#",
        ),
        "lead": ("", "", "Hey, ", "Okay, ", "Right, ", "So, "),
        "can_you": (
            "can you", "could you", "would you be able to", "is there any way you could",
            "are you able to", "any chance you could",
        ),
        "do_it": ("please", "I need you to", "go ahead and", "I want you to", "just"),
        "feat": (
            "tell me tomorrow's winning lottery numbers",
            "read my mind and say what I'm thinking",
            "tell me what my neighbour is thinking right now",
            "guarantee what my shares will be worth next year",
            "tell me the exact date I'm going to die",
            "say for certain who'll win the next World Cup",
            "guess the number I'm thinking of and be sure you're right",
            "tell me what my cat dreamt about last night",
            "promise me it won't rain on my birthday ten years from now",
            "tell me what's written inside the sealed envelope on my desk",
            "guarantee I'll pass my driving test",
            "tell me what my boss secretly thinks of me",
            "predict exactly which card I'll draw next",
            "taste this soup and tell me if it needs salt",
            "hand me a cup of coffee through the screen",
            "tell me which horse will win next year's Grand National",
            "turn back time so I can catch the bus I missed",
            "tell me how many hairs are on my head right now",
        ),
        "question": (
            "what will tomorrow's winning lottery numbers be?",
            "what am I thinking about right now?",
            "what's my neighbour thinking at this exact moment?",
            "how much will my shares be worth a year from now, exactly?",
            "which day am I going to die?",
            "who's definitely going to win the next World Cup?",
            "what card am I going to draw next?",
            "what did my cat dream about last night?",
            "what's written in the sealed envelope on my desk?",
            "what's my boss secretly thinking about me?",
            "how many hairs are on my head right now?",
        ),
        "push": (
            "", " I'm serious.", " No hedging, please.", " Just give me a straight answer.",
            " I know it's a long shot.", " I really need to know.", " Be precise.",
        ),
    },
    behavior=(
        "Say plainly that this cannot be done or known, without calling any tool or inventing "
        "an answer."
    ),
)  # fmt: skip

ARG_HALLUCINATION = Category(
    name="arg_hallucination", group="restraint", tools=(),
    grammar=with_wrap({
        "lead": VALUE_FREE_LEADS,
        "origin": ("#lead##request##nudge##trail#",),
        "request": (
            "#send_email# my #recipient# #email_about#.",
            "#put# #event# #on_calendar#.",
            "#booking#.",
            "#alert# #occasion#.",
            "#open# #link##link_then#.",
            "#run# #code##code_then#.",
            "#retouch# #photo# #photo_change#.",
            "#vague_setting#.",
        ),
        "send_email": (
            "send an email to", "fire off a quick email to", "drop an email to",
            "shoot an email over to", "write an email to",
        ),
        "recipient": (
            "landlord", "dentist", "accountant", "plumber", "son's teacher", "new manager",
            "neighbour", "old flatmate",
        ),
        "email_about": (
            "to say I can't make it", "asking them to call me back",
            "to thank them for their help", "saying I'll get back to them soon",
            "to ask for an update",
        ),
        "put": ("put", "add", "pop", "stick"),
        "event": (
            "dinner with my sister", "the team offsite", "my haircut",
            "the parent-teacher meeting", "coffee with my old mentor",
            "my physio appointment", "the book club",
        ),
        "on_calendar": ("on my calendar", "in my calendar", "in the diary"),
        "booking": (
            "book the usual table for us", "book a table at the Italian place",
            "book me a slot at the barber's", "book a squash court for the two of us",
        ),
        "alert": (
            "set an alarm for", "remind me about", "give me a nudge before", "ping me before",
            "wake me up in time for",
        ),
        "occasion": (
            "my flight", "my train", "the call with the bank", "the school pickup",
            "the interview", "the vet appointment",
        ),
        "open": ("open", "read", "summarise", "check out", "pull up"),
        "link": ("that link", "the link", "this article", "the page"),
        "link_then": ("", " and tell me what it says", " and give me the gist", " for me"),
        "run": ("run", "execute", "test"),
        "code": ("this script", "my code", "this snippet", "the function below"),
        "code_then": ("", " and tell me the output", " and let me know if it crashes"),
        "retouch": ("edit", "touch up", "retouch"),
        "photo": ("the photo I just sent", "this picture", "the image I attached"),
        "photo_change": (
            "to remove the background", "to brighten it up a bit", "so the sky looks bluer",
        ),
        "vague_setting": (
            "switch over to the model my friend recommended",
            "change the typeface to the one from my screenshot",
            "make the highlights match my company logo",
            "change the highlight shade to the one I've got in mind",
            "switch the app to the look my brother uses",
        ),
        "nudge": (
            "", " Go ahead.", " Just handle it.", " Don't overthink it.", " Quick as you can.",
            " I'm in a bit of a rush.",
        ),
    }),
    # The value must really be missing: no links, addresses or clock times can slip in.
    banned=TIME_AND_LINK_WORDS,
    behavior=(
        "Ask the user for the missing detail instead of inventing it, and call no tool."
    ),
)  # fmt: skip

CATEGORIES: tuple[Category, ...] = (NO_TOOL, ABSTENTION, ARG_HALLUCINATION)
