"""Wiring rs-learn into coding agents: ``setup AGENT``, the ``.gitignore`` lines, ``import --from``.

* :mod:`~rs_learn_host.integrations.edits` -- one planned change to a file: its diff, applied
  atomically with a backup;
* :mod:`~rs_learn_host.integrations.jsonconf` / :mod:`~rs_learn_host.integrations.tomlconf` -- merging
  an entry into an agent's JSON or TOML configuration without touching anything else in it;
* :mod:`~rs_learn_host.integrations.agents` -- which files each agent reads, and what goes in them;
* :mod:`~rs_learn_host.integrations.localstate` -- the project's local state and its ``.gitignore``;
* :mod:`~rs_learn_host.integrations.importers` -- memories people already keep (CLAUDE.md, AGENTS.md,
  Cursor rules, Claude Code's auto-memory) as items for the component's ``import`` verb.
"""
