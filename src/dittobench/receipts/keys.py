"""Ed25519 signing keys and the trusted-keys file (docs/receipts.md, "Keys").

- key id: the first 16 hex digits of SHA-256 over the raw 32-byte public key;
- files: the private key as unencrypted PKCS#8 PEM, mode 0600; the public key as
  SubjectPublicKeyInfo PEM (what ``openssl pkeyutl -pubin`` reads);
- trusted keys: ``{"keys": [{"key_id", "public_key" (base64 of the raw 32 bytes),
  "valid_from", "valid_until"}]}``, the times RFC 3339 (``valid_until`` may be null). A key is good
  for receipts whose ``created_at`` is at or after ``valid_from`` and before ``valid_until``.
  Rotation adds an entry and closes the old one's window; revocation removes the entry.

File access happens only on paths the caller passes in.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final

from cryptography.exceptions import UnsupportedAlgorithm
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from dittobench.core.errors import DittobenchError
from dittobench.core.private_files import create_private_file, make_private_dirs
from dittobench.receipts.manifest import ManifestError, parse_rfc3339

PRIVATE_KEY_NAME: Final = "dittobench-ed25519.pem"
PUBLIC_KEY_NAME: Final = "dittobench-ed25519.pub.pem"


class KeyFileError(DittobenchError, ValueError):
    """A key or trusted-keys file that cannot be used; the message says why."""


def generate_private_key() -> Ed25519PrivateKey:
    return Ed25519PrivateKey.generate()


def raw_public_key(key: Ed25519PublicKey | Ed25519PrivateKey) -> bytes:
    """The raw 32-byte public key (of a private key: its public half)."""
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def key_id(key: Ed25519PublicKey | Ed25519PrivateKey | bytes) -> str:
    """First 16 hex digits of SHA-256 over the raw 32-byte public key."""
    raw = key if isinstance(key, bytes) else raw_public_key(key)
    return hashlib.sha256(raw).hexdigest()[:16]


def public_key_from_raw(raw: bytes) -> Ed25519PublicKey:
    if len(raw) != 32:
        raise KeyFileError(f"an Ed25519 public key is 32 bytes, got {len(raw)}")
    return Ed25519PublicKey.from_public_bytes(raw)


def b64encode(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def b64decode_strict(text: Any, what: str) -> bytes:
    """Standard base64 with padding, canonical only: any other spelling of the same bytes
    (stray padding bits, whitespace, URL-safe letters) is rejected."""
    if not isinstance(text, str):
        raise KeyFileError(f"{what}: expected a base64 string")
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError):
        raise KeyFileError(f"{what}: not valid base64") from None
    if base64.b64encode(data).decode("ascii") != text:
        raise KeyFileError(f"{what}: not canonical base64")
    return data


def private_pem(key: Ed25519PrivateKey) -> bytes:
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )


def public_pem(key: Ed25519PublicKey | Ed25519PrivateKey) -> bytes:
    public = key.public_key() if isinstance(key, Ed25519PrivateKey) else key
    return public.public_bytes(
        serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
    )


def save_keypair(key: Ed25519PrivateKey, directory: Path) -> tuple[Path, Path]:
    """Write ``dittobench-ed25519.pem`` (mode 0600) and ``dittobench-ed25519.pub.pem`` into
    ``directory``, creating it and any missing parents with mode 0700 whatever the umask.
    Refuses (``FileExistsError``) to overwrite an existing key or to write through a symlink,
    even a dangling one planted where a key file goes."""
    private_path = directory / PRIVATE_KEY_NAME
    public_path = directory / PUBLIC_KEY_NAME
    for path in (private_path, public_path):
        if path.is_symlink():
            raise FileExistsError(f"{path} is a symlink; not writing a key through it")
        if path.exists():
            raise FileExistsError(f"{path} already exists; not overwriting a key")
    make_private_dirs(directory)
    create_private_file(private_path, private_pem(key))
    try:
        # Exclusive and no-follow like the private key, so nothing planted between the check
        # above and here is written through; the public half may be world-readable.
        create_private_file(public_path, public_pem(key), mode=0o644)
    except BaseException:
        private_path.unlink()  # never leave half a pair that blocks the next attempt
        raise
    return private_path, public_path


def load_private_key(path: Path) -> Ed25519PrivateKey:
    try:
        key = serialization.load_pem_private_key(path.read_bytes(), password=None)
    except (ValueError, TypeError, UnsupportedAlgorithm) as exc:
        raise KeyFileError(f"{path}: not an unencrypted PEM private key ({exc})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise KeyFileError(f"{path}: not an Ed25519 private key")
    return key


def load_public_key(path: Path) -> Ed25519PublicKey:
    try:
        key = serialization.load_pem_public_key(path.read_bytes())
    except (ValueError, UnsupportedAlgorithm) as exc:
        raise KeyFileError(f"{path}: not a PEM public key ({exc})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise KeyFileError(f"{path}: not an Ed25519 public key")
    return key


def load_key_pem(path: Path) -> Ed25519PublicKey:
    """The public key of a PEM file holding either half of a pair (only the public half of a
    private key is used)."""
    if b"PRIVATE KEY" in path.read_bytes()[:64]:
        return load_private_key(path).public_key()
    return load_public_key(path)


FROM_FILE: Final = "from the trusted-keys file"
"""A trusted key's ``origin`` when it was read from a trusted-keys file."""


