"""Tables written by ``scripts/gen_*.py`` (each module names its script): regenerate, never edit."""
