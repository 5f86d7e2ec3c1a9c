"""Routing traps between neighbouring actions: starting work versus reading its status, changing
an existing picture versus making a new one, one job versus a split-up workflow, and a "do this"
that repeats on a timetable. ``traps`` says how the grammars are worded.
"""

from __future__ import annotations

from dittobench.generate.tools import schedules, values
from dittobench.generate.tools.category import Category, Pin
from dittobench.generate.tools.wording import with_wrap

GROUP = "routing_traps"


AGENT_RUN_NOT_READ = Category(
    name="agent_run_not_read",
    group=GROUP,
    tools=("execute_agent_job",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##status_intro##start# #new_job# #task#.#trail#",
                "#lead#can you #start# #new_job# #task#?#trail#",
                "#lead##queue_intro# #task##in_background#.#trail#",
            ),
            "status_intro": (
                "",
                "forget the status of the old ones — ",
                "don't check on anything already running; ",
                "I'm not after a status update — ",
                "never mind how the other tasks are doing; ",
                "no need for a progress report — ",
            ),
            "start": ("start", "kick off", "spin up", "launch", "fire off", "set up"),
            "new_job": (
                "a new background job to",
                "a fresh job to",
                "a background task to",
                "another job to",
                "a long-running task to",
                "a job in the background to",
            ),
            "task": (
                "research the {topic} project in depth and write up a summary",
                "go through the {topic} documentation and pull out every open question",
                "put together a competitor analysis for {topic}",
                "draft a launch plan for {topic}",
                "gather reviews of the {topic} app and sum up the complaints",
                "build a reading list on the {topic} method",
                "work out a budget for the {topic} offsite",
                "compile a timeline of the {topic} merger",
            ),
            "queue_intro": (
                "add this to the queue —",
                "new job for you —",
                "here's a fresh task —",
                "another one to track —",
            ),
            "in_background": (
                "",
                " in the background",
                " as its own background task",
                " while I get on with other things",
            ),
        }
    ),
    slots={"topic": values.coined_word},
    pins=(Pin(0, "task", "topic"),),
    banned=frozenset({"execute", "agent", "agents"}),
    # The trap names jobs and their status on purpose, to pull towards the job-reading tools.
    allowed=frozenset({"job"}),
)

AGENT_READ_NOT_RUN = Category(
    name="agent_read_not_run",
    group=GROUP,
    tools=("list_agent_jobs",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##pre##what_running##where##now#?#trail#",
                "#lead##run_through# #the_tasks# #state#.#trail#",
                "#lead##before_more#, #which_q#?#trail#",
                "#lead#is anything still running in the background, or #or_done#?#trail#",
            ),
            "pre": (
                "",
                "out of curiosity, ",
                "to help me plan my day, ",
                "just so I know, ",
                "before I head out, ",
            ),
            "what_running": (
                "what have you got running",
                "what are you doing for me",
                "what's still going",
                "what's on the go",
                "what work are you doing for me",
                "what's ticking along",
            ),
            "where": (" in the background", " behind the scenes", " while we chat"),
            "now": ("", " right now", " at the moment", " today"),
            "run_through": (
                "run me through",
                "do a quick rundown of",
                "walk me through",
                "give me the rundown on",
                "run through",
            ),
            "the_tasks": (
                "the background tasks",
                "the tasks in the background",
                "the behind-the-scenes tasks",
                "the long-running tasks",
            ),
            "state": (
                "that are still going",
                "that finished today",
                "that wrapped up overnight",
                "that are in progress",
                "I started this week",
                "you've got on the go",
            ),
            "before_more": (
                "before I ask you to do anything else",
                "before I give you more to do",
                "before I pile anything else on",
                "ahead of doing more",
            ),
            "which_q": (
                "which background tasks are still going",
                "what's already in progress in the background",
                "what have you finished in the background since this morning",
                "what's still running from earlier",
                "which of the tasks I handed you are done",
            ),
            "or_done": (
                "has it all finished",
                "is everything done",
                "did it all wrap up overnight",
            ),
        }
    ),
    banned=frozenset({"list", "recent", "recently", "agent", "agents", "jobs", "job"}),
)

