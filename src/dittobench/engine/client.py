"""The harness client: health, seeding and one ``POST /run`` per case, over HTTP.

Every request carries ``Content-Length`` (bodies are sent as bytes). ``run`` never raises for a
harness fault: timeouts, resets, 5xx, 429, malformed or oversized bodies come back as an
``Execution`` naming what happened (an error status with the start of its body), with no
response to grade. Connection errors, 429 and 5xx are retried with back-off inside the case's
deadline, and only while the tool endpoint has seen no call for the case; other failures are
not. The deadline is kept on a clock that leaves out the engine's own stalls (``stalls``), so a
case is never given up because the engine's process could not run. Bodies are read raw and
inflated here within their limit, and no connection is reused (a harness that writes more than
one reply per request cannot shift replies onto other cases). The transport is injectable so
tests can drive an in-process app.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket
import time
import zlib
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, replace
from typing import Any

import httpx

from dittobench.core.canonical import canonical_bytes
from dittobench.core.errors import DittobenchError
from dittobench.engine.stalls import StallWatch
from dittobench.spec import repair
from dittobench.spec.codec import DecodeError, loads
from dittobench.spec.transcript import Attempt, Execution
from dittobench.spec.vocab import AttemptOutcome
from dittobench.spec.wire import (
    RunRequest,
    RunResponse,
    SeedPart,
    SeedRequest,
    SeedResponse,
    seed_part_wire,
    to_wire,
)


@dataclass(frozen=True, slots=True)
class ClientLimits:
    health_wait_s: float = 180.0
    health_interval_s: float = 1.0
    probe_timeout_s: float = 10.0
    seed_timeout_s: float = 300.0
    run_deadline_s: float = 120.0
    attempts: int = 3
    backoff_s: tuple[float, ...] = (0.25, 0.75)
    max_response_bytes: int = 4 * 1024 * 1024
    max_answer_chars: int = 65_536
    """The longest ``final_text`` or ``answer`` taken; a longer one makes the reply
    ``too_large``. Grading reads every character of an answer, so this bounds what a harness
    can make grading cost (about 0.1 s of CPU for an answer this long, where a 4 MiB one took
    3 s); an answer of ten thousand words is no memory's honest reply."""


OVERALL_SLACK_S = 0.5
"""How far past a request's own timeout its overall deadline lies: a reply that drips a byte
at a time resets every per-read timeout, so only the overall deadline ends it."""
SEED_REPLY_BYTES = 1024 * 1024
"""The most of a ``/seed`` reply read; its counts are informative only."""
ERROR_BODY_BYTES = 4 * 1024
ERROR_BODY_WAIT_S = 1.0
"""The most of a failed ``/run`` reply's body read for its attempt's ``detail``, and how long
the engine waits for it (a body that drips cannot spend the case's deadline)."""


class HarnessError(DittobenchError, RuntimeError):
    """The harness cannot be used for this run (never healthy, or seeding failed).
    ``retryable`` is True when the same request may succeed later: a connection error, 429 or a
    5xx (a busy or restarting harness), not a 4xx or a reply that never completed.
    ``unreachable`` is True when no reply came at all (the harness may have restarted)."""

    exit_code = 1  # the run failed; its input was fine
    http_status = 502

    def __init__(self, message: str, *, retryable: bool = False, unreachable: bool = False) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.unreachable = unreachable


ERROR_EXCERPT_CHARS = 300


def excerpt(content: bytes, limit: int = ERROR_EXCERPT_CHARS) -> str:
    """The start of an error body for a message: whole lines up to ``limit`` characters (a
    single longer line is cut at a word), never a path or word cut in two."""
    text = content.decode("utf-8", "replace").strip()
    if len(text) <= limit:
        return " ".join(text.split())
    kept: list[str] = []
    for line in text.splitlines():
        if sum(len(k) + 1 for k in kept) + len(line) > limit:
            break
        kept.append(line.strip())
    if not kept:
        head = text[:limit]
        kept = [head.rsplit(None, 1)[0] if " " in head else head]
    return " ".join(" ".join(kept).split()) + " …"


