"""Write a receipt's signed bytes, signature and public key as files for stock OpenSSL.

``export`` writes ``manifest.bin``, exactly the bytes the signature covers (RFC 8785 of the
receipt's ``manifest``), ``sig.bin``, the raw 64-byte signature, and ``pub.pem``, the carried
public key as SubjectPublicKeyInfo PEM, for::

    openssl pkeyutl -verify -pubin -inkey pub.pem -rawin -in manifest.bin -sigfile sig.bin

Nothing is checked here: that is OpenSSL's job (or ``dittobench verify``). The command line is
``dittobench receipt export`` (``cli/receipting.py``).
"""

from __future__ import annotations

import base64
import binascii
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from dittobench.core.canonical import CanonicalJSONError, canonical_bytes
from dittobench.core.errors import DittobenchError


class ExportError(DittobenchError, ValueError):
    """The receipt lacks what an output needs (a manifest object, base64 fields, an Ed25519
    key); the message names the field."""

    http_status = 400


def export(
    receipt: object,
    manifest_out: Path | None,
    signature_out: Path | None,
    public_key_out: Path | None,
) -> None:
    """Write each output that is given (``None`` skips it). ``ExportError`` when the receipt
    cannot give one; ``OSError`` when a file cannot be written."""
    if not isinstance(receipt, dict):
        raise ExportError("a receipt is a JSON object")
    if manifest_out is not None:
        manifest = receipt.get("manifest")
        if not isinstance(manifest, dict):
            raise ExportError("the receipt has no manifest object")
        try:
            manifest_out.write_bytes(canonical_bytes(manifest))
        except CanonicalJSONError as exc:
            raise ExportError(f"the manifest has no canonical form: {exc}") from None
    if signature_out is not None:
        signature_out.write_bytes(_b64(receipt.get("signature"), "signature"))
    if public_key_out is not None:
        raw = _b64(receipt.get("public_key"), "public_key")
        try:
            key = Ed25519PublicKey.from_public_bytes(raw)
        except ValueError as exc:
            raise ExportError(f"public_key: not an Ed25519 public key ({exc})") from None
        public_key_out.write_bytes(
            key.public_bytes(
                serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
            )
        )


def _b64(value: object, name: str) -> bytes:
    if not isinstance(value, str):
        raise ExportError(f"{name}: expected a base64 string")
    try:
        return base64.b64decode(value, validate=True)
    except binascii.Error:
        raise ExportError(f"{name}: not valid base64") from None


if __name__ == "__main__":  # the command moved into the dittobench command line
    import sys

    sys.stderr.write("error: use `dittobench receipt export RECEIPT` instead\n")
    sys.exit(2)
