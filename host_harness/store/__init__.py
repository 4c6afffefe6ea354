"""The host's storage: SQLite KV, the vector index, namespace routing, config, file effects."""
