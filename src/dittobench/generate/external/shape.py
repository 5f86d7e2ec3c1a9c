"""Reading a source file's JSON: each value taken with its JSON path, so a malformed file is
refused with an error naming the file and the path of what is wrong ("locomo10.json:
$[3].qa[12].category: expected a number from 1 to 5, got string")."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dittobench.core.errors import DittobenchError


class ExternalFileError(DittobenchError, ValueError):
    """A source file that is not what its format says: the message names the file and the JSON
    path of the first problem."""

    http_status = 400


class UnknownReleaseError(DittobenchError, ValueError):
    """A source file whose SHA-256 matches no known release (refused unless allowed)."""

    http_status = 400


def kind_of(value: Any) -> str:
    """The JSON kind of a parsed value, in one word, for error messages."""
    if isinstance(value, dict):
        return "object"
    if isinstance(value, list):
        return "array"
    if isinstance(value, str):
        return "string"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    return "null" if value is None else type(value).__name__


@dataclass(frozen=True, slots=True)
class Source:
    """The file being read, named in every error."""

    name: str

    def fail(self, path: str, message: str) -> ExternalFileError:
        return ExternalFileError(f"{self.name}: {path}: {message}")

    def member(self, value: dict[str, Any], key: str, path: str) -> Any:
        """``value[key]``, or an error naming ``path.key`` as missing."""
        if key not in value:
            raise self.fail(f"{path}.{key}", "missing")
        return value[key]

    def obj(self, value: Any, path: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.fail(path, f"expected an object, got {kind_of(value)}")
        return value

    def array(self, value: Any, path: str) -> list[Any]:
        if not isinstance(value, list):
            raise self.fail(path, f"expected an array, got {kind_of(value)}")
        return value

    def text(self, value: Any, path: str) -> str:
        if not isinstance(value, str):
            raise self.fail(path, f"expected a string, got {kind_of(value)}")
        return value

    def answer(self, value: Any, path: str) -> str:
        """A gold answer: a string, or a number written as the source wrote it (some answers
        are integers)."""
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise self.fail(path, f"expected a string or a number, got {kind_of(value)}")
        return value if isinstance(value, str) else str(value)

    def texts(self, value: Any, path: str) -> tuple[str, ...]:
        items = self.array(value, path)
        return tuple(self.text(item, f"{path}[{i}]") for i, item in enumerate(items))


__all__ = ["ExternalFileError", "Source", "UnknownReleaseError", "kind_of"]