@dataclass(frozen=True, slots=True)
class TrustedKey:
    key_id: str
    public_key: bytes
    """Raw 32 bytes."""
    valid_from: str
    valid_until: str | None = None
    origin: str = field(default=FROM_FILE, compare=False)
    """Where the key came from, in words, for the ``key used:`` line (never serialised)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "key_id": self.key_id,
            "public_key": b64encode(self.public_key),
            "valid_from": self.valid_from,
            "valid_until": self.valid_until,
        }

    def window_problem(self, moment: datetime) -> str:
        """Empty when ``moment`` is inside [valid_from, valid_until), else what is wrong."""
        start = parse_rfc3339(self.valid_from)
        if moment < start:
            return f"key {self.key_id} is valid only from {self.valid_from}"
        if self.valid_until is not None and moment >= parse_rfc3339(self.valid_until):
            return f"key {self.key_id} expired at {self.valid_until}"
        return ""


@dataclass(frozen=True, slots=True)
class TrustedKeys:
    keys: tuple[TrustedKey, ...] = ()

    def lookup(self, wanted: str) -> TrustedKey | None:
        for key in self.keys:
            if key.key_id == wanted:
                return key
        return None

    def to_json(self) -> dict[str, Any]:
        return {"keys": [k.to_json() for k in self.keys]}

    @classmethod
    def from_json(cls, data: Any) -> TrustedKeys:
        """Parse a trusted-keys object; ``KeyFileError`` names the bad entry. Each entry's key id
        must be the id of its own public key."""
        if not isinstance(data, dict) or not isinstance(data.get("keys"), list):
            raise KeyFileError('trusted keys: expected {"keys": [...]}')
        out: list[TrustedKey] = []
        for index, entry in enumerate(data["keys"]):
            where = f"trusted keys: keys[{index}]"
            if not isinstance(entry, dict):
                raise KeyFileError(f"{where}: expected an object")
            kid, until = entry.get("key_id"), entry.get("valid_until")
            if not isinstance(kid, str):
                raise KeyFileError(f"{where}.key_id: expected a string")
            raw = b64decode_strict(entry.get("public_key"), f"{where}.public_key")
            if len(raw) != 32:
                raise KeyFileError(f"{where}.public_key: expected 32 raw bytes, got {len(raw)}")
            if key_id(raw) != kid:
                raise KeyFileError(f"{where}: key_id {kid!r} is not the id of its public key")
            try:
                parse_rfc3339(entry.get("valid_from"), f"{where}.valid_from")
                if until is not None:
                    parse_rfc3339(until, f"{where}.valid_until")
            except ManifestError as exc:
                raise KeyFileError(str(exc)) from None
            if any(k.key_id == kid for k in out):
                raise KeyFileError(f"{where}: key id {kid} appears twice")
            out.append(TrustedKey(kid, raw, entry["valid_from"], until))
        return cls(tuple(out))


def trusted_entry(
    key: Ed25519PublicKey | Ed25519PrivateKey, valid_from: str, valid_until: str | None = None
) -> TrustedKey:
    """The trusted-keys entry for a key (printed by ``dittobench keys generate``)."""
    raw = raw_public_key(key)
    return TrustedKey(key_id(raw), raw, valid_from, valid_until)
