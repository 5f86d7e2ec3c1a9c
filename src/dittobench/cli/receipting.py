"""The `keys generate`, `keys show`, `verify` and `receipt export` commands: make or show a
signing key, check a signed receipt, write its signed bytes, signature and public key for
OpenSSL."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer

from dittobench.cli.common import (
    AnyKeyOpt,
    KeysUrlOpt,
    TrustedKeysOpt,
    app,
    command_group,
    fail,
    open_pack_option,
)
from dittobench.cli.inputs import read_json
from dittobench.cli.signers import ANY_KEY_WORDS

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    from dittobench.packs import Pack
    from dittobench.receipts.keys import TrustedKey
    from dittobench.receipts.regrade import Regrade
    from dittobench.receipts.verify import Verification

keys_app = command_group("keys", "Ed25519 signing keys for receipts.")
_UTC_SECONDS = "%Y-%m-%dT%H:%M:%SZ"


@keys_app.command("generate")
def keys_generate(
    out: Annotated[
        Path,
        typer.Option("--out", help="Directory for the key pair.", file_okay=False),
    ] = Path("."),
) -> None:
    """Write a new Ed25519 key pair: dittobench-ed25519.pem (private, mode 0600) and
    dittobench-ed25519.pub.pem. Prints the key id and an entry for a trusted-keys file.

    Keep the private key: receipts are only as trustworthy as the key that signed them. An
    existing key is never overwritten.
    """
    from dittobench.receipts.keys import generate_private_key, save_keypair, trusted_entry

    key = generate_private_key()
    try:
        private_path, public_path = save_keypair(key, out)
    except FileExistsError as exc:
        raise fail(str(exc)) from None
    except OSError as exc:
        raise fail(f"cannot write into {out}: {exc.strerror}") from None
    entry = trusted_entry(key, datetime.now(UTC).strftime(_UTC_SECONDS))
    typer.echo(f"private key  {private_path} (mode 0600)")
    typer.echo(f"public key   {public_path}")
    typer.echo(f"key id       {entry.key_id}")
    typer.echo("trusted-keys entry:")
    typer.echo(json.dumps(entry.to_json(), indent=2))


@keys_app.command("show")
def keys_show(
    key: Annotated[
        Path | None,
        typer.Option(
            "--key",
            help="A private or public key PEM (default: this installation's own key).",
            dir_okay=False,
            show_default=False,
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object instead.")] = False,
) -> None:
    """Print a key's id and public key, and its trusted-keys entry: publish the entry (as
    {"keys": [ENTRY]}) so others can `dittobench verify --trusted-keys` the receipts it signs.
    Valid from the key file's last change. Exits 2 when there is no such key."""
    from dittobench.receipts.keys import b64encode, raw_public_key

    public, path = _shown_key(key)
    entry = _entry_for(public, path)
    document = {"keys": [entry.to_json()]}
    if as_json:
        shown = {"key_id": entry.key_id, "public_key": b64encode(raw_public_key(public))}
        typer.echo(json.dumps({**shown, "file": str(path), "trusted_keys": document}))
        return
    typer.echo(f"key file     {path}")
    typer.echo(f"key id       {entry.key_id}")
    typer.echo(f"public key   {b64encode(raw_public_key(public))}")
    typer.echo("trusted keys (for verify --trusted-keys):")
    typer.echo(json.dumps(document, separators=(",", ":")))


def _shown_key(given: Path | None) -> tuple[Ed25519PublicKey, Path]:
    """The public key ``--key`` names (a private or public PEM) or this installation's own."""
    from dittobench.cli.signers import own_key_folder
    from dittobench.receipts.keys import PUBLIC_KEY_NAME, KeyFileError, load_key_pem

    if given is None:
        folder = own_key_folder()
        if folder is None:
            raise fail("cannot find the home folder: set HOME or XDG_DATA_HOME, or pass --key")
        given = folder / PUBLIC_KEY_NAME
        if not given.is_file():
            raise fail(f"no key yet at {given}: `dittobench run` creates it, or pass --key")
    try:
        return load_key_pem(given), given
    except OSError as exc:
        raise fail(f"cannot read key {given}: {exc.strerror}") from None
    except KeyFileError as exc:
        raise fail(str(exc)) from None


