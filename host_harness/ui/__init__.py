"""``rs-learn-host ui``: a local web view of the project's memory (issue 36).

The server (``app.py``, Starlette under uvicorn, bound to 127.0.0.1 only, every request checked
against a random token) answers a small JSON API that the vendored page (``static/``: plain HTML,
CSS and JavaScript, no CDN) renders. Every read and write is a guest verb -- the same ones the CLI
calls -- run by one :class:`~host_harness.mcp.worker.GuestWorker`, one transaction each: nothing is
held between two requests, so the CLI, hooks and agents never wait on the view, and what they
change shows on the next request. Modules: ``backend`` (the guest calls), ``memories``,
``prompts`` (the injection ledger), ``overview``, ``library`` (archive, skills, structured memory).
"""
