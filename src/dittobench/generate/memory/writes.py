"""The write path: save, update and delete instructions, and the later questions that prove
whether the write really happened.

Instructions are asked after wave 0 and graded as acknowledgements; read-backs are asked after
the last wave. A saved or updated code is coined here and appears nowhere in the haystack, so
only a real write can produce it; a deleted code is in the haystack, so only a real delete makes
it disappear (the read-back must decline).

With ``write_links`` (bench 2.0) an instruction also names its operation, the code it writes (as
its item), the stored pair it replaces or removes (as its evidence) and its read-back, so the
grader credits only a write that was made and then proved by the read-back.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from dittobench.core import codes
from dittobench.generate.memory.asking import ask_wordings
from dittobench.generate.memory.draft import Context, Draft
from dittobench.generate.persona.attribute import Attribute

WRITE_ATTRIBUTE = "saved_code"


def write_path(ctx: Context, instructions: int, last_wave: int) -> list[Draft]:
    """``instructions`` = saves + updates + deletes, in equal thirds; each gets a read-back."""
    per_kind = instructions // 3
    attribute = ctx.library.get(WRITE_ATTRIBUTE)
    olds = ctx.facts(WRITE_ATTRIBUTE, role="write_state")
    if len(olds) < 2 * per_kind:
        raise ValueError(f"write path needs {2 * per_kind} seeded codes, has {len(olds)}")
    used = {f.detail for f in olds}
    fresh = [c.text for c in attribute.values if c.text not in used]
    save_labels = ctx.stream.sample(fresh, per_kind)
    new_codes = [codes.write_code(ctx.stream) for _ in range(2 * per_kind)]
    every_code = tuple(f.value for f in olds) + tuple(new_codes)
    path = _WritePath(ctx, attribute, every_code, last_wave)
    drafts: list[Draft] = []
    for label, code in zip(save_labels, new_codes[:per_kind], strict=True):
        drafts += path.pair("save", label, code, (), len(drafts) + 1)
    for old, code in zip(olds[:per_kind], new_codes[per_kind:], strict=True):
        drafts += path.pair("update", old.detail, code, (old.key,), len(drafts) + 1)
    for old in olds[per_kind : 2 * per_kind]:
        drafts += path.pair("delete", old.detail, "", (old.key,), len(drafts) + 1)
    return drafts


@dataclass(frozen=True, slots=True)
class _WritePath:
    """What every instruction and read-back of one user's write path shares."""

    ctx: Context
    attribute: Attribute
    every_code: tuple[str, ...]
    """Every code of the path: a read-back's distractors are the others."""
    last_wave: int

    def pair(
        self, symbol: str, label: str, code: str, evidence: tuple[str, ...], number: int
    ) -> tuple[Draft, Draft]:
        """The instruction to ``symbol`` (save, update, delete) ``code`` under ``label``, and
        the read-back that proves it (``write/<number>``; a delete's read-back declines)."""
        kind = "decline" if symbol == "delete" else "value"
        return (
            self.instruction(symbol, label, code, evidence, number),
            self.read_back(label, code, kind, evidence, number),
        )

    def instruction(
        self, symbol: str, label: str, value: str, evidence: tuple[str, ...], number: int
    ) -> Draft:
        draft = Draft(
            question_type="write_instruction",
            candidates=ask_wordings(
                self.ctx, self.attribute, symbol, {"label": label, "value": value}
            ),
            answer_kind="acknowledge",
            expected=label,
            user_id=self.ctx.person.user_id,
            max_wave=0,
        )
        if not self.ctx.content.write_links:
            return draft
        return replace(
            draft,
            write_op=symbol,
            items=(value,) if value else (),
            evidence=evidence,
            confirmed_by=f"write/{number}",  # the read-back comes next
        )

    def read_back(
        self, label: str, expected: str, kind: str, evidence: tuple[str, ...], number: int
    ) -> Draft:
        draft = Draft(
            question_type="write_readback",
            candidates=ask_wordings(self.ctx, self.attribute, "ask", {"label": label}),
            answer_kind=kind,
            expected=expected,
            user_id=self.ctx.person.user_id,
            distractors=tuple(c for c in self.every_code if c != expected),
            evidence=evidence,
            clusters=(WRITE_ATTRIBUTE,),
            min_wave=self.last_wave,
        )
        if not self.ctx.content.write_links:
            return draft
        # A decline names the label it declines about.
        items = (label,) if kind == "decline" else ()
        return replace(draft, link=f"write/{number}", items=items)
