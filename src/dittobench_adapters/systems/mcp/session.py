"""The session with the server: where it is (a command started over stdio, or a URL reached over
streamable HTTP), and the one event loop in a background thread that owns the SDK's client.
The SDK is async and the adapter's methods are called from several threads, so every call is a
coroutine submitted to that loop, each tool call bounded by ``timeout_s``; writes go one at a
time through ``write``."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import os
import re
import tempfile
import threading
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import httpx2
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult, Implementation, TextContent, Tool

from dittobench import __version__ as dittobench_version
from dittobench_adapters.contract import AdapterConfigError, AdapterError, config_value
from dittobench_adapters.systems.mcp.replies import ReplyShapeError, payload

_T = TypeVar("_T")

_ENV_REF = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)\}")
_STOP_GRACE_S = 15.0


# Where the server is


def _expand_env(values: Mapping[str, Any], key: str) -> dict[str, str]:
    expanded: dict[str, str] = {}
    for name, value in values.items():
        if not isinstance(value, str):
            raise AdapterConfigError(f"mcp: {key}.{name}: expected a string")

        def one(match: re.Match[str], name: str = name) -> str:
            found = os.environ.get(match.group(1))
            if found is None:
                raise AdapterConfigError(f"mcp: {key}.{name}: ${{{match.group(1)}}} is not set")
            return found

        expanded[name] = _ENV_REF.sub(one, value)
    return expanded


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where the server is: a command to start, or a URL."""

    command: tuple[str, ...] = ()
    env: Mapping[str, str] | None = None
    cwd: str | None = None
    url: str = ""
    headers: Mapping[str, str] | None = None

    @property
    def transport(self) -> str:
        return "stdio" if self.command else "streamable-http"


def read_endpoint(config: Mapping[str, Any]) -> Endpoint:
    command = config.get("command")
    url = config_value(config, "url", str, "")
    if (command is None) == (not url):
        raise AdapterConfigError("mcp: give exactly one of command (stdio) and url (HTTP)")
    if url:
        for key in ("env", "cwd"):
            if key in config:
                raise AdapterConfigError(f"mcp: {key} applies to a command, not a url")
        if not url.startswith(("http://", "https://")):
            raise AdapterConfigError(f"mcp: url: expected http:// or https://, got {url!r}")
        headers = _expand_env(config_value(config, "headers", dict, {}), "headers")
        return Endpoint(url=url, headers=headers or None)
    if "headers" in config:
        raise AdapterConfigError("mcp: headers apply to a url, not a command")
    if isinstance(command, str):
        command = [command]
    if (
        not isinstance(command, list)
        or not command
        or not all(isinstance(part, str) and part for part in command)
    ):
        raise AdapterConfigError("mcp: command: expected a non-empty list of strings")
    env = _expand_env(config_value(config, "env", dict, {}), "env")
    cwd = config_value(config, "cwd", str, None)
    if cwd is not None and not Path(cwd).is_dir():
        raise AdapterConfigError(f"mcp: cwd: {cwd!r} is not a folder")
    return Endpoint(command=tuple(command), env=env or None, cwd=cwd)


# The session


