"""Benchmarks (`make bench`) and recall-quality evaluation (`make eval`)."""