IDENTITY = {"accept-encoding": "identity"}
"""Sent with every request: a harness need not compress, and most servers will not."""
JSON_BODY = {"content-type": "application/json"}
NO_TIMEOUT = {"timeout": httpx.Timeout(None).as_dict()}
"""A ``/run`` attempt's httpx timeouts: none, its deadline is the case's (``_by``)."""
INFLATED = ("gzip", "x-gzip", "deflate")


class BodyTooLarge(DittobenchError):
    """A body past its limit, raw or once inflated."""

    http_status = 502


class BodyUnreadable(DittobenchError):
    """A body in an encoding the engine does not read, or one that does not inflate."""

    http_status = 502


async def read_body(reply: httpx.Response, limit: int) -> bytes:
    """The body of a streamed reply, at most ``limit`` bytes raw and inflated. httpx would
    inflate each chunk in full before any limit could be checked (2 KB of gzip inside gzip is
    gigabytes), so the raw bytes are read and one gzip or deflate layer is inflated here."""
    raw = bytearray()
    async for chunk in reply.aiter_raw():
        raw += chunk
        if len(raw) > limit:
            raise BodyTooLarge
    return inflate(bytes(raw), reply.headers.get("content-encoding", ""), limit)


def inflate(raw: bytes, encoding: str, limit: int, *, cut: bool = False) -> bytes:
    """``raw`` decoded by its ``Content-Encoding`` (identity, or one layer of gzip or deflate)
    into at most ``limit`` bytes; ``BodyTooLarge`` past it (with ``cut``, its first ``limit``
    bytes instead), ``BodyUnreadable`` otherwise."""
    layers = [e.strip().lower() for e in encoding.split(",")]
    layers = [e for e in layers if e and e != "identity"]
    if not layers:
        return raw
    if len(layers) > 1 or layers[0] not in INFLATED:
        raise BodyUnreadable(f"content-encoding {encoding.strip()[:60]!r} is not read")
    # gzip (31), else zlib-wrapped deflate (15), else raw deflate (-15), as browsers accept it
    for wbits in (31,) if layers[0] != "deflate" else (15, -15):
        inflater = zlib.decompressobj(wbits)
        try:
            body = inflater.decompress(raw, limit + 1)
        except zlib.error as exc:
            failure = str(exc)
            continue
        if len(body) > limit or inflater.unconsumed_tail:
            if cut:
                return body[:limit]
            raise BodyTooLarge
        return body
    raise BodyUnreadable(f"a {layers[0]} body that does not inflate ({failure})")


class _Failure(Exception):
    def __init__(
        self, outcome: AttemptOutcome, status: int = 0, retry: bool = False, detail: str = ""
    ) -> None:
        super().__init__(outcome)
        self.outcome, self.status, self.retry, self.detail = outcome, status, retry, detail


