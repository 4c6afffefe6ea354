"""Screening untrusted text before it is stored: secrets redacted, prompt injections found (issue 28)."""