def _entry_for(public: Ed25519PublicKey, path: Path) -> TrustedKey:
    from dittobench.receipts.keys import trusted_entry

    changed = datetime.fromtimestamp(int(path.stat().st_mtime), UTC)
    return trusted_entry(public, changed.strftime(_UTC_SECONDS))


RegradePackOpt = Annotated[
    Path | None,
    typer.Option(
        "--pack",
        help="With --regrade: the folder of the content pack the receipt names (its sha256 "
        "must be the manifest's pack_sha256); needed when that pack is not one this build "
        "ships. With --log: the folder of the revealed pack of the receipt's scoring window, "
        "checked against the window's commitment.",
        file_okay=False,
        show_default=False,
    ),
]
LogOpt = Annotated[
    str | None,
    typer.Option(
        "--log",
        metavar="URL|FILE",
        help="Check the transparency log: a service's base URL (its public /v1/log routes) or "
        "a file saved from GET /v1/log. The receipt's run_signed entry must be included under "
        "the signed tree head, every entry must hash to its root, times must never decrease "
        "and windows must hold.",
        show_default=False,
    ),
]
OldHeadOpt = Annotated[
    Path | None,
    typer.Option(
        "--old-head",
        help="With --log: a tree head you kept earlier (e.g. from --save-head); the log now "
        "must be consistent with it (a consistency proof: nothing before it changed).",
        dir_okay=False,
        show_default=False,
    ),
]
RejudgeOpt = Annotated[
    bool,
    typer.Option(
        "--rejudge",
        help="With --transcript and --judge-url: ask the judge again about the open questions, "
        "under the protocol the run was judged with, and report per rubric item how far its "
        "verdicts agree with the signed ones (the receipt is never changed).",
    ),
]
JudgeUrlOpt = Annotated[
    str | None,
    typer.Option(
        "--judge-url",
        help="With --rejudge: the OpenAI-compatible judge endpoint (ending before "
        "/chat/completions); its key, if any, from $DITTOBENCH_JUDGE_KEY.",
        show_default=False,
    ),
]
SaveHeadOpt = Annotated[
    Path | None,
    typer.Option(
        "--save-head",
        help="With --log: write the signed tree head checked here, to pass as --old-head later "
        "(not written when the log itself fails a check).",
        dir_okay=False,
        show_default=False,
    ),
]

ReceiptArg = Annotated[Path, typer.Argument(help="The receipt JSON file.", dir_okay=False)]
TranscriptOpt = Annotated[
    Path | None,
    typer.Option(
        "--transcript",
        help="The run's transcript: its hash and every response must match the leaves.",
        dir_okay=False,
    ),
]
ProofOpt = Annotated[
    str | None,
    typer.Option(
        "--proof",
        metavar="CASE_ID",
        help="Print and check one case's inclusion proof (its leaf, siblings, root).",
    ),
]
RegradeOpt = Annotated[
    bool,
    typer.Option(
        "--regrade",
        help="Also rebuild the dataset from the manifest, grade every case again (from "
        "--transcript when given, else from the leaves' responses) and compare every "
        "signed figure: dataset hash, each leaf, Merkle root, composite, stderr, means, "
        "dimensions.",
    ),
]


