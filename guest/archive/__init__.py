"""The verbatim archive (seed 002): blocks under short ids, recall by id, keyword search."""
