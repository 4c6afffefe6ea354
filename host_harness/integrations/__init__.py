"""Wiring rs-learn into coding agents: ``setup AGENT``, the ``.gitignore`` lines, ``import --from``.

* :mod:`~host_harness.integrations.edits` -- one planned change to a file: its diff, applied
  atomically with a backup;
* :mod:`~host_harness.integrations.jsonconf` / :mod:`~host_harness.integrations.tomlconf` -- merging
  an entry into an agent's JSON or TOML configuration without touching anything else in it;
* :mod:`~host_harness.integrations.agents` -- which files each agent reads, and what goes in them;
* :mod:`~host_harness.integrations.localstate` -- the project's local state and its ``.gitignore``;
* :mod:`~host_harness.integrations.importers` -- memories people already keep (CLAUDE.md, AGENTS.md,
  Cursor rules, Claude Code's auto-memory) as items for the component's ``import`` verb.
"""
