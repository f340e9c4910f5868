"""Where the box keeps its files on disk."""

from __future__ import annotations

import errno
import hashlib
import os
import re
from pathlib import Path

import platformdirs

from vision.whole_file import BY_UMASK, plain_spare, write_whole

__all__ = ["APP_NAME", "BY_UMASK", "DATA_DIR_ENV", "WEB_KEY_NAME", "DataFolderError", "data_dir", "data_dir_is_a_file",
           "data_dir_problem", "default_db_path", "demo_db_path", "demo_settings_path", "plain_spare",
           "web_secret_key", "write_whole"]

APP_NAME = "tabletop-companion"
DATA_DIR_ENV = "TABLETOP_DATA_DIR"
"""Environment variable that, when set and non-empty, replaces the platform data directory."""


class DataFolderError(OSError):
    """The data folder cannot be made: the box has no session database, profiles or calibration to work with
    (``companion`` exits 3, as for any session database it cannot open)."""


def data_dir() -> Path:
    """The directory for the session database and profiles, created if missing.

    ``$TABLETOP_DATA_DIR`` when set (``~`` expanded), else platformdirs'
    ``user_data_dir("tabletop-companion")`` (``~/.local/share/tabletop-companion`` on the Pi).

    Raises:
        DataFolderError: the directory cannot be created (read-only file system, permissions, a file of that name):
            its ``strerror`` names the data folder and the setting to change, its ``filename`` the path (a file
            there is said as that, the path named in the ``strerror`` itself).
    """
    override = os.environ.get(DATA_DIR_ENV, "").strip()
    path = Path(override).expanduser() if override else Path(platformdirs.user_data_dir(APP_NAME))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DataFolderError(exc.errno, _unmakeable(path, exc), str(path)) from exc
    return path


def _unmakeable(path: Path, exc: OSError) -> str:
    """Why the data folder ``path`` cannot be made or written, ``exc`` the error met, in the command's language."""
    from companion.i18n import _, os_reason, say

    if path.is_symlink() and not path.exists():  # a link to a folder not there (a disk not mounted) or a link loop
        try:
            os.stat(path)
        except OSError as met:
            if met.errno == errno.ELOOP:
                exc = met
            else:  # never made at the link's target: that would write under an empty mount point
                return _("the data folder {path} is a link to {target}, which is not there (a disk not mounted?): "
                         "give $TABLETOP_DATA_DIR or box.data_dir a folder the box can write, or make that "
                         "folder").format(path=path, target=os.path.realpath(path))
    elif path.exists() and not path.is_dir():  # the folder named is a file (a photo, notes): said as that
        return _("the data folder {path} is a file, not a folder: give $TABLETOP_DATA_DIR or box.data_dir a "
                 "folder the box can write").format(path=path)
    there = _nearest_existing(path)
    if exc.errno == errno.ENOENT and there.is_dir():  # "no such file" from a folder that is there: /proc, /sys
        return _("cannot make the data folder: {folder} takes no new folders (a system folder?): give "
                 "$TABLETOP_DATA_DIR or box.data_dir a folder the box can write").format(folder=there)
    return _("cannot make the data folder ({problem}): give $TABLETOP_DATA_DIR or box.data_dir a folder "
             "the box can write").format(problem=say(os_reason(exc)))


def _nearest_existing(path: Path) -> Path:
    """``path`` when it exists (a link to nothing counts: it is there), else its nearest parent that does (``/`` at
    last)."""
    while not path.exists() and not path.is_symlink() and path.parent != path:
        path = path.parent
    return path


def data_dir_problem(path: Path) -> str | None:
    """Why the box could not keep its data in the folder ``path`` (``box.data_dir``), said as :func:`data_dir` says
    it at start, or None when it can: nothing is left behind. The folder, or its nearest existing parent when it is
    missing, is tried with a probe folder made and removed there (``os.access`` says yes to root even in /proc,
    where nothing can be made).

    Args:
        path: the folder (``~`` expanded here).

    Returns:
        The problem in the command's language (a file of that name, a parent that is a file, a read-only disk, a
        folder the user may not write, a system folder such as /proc), or None.
    """
    import tempfile

    path = Path(path).expanduser()
    if (path.exists() or path.is_symlink()) and not path.is_dir():  # a file, a link to nothing or a link loop
        return _unmakeable(path, NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)))
    probe_in = _nearest_existing(path)
    try:
        if not probe_in.is_dir():  # a file where one of its folders should be
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR), str(probe_in))
        os.rmdir(tempfile.mkdtemp(dir=probe_in, prefix=".companion-probe-"))
    except OSError as exc:
        return _unmakeable(path, exc)
    return None


