"""Rough edges a newcomer met on the command line with files: each case is a file, photo or folder
that was not what the command needed, and what the player or owner read about it."""

from __future__ import annotations

import pytest

from companion.cli import main
from companion.commands.box import demo_photos

PHOTO = sorted(demo_photos().glob("*.jpg"))[0]


@pytest.mark.parametrize("lang, words", [("el", "δεν είναι αρχείο παιχνιδιού"), ("pl", "nie jest zapisem gry"),
                                         ("hu", "nem játékjegyzőkönyv")])
def test_a_file_that_is_no_session_database_is_said_in_the_boxs_language(tmp_path, capsys, lang, words):
    photo = tmp_path / "holiday.db"
    photo.write_bytes(b"\xff\xd8\xff\xe0 not a database" * 20)
    assert main(["--language", lang, "sessions", "--db", str(photo)]) == 3
    err = capsys.readouterr().err.strip()
    assert words in err and "is not a game record" not in err and "\n" not in err and str(photo) in err
    assert photo.read_bytes() == b"\xff\xd8\xff\xe0 not a database" * 20


# hand-written: the demo's own record that is no game record, and what to do, in each language
MOVE_IT_AWAY = {"el": ("το demo κρατά τα παιχνίδια του", "μετακινήστε το αλλού"),
                "pl": ("demo przechowuje swoje gry", "przenieś go gdzie indziej"),
                "hu": ("a demó játékainak helye", "helyezd át máshová")}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_the_demo_s_own_record_that_is_no_game_record_is_said_in_the_boxs_language(tmp_path, capsys, monkeypatch,
                                                                                    lang):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path))
    record = tmp_path / "demo.sqlite3"
    record.write_bytes(b"\xff\xd8\xff\xe0 not a database" * 20)
    assert main(["--language", lang, "sessions", "--demo"]) == 3
    err = capsys.readouterr().err.strip()
    whose, what = MOVE_IT_AWAY[lang]
    assert whose in err and what in err and f"mv {record} {record}.bad" in err and str(record) in err
    assert "--db" not in err and "game record" not in err and "\n" not in err
    assert record.read_bytes() == b"\xff\xd8\xff\xe0 not a database" * 20


@pytest.mark.parametrize("lang, words", [("el", "η βαθμονόμηση"), ("pl", "kalibracja"), ("hu", "kalibráció")])
def test_a_calibration_that_cannot_be_read_is_said_in_the_boxs_language(tmp_path, capsys, monkeypatch, lang, words):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    bad = tmp_path / "calibration.json"
    bad.write_text("{")
    code = main(["--language", lang, "run", "--game", "among", "--players", "Ann,Bob", "--calibration", str(bad),
                 "--source", str(PHOTO), "--no-screen", "--no-web", "--no-gpio", "--max-frames", "1"])
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert words in err and "cannot be read" not in err and "not valid JSON" not in err and "Expecting" not in err


@pytest.mark.parametrize("lang, words", [("el", "δεν αποκωδικοποιείται"), ("pl", "nie można zdekodować obrazu"),
                                         ("hu", "kép nem dekódolható")])
def test_a_photo_that_cannot_be_decoded_is_said_in_the_boxs_language(tmp_path, capsys, lang, words):
    """`companion --language el read holiday.jpg` on a file that is no picture said 'image holiday.jpg cannot be
    decoded (...)' in English: the device room's errors were plain English strings."""
    photo = tmp_path / "holiday.jpg"
    photo.write_bytes(bytes(range(256)) * 8)
    assert main(["--language", lang, "read", str(photo)]) == 1
    err = capsys.readouterr().err.strip()
    assert words in err and str(photo) in err and "cannot be decoded" not in err and "\n" not in err
    assert main(["read", str(photo)]) == 1  # English as before
    assert capsys.readouterr().err.strip() == (
        f"companion read: image {photo} cannot be decoded (corrupt, or not a "
        ".jpg/.jpeg/.png/.bmp/.webp/.tif/.tiff file): copy it again or delete it")


@pytest.mark.parametrize("lang, words", [("el", "χρειάζονται τουλάχιστον 2"), ("pl", "potrzeba co najmniej 2"),
                                         ("hu", "legalább 2 kell")])
