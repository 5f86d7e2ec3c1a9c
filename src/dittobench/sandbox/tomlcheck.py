"""A submitter's TOML (``dittobench-harness.toml``, ``pyproject.toml``) read with its cost bounded.

``tomllib`` recurses once per nested array or inline table (a few hundred ``[`` end in
``RecursionError``) and takes time quadratic in the parts of one dotted key (a 64 KiB key
``a.a.a…`` takes ~26 s). So before it runs, one linear pass refuses, naming the file and the
line: more than ``MAX_TOML_BYTES``, nesting deeper than ``MAX_NESTING`` and dotted keys of more
than ``MAX_KEY_PARTS`` parts. Strings and comments are skipped as TOML lexes them (the same
anywhere in a file), so brackets and dots inside them never count.
"""

from __future__ import annotations

import re
import tomllib

from dittobench.sandbox import ArchiveError

MAX_TOML_BYTES = 64 * 1024
MAX_NESTING = 32
MAX_KEY_PARTS = 32
# Linear by construction: possessive repeats over alternatives that start differently.
# A multi-line string may end in up to two quotes of its own before its closing three.
_STRING = re.compile(
    r'"""(?:[^"\\]|\\.|"(?!""))*+"{3,5}+'
    r"|'''(?:[^']|'(?!''))*+'{3,5}+"
    r'|"(?:[^"\\\n]|\\[^\n])*+"'
    r"|'[^'\n]*+'",
    re.DOTALL,
)
_PLAIN = re.compile(r"[^\n#\"'\[\]{}=,.]++")


def load_toml(raw: bytes, name: str) -> dict[str, object]:
    """``raw`` parsed; ``ArchiveError`` naming ``name`` (and the line) when it is too large,
    too deep, not UTF-8 or not TOML."""
    if len(raw) > MAX_TOML_BYTES:
        raise ArchiveError(f"{name}: {len(raw)} bytes; at most {MAX_TOML_BYTES} are accepted")
    text = utf8(raw, name)
    check_shape(text, name)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ArchiveError(f"{name}: not valid TOML: {exc}") from None
    except RecursionError:  # not reached after check_shape; kept so it can never be a 500
        raise ArchiveError(f"{name}: nested too deeply") from None


def check_shape(text: str, name: str) -> None:
    """``ArchiveError`` for nesting deeper than ``MAX_NESTING`` or a dotted key of more than
    ``MAX_KEY_PARTS`` parts, naming the line. Stops at an unterminated string: tomllib fails
    there too, before reading further."""
    depth = dots = 0
    line = 1
    pos = 0
    while pos < len(text):
        plain = _PLAIN.match(text, pos)
        if plain is not None:
            pos = plain.end()
            continue
        char = text[pos]
        if char in "\"'":
            string = _STRING.match(text, pos)
            if string is None:
                return
            line += text.count("\n", pos, string.end())
            pos = string.end()
            continue
        if char == "#":
            end = text.find("\n", pos)
            pos = len(text) if end < 0 else end
            continue
        pos += 1
        if char == ".":
            dots += 1  # a dotted key's parts; a float or a time has one dot
            if dots >= MAX_KEY_PARTS:
                raise ArchiveError(f"{name} line {line}: a key of over {MAX_KEY_PARTS} parts")
            continue
        dots = 0
        if char == "\n":
            line += 1
        elif char in "[{":
            depth += 1
            if depth > MAX_NESTING:
                raise ArchiveError(f"{name} line {line}: nested over {MAX_NESTING} deep")
        elif char in "]}":
            depth = max(depth - 1, 0)


def utf8(raw: bytes, name: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ArchiveError(f"{name}: not UTF-8 (byte {exc.start})") from None


__all__ = ["MAX_TOML_BYTES", "check_shape", "load_toml", "utf8"]