def data_dir_is_a_file() -> bool:
    """Whether ``$TABLETOP_DATA_DIR`` names a file: :func:`data_dir` then refuses it (exit 3, the path named), so the
    configuration's own warning about that variable (its default "used") is not said before it."""
    override = os.environ.get(DATA_DIR_ENV, "").strip()
    return bool(override) and Path(override).expanduser().exists() and not Path(override).expanduser().is_dir()


def default_db_path() -> Path:
    """``data_dir() / "sessions.sqlite3"``: the session log the box uses unless told otherwise."""
    return data_dir() / "sessions.sqlite3"


def demo_db_path() -> Path:
    """The demo's session database (``companion demo``; ``export --demo``, ``sessions --demo``), never the box's.

    With a data folder given (``$TABLETOP_DATA_DIR``, or ``box.data_dir`` of the configuration, which sets it),
    ``demo.sqlite3`` in it: that folder is this configuration's own. In the user's data directory, which every
    clone of the program on the machine shares, each checkout (clone, worktree or install) keeps its own,
    ``demo-<its folder's name>-<8 hex digits of its path's SHA-256>.sqlite3``: a demo in one clone neither
    shows another's games nor waits for another's running demo (one box per database). ``demo``, ``run`` and
    ``sessions`` name the file they use.
    """
    if os.environ.get(DATA_DIR_ENV, "").strip():
        return data_dir() / "demo.sqlite3"
    root = Path(__file__).resolve().parent.parent  # the checkout (or the site-packages) holding this program
    tag = hashlib.sha256(os.fsencode(root)).hexdigest()[:8]
    name = re.sub(r"[^A-Za-z0-9_.-]+", "-", root.name).strip("-.")[:40] or "checkout"
    return data_dir() / f"demo-{name}-{tag}.sqlite3"


def demo_settings_path() -> Path:
    """The demo's own settings screen file (``companion demo``), never the box's ``box-settings.json``.

    Beside :func:`demo_db_path` and named after it (``demo-settings.json``, or
    ``demo-<its folder's name>-<8 hex digits>-settings.json`` in the shared folder): a language, brightness or sound
    picked during a demo is kept for the next demo of this checkout and leaves the real box as it was.

    Raises:
        DataFolderError: as :func:`data_dir`.
    """
    db = demo_db_path()
    return db.with_name(f"{db.stem}-settings.json")


WEB_KEY_NAME = "phone-view.key"
"""File in :func:`data_dir` holding the key that signs the phones' session cookies (hex, mode 0600)."""

_KEY_BYTES = 32


def web_secret_key(path: Path | None = None) -> bytes:
    """The box's own key for signing the phone view's session cookies, made once and kept.

    The key is 32 random bytes (:func:`secrets.token_bytes`) stored as hex in ``path`` (default
    ``data_dir() / "phone-view.key"``) with mode 0600, so phones stay joined across restarts and no other
    user on the box can read it. A file that others may read is narrowed to 0600; a damaged one (wrong
    length, not hex) is replaced by a new key (phones then scan the QR code again).

    Raises:
        OSError: the key can neither be read nor written (read-only or full disk, permissions).
    """
    import secrets
    import stat

    path = Path(path) if path is not None else data_dir() / WEB_KEY_NAME
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            path.chmod(0o600)
        try:
            key = bytes.fromhex(path.read_text(encoding="ascii").strip())
        except (ValueError, UnicodeDecodeError):
            key = b""
        if len(key) == _KEY_BYTES:
            return key
        key = secrets.token_bytes(_KEY_BYTES)  # damaged: replace it whole (write a new file, then rename)
        spare = path.with_name(path.name + ".new")
        spare.unlink(missing_ok=True)
        fd = os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        _write_key(fd, key)
        os.replace(spare, path)
        return key
    key = secrets.token_bytes(_KEY_BYTES)
    _write_key(fd, key)
    return key


def _write_key(fd: int, key: bytes) -> None:
    with os.fdopen(fd, "w", encoding="ascii") as file:
        file.write(key.hex() + "\n")
        file.flush()
        os.fsync(file.fileno())
