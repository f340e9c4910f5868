"""Writing a file the owner keeps (a deck, a dice profile) whole or not at all, so a full card keeps the old one."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def write_whole(path: Path, data: bytes) -> None:
    """Write ``data`` as ``path`` whole or not at all: a spare file beside it, synced, renamed over it. A full card
    (ENOSPC) or a kill part way leaves the file already at ``path`` as it was, and no spare file.

    Raises:
        OSError: the folder cannot be written or the storage refused the data.
    """
    fd, spare = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            os.fchmod(out.fileno(), 0o644)  # readable as the file it replaces was (a deck, a dice profile)
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(spare, path)
    except BaseException:
        Path(spare).unlink(missing_ok=True)
        raise
