"""Read-only views of stored runs, shared by the command line (``report --html``, ``compare``)
and the scoring service's pages: the comparison maths, the run model read from a store, and
the HTML they render to. Layered between the service and the engine (docs/architecture.md)."""
