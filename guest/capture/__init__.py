"""Capture: memories the host found in an agent's own session, stored with their provenance (issue 34)."""
