"""The exec spool: the watcher and its one-per-project lock."""
