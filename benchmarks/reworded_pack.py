"""Write a rule-reworded copy of the public pack: the "across packs" test bed of the study.

    python benchmarks/reworded_pack.py DIR [--from PACK_ID] [--id ID]

Every statement wording of every attribute (``state``, ``change``, ``other``, ``event``,
``with_note``, ``start``, ``quit``, ``still``, ``mention``, ``recommend``, ``implied``,
``twin_claim``) is reworded by rules: whole-word synonyms (``SYNONYMS``), two sentences swapped
where an alternative has exactly two, and, where neither changed it, a new frame around it
(``FRAMES``). Every look-alike frame (``twin_*`` families and ``suggest_alt``, shared or an
attribute's own) is replaced by frames of the same family that share no wording with the old
ones (``LOOKALIKES``), keeping the slots each had. From ``--from public-6.1``, whose look-alikes
transform the claim: ``twin_not``, ``twin_would`` and ``other_claim`` get synonyms like the
claim, and the frames facts and look-alikes share (``said*``) are replaced by new ones
(``SHARED_FRAMES``), still shared. Questions, tools, chatter, values and names
are the source pack's. The choices are deterministic (SHA-256 of the text), so the same command
writes the same pack. Check it with ``dittobench pack lint DIR``; measure it with
``dittobench pack distance public-3.0 DIR`` and ``dittobench study --pack DIR``.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from pathlib import Path
from typing import Any

from dittobench.packs import PACK_FILES, public_pack

STATEMENT_SYMBOLS = frozenset(
    {
        "state",
        "change",
        "other",
        "event",
        "with_note",
        "start",
        "quit",
        "still",
        "mention",
        "recommend",
        "implied",
        "twin_claim",
        "twin_not",
        "twin_would",
        "other_claim",
        "suggest_not",
    }
)
CLAUSES = frozenset({"twin_claim", "twin_not", "twin_would", "other_claim"})
"""Clauses said inside frames (bench 6.1: the claim, and the look-alikes that transform it):
synonyms only."""
SHARED_FRAMES = ("Quick note: #{}#.", "Truth be told, #{}#.", "While I think of it, #{}#.")
"""Bench 6.1's frames facts and look-alikes share (``said``, ``said_other``, ``said_not``,
``said_would``), replaced by these around the clause each held, so they stay shared."""
SYNONYMS = {
    "favourite": "best-loved",
    "favorite": "best-loved",
    "really": "truly",
    "always": "forever",
    "loved": "adored",
    "loving": "adoring",
    "called": "named",
    "started": "began",
    "finally": "at last",
    "amazing": "incredible",
    "great": "excellent",
    "honestly": "frankly",
    "never": "not once",
    "lovely": "delightful",
    "little": "small",
    "think": "reckon",
    "because": "since",
    "happy": "glad",
    "usually": "normally",
    "went": "headed",
    "moved": "relocated",
    "switched": "swapped",
    "just": "only just",
    "these days": "lately",
    "by the way": "incidentally",
    "every": "each",
    "whole": "entire",
    "best": "finest",
    "big": "huge",
}
FRAMES_BEFORE = ("For the record, ", "Something you should know: ", "Here's a thing about me: ")
FRAMES_AFTER = (" That's the truth of it.", " Worth noting down.", " Just so you know.")
"""New frames: before a wording that starts with literal text, after one that starts with a
symbol or a slot."""
LOOKALIKES = {
    "twin_denial": (
        "Whoever told you #twin_claim# got it wrong.",
        "Somebody spread the rumour that #twin_claim#, which is false.",
        "There's a myth going round: #twin_claim#. Rubbish.",
    ),
    "twin_negation": (
        "If only #twin_claim#, sadly it isn't so.",
        "How nice it would be if #twin_claim#; it isn't.",
        "Sadly it's not the case that #twin_claim#.",
    ),
    "twin_plan": (
        "My plan for this year was that #twin_claim#, which never happened.",
        "The goal was for me to report #twin_claim# by now. Didn't work out.",
        "I had hoped #twin_claim# by this point. Nope.",
    ),
    "twin_hypothetical": (
        "Suppose #twin_claim#, wouldn't that be something?",
        "In some other life #twin_claim#, but not this one.",
        "Daydream of mine: #twin_claim#. Only a daydream.",
    ),
    "twin_reported": (
        "{person} swears that #twin_claim#, which is nonsense.",
        "{person} told our friends #twin_claim#. Completely made up.",
        "Apparently {person} believes #twin_claim#. Baffling.",
    ),
    "twin_echo": (
        "{person} complained all night that #twin_claim#, their problem, not mine.",
        "{person} messaged to say #twin_claim#, poor thing; nothing like that here.",
        "A year ago I would have said #twin_claim#, but not any more.",
    ),
    "suggest_alt": (
        'Lots of people push "#recommend#" but I would skip that.',
        'The standard tip is "#recommend#" not my choice for you, though.',
    ),
}
_TOKEN = re.compile(r"(#[a-z_][a-z0-9_]*#|\{[a-z_][a-z0-9_]*\})")


def _pick(text: str, count: int) -> int:
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big") % count


def _synonyms(text: str) -> str:
    """Whole-word synonyms in the literal text (symbols and slots untouched)."""
    keys = sorted(SYNONYMS, key=len, reverse=True)
    pattern = re.compile(
        r"(?<![\w-])(" + "|".join(re.escape(k) for k in keys) + r")(?![\w-])", re.I
    )

    def swap(found: re.Match[str]) -> str:
        word = SYNONYMS[found.group(0).lower()]
        return word[0].upper() + word[1:] if found.group(0)[0].isupper() else word

    pieces = _TOKEN.split(text)
    return "".join(p if _TOKEN.fullmatch(p) else pattern.sub(swap, p) for p in pieces)


def _swap_sentences(text: str) -> str:
    parts = re.split(r"(?<=[.!?]) (?=[A-Z{#])", text)
    if len(parts) == 2 and parts[1].rstrip()[-1:] in ".!?" and not text.startswith("#"):
        return f"{parts[1]} {parts[0]}"
    return text


def reword_statement(text: str, clause: bool = False) -> str:
    """Synonyms, then two sentences swapped; a ``clause`` (``twin_claim``) gets synonyms only.
    A wording the rules left alone, and one in three of the rest, gets a new frame."""
    new = _synonyms(text)
    if clause:
        return new
    new = _swap_sentences(new)
    if new != text and _pick(text, 3) != 0:
        return new
    if new[:1] in "#{":
        return new + FRAMES_AFTER[_pick(text, len(FRAMES_AFTER))]
    lead = new if new.startswith(("I ", "I'")) else new[:1].lower() + new[1:]
    return FRAMES_BEFORE[_pick(text, len(FRAMES_BEFORE))] + lead


def reword_lookalike(symbol: str, alternatives: list[str]) -> list[str]:
    """The family's new frames; those with ``{person}`` only where the old ones had it."""
    keep_person = any("{person}" in a for a in alternatives)
    frames = [f for f in LOOKALIKES[symbol] if keep_person or "{person}" not in f]
    return frames or list(LOOKALIKES[symbol])


