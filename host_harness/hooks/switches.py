"""Auto-recall's off switches: the project's, the environment's, and the one a user types in a session.

* ``.gm/config.json`` ``{"auto_recall": false}``: off for the project (anything but a boolean is a
  :class:`~host_harness.config.ConfigError`);
* ``RS_LEARN_AUTO_RECALL=0`` (``false``, ``no``, ``off``; ``1``, ``true``, ``yes``, ``on`` turn it
  on): off for every project this environment reaches; it wins over the file, as the
  ``RS_LEARN_MEMORY_*`` variables do; any other value is ignored with a warning;
* in a session: a prompt holding ``#rs-learn off`` (or ``#rs-learn on``), or the Claude Code
  plugin's ``/rs-learn:recall-off`` (``/rs-learn:recall-on``; also typed as ``/recall-off``), turns
  auto-recall off (on) for the rest of that session (``host_harness/hooks/sessions.py``).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from pathlib import Path

from host_harness.config import FALSE, TRUE, ConfigError, Settings, settings_of

UNTRUSTED_KEY = "untrusted_recall"  # .gm/config.json: "hold" (default) or "labelled" (guest/memory/origin.py)
UNTRUSTED = ("hold", "labelled")
ENV = "RS_LEARN_AUTO_RECALL"
KEY = "auto_recall"
MARKER = re.compile(r"#rs-learn[ \t]+(off|on)\b|^\s*/(?:rs-learn:)?recall-(off|on)\b", re.IGNORECASE)
OFF_TEXT = ("rs-learn: auto-recall is off for this session. Type `#rs-learn on` (or run "
            "/rs-learn:recall-on) to turn it back on.")
ON_TEXT = "rs-learn: auto-recall is on again for this session."
NO_SESSION_TEXT = ("rs-learn: this agent sends no session id, so auto-recall cannot be turned off for one "
                   "session; set RS_LEARN_AUTO_RECALL=0 or {\"auto_recall\": false} in .gm/config.json.")


def project_switch(project: Path | Settings,
                   environ: Mapping[str, str] | None = None) -> tuple[bool, str, list[str]]:
    """Whether auto-recall is on for ``project``, what decided it, and warnings about the environment.

    What decided: ``"environment"``, ``"config"`` or ``"default"``. :class:`ConfigError` when the
    file's ``auto_recall`` is not a boolean.
    """
    environ = os.environ if environ is None else environ
    warnings = []
    raw = environ.get(ENV)
    if raw is not None:
        value = raw.strip().lower()
        if value in TRUE or value in FALSE:
            return value in TRUE, "environment", []
        warnings.append(f"ignoring {ENV}={raw!r}: it must be 1 or 0 (true/false, yes/no, on/off)")
    settings = settings_of(project)
    setting = settings.get().get(KEY, None)
    if setting is None:
        return True, "default", warnings
    if not isinstance(setting, bool):
        raise ConfigError(f"{settings.path}: {KEY} must be true or false, got {json.dumps(setting)}")
    return setting, "config", warnings


def untrusted_recall(project: Path | Settings) -> str:
    """``untrusted_recall`` of ``.gm/config.json``: what the hook does with memories of untrusted origin.

    ``hold`` (the default): not injected until approved; ``labelled``: injected, their origin shown.
    Anything else is a :class:`ConfigError`.
    """
    settings = settings_of(project)
    setting = settings.get().get(UNTRUSTED_KEY, UNTRUSTED[0])
    if setting not in UNTRUSTED:
        raise ConfigError(f"{settings.path}: {UNTRUSTED_KEY} must be \"hold\" or \"labelled\", "
                          f"got {json.dumps(setting)}")
    return str(setting)


def marker(prompt: str) -> tuple[str | None, str]:
    """``("off" | "on", the prompt without the marker)`` when the prompt turns the session off or on.

    The first marker decides (a command's text may mention the other one); ``(None, prompt)`` when
    there is none.
    """
    first = MARKER.search(prompt)
    if first is None:
        return None, prompt
    return (first.group(1) or first.group(2)).lower(), MARKER.sub(" ", prompt).strip()
