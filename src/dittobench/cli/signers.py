"""Whose signature `verify`, `external verify` and `verify-suite` accept (docs/receipts.md,
"Who signed").

A receipt verifies only when its signer is trusted: listed in ``--trusted-keys FILE`` (or the
key of that file, when it is a key's PEM), served at
``--keys-url URL`` (a service's ``GET /v1/keys``), or this installation's own key (the one
``dittobench run`` signs with, so a user's own runs verify with no option). ``--any-key`` checks
integrity only and says so. A signer that is not trusted exits 2 naming its key id and the fix.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from dittobench.cli.common import fail
from dittobench.cli.inputs import read_trusted_keys

if TYPE_CHECKING:
    from dittobench.receipts.keys import TrustedKey, TrustedKeys

KEYS_FETCH_TIMEOUT_S: Final = 10.0
KEYS_MAX_BYTES: Final = 1024 * 1024
"""The largest trusted-keys document ``--keys-url`` reads."""
KEYS_PATH: Final = "/v1/keys"
OWN_KEY_FROM: Final = "1970-01-01T00:00:00Z"
"""This installation's own key, or one named by its PEM file, is trusted for every receipt it
signed, whenever."""
ANY_KEY_WORDS: Final = "integrity only: the signer was NOT checked (--any-key)"
HOW_TO_TRUST: Final = (
    "pass --trusted-keys FILE or --keys-url URL listing it (a service serves its keys at "
    "/v1/keys), or --any-key to check integrity only"
)


def trusted_signers(
    trusted_keys: Path | None, keys_url: str | None, any_key: bool
) -> TrustedKeys | None:
    """The keys a signer must be among: the file's, the URL's and this installation's own;
    ``None`` with ``--any-key`` (no signer is checked). Exit 2 when a file or URL fails."""
    from dittobench.receipts.keys import TrustedKeys

    if any_key:
        if trusted_keys is not None or keys_url is not None:
            raise fail("--any-key checks no signer: drop --trusted-keys and --keys-url")
        return None
    found = listed_keys(trusted_keys)
    if keys_url is not None:
        found += fetch_trusted_keys(keys_url).keys
    own = own_trusted_key()
    if own is not None:
        found.append(own)
    unique: dict[str, TrustedKey] = {}
    for key in found:
        unique.setdefault(key.key_id, key)  # the first listing of a key wins
    return TrustedKeys(tuple(unique.values()))


def listed_keys(path: Path | None) -> list[TrustedKey]:
    """The keys ``--trusted-keys`` names: a trusted-keys document's, or the key of a PEM file
    (public or private: only its public half is read), trusted like this installation's own
    for every receipt it signed. Exit 2 when the file fails."""
    from dittobench.receipts.keys import KeyFileError, load_key_pem, trusted_entry

    if path is None:
        return []
    try:
        with path.open("rb") as head:
            pem = head.read(16).startswith(b"-----BEGIN")
    except OSError:
        pem = False  # read_trusted_keys says what is wrong with it
    if not pem:
        listed = read_trusted_keys(path)
        return list(listed.keys) if listed is not None else []
    try:
        key = trusted_entry(load_key_pem(path), OWN_KEY_FROM)
    except (OSError, KeyFileError) as exc:
        raise fail(f"--trusted-keys: {exc}") from None
    return [replace(key, origin=f"the key in {path} (--trusted-keys)")]


def require_trusted(signer: Any, trusted: TrustedKeys | None, what: str = "receipt") -> None:
    """Exit 2 with one line when ``signer`` (the key id a receipt names) is not trusted; a
    malformed key id is left to the checks, which fail it."""
    if trusted is None or not isinstance(signer, str) or trusted.lookup(signer) is not None:
        return
    raise fail(f"{what} signed by key {signer[:40]}, which is not trusted: {HOW_TO_TRUST}")


def keys_endpoint(url: str) -> str:
    """The URL to fetch: as given, or ``/v1/keys`` under a service's bare base URL."""
    import httpx

    try:
        parsed = httpx.URL(url)
    except (httpx.InvalidURL, ValueError, TypeError):
        raise fail(f"--keys-url {url!r:.80}: not a URL") from None
    if parsed.scheme not in ("http", "https") or not parsed.host:
        raise fail(f"--keys-url {url!r:.80}: expected an http:// or https:// URL")
    if parsed.path in ("", "/"):
        return str(parsed.copy_with(path=KEYS_PATH))
    return url


def fetch_trusted_keys(url: str) -> TrustedKeys:
    """The trusted keys a service serves at ``url``; exit 2 naming the URL when the fetch or the
    document fails (a timeout, a status other than 200, more than ``KEYS_MAX_BYTES``)."""
    import httpx

    from dittobench.receipts.keys import TrustedKeys

    target = keys_endpoint(url)
    origin = f"served at {target} (--keys-url)"
    try:
        body = _fetch_capped(target)
    except httpx.HTTPError as exc:
        raise fail(f"--keys-url {target}: cannot fetch the keys ({type(exc).__name__})") from None
    if isinstance(body, str):
        raise fail(f"--keys-url {target}: {body}")
    try:
        served = TrustedKeys.from_json(json.loads(body))
    except (ValueError, RecursionError) as exc:
        raise fail(f"--keys-url {target}: not a trusted-keys document ({exc})") from None
    return TrustedKeys(tuple(replace(k, origin=origin) for k in served.keys))


def _fetch_capped(url: str) -> bytes | str:
    """The body at ``url``, or what is wrong with the answer, in words."""
    import httpx

    with httpx.stream("GET", url, timeout=KEYS_FETCH_TIMEOUT_S, follow_redirects=True) as answer:
        if answer.status_code != 200:
            return f"answered HTTP {answer.status_code}"
        body = bytearray()
        for chunk in answer.iter_bytes():
            body += chunk
            if len(body) > KEYS_MAX_BYTES:
                return f"more than {KEYS_MAX_BYTES} bytes: not a trusted-keys document"
        return bytes(body)


def own_key_folder() -> Path | None:
    """This installation's key folder (``keys/`` in the user's data folder, where
    ``dittobench run`` keeps its key without ``--db``); None when no home folder is known."""
    xdg = os.environ.get("XDG_DATA_HOME", "")
    if xdg and Path(xdg).is_absolute():
        return Path(xdg) / "dittobench" / "keys"
    home = os.environ.get("HOME")
    if home is not None and not Path(home).is_absolute():
        return None
    try:
        return Path.home() / ".local" / "share" / "dittobench" / "keys"
    except RuntimeError:
        return None


def own_trusted_key() -> TrustedKey | None:
    """This installation's own key as a trusted key, when it has one (none is created here)."""
    from dittobench.receipts.keys import (
        PUBLIC_KEY_NAME,
        KeyFileError,
        load_public_key,
        trusted_entry,
    )

    folder = own_key_folder()
    if folder is None:
        return None
    try:
        own = trusted_entry(load_public_key(folder / PUBLIC_KEY_NAME), OWN_KEY_FROM)
    except (OSError, KeyFileError):
        return None
    return replace(own, origin=f"this installation's own key, in {folder}")


__all__ = [
    "ANY_KEY_WORDS",
    "HOW_TO_TRUST",
    "fetch_trusted_keys",
    "keys_endpoint",
    "listed_keys",
    "own_key_folder",
    "own_trusted_key",
    "require_trusted",
    "trusted_signers",
]
