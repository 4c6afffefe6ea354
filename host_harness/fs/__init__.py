"""The project's files as the host touches them: never through a link, replaced atomically.

* :mod:`~host_harness.fs.confine` -- every path below the project opened without following a link;
* :func:`write_atomic`, :func:`write_atomic_at`, :func:`write_durably`, :func:`fsync_dir` -- durable
  atomic replacement (``atomic.py``);
* :func:`valid_name`, :func:`is_device_name`, :func:`device_name_error`, :func:`case_twin`,
  :func:`case_twin_error`, :data:`DEVICE_RULE` -- the folder names the host makes from user input
  (``names.py``);
* :mod:`~host_harness.fs.effects` -- the managed skill a guest call asks the host to write;
* :mod:`~host_harness.fs.skills` -- the skill folders on disk;
* :class:`FileDigests`, :data:`FILE_PREFIX` -- project file digests, the ``host/file/<path>`` keys
  (``filedigest.py``);
* :func:`project_patterns`, :data:`QUEUE_SUFFIX` -- what under ``.gm/`` is local state (``local_state.py``).
"""

from host_harness.fs import confine, effects, skills
from host_harness.fs.atomic import fsync_dir, write_atomic, write_atomic_at, write_durably
from host_harness.fs.filedigest import PREFIX as FILE_PREFIX
from host_harness.fs.filedigest import FileDigests
from host_harness.fs.local_state import QUEUE_SUFFIX, project_patterns
from host_harness.fs.names import (
    DEVICE_RULE,
    case_twin,
    case_twin_error,
    device_name_error,
    is_device_name,
    valid_name,
)

__all__ = [
    "DEVICE_RULE", "FILE_PREFIX", "QUEUE_SUFFIX", "FileDigests", "case_twin", "case_twin_error", "confine",
    "device_name_error", "effects", "fsync_dir", "is_device_name", "project_patterns", "skills", "valid_name",
    "write_atomic", "write_atomic_at", "write_durably",
]
