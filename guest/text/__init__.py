"""Text into tokens and vectors: WordPiece tokenizer, static embedder, stemmer, words pinned to Unicode 14."""
