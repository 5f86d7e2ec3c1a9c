"""A harness that answers every /run after exactly N ms (asyncio, so waits overlap freely).

Used by engine_speed.py to measure how close the engine gets to the ideal wall time.
    python benchmarks/sleepy_harness.py --delay-ms 100   # prints "PORT <n>"
"""

from __future__ import annotations

import argparse
import asyncio
import socket

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--delay-ms", type=int, default=100)
    delay = parser.parse_args().delay_ms / 1000

    async def health(request: Request) -> JSONResponse:
        return JSONResponse({"status": "ok"})

    async def seed(request: Request) -> JSONResponse:
        await request.body()
        return JSONResponse({"pairs": 0, "subjects": 0, "links": 0})

    async def run(request: Request) -> JSONResponse:
        await request.body()
        await asyncio.sleep(delay)
        return JSONResponse({"final_text": "ok"})

    app = Starlette(
        routes=[
            Route("/health", health),
            Route("/seed", seed, methods=["POST"]),
            Route("/run", run, methods=["POST"]),
        ]
    )
    sock = socket.socket()
    # Accepted connections inherit this: replies go out without waiting for delayed ACKs.
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    print(f"PORT {sock.getsockname()[1]}", flush=True)
    config = uvicorn.Config(app, log_level="warning", access_log=False, lifespan="off")
    uvicorn.Server(config).run(sockets=[sock])


if __name__ == "__main__":
    main()
