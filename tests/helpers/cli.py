"""`dittobench` as a user runs it: a real subprocess of this interpreter, output captured."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def dittobench(
    *args: str,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    umask: int | None = None,
    timeout: float = 120,
) -> subprocess.CompletedProcess[str]:
    """Run ``dittobench ARGS``. With ``cwd`` the command also runs there with ``HOME`` and
    ``XDG_DATA_HOME`` inside it, so nothing reaches the real home folder; ``env`` adds to (or
    overrides) the environment, ``umask`` is set in the child before it starts."""
    environment = None
    if cwd is not None or env:
        environment = dict(os.environ)
        if cwd is not None:
            environment |= {"HOME": str(cwd), "XDG_DATA_HOME": str(cwd / "data")}
        environment |= env or {}
    return subprocess.run(
        [sys.executable, "-m", "dittobench", *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
        cwd=cwd,
        env=environment,
        preexec_fn=None if umask is None else (lambda mask=umask: os.umask(mask)),
    )
