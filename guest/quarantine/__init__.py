"""Quarantine: list and approve memories and archived blocks held back from the agent (issue 28)."""
