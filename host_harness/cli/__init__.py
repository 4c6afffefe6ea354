"""The ``rs-learn-host`` command line: ``main`` and one module per command group."""
