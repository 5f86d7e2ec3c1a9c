"""Print the transparency log's figures: appending entries to a SQLite store, and, over logs of
1,000, 10,000 and 100,000 entries, a signed tree head, an inclusion proof, a consistency proof
(each as the service computes it: every entry read from the store and hashed) and a full audit
of the log as ``dittobench verify --log FILE`` makes it.

Figures only, never assertions. Run from the repository root:
    python benchmarks/transparency_log.py [--sizes 1000,10000,100000]
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from dittobench.receipts.keys import TrustedKeys, trusted_entry
from dittobench.receipts.logaudit import LogEvidence, audit_log
from dittobench.receipts.logentries import entry_bytes, run_signed
from dittobench.service.windows import consistency, inclusion, tree_head
from dittobench.store.jobs import ServiceStore

RECEIPT = {"manifest": {"scores": {"composite": "0.412345"}, "seed_source": "operator"}}
T0 = "2026-12-01T00:00:00Z"


def timed(label: str, work: object) -> float:
    start = time.perf_counter()
    work()  # type: ignore[operator]
    took = time.perf_counter() - start
    print(f"  {label:<44} {took * 1000:10.1f} ms")
    return took


def fill(store: ServiceStore, count: int) -> None:
    have = store.log_size()
    for index in range(have, count):
        run = f"r-20261201-000000-{index:06x}"
        store.append_log(lambda at, r=run: entry_bytes(run_signed("", r, RECEIPT, at)), T0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", default="1000,10000,100000")
    sizes = [int(s) for s in parser.parse_args().sizes.split(",")]
    key = Ed25519PrivateKey.generate()
    trusted = TrustedKeys((trusted_entry(key, "2000-01-01T00:00:00Z"),))
    with tempfile.TemporaryDirectory() as folder:
        store = ServiceStore(ServiceStore.sqlite_url(Path(folder) / "runs.db"))
        first = sizes[0]
        took = timed(f"append {first} entries (one transaction each)", lambda: fill(store, first))
        print(f"  {'':<44} {took / first * 1000:10.3f} ms an entry")
        for size in sizes:
            fill(store, size)
            print(f"log of {size} entries:")
            timed("signed tree head", lambda: tree_head(store, key))
            timed("inclusion proof (entry size // 3)", lambda s=size: inclusion(store, s // 3, s))
            timed(
                "consistency proof (size // 2 to size)",
                lambda s=size: consistency(store, s // 2, s),
            )
            head = tree_head(store, key)
            entries = [json.loads(e) for e in store.log_entries(0, size)]
            evidence = LogEvidence(head, entries)
            timed(
                "audit of every entry (verify --log FILE)", lambda e=evidence: audit_log(e, trusted)
            )
        store.close()


if __name__ == "__main__":
    main()
