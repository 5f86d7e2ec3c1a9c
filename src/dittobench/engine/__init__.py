"""The scoring engine: drives a harness over HTTP, observes its tool calls, records a run."""
