"""dittobench: an open, reproducible, judge-free benchmark for memory assistants."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("dittobench")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0"
