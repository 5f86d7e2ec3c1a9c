"""The validity study: built-in deterministic strategies scored with the real grader.

``dittobench study`` (``docs/study.md``) generates datasets over many seeds, answers every case
with each strategy of ``study.strategies`` (the oracle, the honest paraphrase oracle, a
grammar-aware parser, the grammar attack that compiles a pack into an inverse, a lexical reader,
constants, a dump, a decline and a description router; when named, context-window readers of
the newest N tokens, ``study.window``), grades the transcripts with
``grade_run`` and reports how far apart they land, how noisy a single seed is, and which
categories are saturated, at the floor or parseable.

This package sits beside ``store`` and ``receipts``: it reads the generator, the grader and the
mock tools, and nothing above them. The names below are the answer pieces tests build
transcripts from.
"""

from dittobench.study.naive import always_decline, best_constant, canned, dump_everything, no_tools
from dittobench.study.oracle import (
    SAMPLE_ARGS,
    oracle_call,
    oracle_memory,
    oracle_tool,
    write_calls,
)
from dittobench.study.paraphrase import number_words, paraphrase_memory
from dittobench.study.transcripts import MemoryAnswer, ToolAnswer, build

__all__ = [
    "SAMPLE_ARGS",
    "MemoryAnswer",
    "ToolAnswer",
    "always_decline",
    "best_constant",
    "build",
    "canned",
    "dump_everything",
    "no_tools",
    "number_words",
    "oracle_call",
    "oracle_memory",
    "oracle_tool",
    "paraphrase_memory",
    "write_calls",
]
