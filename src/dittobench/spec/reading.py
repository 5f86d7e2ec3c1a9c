"""The locked reader: the model that answers from what a memory system recalls.

Most memory systems only store and retrieve; something has to read what they return and answer
(and make the tool calls). A score of such a system is a score of the pair, so the reader is fixed
per protocol, like the judge (``spec.judging``): the model, its sampling settings, how many
memories it is shown and the exact prompt, whose SHA-256 is checked when it is loaded. The adapter
harness (``dittobench harness serve --adapter``) declares the reader it used in its ``/health``
reply; the report and the receipt carry that declaration, and a reader that is not one of
``READERS`` is shown as such.

``READER_1`` answers with a chat model; ``EXTRACTIVE_1`` is the offline reader: no model, the
baseline harness's sentence-picking answerer run over the recalled memories only.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from dittobench.core.errors import DittobenchError
from dittobench.spec.locked_files import LockedFileError, locked_json

MODEL = "model"
EXTRACTIVE = "extractive"


class ReaderConfigError(DittobenchError, ValueError):
    """A reader prompt file is missing, malformed or not the one its protocol locks."""


@dataclass(frozen=True, slots=True)
class ReaderProtocol:
    """Everything that decides a reader's answers given the same recalled memories.
    ``temperature`` is in thousandths; ``top_k`` memories are recalled per message;
    ``max_steps`` bounds the tool-calling loop; ``prompt_file`` (empty for the extractive reader)
    names a file of ``spec/reader_prompts``."""

    id: str
    kind: str
    model: str = ""
    prompt_file: str = ""
    prompt_sha256: str = ""
    temperature_permille: int = 0
    seed: int = 7
    top_k: int = 10
    max_steps: int = 6
    max_tokens: int = 400
    memory_chars: int = 600
    """Each recalled memory is cut to this many characters before the reader sees it."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "model": self.model,
            "prompt_file": self.prompt_file,
            "prompt_sha256": self.prompt_sha256,
            "temperature_permille": self.temperature_permille,
            "seed": self.seed,
            "top_k": self.top_k,
            "max_steps": self.max_steps,
            "max_tokens": self.max_tokens,
            "memory_chars": self.memory_chars,
        }

    def declared(self) -> dict[str, str]:
        """The reader as the harness declares it in ``/health`` (``identity`` keys)."""
        return {
            "reader": self.id,
            "reader_kind": self.kind,
            **({"reader_model": self.model} if self.model else {}),
            **({"reader_prompt_sha256": self.prompt_sha256} if self.prompt_sha256 else {}),
            "reader_top_k": str(self.top_k),
            "reader_temperature_permille": str(self.temperature_permille),
            "reader_seed": str(self.seed),
        }


READER_1: Final = ReaderProtocol(
    id="dittobench-reader-1",
    kind=MODEL,
    model="qwen2.5-7b-instruct-q4_k_m",
    prompt_file="reader-prompt-1.json",
    prompt_sha256="6e98e02caaa5d7e39e5e31e869c2a81ed351ebd2c31e915467999609625e9508",
)
"""The model reader: the judge's model (Qwen2.5-7B-Instruct, GGUF Q4_K_M) behind any
OpenAI-compatible server, temperature 0, seed 7, the ten best memories."""

EXTRACTIVE_1: Final = ReaderProtocol(id="dittobench-extractive-1", kind=EXTRACTIVE)
"""The offline reader: deterministic, no model, the ten best memories."""

READERS: Final = {reader.id: reader for reader in (READER_1, EXTRACTIVE_1)}


@dataclass(frozen=True, slots=True)
class ReaderPrompt:
    """The words of a reader prompt file: the system message and the lines around the recalled
    memories."""

    system: str
    reference_date: str
    reference_unknown: str
    memories: str
    memory: str
    memory_reply: str
    undated: str
    no_memories: str


def reader_prompt(protocol: ReaderProtocol) -> ReaderPrompt:
    """The prompt file ``protocol`` names, checked against its SHA-256."""
    if not protocol.prompt_file:
        raise ReaderConfigError(f"reader {protocol.id} has no prompt")
    owner = f"reader {protocol.id}"
    try:
        data = locked_json("reader_prompts", protocol.prompt_file, protocol.prompt_sha256, owner)
        return ReaderPrompt(**data)
    except (LockedFileError, TypeError) as exc:
        raise ReaderConfigError(f"reader prompt {exc}") from None


def locked_reader(identity: dict[str, str]) -> ReaderProtocol | None:
    """The locked reader a harness's declared identity names, when every setting it declares is
    that reader's; None for an unknown reader or one run with other settings."""
    reader = READERS.get(identity.get("reader", ""))
    if reader is None:
        return None
    expected = reader.declared()
    same = all(identity.get(key) == value for key, value in expected.items())
    return reader if same else None


__all__ = [
    "EXTRACTIVE",
    "EXTRACTIVE_1",
    "MODEL",
    "READERS",
    "READER_1",
    "ReaderConfigError",
    "ReaderPrompt",
    "ReaderProtocol",
    "locked_reader",
    "reader_prompt",
]
