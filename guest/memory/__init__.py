"""recall and memorize (seed 000): memories, disciplines, auto-recall, reindex."""
