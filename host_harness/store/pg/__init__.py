"""The PostgreSQL + pgvector store: the ``host-kv-*`` and ``host-vec-search`` contract on a server."""
