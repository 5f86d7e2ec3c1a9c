"""Runs on Celery workers (distributed mode, docs/deploy.md) and the job driver the scoring
service shares with them. Celery is imported only by the modules that use it (``broker``,
``tasks``, ``process``), so the embedded default never loads it."""
