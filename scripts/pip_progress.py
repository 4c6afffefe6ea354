"""``pip install ARGS`` with one line per step instead of minutes of silence (``make`` uses it).

pip's full output is long and ``--quiet`` hides everything, so this shows the lines that say where
an install is (``Collecting …``, ``Building …``, ``Installing collected packages``, ``Successfully
installed …``) and every warning, deprecation or error; the rest goes to ``.venv/pip.log``. When pip
fails, the end of that log is printed as well. Exits with pip's status.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SHOWN = ("Collecting ", "Building ", "Installing collected packages", "Successfully ", "Obtaining ")
ALWAYS = ("WARNING", "DEPRECATION", "ERROR", "error:")
IGNORED = ("is ignored: it is neither a file nor a directory",)  # a local index's missing folders
TAIL = 40


def main(args: list[str]) -> int:
    """Run pip, echo its progress lines, log the rest; return its exit status."""
    log_path = Path(sys.prefix) / "pip.log"
    command = [sys.executable, "-m", "pip", "install", "--progress-bar", "off", *args]
    lines: list[str] = []
    with subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as pip:
        assert pip.stdout is not None
        for line in pip.stdout:
            lines.append(line)
            text = line.strip()
            if any(marker in text for marker in IGNORED):
                continue
            if text.startswith(SHOWN) or text.startswith(ALWAYS):
                if text.startswith("Installing collected packages"):
                    text = f"Installing {text.count(',') + 1} packages..."
                elif text.startswith("Successfully installed"):
                    text = f"Successfully installed {len(text.split()) - 2} packages"
                print(f"  {text}", flush=True)
    log_path.write_text("".join(lines), encoding="utf-8")
    if pip.returncode != 0:
        print(f"pip failed (status {pip.returncode}); the end of {log_path}:", file=sys.stderr)
        sys.stderr.write("".join(lines[-TAIL:]))
    return pip.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
