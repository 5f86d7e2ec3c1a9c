"""A case's rule in words, with the values of the answer key that decided it."""

from __future__ import annotations

import ast
from pathlib import Path

from dittobench.grade.memory import REASONS
from dittobench.spec.memory import MemoryCase
from dittobench.views.explain import RULES, explain

CASE = MemoryCase(
    id="c1", question_type="knowledge_update", question="Where do I live now?",
    answer_kind="value", expected_answer="Porto", user_id="u", run_after_wave=0,
    distractors=("Lisbon", "Faro"), forbidden=("Oslo",), dump_guard=("Tea", "Jazz", "Chess"),
)  # fmt: skip
TOOLS = Path(__file__).resolve().parents[2] / "src" / "dittobench" / "grade" / "tools.py"


def test_a_distractor_is_named_in_the_line() -> None:
    why = explain("distractor", CASE, "You live in Lisbon, I think.")
    assert why.named == ("Lisbon",)
    assert why.line() == "distractor: named someone else's or a superseded value ('Lisbon')"
    assert explain("forbidden", CASE, "Oslo or Porto").named == ("Oslo",)
    assert explain("dump_guard", CASE, "tea, jazz and chess").named == ("Tea", "Jazz", "Chess")


def test_a_failed_typed_check_says_what_was_expected() -> None:
    assert explain("typed", CASE, "somewhere").line().endswith("(expected 'Porto')")
    assert explain("", CASE, "Porto").line() == "ok: full credit"
    assert explain("no_call").line() == "no_call: made no tool call"


def _strings(node: ast.AST) -> set[str]:
    return {
        n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)
    }


def _tool_reasons() -> set[str]:
    """The strings the tool grader returns or assigns as a reason: assigned to ``reason``,
    returned in a tuple, or passed to ``ToolVerdict``."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(TOOLS.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "reason" for t in node.targets)
        ) or (isinstance(node, ast.Return) and isinstance(node.value, ast.Tuple)):
            found |= _strings(node.value) if node.value is not None else set()
        elif isinstance(node, ast.Call) and getattr(node.func, "id", "") == "ToolVerdict":
            found |= _strings(node)
    return found - {""}


def test_every_reason_the_grader_writes_has_words() -> None:
    tools = _tool_reasons()
    assert {"no_call", "wrong_tools", "arguments", "decoy_figure"} <= tools  # the scan works
    memory = set(REASONS) | {"partial", "typed"}
    assert sorted(r for r in tools | memory if r not in RULES) == []
