"""The adapters that ship with dittobench, one module per memory system (``registry.BUILTIN``)."""
