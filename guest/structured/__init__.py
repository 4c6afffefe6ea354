"""Structured memory (seed 001): checklists, todos and session notes."""