def test_a_sheet_out_of_view_at_calibration_is_said_in_the_boxs_language(tmp_path, capsys, lang, words):
    """`companion calibrate` on a table without the printed sheet said 'saw calibration markers [] but need at least
    2 of [0, 1, 2, 3] (...)' in English on a Greek, Polish or Hungarian box: the first thing an owner sets up."""
    out = tmp_path / "calibration.json"
    assert main(["--language", lang, "calibrate", "--source", str(PHOTO), "--out", str(out)]) == 1
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert words in err and "#0, #1, #2, #3" in err and "[0, 1, 2, 3]" not in err and "need at least" not in err
    assert not out.exists()


@pytest.mark.parametrize("lang, words", [("el", "δεν υπάρχουν υποφάκελοι <card-id>/"), ("pl", "brak podfolderów "
                                         "<card-id>/"), ("hu", "<card-id>/ almappák")])
def test_a_card_folder_without_card_folders_is_said_in_the_boxs_language(tmp_path, capsys, monkeypatch, lang, words):
    """`companion enroll cards mydeck photos/` on a folder of loose photos (no <card-id>/ folders) said
    'photos: no <card-id>/ subfolders holding images' in English."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "photos"
    folder.mkdir()
    (folder / "card.jpg").write_bytes(PHOTO.read_bytes())
    assert main(["--language", lang, "enroll", "cards", "mydeck", str(folder)]) == 1
    err = capsys.readouterr().err.strip()
    assert words in err and str(folder) in err and "subfolders holding images" not in err


def test_a_photo_given_as_the_deck_or_the_dice_profile_is_said_to_be_neither(tmp_path, capsys, monkeypatch):
    """`companion read photo.jpg --cards photo.jpg` (the photo twice, a newcomer's slip) answered 'no deck at
    <data>/decks/photo.jpg.npz: build one ...', and `--dice roll --profile photo.jpg` 'no dice profile at
    <data>/profiles/photo.jpg.json': a file they never named. The photo is said not to be one (exit 2, as a deck
    given as .json); a saved deck or profile of a name is still looked for, and its absence is still exit 3."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "photo.jpg").write_bytes(PHOTO.read_bytes())
    assert main(["read", "photo.jpg", "--cards", "photo.jpg"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"companion read: deck 'photo.jpg': a deck is a .npz file: give a deck name (saved in "
                   f"{tmp_path / 'data' / 'decks'}) or a path ending in .npz")
    assert main(["--language", "pl", "read", "photo.jpg", "--dice", "roll", "--profile", "photo.jpg"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("companion read: photo.jpg nie jest profilem kości") and "profiles" in err
    assert main(["read", "photo.jpg", "--cards", "mine"]) == 3
    assert "no deck at" in capsys.readouterr().err
    assert main(["read", "photo.jpg", "--dice", "roll", "--profile", "mine"]) == 3
    assert "no dice profile at" in capsys.readouterr().err


def test_a_device_given_as_the_session_database_is_said_to_be_no_file(tmp_path, capsys, monkeypatch):
    """`companion demo --db /dev/null` (or a named pipe) answered 'session database /dev/null: opening failed: disk
    I/O error', as if the disk were failing; it is a device, and it is said so (exit 3, as a folder given as --db)."""
    import os

    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    for db in ("/dev/null", str(pipe)):
        assert main(["demo", "--db", db, "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"]) == 3
        err = capsys.readouterr().err.strip().splitlines()[-1]
        assert err.startswith(f"companion demo: session database {db} is a device or a pipe, not a file: give a "
                              "file name") and "I/O" not in err


@pytest.mark.parametrize("option, name, content", [
    ("--deck", "cards.npz", b"PK\x03\x04 half a copy"),
    ("--deck", "cards.npz", b"not a zip at all"),
    ("--dice-profile", "dice.json", b"\xff\xd8\xff\xe0 a photo renamed"),
    ("--dice-profile", "dice.json", b'{"format": "something else"}'),
])
def test_a_deck_or_dice_profile_that_is_garbage_is_a_bad_command_line(tmp_path, capsys, monkeypatch, option, name,
                                                                       content):
    """`run --deck cards.npz` on a file that is no deck at all exited 3 ("no camera or no deck to read with") where
    README's exit codes say a bad argument is 2: it is now 2 (README, Exit codes), in one line naming the file; a
    deck or profile that is not there stays 3."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    bad = tmp_path / name
    bad.write_bytes(content)
    box = ["--source", str(PHOTO), "--no-screen", "--no-web", "--no-gpio", "--max-frames", "1"]
    assert main(["run", "--game", "roll", "--players", "Ann,Bob", option, str(bad), *box]) == 2
    err = capsys.readouterr().err.strip()
    assert str(bad) in err and "\n" not in err and "Traceback" not in err
    assert main(["run", "--game", "roll", "--players", "Ann,Bob", option, str(tmp_path / ("none" + bad.suffix)),
                 *box]) == 3


@pytest.mark.parametrize("lang, folder_words, missing_words", [
    ("en", "is a folder: give a file name", "no deck at"),
    ("el", "είναι φάκελος: δώστε όνομα αρχείου", "δεν υπάρχει τράπουλα"),
    ("pl", "to folder: podaj nazwę pliku", "brak talii"),
    ("hu", "egy mappa: adj meg fájlnevet", "nincs pakli"),
])
def test_a_folder_given_for_a_deck_profile_or_calibration_is_said_to_be_a_folder(tmp_path, capsys, monkeypatch, lang,
                                                                                  folder_words, missing_words):
    """`read photo.jpg --cards dir.npz` answered 'no deck at dir.npz' (exit 3), `--profile dir.json` (or `/tmp`) 'no
    dice profile', `demo --calibration dir.json` 'no calibration': each was a folder, and is now said to be one, in
    the words and with the exit code (2, a bad command line) of `--config FOLDER`; a file that is not there is
    still missing (exit 3)."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    (tmp_path / "dir.npz").mkdir()
    (tmp_path / "dir.json").mkdir()
    photo = str(PHOTO)
    box = ["--no-screen", "--no-web", "--no-gpio", "--max-frames", "1"]
    cases = [
        (["read", photo, "--cards", str(tmp_path / "dir.npz")], tmp_path / "dir.npz"),
        (["read", photo, "--cards", str(tmp_path)], tmp_path),
        (["read", photo, "--dice", "roll", "--profile", str(tmp_path / "dir.json")], tmp_path / "dir.json"),
        (["read", photo, "--dice", "roll", "--profile", str(tmp_path)], tmp_path),
        (["demo", "--game", "roll", "--players", "Ann,Bob", "--calibration", str(tmp_path / "dir.json"),
          "--db", str(tmp_path / "d.sqlite3"), *box], tmp_path / "dir.json"),
        (["run", "--game", "roll", "--players", "Ann,Bob", "--deck", str(tmp_path / "dir.npz"), "--source", photo,
          "--db", str(tmp_path / "d.sqlite3"), *box], tmp_path / "dir.npz"),
        (["run", "--game", "roll", "--players", "Ann,Bob", "--dice-profile", str(tmp_path / "dir.json"),
          "--source", photo, "--db", str(tmp_path / "d.sqlite3"), *box], tmp_path / "dir.json"),
    ]
    for argv, folder in cases:
        assert main(["--language", lang, *argv]) == 2, argv
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and f"{folder}" in err and folder_words in err, (argv, err)
        assert not (tmp_path / "d.sqlite3").exists()  # refused before any session is made
    gone = str(tmp_path / "gone.npz")
    assert main(["--language", lang, "read", photo, "--cards", gone]) == 3
    err = capsys.readouterr().err.strip()
    assert gone in err and missing_words in err and folder_words not in err


# hand-written: the words each language uses for the enrollment's refusals and the replay's skipped photo
NO_PAIR_FOLDERS = {"el": "κανένας υποφάκελος <colour>-<face>/ με φωτογραφίες",
                   "pl": "brak podfolderów <colour>-<face>/ ze zdjęciami",
                   "hu": "nincs fotókat tartalmazó <colour>-<face>/ almappa"}
NONE_READABLE = {"el": "καμία αναγνώσιμη φωτογραφία", "pl": "brak czytelnego zdjęcia", "hu": "nincs olvasható fotó"}
SKIPPING = {"el": "παραλείπεται μια φωτογραφία της αναπαραγωγής: ", "pl": "pomijam zdjęcie z odtwarzania: ",
            "hu": "a visszajátszás egy fotója kimarad: "}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_enroll_roll_dice_refusals_are_said_in_the_commands_language(tmp_path, capsys, monkeypatch, lang):
    """`companion --language el enroll roll-dice DIR` on a folder without <colour>-<face>/ folders, and on one whose
    every photo is unreadable, said 'no <colour>-<face>/ subfolders with photos in DIR' and 'no readable photo in
    DIR: every photo was left out' in English; the folder is named as given."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    loose = tmp_path / "loose"
    loose.mkdir()
    (loose / "die.jpg").write_bytes(PHOTO.read_bytes())
    assert main(["--language", lang, "enroll", "roll-dice", str(loose)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert NO_PAIR_FOLDERS[lang] in err[-1] and str(loose) in err[-1] and "subfolders" not in err[-1]
    broken = tmp_path / "broken"
    (broken / "white-explore").mkdir(parents=True)
    (broken / "white-explore" / "01.jpg").write_bytes(b"not a photo")
    assert main(["--language", lang, "enroll", "roll-dice", str(broken)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert NONE_READABLE[lang] in err[-1] and "left out" not in err[-1] and "more)" not in " ".join(err)
    assert not (tmp_path / "data" / "profiles").exists() or not any((tmp_path / "data" / "profiles").iterdir())


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_replayed_photo_that_cannot_be_decoded_is_skipped_in_the_commands_language(tmp_path, caplog, lang):
    """`companion --language pl demo FOLDER` with a broken photo logged 'skipping: image ... cannot be decoded' in
    English; the warning is the command's language, the photo named, the good photo still replayed."""
    from companion.commands.box import replay_options
    from companion.i18n import use_language
    from device import open_source

    (tmp_path / "a.jpg").write_bytes(b"not a photo")
    (tmp_path / "b.jpg").write_bytes(PHOTO.read_bytes())
    with use_language(lang), caplog.at_level("WARNING"):
        with open_source(str(tmp_path), **replay_options(str(tmp_path), 1.0, realtime=False)) as source:
            frame = source.read()
    assert frame.image.shape[2] == 3
    said = [r.getMessage() for r in caplog.records if "a.jpg" in r.getMessage()]
    assert len(said) == 1 and said[0].startswith(SKIPPING[lang]) and "cannot be decoded" not in said[0], said


def test_more_pairs_than_shown_are_counted_in_the_commands_language():
    """The list of pairs cut after eight ends '(+3 more)' in English, '(+3 więcej)' in Polish."""
    from companion.enroll_guided import Pair, describe_pairs
    from companion.i18n import use_language

    pairs = [Pair(colour, face) for colour in ("white", "red", "blue") for face in ("explore", "develop", "settle",
                                                                                     "produce")][:11]
    assert describe_pairs(pairs) == "white-explore, white-develop, white-settle, white-produce, red-explore, " \
                                    "red-develop, red-settle, red-produce (+3 more)"
    with use_language("pl"):
        assert describe_pairs(pairs).endswith("red-produce (+3 więcej)")


# hand-written: "no such file or folder" as a Greek, Polish and Hungarian player reads it
NO_SUCH_FILE = {"el": "δεν υπάρχει τέτοιο αρχείο ή φάκελος", "pl": "nie ma takiego pliku ani folderu",
                "hu": "nincs ilyen fájl vagy mappa"}


@pytest.mark.parametrize("lang", ["el", "pl", "hu"])
def test_a_photo_that_is_not_there_is_said_in_the_boxs_language_with_its_path(tmp_path, capsys, lang):
    """`companion --language pl read missing.jpg` said "... missing.jpg: No such file or directory": the system's
    English inside a Polish line. The reason is said in the players' words, the path as it was given."""
    missing = tmp_path / "missing.jpg"
    assert main(["--language", lang, "read", str(missing)]) != 0
    err = capsys.readouterr().err.strip()
    assert NO_SUCH_FILE[lang] in err and str(missing) in err and "No such file" not in err, err


@pytest.mark.parametrize("lang, given, words", [("en", "nosuchfolder", "does not exist: give a folder of photos"),
                                                ("el", "nosuch.mp4", "δεν υπάρχει"),
                                                ("pl", "nosuch.mp4", "nie istnieje"),
                                                ("hu", "nosuchfolder", "nem létezik")])
def test_a_demo_folder_or_video_that_is_not_there_is_said_missing(tmp_path, capsys, monkeypatch, lang, given, words):
    """`companion demo nosuchfolder` answered 'unknown camera source ...; use one of: auto, picamera2[:N],
    opencv:N, ...': demo's argument is always a folder or a video, and one that is not there is said missing, its
    path named, before any session database is made."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    assert main(["--language", lang, "demo", given, "--db", str(tmp_path / "d.sqlite3"), "--no-web", "--no-screen",
                 "--no-gpio", "--max-frames", "1"]) == 3
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"{tmp_path / given} {words}" in err, err
    assert "picamera2" not in err and "camera source" not in err, err
    assert not (tmp_path / "d.sqlite3").exists()


@pytest.mark.parametrize("lang, words", [("en", "is a folder: give a file name"), ("el", "είναι φάκελος"),
                                         ("pl", "to folder"), ("hu", "egy mappa")])
def test_a_folder_given_by_name_as_the_deck_is_said_to_be_a_folder(tmp_path, capsys, monkeypatch, lang, words):
    """`companion read photo.jpg --cards adir` with `adir` a folder here answered 'no deck at <data>/decks/adir.npz':
    a file they never named. The folder is named as one (exit 2), as `--cards /tmp` is; a saved deck of that name is
    still the one read."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    assert main(["--language", lang, "read", str(PHOTO), "--cards", "adir"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "adir" in err and words in err and "decks" not in err, err
    (tmp_path / "data" / "decks").mkdir(parents=True)
    (tmp_path / "data" / "decks" / "adir.npz").write_bytes(b"not a zip at all")  # the saved deck named 'adir'
    assert main(["read", str(PHOTO), "--cards", "adir"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("companion read: cannot load deck adir: ") and "folder" not in err, err


@pytest.mark.parametrize("lang, words", [("en", "is a folder: give a file name"), ("el", "είναι φάκελος"),
                                         ("pl", "to folder"), ("hu", "egy mappa")])
def test_a_folder_given_by_name_as_the_dice_profile_is_said_to_be_a_folder(tmp_path, capsys, monkeypatch, lang,
                                                                          words):
    """`companion read photo.jpg --dice roll --profile adir` with `adir` a folder here answered 'no dice profile at
    <data>/profiles/adir.json': a file they never named. The folder is named as one (exit 2), as `--profile /tmp` is;
    a saved profile of that name is still the one read."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    assert main(["--language", lang, "read", str(PHOTO), "--dice", "roll", "--profile", "adir"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "adir" in err and words in err and "profiles" not in err, err
    (tmp_path / "data" / "profiles").mkdir(parents=True)
    (tmp_path / "data" / "profiles" / "adir.json").write_text("not a profile")  # the saved profile named 'adir'
    assert main(["read", str(PHOTO), "--dice", "roll", "--profile", "adir"]) == 2
    err = capsys.readouterr().err.strip()
    assert "is a folder" not in err and "profiles/adir.json" in err, err  # the saved profile was read


def test_a_folder_given_by_name_as_the_box_dice_profile_is_said_to_be_a_folder(tmp_path, capsys, monkeypatch):
    """`companion run --dice-profile adir` with `adir` a folder here is refused before the camera opens, the folder
    named, not the saved profile 'adir.json' that is not there; no session database is made."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    code = main(["demo", "--game", "roll", "--players", "Ann,Bob", "--dice-profile", "adir", "--db",
                 str(tmp_path / "d.sqlite3"), "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"])
    err = capsys.readouterr().err.strip()
    assert code == 2 and "adir is a folder: give a file name" in err and "profiles" not in err, err
    assert not (tmp_path / "d.sqlite3").exists()


# -- a data folder that is a file ------------------------------------------------------------------------------------

DATA_FILE_LINE = "companion: the data folder {path} is a file, not a folder: give $TABLETOP_DATA_DIR or box.data_dir " \
                 "a folder the box can write"


def test_a_data_folder_that_is_a_file_is_said_once_naming_it(tmp_path):
    """`TABLETOP_DATA_DIR=notes.txt companion demo` logged 'box.data_dir: "notes.txt" is a file: give a folder' and
    'the box goes on with the defaults', then stopped with exit 3 'cannot make the data folder (a file is where a
    folder should be) ...: notes.txt': the box never went on. It is said once, the path named as a file; exit 3."""
    from tests.test_cli import run_cli

    notes = tmp_path / "notes.txt"
    notes.write_text("not a folder")
    # (the demo plays on in a temporary folder instead: tests/test_config_language.py)
    from companion.commands.box import demo_photos

    for argv in (["run", "--source", str(demo_photos()), "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"],
                 ["sessions"]):
        result = run_cli(*argv, env_extra={"TABLETOP_DATA_DIR": str(notes)}, timeout=120)
        assert result.returncode == 3, result.stderr
        said = [line for line in result.stderr.splitlines() if str(notes) in line or "WARNING" in line]
        assert said == [DATA_FILE_LINE.format(path=notes)], result.stderr
        assert "defaults" not in result.stderr and "cannot make" not in result.stderr
    assert notes.read_text() == "not a folder"


@pytest.mark.parametrize("lang, words", [("el", "ο φάκελος δεδομένων {path} είναι αρχείο, όχι φάκελος"),
                                         ("pl", "folder danych {path} to plik, nie folder"),
                                         ("hu", "az adatmappa ({path}) egy fájl, nem mappa")])
def test_a_data_folder_that_is_a_file_is_said_in_the_commands_language(tmp_path, capsys, monkeypatch, lang, words):
    notes = tmp_path / "notes.txt"
    notes.write_text("not a folder")
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(notes))
    assert main(["--language", lang, "sessions"]) == 3
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and words.format(path=notes) in err and "$TABLETOP_DATA_DIR" in err, err
    assert err.count(str(notes)) == 1, err


# -- a folder given to an option names the option --------------------------------------------------------------------

def _folder_cases(tmp_path):
    box = ["--db", str(tmp_path / "d.sqlite3"), "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"]
    photo = str(PHOTO)
    return [
        (["read", photo, "--cards", "adir"], "read", "--cards"),
        (["read", photo, "--dice", "roll", "--profile", "adir"], "read", "--profile"),
        (["demo", "--game", "among", "--players", "Ann,Bob", "--deck", "adir", *box], "demo", "--deck"),
        (["demo", "--game", "roll", "--players", "Ann,Bob", "--dice-profile", "adir", *box], "demo", "--dice-profile"),
        (["demo", "--game", "choose", "--deck", "adir", *box], "demo", "--deck"),
        (["demo", "--game", "choose", "--dice-profile", "adir", *box], "demo", "--dice-profile"),
        (["demo", "--game", "eclipse", "--players", "Ann,Bob", "--dice-profile", "adir", *box], "demo",
         "--dice-profile"),
        (["demo", "--game", "among", "--players", "Ann,Bob", "--calibration", "adir", *box], "demo", "--calibration"),
        (["calibrate", "--source", photo, "--deck", "adir", "--out", str(tmp_path / "c.json")], "calibrate", "--deck"),
    ]


def test_a_folder_given_to_an_option_names_the_option(tmp_path, capsys, monkeypatch):
    """`--deck adir`, `--cards adir`, `--profile adir`, `--dice-profile adir` with `adir` a folder said 'adir is a
    folder: give a file name' without saying which option took it: the option is named (exit 2), nothing made."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    for argv, command, option in _folder_cases(tmp_path):
        assert main(argv) == 2, argv
        assert capsys.readouterr().err.strip() == f"companion {command}: {option} adir is a folder: give a file name"
        assert not (tmp_path / "d.sqlite3").exists() and not (tmp_path / "c.json").exists()
    assert main(["read", str(PHOTO), "--cards", str(tmp_path / "adir")]) == 2  # a path: named as given
    assert capsys.readouterr().err.strip() == (f"companion read: --cards {tmp_path / 'adir'} is a folder: give a "
                                               "file name")


@pytest.mark.parametrize("lang, words", [("el", "--dice-profile adir: είναι φάκελος: δώστε όνομα αρχείου"),
                                         ("pl", "--dice-profile adir to folder: podaj nazwę pliku"),
                                         ("hu", "--dice-profile adir egy mappa: adj meg fájlnevet")])
def test_the_option_given_a_folder_is_named_in_the_commands_language(tmp_path, capsys, monkeypatch, lang, words):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)
    (tmp_path / "adir").mkdir()
    assert main(["--language", lang, "demo", "--game", "roll", "--players", "Ann,Bob", "--dice-profile", "adir",
                 "--db", str(tmp_path / "d.sqlite3"), "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"]) == 2
    assert capsys.readouterr().err.strip() == f"companion demo: {words}"