@app.command()
def verify(
    receipt: ReceiptArg,
    trusted_keys: TrustedKeysOpt = None,
    keys_url: KeysUrlOpt = None,
    any_key: AnyKeyOpt = False,
    transcript: TranscriptOpt = None,
    proof: ProofOpt = None,
    regrade: RegradeOpt = False,
    pack: RegradePackOpt = None,
    log: LogOpt = None,
    old_head: OldHeadOpt = None,
    save_head: SaveHeadOpt = None,
    rejudge: RejudgeOpt = False,
    judge_url: JudgeUrlOpt = None,
) -> None:
    """Check a signed receipt: every leaf hash, the Merkle root, the signature over the
    manifest bytes, and that a trusted key made it: one listed in --trusted-keys FILE, served
    at --keys-url URL (a service's GET /v1/keys), or this installation's own key. --any-key
    checks integrity only and says the signer was not checked.

    With --log, also check the transparency log: the receipt is included under a signed tree
    head, no entry was edited, removed or back-dated, the log extends a kept --old-head, and
    --pack is the receipt's window's revealed pack.

    A trusted key that signed wrong scores still verifies; --regrade re-derives them with this
    build's generator and grader and prints each figure that disagrees (field, the receipt's
    value, the recomputed one, and the case id for a leaf). The dataset is rebuilt from the
    content pack the receipt names: a pack this build ships, or the published folder given
    with --pack.

    A receipt of open questions also signs a nuance score: bound but judged (the verdicts are
    a judge's, bound in the leaves; --transcript ties them to its replies, --regrade recomputes
    what follows from them, --rejudge --judge-url URL asks the judge again and reports the
    agreement per item).

    Exits 0 only when every check holds (and the regrade agrees), 1 when any fails, 2 when a
    file cannot be read or the signer is not trusted.
    """
    from dittobench.cli.signers import require_trusted, trusted_signers
    from dittobench.receipts.verify import verify_receipt

    _check_options(pack is not None, regrade or rejudge, log is not None, old_head or save_head)
    _check_rejudge(rejudge, transcript is not None, judge_url)
    chosen_pack = open_pack_option(pack)
    receipt_data = _not_external(receipt, read_json(receipt, "receipt"))
    trusted = trusted_signers(trusted_keys, keys_url, any_key)
    require_trusted(_signer(receipt_data), trusted)
    transcript_data = read_json(transcript, "transcript") if transcript is not None else None
    result = verify_receipt(receipt_data, trusted, transcript_data, proof)
    _print_checks(result)
    _print_identity(transcript_data)
    log_failed = _log_failures(log, receipt_data, trusted, old_head, save_head, chosen_pack)
    regraded = _regrade(receipt_data, transcript_data, chosen_pack) if regrade else None
    rejudged = _rejudge(receipt_data, transcript_data, chosen_pack, judge_url) if rejudge else True
    _verdict(receipt, result, log_failed, regraded, rejudged, pinned=trusted is not None)


def _signer(receipt_data: Any) -> Any:
    """The key id a receipt names (None when it is not an object)."""
    return receipt_data.get("key_id") if isinstance(receipt_data, dict) else None


def _not_external(receipt: Path, data: Any) -> Any:
    """``data``, unless it is an external suite's receipt: exit 2 pointing at its verifier."""
    from dittobench.receipts.external import is_external_receipt

    if is_external_receipt(data):
        raise fail(f"{receipt} is an external suite's receipt: dittobench external verify it")
    return data


def _verdict(
    receipt: Path,
    result: Verification,
    log_failed: list[str],
    regraded: Regrade | None,
    rejudged: bool,
    pinned: bool,
) -> None:
    """Print the verdict; exit 1 unless every check, the regrade and the rejudge held."""
    if not result.ok or log_failed:
        names = ", ".join([*(c.name for c in result.failed), *log_failed])
        names += ", regrade" if regraded is not None and not regraded.ok else ""
        names += "" if rejudged else ", rejudge"
        typer.echo(f"verdict: NOT VERIFIED (failed: {names})")
        raise typer.Exit(1)
    if regraded is not None and not regraded.ok:
        _refuse_regrade(receipt, regraded)
    if not rejudged:
        typer.echo("verdict: NOT VERIFIED (signed, but it could not be judged again)")
        raise typer.Exit(1)
    typer.echo("verdict: VERIFIED" + ("" if pinned else _UNPINNED))


_UNPINNED = f" ({ANY_KEY_WORDS}; pass --trusted-keys or --keys-url to check who signed)"


