"""Writing a file whole or not at all (a deck, a dice profile, an export, the box's settings), so a full card or a
power cut keeps the old one.

One writer for the readers' files and the app's: :mod:`companion.paths` gives it to the app.
"""

from __future__ import annotations

import os
import secrets
import stat
import tempfile
from pathlib import Path

__all__ = ["BY_UMASK", "plain_spare", "write_whole"]

BY_UMASK = "umask"
"""``write_whole``'s ``mode`` for a file the owner keeps (a deck, a dice profile, a printed sheet): its permission bits
as a plain write gives them: a new file's from the process's umask (0o666 less it, as ``open(path, "w")`` makes it),
a file written again keeps its own."""


def write_whole(path: Path, content: str | bytes, *, sync: bool = True, mode: int | str | None = None,
                make_folder: bool = True) -> None:
    """Write ``content`` as the file ``path``, whole or not at all, and (``sync``) on the storage before this returns.

    The content goes to a temporary file beside ``path``, is flushed (and fsync'd), then renamed over ``path``: a
    power cut or a kill leaves the old file or the new one, never half of one, and a file said to be written is not
    found empty after a power cut (with ``sync``, its folder is synced after the rename too, so files written one
    after the other reach the storage in that order). When a step fails (a full or read-only card) the temporary
    file is removed and any file already at ``path`` is left as it was.

    Args:
        path: the file to write; its folder is made if missing.
        content: the whole content: text (written as UTF-8) or bytes.
        sync: wait for the storage (fsync) before the rename; False for a file rewritten at every read, whose
            loss in a power cut costs nothing (the ``--screenshot`` picture).
        mode: the new file's permission bits (0o644: others may read it, as a picture to look at); :data:`BY_UMASK`:
            as a plain write makes them (a new file 0o666 less the umask, a file already there keeps its own); None
            keeps it readable by the box's user alone (0o600), as a settings or key file.
        make_folder: make ``path``'s folder when it is missing; False: a missing folder is an OSError (ENOENT), as
            for a file the user named (``companion export --json``), whose folder is theirs to make.

    Raises:
        OSError: the folder cannot be made or written, or the storage refused the data (``errno.ENOSPC`` on a full
            card).
    """
    path = Path(path)
    if make_folder:
        path.parent.mkdir(parents=True, exist_ok=True)
    data = content.encode("utf-8") if isinstance(content, str) else bytes(content)
    if mode == BY_UMASK:
        fd, spare = plain_spare(path)
        try:
            mode = stat.S_IMODE(path.stat().st_mode)  # written again: its own bits, as a plain write keeps them
        except OSError:
            mode = None  # a new file: the bits the kernel gave the spare file (umask, a folder's default ACL)
    elif mode is None or isinstance(mode, int):
        fd, spare = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=path.parent)
    else:
        raise ValueError(f"write_whole: mode must be permission bits, BY_UMASK or None, not {mode!r}")
    try:
        with os.fdopen(fd, "wb") as out:
            if mode is not None:
                os.fchmod(out.fileno(), mode)
            out.write(data)
            out.flush()
            if sync:
                os.fsync(out.fileno())
        os.replace(spare, path)
    except BaseException:
        Path(spare).unlink(missing_ok=True)
        raise
    if sync:
        _sync_folder(path.parent)


def plain_spare(path: Path) -> tuple[int, str]:
    """A new spare file beside ``path`` opened for writing as a plain ``open(..., "w")`` opens a new file (asked for
    0o666, the kernel takes the umask off): ``(descriptor, its path)``.

    Raises:
        OSError: the folder cannot be written (FileExistsError only when 100 random names are all taken).
    """
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        spare = str(path.parent / f".{path.name}.{secrets.token_hex(6)}.new")
        try:
            return os.open(spare, flags, 0o666), spare
        except FileExistsError as exc:
            taken = exc
    raise taken


def _sync_folder(folder: Path) -> None:
    """Put ``folder``'s list of names (a rename just made in it) on the storage; a system or file system that cannot
    sync a folder (no ``O_DIRECTORY``, EINVAL) is passed over: the file itself is on the storage already."""
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0)
    try:
        fd = os.open(folder, flags)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
