"""External suites: a published benchmark file a user already has (LongMemEval, LoCoMo) read
into an ``ExternalSuite`` (``spec.external``), refused unless its bytes are a known release
(``releases``) or an unknown file is allowed on purpose. Nothing is downloaded; the file is read
once, hashed and parsed. docs/external.md.
"""

from __future__ import annotations

from pathlib import Path

from dittobench.core.hashing import sha256_hex
from dittobench.generate.external.locomo import read_locomo
from dittobench.generate.external.longmemeval import read_longmemeval
from dittobench.generate.external.releases import release_of
from dittobench.generate.external.shape import ExternalFileError, Source, UnknownReleaseError
from dittobench.spec.codec import DecodeError, loads
from dittobench.spec.external import FORMATS, SOURCE_TYPES, ExternalSuite, Selection, SourceFile

TYPES = SOURCE_TYPES
"""Each format's source types (LongMemEval question types, LoCoMo category names), in report
order."""

READERS = {"longmemeval": read_longmemeval, "locomo": read_locomo}


def load_external(
    path: Path,
    format: str,
    allow_unknown: bool = False,
    *,
    limit: int = 0,
    types: tuple[str, ...] = (),
) -> ExternalSuite:
    """The suite ``path`` holds in ``format``. ``UnknownReleaseError`` when its SHA-256 is no
    known release of the format (unless ``allow_unknown``); ``ExternalFileError`` naming the
    file and the JSON path of the first problem when it is not that format. ``types`` keeps the
    questions of those source types only, ``limit`` the first that many (0: all), in file
    order."""
    if format not in FORMATS:
        raise ExternalFileError(f"{path}: unknown format {format!r}; known: {', '.join(FORMATS)}")
    unknown = [t for t in types if t not in TYPES[format]]
    if unknown:
        raise ExternalFileError(
            f"{path}: no {format} question type {unknown[0]!r}; known: {', '.join(TYPES[format])}"
        )
    if limit < 0:
        raise ExternalFileError(f"{path}: limit must be 0 (all) or more, got {limit}")
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ExternalFileError(f"cannot read {path}: {exc.strerror or exc}") from None
    digest = sha256_hex(raw)
    release = release_of(format, digest)
    if release is None and not allow_unknown:
        raise UnknownReleaseError(
            f"{path}: SHA-256 {digest} is not a known {format} release; check the file, or pass "
            "--allow-unknown-file to run it anyway (the report and the receipt then say so)"
        )
    size = len(raw)
    try:
        data = loads(raw, str(path))
    except DecodeError as exc:
        raise ExternalFileError(str(exc)) from None
    del raw
    source = Source(str(path))
    chosen = Selection(tuple(dict.fromkeys(types)), limit)
    users, questions, skipped = READERS[format](source, data, chosen)
    if not questions:
        raise source.fail(
            "$", "no question is left to ask (the file has none, or none of the types)"
        )
    return ExternalSuite(
        source=SourceFile(
            format=format,
            sha256=digest,
            bytes=size,
            release=release.name if release is not None else "",
            allow_unknown=allow_unknown,
        ),
        selection=chosen,
        users=tuple(users),
        questions=tuple(questions),
        skipped_sessions=skipped,
    )


__all__ = ["TYPES", "ExternalFileError", "UnknownReleaseError", "load_external"]
