"""The BM25 keyword index: terms, persisted postings and chunk directories, the pending list, top k."""
