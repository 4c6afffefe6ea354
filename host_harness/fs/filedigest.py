"""Project file digests, served read-only as ``host`` keys ``file/<relative path>``.

The guest records the digests of the files a memory names and asks again at recall to tell a stale
memory (``guest/memory/freshness.py``, ``docs/host-contract.md`` section 8). Answers:

* ``{"sha256": "<hex>"}`` -- a regular file of the project, at most :data:`MAX_FILE_BYTES`;
* ``{"exists": false}`` -- no regular file at that path (absent, a directory, a component that is
  not a directory);
* ``None`` (the key is absent) -- the host cannot say: a path that is not plainly relative (empty,
  ``.``, ``..`` components, absolute), a link anywhere on the way (never followed,
  ``host_harness/fs/confine.py``), a larger file, an error reading it.

Hashing a file once per content: digests are cached by ``(device, inode, size, mtime)``, read with
``fstat`` on the open file, so a recall that checks the same files again does not read them again --
nor does the next process: the cache persists in ``<cache dir>/file-digests/<digest of the project
root>.json`` (written after each file hashed, so a hook that its budget ends keeps what it hashed;
at most :data:`MAX_CACHED` entries, the oldest dropped; a missing or unreadable file is an empty
cache). A file changed in place keeps its inode but not its mtime, so its digest is computed again.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from pathlib import Path
from typing import Any

from host_harness.cachedir import default_cache_dir
from host_harness.fs import confine

PREFIX = "file/"
MAX_FILE_BYTES = 16 * 1024 * 1024
MAX_CACHED = 4096
VERSION = 1
CHUNK = 1 << 20
Identity = tuple[int, int, int, int]  # device, inode, size, mtime in ns


class FileDigests:
    """Digests of one project's files, cached by file identity (in memory and in ``cache_dir``)."""

    def __init__(self, root: Path, cache_dir: Path | None = None) -> None:
        self.root = root
        self.cache: dict[Identity, str] = {}
        self.hashed = 0  # files read and hashed (the cache's misses)
        self.cache_dir = cache_dir
        self.loaded = False

    @property
    def persisted(self) -> Path:
        """Where the cache persists between processes."""
        base = self.cache_dir if self.cache_dir is not None else default_cache_dir()
        key = hashlib.sha256(str(self.root.resolve()).encode("utf-8", "surrogateescape")).hexdigest()[:24]
        return base / "file-digests" / f"{key}.json"

    def _load(self) -> None:
        self.loaded = True
        try:
            value = json.loads(self.persisted.read_bytes())
            entries = value["digests"] if value.get("v") == VERSION else []
            for dev, ino, size, mtime, digest in entries[-MAX_CACHED:]:
                if all(isinstance(n, int) for n in (dev, ino, size, mtime)) and isinstance(digest, str):
                    self.cache.setdefault((dev, ino, size, mtime), digest)
        except (OSError, ValueError, TypeError, KeyError, AttributeError):
            pass  # no cache yet, or one this version cannot read: files are hashed again

    def _save(self) -> None:
        entries = [[*identity, digest] for identity, digest in self.cache.items()]
        path = self.persisted
        tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp.write_text(json.dumps({"v": VERSION, "digests": entries}, separators=(",", ":")), "utf-8")
            os.replace(tmp, path)  # a cache: atomic, not durable
        except OSError:
            tmp.unlink(missing_ok=True)

    def answer(self, path: str) -> dict[str, Any] | None:
        """The value of key ``file/<path>`` (see the module docstring)."""
        parts = path.split("/")
        if any(part in ("", ".", "..") for part in parts):
            return None
        try:
            with confine.directory(self.root, parts[:-1]) as dir_fd:
                fd = confine.open_file(parts[-1], dir_fd, Path(self.root, *parts))
        except confine.OutsideProject:
            return None
        except (FileNotFoundError, NotADirectoryError):
            return {"exists": False}
        except OSError as error:
            if error.errno in (errno.EINVAL, errno.ENOTDIR, errno.EISDIR):  # not a regular file
                return {"exists": False}
            return None
        try:
            return self._digest(fd)
        finally:
            os.close(fd)

    def _digest(self, fd: int) -> dict[str, Any] | None:
        st = os.fstat(fd)
        if st.st_size > MAX_FILE_BYTES:
            return None
        identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
        if not self.loaded:
            self._load()
        known = self.cache.get(identity)
        if known is None:
            sha = hashlib.sha256()
            try:
                while chunk := os.read(fd, CHUNK):
                    sha.update(chunk)
            except OSError:
                return None
            while len(self.cache) >= MAX_CACHED:
                del self.cache[next(iter(self.cache))]  # the oldest
            known = self.cache[identity] = sha.hexdigest()
            self.hashed += 1
            self._save()
        return {"sha256": known}
