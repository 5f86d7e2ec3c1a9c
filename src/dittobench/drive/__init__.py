"""One run driver behind every front door: the ``run`` command (one run, or a suite in
threads), the scoring service's threads, the Celery workers, and ``dittobench.run``.

``runs`` turns a ``RunRequest`` (a harness URL, the built-in harness, or a sandboxed source
archive; the seed, size, version, pack, schedule, limits, key, judge) into a driven, graded,
stored run, starting it or resuming it; ``clock`` makes run ids and time stamps; ``api`` is the
library's ``run(...)``. This package imports nothing itself, so ``clock`` stays light.
"""