IMAGE_EDIT_NOT_CREATE = Category(
    name="image_edit_not_create",
    group=GROUP,
    tools=("edit_image",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead#make #the_pic# at {image_url} #look#.#trail#",
                "#lead##draw# #addition# in #the_pic# at {image_url}.#trail#",
                "#lead#create a version of #the_pic# at {image_url} #variant#.#trail#",
                "#lead#can you generate a new take on {image_url} #variant#?#trail#",
                "#lead#here's #a_pic#: {image_url} — can you make it #look#?#trail#",
                "#lead#draw me something based on {image_url}: #instruction#.#trail#",
            ),
            "the_pic": (
                "the photo",
                "the picture",
                "my photo",
                "the shot",
                "the drawing",
                "my drawing",
            ),
            "a_pic": ("a photo", "a picture", "my photo", "a shot I took", "a drawing of mine"),
            "look": (
                "look like it's sunset",
                "black and white",
                "brighter",
                "a bit warmer",
                "look like a watercolour painting",
                "less cluttered",
                "look like a vintage postcard",
                "pop a bit more",
            ),
            "draw": ("draw", "paint", "pop", "sketch", "put"),
            "addition": (
                "a party hat on the dog",
                "a rainbow over the hills",
                "snow on the rooftops",
                "sunglasses on the cat",
                "a moon in the sky",
                "a little boat on the lake",
                "balloons above the table",
            ),
            "variant": (
                "with the background removed",
                "where the sky is purple",
                "in black and white",
                "without the person on the left",
                "with warmer colours",
                "with the sign's text taken out",
                "at night instead of during the day",
            ),
            "instruction": (
                "same shot, but swap the background for a beach",
                "keep everything, just turn the sky into a sunset",
                "the same scene with the car painted red",
                "leave it as it is but take out the lamp post",
                "exactly that, only with autumn leaves on the trees",
            ),
        }
    ),
    slots={"image_url": values.image_url},
    pins=(Pin(0, "image_url", "image_url"),),
    banned=frozenset({"edit", "edits", "edited", "editing", "image", "images"}),
)

WORKFLOW_NOT_JOB = Category(
    name="workflow_not_job",
    group=GROUP,
    tools=("execute_agent_workflow",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##start_job# #for_goal#, #split#.#trail#",
                "#lead#one big task for you — #goal_verb# #goal#; #it_splits#.#trail#",
                "#lead#can you #start_job# #for_goal# and #split_q#?#trail#",
            ),
            "start_job": (
                "kick off a job",
                "start a job",
                "set up a task",
                "spin up one big task",
                "launch a job",
            ),
            "for_goal": (
                "to get #goal# ready",
                "for #goal#",
                "to pull off #goal#",
                "to prepare #goal#",
            ),
            "goal_verb": ("pull off", "prepare", "sort out", "organise", "deliver"),
            "goal": (
                "the {topic} launch",
                "the {topic} office move",
                "the {topic} conference",
                "the {topic} grant application",
                "the {topic} rebrand",
                "the {topic} fundraiser",
            ),
            "split": (
                "but break it into separate pieces that all run at the same time",
                "with the research, costs and timeline each handled on its own and all at once",
                "carving it into independent parts worked on side by side",
                "and have several helpers work on different pieces at the same time",
                "split three ways so the research, the budget and the plan move forward together",
            ),
            "it_splits": (
                "it breaks into several independent parts, so have them all worked on at once",
                "the research, budget and logistics can all go ahead simultaneously",
                "farm out the separate pieces and pull them together at the end",
                "have different helpers take different parts at the same time",
            ),
            "split_q": (
                "split it into pieces that run side by side",
                "have the separate parts worked on simultaneously",
                "coordinate a few helpers on it at the same time",
            ),
        }
    ),
    slots={"topic": values.coined_word},
    pins=(Pin(0, "goal", "topic"),),
    banned=frozenset({"execute", "agent", "agents", "workflow", "workflows", "parallel"}),
)

AUTOMATION_NOT_JOB = Category(
    name="automation_not_job",
    group=GROUP,
    tools=("create_automation",),
    grammar=with_wrap(
        {
            "origin": (
                "#lead##go_ahead##task# {schedule}#ongoing#.#trail#",
                "#lead#from now on, {schedule}, #go_ahead##task#.#trail#",
                "#lead#can you #task# {schedule}#ongoing#?#trail#",
                "#lead#I'd like you to #task# {schedule}#ongoing#.#trail#",
                "#lead#set up a job that will #task# {schedule}.#trail#",
            ),
            "go_ahead": ("", "go ahead and ", "please ", "just "),
            "task": (
                "check the weather for my commute and tell me if I need an umbrella",
                "send me a roundup of the top tech headlines",
                "look up the euro to dollar rate and message me",
                "check flight prices from Boston to Lisbon and tell me whether they've dropped",
                "pull together a short summary of new papers on battery chemistry",
                "check whether any new flats near Riverside Park have been advertised",
                "give me a quick briefing on what's happening in the markets",
                "find me three new podcast episodes about gardening",
                "look for new reviews of my café and sum them up",
                "check if tickets for the harbour jazz festival have gone on sale",
                "send me a short quote to think about",
                "tell me which of my houseplants are due for watering",
            ),
            "ongoing": ("", " from now on", " going forward", " until I tell you to stop"),
        }
    ),
    slots={"schedule": schedules.schedule},
    pins=(Pin(0, "schedule", "schedule"),),
    banned=frozenset(
        {
            "create",
            "automation",
            "automations",
            "automate",
            "automated",
            "automatically",
            "schedule",
            "scheduled",
            "recurring",
        }
    ),
)

CATEGORIES: tuple[Category, ...] = (
    AGENT_RUN_NOT_READ,
    AGENT_READ_NOT_RUN,
    IMAGE_EDIT_NOT_CREATE,
    WORKFLOW_NOT_JOB,
    AUTOMATION_NOT_JOB,
)
