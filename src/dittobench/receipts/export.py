"""Write a receipt's signed bytes, signature and public key as files for stock OpenSSL.

    python -m dittobench.receipts.export RECEIPT --manifest manifest.bin \\
        --signature sig.bin --public-key pub.pem
    openssl pkeyutl -verify -pubin -inkey pub.pem -rawin -in manifest.bin -sigfile sig.bin

``manifest.bin`` is exactly the bytes the signature covers (RFC 8785 of the receipt's
``manifest``), ``sig.bin`` the raw 64-byte signature, ``pub.pem`` the carried public key as
SubjectPublicKeyInfo PEM. Nothing is checked here: that is OpenSSL's job (or
``dittobench verify``). Exit 0 on success, 2 on unreadable input.
"""

from __future__ import annotations

import argparse
import base64
import binascii
import json
import os
import sys
from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from dittobench.core.canonical import CanonicalJSONError, canonical_bytes


class ExportError(ValueError):
    pass


def export(
    receipt: object,
    manifest_out: Path | None,
    signature_out: Path | None,
    public_key_out: Path | None,
) -> None:
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


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:  # one of them does not exist (yet): the same only if they resolve alike
        pass
    try:
        return a.resolve() == b.resolve()
    except (OSError, RuntimeError):  # a symlink loop: compare the paths as written
        return os.path.abspath(a) == os.path.abspath(b)


def _clash(receipt: Path, outputs: dict[str, Path | None]) -> str:
    """Why the outputs cannot be written: one is the receipt itself (it would be destroyed
    after being read) or two are one file; empty when they can."""
    given = [(option, path) for option, path in outputs.items() if path is not None]
    for index, (option, path) in enumerate(given):
        if _same_file(path, receipt):
            return f"{option} {path} is the receipt; writing it would destroy it"
        for other, other_path in given[index + 1 :]:
            if _same_file(path, other_path):
                return f"{option} and {other} are the same file ({path})"
    return ""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m dittobench.receipts.export",
        description="Write a receipt's signed manifest bytes, raw signature and public key PEM.",
    )
    parser.add_argument("receipt", type=Path, help="the receipt JSON file")
    parser.add_argument("--manifest", type=Path, help="write the signed manifest bytes here")
    parser.add_argument("--signature", type=Path, help="write the raw 64-byte signature here")
    parser.add_argument("--public-key", type=Path, help="write the carried public key PEM here")
    args = parser.parse_args(argv)
    clash = _clash(
        args.receipt,
        {
            "--manifest": args.manifest,
            "--signature": args.signature,
            "--public-key": args.public_key,
        },
    )
    if clash:
        print(f"error: {clash}", file=sys.stderr)
        return 2
    try:
        receipt = json.loads(args.receipt.read_bytes())
        export(receipt, args.manifest, args.signature, args.public_key)
    except OSError as exc:
        print(f"error: {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        print(f"error: {args.receipt}: not valid JSON ({exc})", file=sys.stderr)
        return 2
    except ExportError as exc:
        print(f"error: {args.receipt}: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
