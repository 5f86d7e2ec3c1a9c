"""The structural fingerprint: a copy with every identifier and literal changed is recognised,
an unrelated harness is not, and the sketch is the same in every process."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from dittobench.sandbox.fingerprint import K, fingerprint, similarity, structural_tokens

ROOT = Path(__file__).resolve().parents[2]
HARNESS = (ROOT / "tests" / "helpers" / "harness_server.py").read_bytes()
UNRELATED = (ROOT / "src" / "dittobench_baseline" / "store.py").read_bytes()


def renamed(source: bytes) -> bytes:
    """Every identifier that is not a keyword or builtin gets a new name; every number and
    string a new value; comments are dropped."""
    text = source.decode()
    keep = set(dir(__builtins__)) | {"self", "cls"}
    names: dict[str, str] = {}

    def rename(match: re.Match[str]) -> str:
        word = match.group(0)
        import keyword

        if keyword.iskeyword(word) or word in keep:
            return word
        return names.setdefault(word, f"v{len(names)}_{word[::-1]}")

    lines = []
    for line in text.splitlines():
        code = line.split("  # ", 1)[0]
        lines.append(code)
    text = "\n".join(lines) + "\n"
    # Names outside strings only: strings are replaced whole first.
    text = re.sub(r"'[^'\n]*'", "'changed'", text)
    text = re.sub(r"\b\d+\b", "7", text)
    return re.sub(r"\b[A-Za-z_][A-Za-z0-9_]*\b", rename, text).encode()


def test_tokens_are_identifier_and_literal_neutral() -> None:
    tokens = structural_tokens(b"total = price * 3  # note\nif total > 'x':\n    go(total)\n")
    assert tokens == [
        *("ID", "=", "ID", "*", "LIT", "NEWLINE"),
        *("if", "ID", ">", "LIT", ":", "NEWLINE", "INDENT"),
        *("ID", "(", "ID", ")", "NEWLINE", "DEDENT"),
    ]
    assert structural_tokens(b"a = b +\n") != []  # a broken file keeps what tokenized


def test_a_renamed_copy_scores_high_and_an_unrelated_harness_low() -> None:
    original = fingerprint([("harness_server.py", HARNESS)])
    copy = fingerprint([("main.py", renamed(HARNESS)), ("README.md", b"not python")])
    other = fingerprint([("store.py", UNRELATED)])
    assert renamed(HARNESS) != HARNESS and len(original.m) == K and original.card > 1000
    assert similarity(original, copy) >= 0.9
    assert similarity(original, other) < 0.2
    assert similarity(original, original) == 1.0
    assert similarity(original, fingerprint([])) == 0.0


def test_the_sketch_is_the_same_in_a_fresh_process_with_another_hash_seed() -> None:
    here = fingerprint([("h.py", HARNESS)]).to_json()
    code = (
        "import json, sys; from dittobench.sandbox.fingerprint import fingerprint; "
        "print(json.dumps(fingerprint([('h.py', open(sys.argv[1], 'rb').read())]).to_json()))"
    )
    path = str(ROOT / "tests" / "helpers" / "harness_server.py")
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code, path], capture_output=True, env=env, check=True, text=True
    )
    assert json.loads(out.stdout) == here
