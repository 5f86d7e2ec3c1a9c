"""Judge-free grading: pure functions from a dataset's answer keys and a transcript to scores."""