class HarnessClient:
    def __init__(
        self,
        base_url: str,
        limits: ClientLimits | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
        clock: Callable[[], float] | None = None,
    ) -> None:
        """Without a ``clock``, deadlines are kept on a ``StallWatch``'s, which runs on the
        event loop from ``async with`` (or the first case) until ``close``."""
        self.base_url = base_url.rstrip("/")
        self._tools_key: tuple[object, ...] | None = None
        self._tools_json = b""
        self.limits = limits or ClientLimits()
        self._watch = StallWatch() if clock is None else None
        self._clock = clock or (self._watch.clock if self._watch else time.monotonic)
        if transport is None:
            # Headers and body go out in separate writes; without TCP_NODELAY the body waits
            # for the server's delayed ACK (about 40 ms a request on Linux loopback).
            transport = httpx.AsyncHTTPTransport(
                socket_options=[(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)],
                # No connection is reused: bytes a harness writes after a complete reply
                # would otherwise be read as the next request's reply, another case's.
                limits=httpx.Limits(max_connections=64, max_keepalive_connections=0),
                # Certificates matter only over https (redirects are not followed); loading the
                # CA bundle costs about 60 ms a run otherwise.
                verify=httpx.URL(self.base_url).scheme != "http",
            )
        self._http = httpx.AsyncClient(
            transport=transport,
            headers=IDENTITY,
            follow_redirects=False,
            timeout=httpx.Timeout(self.limits.run_deadline_s),
        )
        # ``POST /run`` goes to the transport itself, with the headers the client would send:
        # the client's request building, cookie jar and redirect layers cost a fifth of the
        # engine's CPU per case (issue 33), and a case needs none of them.
        self._transport = transport
        self._run_url = httpx.URL(f"{self.base_url}/run")
        shaped = self._http.build_request("POST", self._run_url, content=b"", headers=JSON_BODY)
        self._run_headers = [
            (name, value)
            for name, value in shaped.headers.raw
            if name.lower() not in (b"host", b"content-length")  # the request's own
        ]

    @property
    def http(self) -> httpx.AsyncClient:
        """The client's connection pool (its transport included), for side requests such as
        reading the capabilities ``/health`` declares."""
        return self._http

    @property
    def stalled_s(self) -> float:
        """Seconds the engine's process was seen stalled while this client ran (0 with a
        ``clock`` of the caller's)."""
        return self._watch.stalled_s if self._watch else 0.0

    async def close(self) -> None:
        if self._watch is not None:
            await self._watch.stop()
        await self._http.aclose()

    async def __aenter__(self) -> HarnessClient:
        if self._watch is not None:
            self._watch.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def wait_healthy(self) -> None:
        """Poll ``GET /health`` until any 2xx, or raise ``HarnessError`` once the wait is over.
        Each probe has an overall deadline (a reply that drips cannot hold it open) and no probe
        outlasts the wait."""
        give_up = self._clock() + self.limits.health_wait_s
        last = "no answer"
        while True:
            budget = min(self.limits.probe_timeout_s, max(give_up - self._clock(), 0.05))
            try:
                status = await self._probe(budget)
                if 200 <= status < 300:
                    return
                last = f"HTTP {status}"
            except TimeoutError:
                last = f"no complete reply within {budget:.1f} s"
            except httpx.HTTPError as exc:
                # The reason, when there is one, says why (e.g. a refused non-public address).
                last = _reason(exc)
            if self._clock() >= give_up:
                raise HarnessError(
                    f"{self.base_url}/health never answered 2xx within "
                    f"{self.limits.health_wait_s:g} s (last: {last})"
                )
            await asyncio.sleep(min(self.limits.health_interval_s, max(give_up - self._clock(), 0)))

    async def check_alive(self) -> None:
        """One ``GET /health``; ``HarnessError`` if no connection can be made at all. Any
        reply, or even a slow one, will do: a harness that answers badly or is busy is still
        there to be scored."""
        try:
            await self._probe(self.limits.probe_timeout_s)
        except TimeoutError:
            return
        except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
            raise HarnessError(
                f"the harness at {self.base_url} stopped answering: a case could not reach it "
                f"and /health fails too ({type(exc).__name__})"
            ) from None
        except httpx.HTTPError:
            return

    async def _probe(self, budget: float) -> int:
        """``GET /health``'s status within about ``budget`` seconds overall (``TimeoutError``
        after; httpx's own per-phase timeouts, e.g. ``ConnectTimeout``, fire first when they
        can). The body is never read: the protocol ignores it."""
        async with (
            asyncio.timeout(budget + OVERALL_SLACK_S),
            self._http.stream("GET", f"{self.base_url}/health", timeout=budget) as reply,
        ):
            return reply.status_code

    async def seed(self, request: SeedRequest | SeedPart, user: str = "") -> SeedResponse:
        """One ``POST /seed`` (a wave, or one part of it: ``spec.wire.seed_parts``) within
        ``seed_timeout_s`` overall, body included. The caller retries it when the error is
        ``retryable`` (``/seed`` is an idempotent upsert). Errors name the user as ``user`` (the
        dataset's name for it) when given, and the part when the wave has several."""
        part = request if isinstance(request, SeedPart) else SeedPart(request)
        body = canonical_bytes(seed_part_wire(part))
        shown = part.request
        where = f", part {part.part + 1}/{part.parts}" if part.parts > 1 else ""
        what = f"/seed (user {user or shown.user_id}, wave {shown.wave}{where})"
        limit = self.limits.seed_timeout_s
        try:
            async with asyncio.timeout(limit + OVERALL_SLACK_S):
                status, content = await self._post_seed(body)
        except (TimeoutError, httpx.TimeoutException):
            raise HarnessError(f"{what} got no complete reply within {limit:g} s") from None
        except httpx.HTTPError as exc:
            raise HarnessError(
                f"{what} failed: {_reason(exc)}", retryable=True, unreachable=True
            ) from None
        if not 200 <= status < 300:
            busy = status == 429 or status >= 500
            said = excerpt(content) or "(no body)"
            raise HarnessError(f"{what} answered HTTP {status}: {said}", retryable=busy)
        try:
            return repair.seed_response(loads(content, "/seed reply"))
        except DecodeError:
            return SeedResponse()  # counts are informative only

    async def _post_seed(self, body: bytes) -> tuple[int, bytes]:
        """The status and the body; an empty body when it is over ``SEED_REPLY_BYTES`` or
        cannot be read (its counts are informative only)."""
        async with self._http.stream(
            "POST",
            f"{self.base_url}/seed",
            content=body,
            headers=JSON_BODY,
            timeout=self.limits.seed_timeout_s,
        ) as reply:
            try:
                return reply.status_code, await read_body(reply, SEED_REPLY_BYTES)
            except (BodyTooLarge, BodyUnreadable):
                return reply.status_code, b""

    async def run(
        self, request: RunRequest, calls_seen: Callable[[], bool] | None = None
    ) -> tuple[RunResponse | None, Execution]:
        """One case: the response to grade (or None) and how it went. A failed attempt is
        retried only while ``calls_seen()`` is false: an attempt that made tool calls stands
        with them (a retry would let a harness explore on one attempt and answer clean on the
        next)."""
        if self._watch is not None:
            self._watch.start()  # a client used without ``async with``
        body = self._run_body(request)
        started = self._clock()
        deadline = started + self.limits.run_deadline_s
        attempts: list[Attempt] = []
        for number in range(1, self.limits.attempts + 1):
            begin = self._clock()
            if begin >= deadline:
                break
            try:
                payload = await self._by(deadline, self._post_run(body))
                response, dropped = _response(payload, self.limits.max_answer_chars)
                took = _ms(self._clock() - begin)
                attempts.append(Attempt(number, took, "ok", 200))
                total = _ms(self._clock() - started)
                execution = Execution(tuple(attempts), total, "ok", dropped or None)
                # The harness's own latency claim is replaced by what the engine measured.
                return replace(response, latency_ms=took), execution
            except TimeoutError:
                attempts.append(Attempt(number, _ms(self._clock() - begin), "timeout"))
                break
            except _Failure as failure:
                attempts.append(
                    Attempt(
                        number,
                        _ms(self._clock() - begin),
                        failure.outcome,
                        failure.status,
                        failure.detail or None,
                    )
                )
                if not failure.retry or number == self.limits.attempts:
                    break
                if calls_seen is not None and calls_seen():
                    break
                pause = self.limits.backoff_s[min(number - 1, len(self.limits.backoff_s) - 1)]
                if self._clock() + pause >= deadline:
                    break
                await asyncio.sleep(pause)
        outcome = attempts[-1].outcome if attempts else "timeout"
        return None, Execution(tuple(attempts), _ms(self._clock() - started), outcome)

    async def _by(self, deadline: float, work: Coroutine[Any, Any, Any]) -> Any:
        """``work``'s result, or ``TimeoutError`` once ``deadline`` has passed on the client's
        clock. It waits in steps and reads the clock again after each, so wall time the engine
        spent stalled never runs a case out: a reply that is in by then is taken."""
        task = asyncio.ensure_future(work)
        try:
            while not task.done():
                remaining = deadline - self._clock()
                if remaining <= 0:
                    raise TimeoutError
                await asyncio.wait((task,), timeout=remaining)
            return task.result()
        finally:
            if not task.done():
                task.cancel()
                await asyncio.wait((task,))
                if not task.cancelled():
                    task.exception()  # given up on: whatever it ended with is not news

    def _run_body(self, request: RunRequest) -> bytes:
        """The request as JSON. The tool catalog is the same for every case, so it is encoded
        once and spliced in; everything in a request is generated text, so the C encoder is
        safe."""
        if self._tools_key is not request.tools:
            self._tools_key = request.tools
            self._tools_json = _json([to_wire(t) for t in request.tools])
        fields = to_wire(replace(request, tools=()))
        del fields["tools"]
        return _json(fields)[:-1] + b',"tools":' + self._tools_json + b"}"

    async def _post_run(self, body: bytes) -> Any:
        """One attempt. No httpx timeout applies: the case's deadline (``_by``) ends it, on a
        clock that leaves out the engine's stalls, which httpx's own timeouts would not."""
        request = httpx.Request(
            "POST", self._run_url, headers=self._run_headers, content=body, extensions=NO_TIMEOUT
        )
        try:
            reply = await self._transport.handle_async_request(request)
            reply.request = request
            try:
                status = reply.status_code
                if not 200 <= status < 300:
                    said = await _error_body(reply)
                    busy = status == 429 or status >= 500
                    raise _Failure("http_error", status, retry=busy, detail=said)
                try:
                    content = await read_body(reply, self.limits.max_response_bytes)
                except BodyTooLarge:
                    raise _Failure("too_large", reply.status_code) from None
                except BodyUnreadable as exc:
                    raise _Failure("bad_json", reply.status_code, detail=str(exc)) from None
            finally:
                await reply.aclose()
        except httpx.TimeoutException:
            raise TimeoutError from None
        except httpx.HTTPError as exc:
            raise _Failure("connection_error", retry=True, detail=_reason(exc)) from None
        try:
            return loads(content, "run reply")
        except DecodeError as exc:
            raise _Failure("bad_json", 200, detail=str(exc)) from None


