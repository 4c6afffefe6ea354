"""The spool's requests: names and order, what counts as a request, reading and decoding a body.

A request is an entry ``in/<verb>/<name>``; its id ``N`` is the name without its final extension
(``x.y.z.json`` is ``x.y.z``, so ``1.2.json`` and ``1.3.json`` are two ids).
Dotfiles and ``*.tmp.*`` are never requests (clients write under such names, then rename).
:func:`scan` returns every other entry -- regular files, but also the FIFOs, directories,
sockets and links a client (or a planted repository) may leave there: each must be answered or
set aside, never skipped forever -- a file written into ``in/`` itself too (its verb is
:data:`STRAY`). A verb folder that is a symbolic link is not entered at all (its requests live
outside the project); :func:`scan` reports it for quarantine.

:func:`read_body` opens a claimed request without following a link and without blocking (a FIFO
renamed over a request would otherwise hang the watcher in ``open()``), and accepts only a regular
file with one link (a hard link to a file outside the project is not read).
"""

from __future__ import annotations

import codecs
import errno
import json
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

STRAY = ""  # the verb of a file written into in/ itself rather than into a verb's folder
MAX_BODY_BYTES = 2 * 1024 * 1024
MAX_ID_BYTES = 200  # out/<N>.json must fit in a 255-byte file name
RAW_TEXT_SUFFIXES = (".md", ".markdown")
BOMS = (  # longest first: the UTF-32 LE BOM starts with the UTF-16 LE one
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
READ_FLAGS = (
    os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
)


class BodyError(Exception):
    """A request body that cannot be turned into text; the message goes into the error envelope."""


def ignored(name: str) -> bool:
    """Dotfiles and temp files (``*.tmp.*``) are never requests."""
    return name.startswith(".") or ".tmp." in name or name.endswith(".tmp")


def printable(value: str) -> str:
    """``value`` safe to put in JSON as UTF-8 (undecodable file-name bytes shown escaped)."""
    return value.encode("utf-8", "backslashreplace").decode("utf-8")


def error_envelope(verb: str, message: str) -> str:
    """An ``{"ok": false}`` envelope."""
    return json.dumps({"ok": False, "verb": printable(verb), "error": message}, ensure_ascii=False)


@dataclass(frozen=True)
class Request:
    """One request entry ``<dir>/<verb>/<name>`` with id ``n``."""

    verb: str
    name: str
    path: Path
    n: str = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "n", request_id(self.name))

    @property
    def order(self) -> tuple[int, int, str, str, str]:
        """Numeric ids first (by value), then the others by name; then verb, then file name."""
        numeric = self.n.isascii() and self.n.isdigit()
        return (0 if numeric else 1, int(self.n) if numeric else 0, self.n, self.verb, self.name)


def request_id(name: str) -> str:
    """The id of request file ``name``: the name without its final extension (``a.b.json`` -> ``a.b``)."""
    return name.rpartition(".")[0] if "." in name else name


def unusable(st: os.stat_result) -> str | None:
    """Why an entry cannot be a request (``None`` for a regular file with a single link)."""
    if stat.S_ISLNK(st.st_mode):
        return "a request must be a regular file, not a symlink"
    if stat.S_ISDIR(st.st_mode):
        return "a request must be a regular file, not a directory"
    if not stat.S_ISREG(st.st_mode):
        return "a request must be a regular file, not a FIFO, socket or device"
    if st.st_nlink > 1:
        return f"a request must not be a hard link (it has {st.st_nlink} links; write a new file)"
    return None


def id_problem(n: str) -> str | None:
    """Why id ``n`` cannot be used (``None`` when it can)."""
    if len(os.fsencode(n)) > MAX_ID_BYTES:
        return f"the request id is longer than {MAX_ID_BYTES} bytes"
    return None


def scan(root: Path) -> tuple[list[Request], list[Path]]:
    """The requests under ``root/<verb>/`` in processing order, and the verb folders that are links."""
    found: list[Request] = []
    linked: list[Path] = []
    try:
        verbs = [d for d in os.scandir(root) if not ignored(d.name)]
    except FileNotFoundError:
        return [], []
    for verb in verbs:
        if verb.is_symlink():
            linked.append(Path(verb.path))
            continue
        if not verb.is_dir(follow_symlinks=False):
            found.append(Request(STRAY, verb.name, Path(verb.path)))  # in/<name>: answered with an error
            continue
        try:
            entries = [e for e in os.scandir(verb.path) if not ignored(e.name)]
        except (FileNotFoundError, NotADirectoryError):
            continue
        found.extend(Request(verb.name, entry.name, Path(entry.path)) for entry in entries)
    return sorted(found, key=lambda r: r.order), linked


def read_body(path: Path, max_bytes: int) -> bytes:
    """The raw body of a claimed request; :class:`BodyError` for anything that is not a usable file."""
    try:
        fd = os.open(path, READ_FLAGS)
    except OSError as error:
        if error.errno in (errno.ELOOP, errno.EMLINK):
            raise BodyError("validation: a request must be a regular file, not a symlink") from None
        raise
    try:
        st = os.fstat(fd)
        why = unusable(st)
        if why is not None:
            raise BodyError(f"validation: {why}")
        if st.st_size > max_bytes:
            raise BodyError(f"validation: body is {st.st_size} bytes; the limit is {max_bytes}")
        chunks, size = [], 0
        while size <= max_bytes and (chunk := os.read(fd, max_bytes + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
    finally:
        os.close(fd)
    if size > max_bytes:
        raise BodyError(f"validation: body is {size} bytes; the limit is {max_bytes}")
    return b"".join(chunks)


def decode_body(raw: bytes, suffix: str) -> str:
    """The body as text for ``dispatch``; raises :class:`BodyError`."""
    encoding = "utf-8"
    for bom, name in BOMS:
        if raw.startswith(bom):
            raw, encoding = raw[len(bom) :], name
            break
    try:
        text = raw.decode(encoding)
    except UnicodeDecodeError as error:
        label = "UTF-8" if encoding == "utf-8" else encoding.upper()
        where = f"byte {error.start}: {error.reason}"
        raise BodyError(f"validation: body is not valid {label} ({where})") from None
    if suffix.lower() in RAW_TEXT_SUFFIXES:
        return json.dumps(text, ensure_ascii=False)
    return text
