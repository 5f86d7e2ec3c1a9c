"""The run store's migrations, oldest first (``down_revision`` chains them)."""