def reword_frames(alternatives: list[str]) -> list[str]:
    """A shared frame symbol's new frames round the one clause it held (``SHARED_FRAMES``)."""
    clauses = sorted({c for a in alternatives for c in re.findall(r"#([a-z_]+)#", a)})
    return [frame.format(clause) for clause in clauses for frame in SHARED_FRAMES]


def reword_grammar(grammar: dict[str, list[str]], statements: bool) -> dict[str, list[str]]:
    out = {}
    for symbol, alternatives in grammar.items():
        if symbol in LOOKALIKES:
            out[symbol] = reword_lookalike(symbol, alternatives)
        elif not statements and symbol.startswith("said"):
            out[symbol] = reword_frames(alternatives)
        elif statements and symbol in STATEMENT_SYMBOLS:
            clause = symbol in CLAUSES
            out[symbol] = [reword_statement(a, clause) for a in alternatives]
        else:
            out[symbol] = list(alternatives)
    return out


def reworded(source: str, pack_id: str) -> dict[str, Any]:
    origin = public_pack(source)
    files = {name: json.loads(json.dumps(origin.file(name))) for name in PACK_FILES}
    attributes = files["attributes"]
    attributes["shared"] = reword_grammar(attributes["shared"], statements=False)
    for attribute in attributes["attributes"]:
        attribute["grammar"] = reword_grammar(attribute["grammar"], statements=True)
    files["pack"] = {
        **files["pack"],
        "pack_id": pack_id,
        "title": f"{pack_id} (rule-reworded from {origin.pack_id})",
        "description": "Every statement wording and look-alike frame of "
        f"{origin.pack_id} reworded by rules (benchmarks/reworded_pack.py).",
    }
    return files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--from", dest="source", default="public-3.0")
    parser.add_argument("--id", dest="pack_id", default="")
    args = parser.parse_args(argv)
    folder: Path = args.folder
    if folder.exists() and (not folder.is_dir() or any(folder.iterdir())):
        print(f"error: {folder} exists and is not an empty folder", file=sys.stderr)
        return 2
    folder.mkdir(parents=True, exist_ok=True)
    pack_id = args.pack_id or folder.resolve().name.lower()
    for name, data in reworded(args.source, pack_id).items():
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        (folder / f"{name}.json").write_text(text, encoding="utf-8")
    print(f"wrote {folder} (pack {pack_id!r})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
