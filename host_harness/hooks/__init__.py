"""The agent hooks: Claude Code's ``UserPromptSubmit`` (auto-recall) and ``SessionStart`` (skills).

* :mod:`host_harness.hooks.protocol` -- what a hook needs before it loads anything: the event, the
  project, the log, the time budget (standard library only);
* :mod:`host_harness.hooks.command_line` -- the hook's command line, read once (the fast path's and
  click's options alike);
* :mod:`host_harness.hooks.pipeline` -- one run of a hook: read, locate, begin, ask, finish;
* its two transports: :mod:`host_harness.hooks.warm` -- the warm socket's client (the protocol, hard
  deadlines; nothing heavy imported), and :mod:`host_harness.hooks.in_process` -- the component
  loaded in the hook's own process;
* :mod:`host_harness.hooks.server` -- the warm socket's server in a long-lived process (spool, MCP);
* :mod:`host_harness.hooks.reader` -- the hooks' own guest there, on its own thread;
* :mod:`host_harness.hooks.background` -- what a hook leaves to detached processes (compiles, indexes);
* :mod:`host_harness.hooks.prompt_run` -- a prompt's host side, whatever answers it: the off switches
  (:mod:`~host_harness.hooks.switches`), the session's state (:mod:`~host_harness.hooks.sessions`),
  the prompt ledger (:mod:`~host_harness.hooks.prompt_ledger`).

This package imports nothing itself, so that the fast path stays light.
"""
