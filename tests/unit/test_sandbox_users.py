"""Sandbox users: concurrent leases never share a user id, across processes too, and a lease is
free again once its holder is done (or gone)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from dittobench.sandbox import SandboxError
from dittobench.sandbox.users import leased_uid


def test_leases_are_distinct_and_freed(tmp_path: Path) -> None:
    with leased_uid(5000, 2, tmp_path) as first, leased_uid(5000, 2, tmp_path) as second:
        assert {first, second} == {5000, 5001}
        with (
            pytest.raises(SandboxError, match="all 2 sandbox users"),
            leased_uid(5000, 2, tmp_path),
        ):
            pass
    with leased_uid(5000, 2, tmp_path) as again:
        assert again == 5000


def test_another_process_holding_a_user_is_skipped(tmp_path: Path) -> None:
    code = (
        "import sys, time; from pathlib import Path; "
        "from dittobench.sandbox.users import leased_uid\n"
        "with leased_uid(7000, 3, Path(sys.argv[1])) as uid:\n"
        "    print(uid, flush=True); time.sleep(30)\n"
    )
    holder = subprocess.Popen(
        [sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "7000"
        with leased_uid(7000, 3, tmp_path) as mine:
            assert mine == 7001
    finally:
        holder.kill()
        holder.communicate()
    with leased_uid(7000, 3, tmp_path) as freed:  # the kernel dropped the dead holder's lock
        assert freed == 7000
