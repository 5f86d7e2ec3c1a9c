"""An in-memory transport for the harness client that hands replies over as a socket would.

``httpx.Response(content=...)`` reads (and inflates) its body when it is made; the client reads
raw bytes from a stream (``engine.client.read_body``), so each reply is handed over as a fresh
stream of the bytes it was made with, still compressed when its headers say so.
"""

from __future__ import annotations

from collections.abc import Callable

import httpx


def streamed_transport(handler: Callable[[httpx.Request], httpx.Response]) -> httpx.MockTransport:
    def streamed(request: httpx.Request) -> httpx.Response:
        made = handler(request)
        return httpx.Response(made.status_code, headers=made.headers, stream=made.stream)

    return httpx.MockTransport(streamed)
