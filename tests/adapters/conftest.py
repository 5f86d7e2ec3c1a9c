"""Fixtures shared by the adapter tests: the scripted OpenAI-compatible chat server of the
baseline's model-mode tests."""

from tests.baseline.test_model import model_server  # noqa: F401  (a fixture, used by name)