class McpSession:
    """The session with the server at ``endpoint``, owned by an event loop in a thread of its
    own; ``lock`` is the adapter's, which guards ``close``."""

    def __init__(self, endpoint: Endpoint, timeout_s: float, lock: threading.RLock) -> None:
        self.endpoint = endpoint
        self.timeout_s = timeout_s
        self.lock = lock
        self._closed = False
        self._client: Client | None = None
        self._stderr_path: str | None = None
        self.described: dict[str, str] = {}
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="mcp-adapter", daemon=True
        )
        self._thread.start()
        self._stop = asyncio.Event()
        self._writes = asyncio.Lock()
        self._owner: concurrent.futures.Future[None] | None = None
        self._owner_done = threading.Event()

    def start(self, timeout_s: float) -> None:
        ready: concurrent.futures.Future[None] = concurrent.futures.Future()
        self._owner = asyncio.run_coroutine_threadsafe(self._own_session(ready), self._loop)
        try:
            ready.result(timeout=timeout_s)
        except concurrent.futures.TimeoutError:
            self._owner.cancel()
            raise AdapterError(
                f"mcp: {self.where()} did not complete the MCP handshake in {timeout_s:g}s"
                f"{self._stderr_tail()}"
            ) from None
        except FileNotFoundError as exc:
            raise AdapterConfigError(
                f"mcp: cannot start {self.where()}: {exc.strerror or exc}"
                f" ({self.endpoint.command[0]!r} is not a program on PATH)"
            ) from None
        except PermissionError as exc:
            raise AdapterConfigError(f"mcp: cannot start {self.where()}: {exc}") from None
        except Exception as exc:
            raise AdapterError(
                f"mcp: {self.where()} failed at start: {_summary(exc)}{self._stderr_tail()}"
            ) from None

    def where(self) -> str:
        if self.endpoint.command:
            return "server " + " ".join(self.endpoint.command)
        return f"server at {self.endpoint.url}"

    def _stderr_tail(self) -> str:
        if self._stderr_path is None:
            return ""
        try:
            lines = Path(self._stderr_path).read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        if not lines:
            return ""
        errors = [line for line in lines if "rror" in line]
        return f"; its stderr says: {(errors or lines)[-1].strip()[:200]}"

    async def _own_session(self, ready: concurrent.futures.Future[None]) -> None:
        """Opens the session, holds it until ``close``, and closes it in this same task (the
        SDK's task groups must be left by the task that entered them)."""
        try:
            async with contextlib.AsyncExitStack() as stack:
                client = Client(
                    await self._transport(stack),
                    read_timeout_seconds=self.timeout_s,
                    client_info=Implementation(name="dittobench", version=dittobench_version),
                    cache=None,
                )
                self._client = await stack.enter_async_context(client)
                info = self._client.server_info
                self.described = {
                    "system": info.name if info is not None else "unknown",
                    "system_version": (info.version or "") if info is not None else "",
                    "transport": self.endpoint.transport,
                }
                ready.set_result(None)
                await self._stop.wait()
        except BaseException as exc:
            if not ready.done():
                ready.set_exception(_innermost(exc))
            if not isinstance(exc, Exception):
                raise
        finally:
            self._client = None
            self._owner_done.set()

    async def _transport(self, stack: contextlib.AsyncExitStack) -> Any:
        endpoint = self.endpoint
        if endpoint.command:
            handle, self._stderr_path = tempfile.mkstemp(prefix="dittobench-mcp-", suffix=".log")
            errlog = stack.enter_context(os.fdopen(handle, "w"))
            params = StdioServerParameters(
                command=endpoint.command[0],
                args=list(endpoint.command[1:]),
                env=dict(endpoint.env) if endpoint.env else None,
                cwd=endpoint.cwd,
            )
            return stdio_client(params, errlog=errlog)
        http = None
        if endpoint.headers:
            timeout = httpx2.Timeout(self.timeout_s, read=max(300.0, self.timeout_s))
            http = httpx2.AsyncClient(headers=dict(endpoint.headers), timeout=timeout)
            await stack.enter_async_context(http)
        return streamable_http_client(endpoint.url, http_client=http)

    def run(self, coro: Coroutine[Any, Any, _T], timeout_s: float) -> _T:
        """Runs ``coro`` on the session's loop and waits for it, at most ``timeout_s``."""
        if self._closed:
            coro.close()
            raise AdapterError("mcp: the adapter is closed")
        future = asyncio.run_coroutine_threadsafe(coro, self._loop)
        try:
            return future.result(timeout=timeout_s)
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise AdapterError(f"mcp: no reply from {self.where()} in {timeout_s:g}s") from None

    def budget(self, calls: int) -> float:
        return self.timeout_s * (calls + 1)

    async def list_tools(self) -> list[Tool]:
        client = self._live_client()
        tools: list[Tool] = []
        cursor: str | None = None
        for _ in range(100):
            try:
                page = await asyncio.wait_for(client.list_tools(cursor=cursor), self.timeout_s)
            except Exception as exc:
                raise AdapterError(f"mcp: tools/list failed: {_summary(exc)}") from None
            tools.extend(page.tools)
            cursor = page.next_cursor
            if cursor is None:
                break
        return tools

    def _live_client(self) -> Client:
        if self._client is None:
            raise AdapterError(f"mcp: the session with {self.where()} has ended")
        return self._client

    async def call(self, tool: str, arguments: Mapping[str, Any]) -> CallToolResult:
        """One tool call; a failure or an error reply is an ``AdapterError`` naming the tool."""
        client = self._live_client()
        try:
            result = await asyncio.wait_for(client.call_tool(tool, dict(arguments)), self.timeout_s)
        except TimeoutError:
            raise AdapterError(f"mcp: {tool}: no reply in {self.timeout_s:g}s") from None
        except Exception as exc:
            raise AdapterError(f"mcp: {tool}: {_summary(exc)}") from None
        if result.is_error:
            texts = [block.text for block in result.content if isinstance(block, TextContent)]
            message = " ".join(" ".join(texts).split())[:300] or "no message"
            raise AdapterError(f"mcp: {tool} replied with an error: {message}")
        return result

    async def data(self, tool: str, arguments: Mapping[str, Any]) -> Any:
        result = await self.call(tool, arguments)
        try:
            return payload(result, tool)
        except ReplyShapeError as exc:
            raise AdapterError(f"mcp: {tool}: reply of the wrong shape: {exc}") from None

    async def write(self, work: Callable[[], Awaitable[_T]]) -> _T:
        async with self._writes:
            return await work()

    def close(self) -> None:
        with self.lock:
            if self._closed:
                return
            self._closed = True
        owner = self._owner
        if owner is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
            if not self._owner_done.wait(_STOP_GRACE_S):
                owner.cancel()
                self._owner_done.wait(_STOP_GRACE_S)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=_STOP_GRACE_S)
        if not self._thread.is_alive():
            self._loop.close()
        if self._stderr_path is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._stderr_path)


def _innermost(exc: BaseException) -> BaseException:
    """The first leaf of an exception group (the SDK's task groups wrap what went wrong)."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _summary(exc: BaseException) -> str:
    """One line saying what went wrong."""
    exc = _innermost(exc)
    text = " ".join(str(exc).split())
    return f"{type(exc).__name__}: {text[:300]}" if text else type(exc).__name__
