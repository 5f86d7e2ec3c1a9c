"""The ``dittobench`` command line (``cli.app``).

httpx imports its own command-line client (click, rich and pygments) whenever they are installed,
as uvicorn and typer make them: about 70 ms of every command that reaches a harness or a service,
and never used here. The command line declines it before anything imports httpx, so ``import
httpx`` loads the client library alone (``benchmarks/cli_startup.py``).
"""

import sys

sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
