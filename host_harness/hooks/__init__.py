"""The agent hooks: Claude Code's ``UserPromptSubmit`` (auto-recall) and ``SessionStart`` (skills).

* :mod:`host_harness.hooks.protocol` -- what a hook needs before it loads anything: the event, the
  project, the log, the time budget (standard library only);
* :mod:`host_harness.hooks.fast` -- a hook answered by a warm server, importing nothing heavy;
* :mod:`host_harness.hooks.warm` -- the warm socket's client (the protocol, hard deadlines);
* :mod:`host_harness.hooks.server` -- the warm socket's server in a long-lived process (spool, MCP);
* :mod:`host_harness.hooks.reader` -- the hooks' own guest there, on its own thread;
* :mod:`host_harness.hooks.cold` -- a hook answered by loading the component in its own process.

This package imports nothing itself, so that the fast path stays light.
"""
