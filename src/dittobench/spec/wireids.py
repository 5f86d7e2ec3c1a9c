"""The ids a harness is shown in one run, and the way back to the dataset's ids.

A dataset names its cases, pairs, sessions, subjects and users with ids anyone holding the seed
recomputes (``core.ids``), so a harness shown them could search for the seed and rebuild the answer
key. On the wire each of them is replaced by a keyed id, ``core.ids.wire_id(nonce, kind, id)``,
under the run's nonce: 32 random bytes the engine draws when a run starts, keeps in the run store
and writes into the transcript (``wire_nonce``, lowercase hex) once the run is graded, so anyone
recomputes the mapping afterwards. The dataset, the transcript's case records, the report and the
receipt's leaves keep the dataset's ids; only harness output that quotes an id it was shown (a
``delete_memory`` naming a pair) is mapped back, through ``WireIds.dataset_id``.

Users: the person under test and the isolation user are ``wire_id(nonce, "user", <dataset user
id>)``. Tool cases share a small pool of ``TOOL_USERS`` users, ``wire_id(nonce, "user", "tool:" +
<k>)``, where ``k`` is the case's wire id (its 16 hex digits as a number) modulo ``TOOL_USERS``:
never the person under test, so what a tool case saves never lands in that person's memory, and
few enough that a harness holding resources per user id is not given one per case. ``k`` is
read from the id the harness is shown, so it tells nothing the case id does not.

An empty nonce is the identity mapping: the wire ids are the dataset's (and a tool case has no
user), which is how every run was made before nonces and how a stored run without one resumes.
docs/determinism.md §4, docs/transcript.md.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from dittobench.core.errors import DittobenchError
from dittobench.core.ids import WIRE_NONCE_BYTES, wire_id
from dittobench.core.text import normalize
from dittobench.spec.dataset import Dataset
from dittobench.spec.wire import Link, Pair, SeedRequest, Subject

TOOL_USER_PREFIX = "tool:"
"""A tool case's user is named ``tool:<k>`` before it is keyed (dataset user ids have no colon,
so it is never one of theirs)."""
TOOL_USERS = 4
"""How many users the tool cases of a run share (a run shows at most this many tool users)."""

_NONCE = re.compile(rf"[0-9a-f]{{{2 * WIRE_NONCE_BYTES}}}", re.ASCII)


class WireIdError(DittobenchError, ValueError):
    """A nonce that is not 64 lowercase hex digits, or one under which two ids collide."""

    http_status = 400


def check_nonce(nonce: str, what: str = "wire_nonce") -> str:
    """``nonce`` when it is empty or 64 lowercase hex digits; ``WireIdError`` otherwise."""
    if nonce and not _NONCE.fullmatch(nonce):
        raise WireIdError(
            f"{what}: expected {2 * WIRE_NONCE_BYTES} lowercase hex digits or nothing"
        )
    return nonce


@dataclass(frozen=True, slots=True)
class WireIds:
    """One run's mapping between the dataset's ids and the ids its harness is shown."""

    nonce: str = ""
    """Lowercase hex (64 digits), or empty for the identity mapping."""
    _key: bytes = b""
    _back: dict[str, str] = field(default_factory=dict)
    """Each wire id of the dataset (normalised) -> its dataset id."""
    _hidden: frozenset[str] = frozenset()
    """The dataset's own ids (normalised), which a harness keyed by a nonce was never shown."""

    @classmethod
    def of(cls, dataset: Dataset, nonce: str) -> WireIds:
        """The mapping of ``dataset``'s ids under ``nonce`` (hex). ``WireIdError`` when the nonce
        is malformed or gives two of the dataset's ids one wire id (about one nonce in 10^8 for a
        full run; the engine then draws another)."""
        if not check_nonce(nonce):
            return cls()
        ids = cls(nonce, bytes.fromhex(nonce))
        back: dict[str, str] = {}
        for kind, dataset_id in _dataset_ids(dataset):
            shown = normalize(ids.wire(kind, dataset_id))
            if back.setdefault(shown, dataset_id) != dataset_id:
                raise WireIdError(f"two ids are shown as {shown} under this nonce")
        hidden = frozenset(normalize(i) for _, i in _dataset_ids(dataset)) - set(back)
        return cls(nonce, ids._key, back, hidden)

    def wire(self, kind: str, dataset_id: str) -> str:
        """The id shown for ``dataset_id`` of ``kind`` (``core.ids.WIRE_SHAPES``)."""
        return wire_id(self._key, kind, dataset_id) if self.nonce else dataset_id

    def case(self, case_id: str) -> str:
        return self.wire("case", case_id)

    def run_user(self, case_id: str, user_id: str) -> str:
        """``RunRequest.user_id`` for a case: its user's wire id, or for a tool case (no user in
        the dataset) one of the ``TOOL_USERS`` tool users, chosen by its wire case id; with no
        nonce, the dataset's (empty for a tool case)."""
        if not self.nonce:
            return user_id
        return self.wire("user", user_id or tool_user(self.case(case_id)))

    def seed_request(self, request: SeedRequest) -> SeedRequest:
        """A wave of the dataset as the harness is sent it: every id keyed, the texts as is."""
        if not self.nonce:
            return request
        return replace(
            request,
            user_id=self.wire("user", request.user_id),
            pairs=tuple(
                replace(
                    p,
                    pair_id=self.wire("pair", p.pair_id),
                    session_id=self.wire("session", p.session_id),
                )
                for p in request.pairs
            ),
            subjects=tuple(replace(s, id=self.wire("subject", s.id)) for s in request.subjects),
            links=tuple(
                Link(self.wire("subject", k.subject_id), self.wire("pair", k.pair_id))
                for k in request.links
            ),
        )

    def dataset_id(self, text: str) -> str:
        """What a harness meant by an id it quotes (a tool call's ``pair_id``, say): the dataset
        id when ``text`` is one of the run's wire ids (compared normalised, as the grader compares
        ids), ``""`` when it is a dataset id the harness was never shown (it can only have been
        computed from the seed), else ``text`` unchanged. The identity with no nonce."""
        if not self.nonce:
            return text
        key = normalize(text)
        found = self._back.get(key)
        if found is not None:
            return found
        return "" if key in self._hidden else text


