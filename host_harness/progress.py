"""Progress of a compile on stderr: a bar on a terminal, else a plain line every few seconds (issue 42)."""

from __future__ import annotations

from typing import TextIO

BAR_WIDTH = 24
NOTE_EVERY_S = 10.0  # off a terminal, a line this often while the compile runs


class Bar:
    """A one-line progress bar on a terminal: filled by what this compile took here before, else a bouncer."""

    def __init__(self, out: TextIO) -> None:
        self.out = out
        self.shown = False

    def __call__(self, elapsed_s: float, expected_s: float | None) -> None:
        """Redraw the line for ``elapsed_s`` seconds so far."""
        if expected_s:
            filled = min(BAR_WIDTH - 1, int(BAR_WIDTH * elapsed_s / expected_s))
            bar = "#" * filled + "-" * (BAR_WIDTH - filled)
            when = f"{elapsed_s:.0f} s of about {expected_s:.0f} s"
        else:
            at = int(elapsed_s * 4) % (2 * BAR_WIDTH - 6)
            at = at if at < BAR_WIDTH - 3 else 2 * BAR_WIDTH - 6 - at
            bar = " " * at + "<=>" + " " * (BAR_WIDTH - 3 - at)
            when = f"{elapsed_s:.0f} s"
        self.out.write(f"\rcompiling the component [{bar}] {when} ")
        self.out.flush()
        self.shown = True

    def clear(self) -> None:
        """Remove the line."""
        if self.shown:
            self.out.write("\r\033[K")
            self.out.flush()


class Note:
    """Off a terminal: one plain line when the compile starts, then one every ``every_s`` seconds."""

    def __init__(self, out: TextIO, every_s: float = NOTE_EVERY_S) -> None:
        self.out = out
        self.every_s = every_s
        self.shown = False
        self.next_s = every_s

    def __call__(self, elapsed_s: float, expected_s: float | None) -> None:
        """Say that the compile runs (and how long it took here before), then how long it has run."""
        about = f"about {expected_s:.0f} s" if expected_s else ""
        if not self.shown:
            when = f", {about}" if about else ""
            self.out.write(f"compiling the component (once after an install or upgrade{when})...\n")
            self.shown = True
        elif elapsed_s >= self.next_s:
            self.out.write(f"  still compiling: {elapsed_s:.0f} s{f' of {about}' if about else ''}\n")
            self.next_s = (elapsed_s // self.every_s + 1) * self.every_s
        else:
            return
        self.out.flush()

    def clear(self) -> None:
        """Nothing to remove."""


def progress_for(out: TextIO) -> Bar | Note:
    """A bar on a terminal, one plain line otherwise."""
    return Bar(out) if out.isatty() else Note(out)