def _check_options(pack: bool, regrade: bool, log: bool, heads: Path | None) -> None:
    if pack and not (regrade or log):
        raise fail(
            "--pack names the pack to regrade with (add --regrade or --rejudge) or to check "
            "against the receipt's window (add --log)"
        )
    if heads is not None and not log:
        raise fail("--old-head and --save-head need --log (the log to check)")


def _check_rejudge(rejudge: bool, transcript: bool, judge_url: str | None) -> None:
    if judge_url is not None and not rejudge:
        raise fail("--judge-url names the judge to ask again: add --rejudge")
    if rejudge and not (transcript and judge_url):
        raise fail(
            "--rejudge needs --transcript (the answers to judge again) and --judge-url (the judge)"
        )


def _rejudge(receipt_data: Any, transcript_data: Any, pack: Pack | None, url: str | None) -> bool:
    from dittobench.cli.rejudging import rejudge

    return rejudge(receipt_data, transcript_data, pack, url or "")


def _log_failures(
    log: str | None,
    receipt_data: Any,
    trusted: Any,
    old_head: Path | None,
    save_head: Path | None,
    pack: Pack | None,
) -> list[str]:
    """Check the log when asked (printing each check); the names of the checks that failed."""
    if log is None:
        return []
    from dittobench.cli.transparency import check_log, print_checks
    from dittobench.packs import PackError

    try:
        sha = pack.sha256 if pack is not None else ""
    except PackError as exc:
        raise fail(str(exc)) from None
    checks = check_log(log, receipt_data, trusted, old_head, save_head, sha)
    print_checks(checks)
    return [f"log: {c.name}" for c in checks if not c.ok]


def _print_checks(result: Verification) -> None:
    """One line per check, the key used, and the inclusion proof when one was asked for."""
    width = max(len(c.name) for c in result.checks)
    for check in result.checks:
        mark = "ok  " if check.ok else "FAIL"
        typer.echo(f"{mark}  {check.name:<{width}}  {check.detail}")
    typer.echo(f"key used: {result.key_used}")
    for line in _score_lines(result.manifest):
        typer.echo(line)
    if result.proof is not None:
        p = result.proof
        typer.echo(f"proof for {p.case_id}:")
        typer.echo(f"  leaf   {p.leaf_hash}")
        for side, sibling in p.steps:
            typer.echo(f"  {side:<6} {sibling}")
        typer.echo(f"  root   {p.root}")


def _print_identity(transcript_data: Any) -> None:
    """What the harness declared it measured, when the transcript says (bound by its hash)."""
    from dittobench.spec.identity import identity_of
    from dittobench.views.identity import DECLARED, identity_text

    identity = (
        identity_of({"identity": transcript_data.get("identity")})
        if isinstance(transcript_data, dict)
        else {}
    )
    if identity:
        typer.echo(f"measured: {identity_text(identity)} ({DECLARED}; bound by the transcript)")


def _score_lines(manifest: dict[str, Any]) -> list[str]:
    """How the signed scores stand (a receipt of open questions: which are recomputed by rules,
    which bound but judged); nothing for older formats or a manifest that does not parse."""
    from dittobench.receipts.manifest import Manifest, ManifestError
    from dittobench.receipts.nuance import score_lines

    try:
        return score_lines(Manifest.from_json(manifest))
    except ManifestError:
        return []


def _refuse_regrade(receipt: Path, regraded: Regrade) -> NoReturn:
    """The verdict for a receipt that is signed but fails its regrade, and the error (exit 1)."""
    from dittobench.receipts.regrade import RegradeError

    if regraded.disagreements:
        typer.echo("verdict: NOT VERIFIED (signed, but the regrade disagrees)")
        raise RegradeError(
            f"{receipt}: {len(regraded.disagreements)} signed figure(s) do not follow "
            "from the seed and the responses"
        )
    typer.echo("verdict: NOT VERIFIED (signed, but it could not be regraded)")
    raise RegradeError(f"{receipt}: {regraded.blocked}")


