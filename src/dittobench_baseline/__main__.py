"""``python -m dittobench_baseline --port N --db PATH``: serve the baseline harness."""

from __future__ import annotations

import argparse
import logging
import sys

from dittobench_baseline.server import serve


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m dittobench_baseline",
        description="The dittobench reference baseline harness (offline, no model).",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080, help="port; 0 picks a free one")
    parser.add_argument(
        "--db", default=":memory:", help="SQLite file for the memory store (default: in memory)"
    )
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    try:
        serve(args.host, args.port, args.db)
    except OSError as exc:
        print(f"cannot listen on {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
