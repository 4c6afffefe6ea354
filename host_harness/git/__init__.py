"""Git integration: the textconv and merge drivers for committed stores, and their setup."""