def _regrade(receipt_data: Any, transcript_data: Any | None, pack: Pack | None) -> Regrade:
    """Regrade the receipt and print what was found: each disagreement, then an ok or FAIL line."""
    from dittobench.receipts.regrade import regrade_receipt

    typer.echo("regrade:")
    regraded = regrade_receipt(receipt_data, transcript_data, pack)
    if regraded.pack_id:
        typer.echo(f"  pack {regraded.pack_id}: sha256 {regraded.pack_sha256}")
    if regraded.dataset_sha256:
        typer.echo(f"  dataset rebuilt from the manifest: sha256 {regraded.dataset_sha256}")
    width = max((len(d.field) for d in regraded.disagreements), default=0)
    for d in regraded.disagreements:
        where = f"  case {d.case_id}" if d.case_id else ""
        typer.echo(
            f"  DIFF  {d.field:<{width}}  receipt {d.receipt}  recomputed {d.recomputed}{where}"
        )
    if regraded.blocked:
        typer.echo(f"  FAIL  {regraded.blocked}")
    elif regraded.ok:
        typer.echo(
            f"  ok    {regraded.cases} cases regraded from the {regraded.source}: the dataset "
            "hash, every leaf, the Merkle root and every score agree with the receipt"
        )
        if regraded.nuance:
            typer.echo(f"  ok    {_NUANCE_REGRADED[regraded.nuance]}")
    else:
        typer.echo(f"  FAIL  {len(regraded.disagreements)} figure(s) disagree")
    return regraded


_NUANCE_REGRADED = {
    "recomputed": "nuance recomputed from the judge's replies in the transcript: every open "
    "leaf's verdicts and rubric score and the nuance score agree (the verdicts are the judge's)",
    "rules": "nuance: the signed verdicts are bound but judged (the leaves carry the replies' "
    "hashes, not the replies); every rubric score and the nuance score recomputed from them by "
    "rules agree; add --transcript to recompute the verdicts from the replies",
    "unjudged": "nuance: unjudged, as signed; no verdicts to recompute",
}

receipt_app = command_group(
    "receipt", "A signed receipt's parts as files, for checking with other tools."
)


@receipt_app.command("export")
def receipt_export(
    receipt: Annotated[Path, typer.Argument(help="The receipt JSON file.")],
    manifest: Annotated[
        Path | None, typer.Option("--manifest", help="Write the signed manifest bytes here.")
    ] = None,
    signature: Annotated[
        Path | None, typer.Option("--signature", help="Write the raw 64-byte signature here.")
    ] = None,
    public_key: Annotated[
        Path | None,
        typer.Option("--public-key", help="Write the carried public key PEM here."),
    ] = None,
) -> None:
    """Write a receipt's signed manifest bytes, raw signature and public key PEM, so stock
    OpenSSL can check the signature:

    \b
    openssl pkeyutl -verify -pubin -inkey pub.pem -rawin -in manifest.bin -sigfile sig.bin

    Nothing is checked here. Exits 2, writing nothing, when an output is the receipt itself or
    two outputs are one file; 2 when the receipt cannot be read or lacks a part asked for.
    """
    from dittobench.receipts.export import ExportError, export

    clash = _output_clash(
        receipt, {"--manifest": manifest, "--signature": signature, "--public-key": public_key}
    )
    if clash:
        raise fail(clash)
    try:
        export(read_json(receipt, "receipt"), manifest, signature, public_key)
    except OSError as exc:
        raise fail(f"{exc.filename}: {exc.strerror}") from None
    except ExportError as exc:
        raise fail(f"{receipt}: {exc}") from None


def _output_clash(receipt: Path, outputs: dict[str, Path | None]) -> str:
    """Why the outputs cannot be written: one is the receipt itself (it would be destroyed
    after being read) or two are one file; empty when they can."""
    from dittobench.cli.inputs import same_file

    given = [(option, path) for option, path in outputs.items() if path is not None]
    for index, (option, path) in enumerate(given):
        if same_file(path, receipt):
            return f"{option} {path} is the receipt; writing it would destroy it"
        for other, other_path in given[index + 1 :]:
            if same_file(path, other_path):
                return f"{option} and {other} are the same file ({path})"
    return ""
