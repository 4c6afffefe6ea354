"""``python -m rs_learn_host``: the ``rs-learn-host`` CLI."""

from rs_learn_host.cli.entry import main

if __name__ == "__main__":
    main()
