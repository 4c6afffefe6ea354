"""String rules the capabilities share: Go's string functions, kebab-case names, paths, dates, time words."""
