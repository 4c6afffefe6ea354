"""Text processing shared by every capability: tokenizer, embedder, stemmer, BM25 keywords, Go strings."""