async def _error_body(reply: httpx.Response) -> str:
    """The start of an error reply's body for its attempt's ``detail`` (``excerpt``): at most
    ``ERROR_BODY_BYTES`` of it, whatever arrives within ``ERROR_BODY_WAIT_S``; "" when there is
    none or it cannot be read."""
    raw = bytearray()
    with contextlib.suppress(TimeoutError, httpx.HTTPError):
        async with asyncio.timeout(ERROR_BODY_WAIT_S):
            async for chunk in reply.aiter_raw():
                raw += chunk
                if len(raw) >= ERROR_BODY_BYTES:
                    break
    encoding = reply.headers.get("content-encoding", "")
    try:
        content = inflate(bytes(raw[:ERROR_BODY_BYTES]), encoding, ERROR_BODY_BYTES, cut=True)
    except BodyUnreadable:
        return ""
    return excerpt(content)


def _json(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


def _response(payload: Any, max_chars: int) -> tuple[RunResponse, int]:
    """The reply as graded (liberal, repaired: ``spec.repair``) and the reported tool calls
    dropped beyond the number kept; ``too_large`` when its answer is over ``max_chars``."""
    try:
        response, dropped = repair.run_response(payload)
    except DecodeError as exc:
        raise _Failure("bad_json", 200, detail=str(exc)) from None
    except Exception as exc:
        raise _Failure("bad_json", 200, detail=f"unreadable: {type(exc).__name__}") from None
    for name, text in (("final_text", response.final_text), ("answer", response.answer or "")):
        if len(text) > max_chars:
            said = f"$.{name}: {len(text):,} characters, over {max_chars:,}"
            raise _Failure("too_large", 200, detail=said)
    return response, dropped


def _reason(exc: Exception) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _ms(seconds: float) -> int:
    return max(0, round(seconds * 1000))
