"""``python -m host_harness``: the ``rs-learn-host`` CLI."""

from host_harness.cli.entry import main

if __name__ == "__main__":
    main()