def tool_user(wire_case_id: str) -> str:
    """The pool user (before keying) of the tool case shown as ``wire_case_id`` (``c`` + 16 hex
    digits): ``tool:<k>``, ``k`` = those digits as a number, modulo ``TOOL_USERS``."""
    return f"{TOOL_USER_PREFIX}{int(wire_case_id[1:], 16) % TOOL_USERS}"


def _dataset_ids(dataset: Dataset) -> list[tuple[str, str]]:
    """Every (kind, id) of the dataset a harness is shown a wire id for."""
    out = [("case", c.id) for c in dataset.tool_cases]
    out += [("case", c.id) for c in dataset.memory_cases]
    out += [("case", c.id) for c in dataset.open_cases]
    if dataset.tool_cases:
        out += [("user", f"{TOOL_USER_PREFIX}{k}") for k in range(TOOL_USERS)]
    out += [("user", c.user_id) for c in dataset.memory_cases if c.user_id]
    for wave in dataset.memory_waves:
        out.append(("user", wave.user_id))
        out += _wave_ids(wave.pairs, wave.subjects, wave.links)
    return list(dict.fromkeys(out))


def _wave_ids(
    pairs: tuple[Pair, ...], subjects: tuple[Subject, ...], links: tuple[Link, ...]
) -> list[tuple[str, str]]:
    out = [("pair", p.pair_id) for p in pairs] + [("session", p.session_id) for p in pairs]
    out += [("subject", s.id) for s in subjects]
    out += [("subject", k.subject_id) for k in links] + [("pair", k.pair_id) for k in links]
    return out


__all__ = [
    "TOOL_USERS",
    "TOOL_USER_PREFIX",
    "WireIdError",
    "WireIds",
    "check_nonce",
    "tool_user",
]
