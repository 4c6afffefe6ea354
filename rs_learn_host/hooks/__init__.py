"""The agent hooks: Claude Code's ``UserPromptSubmit`` (auto-recall) and ``SessionStart`` (skills).

* :mod:`rs_learn_host.hooks.protocol` -- what a hook needs before it loads anything: the event, the
  project, the log, the time budget (standard library only);
* :mod:`rs_learn_host.hooks.command_line` -- the hook's command line, read once (the fast path's and
  click's options alike);
* :mod:`rs_learn_host.hooks.pipeline` -- one run of a hook: read, locate, begin, ask, finish;
* its two transports: :mod:`rs_learn_host.hooks.warm` -- the warm socket's client (the protocol, hard
  deadlines; nothing heavy imported), and :mod:`rs_learn_host.hooks.in_process` -- the component
  loaded in the hook's own process;
* :mod:`rs_learn_host.hooks.server` -- the warm socket's server in a long-lived process (spool, MCP);
* :mod:`rs_learn_host.hooks.reader` -- the hooks' own guest there, on its own thread;
* :mod:`rs_learn_host.hooks.background` -- what a hook leaves to detached processes (compiles, indexes);
* :mod:`rs_learn_host.hooks.prompt_run` -- a prompt's host side, whatever answers it: the off switches
  (:mod:`~rs_learn_host.hooks.switches`), the session's state (:mod:`~rs_learn_host.hooks.sessions`),
  the prompt ledger (:mod:`~rs_learn_host.hooks.prompt_ledger`).

This package imports nothing itself, so that the fast path stays light.
"""
