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

from dataclasses import replace

from dittobench.core import codes
from dittobench.generate.memory.asking import ask_wordings
from dittobench.generate.memory.draft import Context, Draft

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
    user = ctx.person.user_id
    drafts: list[Draft] = []

    linked = ctx.content.write_links

    def instruction(symbol: str, label: str, value: str, evidence: tuple[str, ...]) -> Draft:
        draft = Draft(
            question_type="write_instruction",
            candidates=ask_wordings(ctx, attribute, symbol, {"label": label, "value": value}),
            answer_kind="acknowledge",
            expected=label,
            user_id=user,
            max_wave=0,
        )
        if not linked:
            return draft
        return replace(
            draft,
            write_op=symbol,
            items=(value,) if value else (),
            evidence=evidence,
            confirmed_by=f"write/{len(drafts) + 1}",  # the read-back comes next
        )

    def read_back(label: str, expected: str, kind: str, evidence: tuple[str, ...]) -> Draft:
        draft = Draft(
            question_type="write_readback",
            candidates=ask_wordings(ctx, attribute, "ask", {"label": label}),
            answer_kind=kind,
            expected=expected,
            user_id=user,
            distractors=tuple(c for c in every_code if c != expected),
            evidence=evidence,
            clusters=(WRITE_ATTRIBUTE,),
            min_wave=last_wave,
        )
        if not linked:
            return draft
        # A decline names the label it declines about.
        items = (label,) if kind == "decline" else ()
        return replace(draft, link=f"write/{len(drafts)}", items=items)

    for label, code in zip(save_labels, new_codes[:per_kind], strict=True):
        drafts.append(instruction("save", label, code, ()))
        drafts.append(read_back(label, code, "value", ()))
    for old, code in zip(olds[:per_kind], new_codes[per_kind:], strict=True):
        drafts.append(instruction("update", old.detail, code, (old.key,)))
        drafts.append(read_back(old.detail, code, "value", (old.key,)))
    for old in olds[per_kind : 2 * per_kind]:
        drafts.append(instruction("delete", old.detail, "", (old.key,)))
        drafts.append(read_back(old.detail, "", "decline", (old.key,)))
    return drafts
