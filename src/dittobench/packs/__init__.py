"""Content packs: every word the generator and the engine put in front of a harness, as data.

A pack is a folder of JSON files, one per concern (``docs/packs.md``). ``load_pack`` reads and
checks one; ``public_pack`` returns a pack shipped in this package. A pack is identified by its
``pack_id`` and by ``pack_sha256``, the SHA-256 of the RFC 8785 bytes of its parsed files, so
formatting never changes the identity.
"""

from dittobench.packs.load import (
    DEFAULT_PACK_ID,
    PACK_FILES,
    PACK_FORMATS,
    PACK_ID_PATTERN,
    REPLIES_FORMAT,
    Pack,
    PackError,
    load_pack,
    own_pack,
    public_pack,
    public_pack_ids,
    shipped_pack,
)
from dittobench.packs.replies import Replies, RepliesError, format_replies

__all__ = [
    "DEFAULT_PACK_ID",
    "PACK_FILES",
    "PACK_FORMATS",
    "PACK_ID_PATTERN",
    "REPLIES_FORMAT",
    "Pack",
    "PackError",
    "Replies",
    "RepliesError",
    "format_replies",
    "load_pack",
    "own_pack",
    "public_pack",
    "public_pack_ids",
    "shipped_pack",
]
