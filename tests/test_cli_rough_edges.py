"""Rough edges a newcomer met on the command line: each case is what a player or an owner typed and what they read."""

from __future__ import annotations

from pathlib import Path

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


def test_the_species_help_names_every_species_once_and_how_to_write_them(capsys):
    """`demo --help`'s --species said 'one species per player' twice and named only Rise of the Ancients' four
    species: a newcomer could not tell what to type for the base game's boards."""
    from rules.eclipse.data import SPECIES

    with pytest.raises(SystemExit):
        main(["demo", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    species = out[out.index("--species NAME,NAME with"):out.index("--ancient-homeworlds with")]
    assert all(name in species for name in SPECIES), species
    assert species.count("one per player") + species.count("per player") == 1, species
    assert "an empty entry: none" in species


def test_players_without_a_game_says_which_game_to_give(tmp_path, capsys, monkeypatch):
    """`demo --players "Ann,Bob"` answered '--players does not go with --game d6': a newcomer had given no --game."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    code = main(["demo", "--players", "Ann,Bob", "--db", str(tmp_path / "d.sqlite3"), "--no-web", "--no-screen",
                 "--no-gpio", "--max-frames", "1"])
    assert code == 2
    assert capsys.readouterr().err.strip() == ("companion demo: --players goes with a game: give --game "
                                               "roll|race|among|eclipse (without --game, demo starts d6)")
    assert not (tmp_path / "d.sqlite3").exists()
    assert main(["demo", "--game", "d6", "--players", "Ann,Bob", "--db", str(tmp_path / "d.sqlite3"), "--no-web",
                 "--no-screen", "--no-gpio", "--max-frames", "1"]) == 2
    assert "--players does not go with --game d6" in capsys.readouterr().err


@pytest.mark.parametrize("lang, joined", [("el", "Among the Stars ή Eclipse"), ("pl", "Among the Stars lub Eclipse"),
                                          ("hu", "Among the Stars vagy Eclipse")])
def test_the_games_listed_in_the_help_are_joined_in_its_language(capsys, lang, joined):
    """`companion --language el --help` said 'εγγραφή ενός τελειωμένου παιχνιδιού Roll for the Galaxy, ..., Among the
    Stars or Eclipse': the English 'or' (and 'and' in the description) inside the Greek, Polish and Hungarian help."""
    with pytest.raises(SystemExit):
        main(["--language", lang, "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert joined in out, out
    assert " or " not in out and "Among the Stars and Eclipse" not in out, out


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


@pytest.mark.parametrize("argv", [["read", "--bogus"], ["read", "--bogus=1"], ["enroll", "cards", "--bogus"]])
def test_an_unknown_option_is_named_before_a_missing_argument(capsys, argv):
    """`companion read --bogus` said only "the following arguments are required: IMAGE": the unknown option, the
    likelier mistake, is named, as the other commands name it."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 2 and err[1].endswith(f"error: unrecognized arguments: {argv[-1]}"), err


def test_a_missing_argument_alone_is_still_said(capsys):
    with pytest.raises(SystemExit):
        main(["read"])
    assert capsys.readouterr().err.strip().endswith("error: the following arguments are required: IMAGE")


@pytest.mark.parametrize("lang, usage", [("el", "χρήση: companion demo [επιλογές] [φάκελος]"),
                                         ("pl", "użycie: companion demo [opcje] [katalog]"),
                                         ("hu", "használat: companion demo [opciók] [mappa]")])
def test_the_usage_line_says_its_placeholder_in_the_language(capsys, lang, usage):
    with pytest.raises(SystemExit):
        main(["--language", lang, "demo", "--bogus"])
    assert capsys.readouterr().err.splitlines()[0] == usage


@pytest.mark.parametrize("given", ["", "  "])
def test_an_empty_session_id_is_refused_not_taken_for_the_newest_game(tmp_path, capsys, given):
    """`export --session ''` exported the newest game (or said there was none) as if --session were not there."""
    with pytest.raises(SystemExit) as exit_:
        main(["export", "--db", str(tmp_path / "none.sqlite3"), "--session", given, "--json", "-"])
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "argument --session: an empty game id: give one that `companion sessions` lists" in err
    assert not (tmp_path / "none.sqlite3").exists()


@pytest.mark.parametrize("argv, argument", [(["config", "init", ""], "FILE"),
                                             (["demo", " ", "--once"], "folder"),
                                             (["read", "", "--dice", "d6"], "IMAGE"),
                                             (["sessions", "--db", ""], "--db"),
                                             (["score", "race", ""], "FILE"),
                                             (["export", "--db", "", "--json", "-"], "--db")])
def test_an_empty_path_is_refused_not_taken_for_the_current_folder(tmp_path, capsys, monkeypatch, argv, argument):
    """`config init ''` said ". is a folder" of a folder never given, and `demo ''` replayed the current folder: an
    empty path is a bad command line, named as empty, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    assert f"argument {argument}: an empty path: give a file or folder name" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("lang, words", [("el", "κενή διαδρομή"), ("pl", "pusta ścieżka"), ("hu", "üres elérési út")])
def test_an_empty_path_is_said_in_the_boxs_language(capsys, lang, words):
    with pytest.raises(SystemExit):
        main(["--language", lang, "config", "init", ""])
    assert words in capsys.readouterr().err


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


def _mixed_race_lines(tmp_path):
    """Three Race games as JSON Lines, the second one's start world misspelt."""
    import json

    def game(card):
        return {"players": [{"name": "Ann", "chips": 1, "tableau": [card]},
                            {"name": "Bob", "chips": 0, "tableau": ["Epsilon Eridani"]}]}

    path = tmp_path / "games.jsonl"
    path.write_text("\n".join(json.dumps(game(card)) for card in ("Old Earth", "Old Earht", "New Sparta")) + "\n")
    return path


def test_a_bad_score_line_is_said_once_on_a_terminal(tmp_path, monkeypatch):
    """`companion score race FILE.jsonl` printed each bad line's error on stdout ('line 2: error: ...', in its place
    between the tables) and on stderr: a terminal showed it twice. Where stdout and stderr reach one place it is
    said once, in its place; stdout into a file still leaves the message on stderr, and --json is unchanged."""
    import json
    import os
    import sys

    path = _mixed_race_lines(tmp_path)
    main_fd, tty_fd = os.openpty()  # one terminal, as the shell gives it: stdout and stderr two files on one device
    try:
        with open(tty_fd, "w", closefd=False) as out, open(tty_fd, "w", closefd=False) as err:
            monkeypatch.setattr(sys, "stdout", out)
            monkeypatch.setattr(sys, "stderr", err)
            assert main(["score", "race", str(path)]) == 1
        os.close(tty_fd)
        tty_fd = None
        chunks = []
        while True:  # one read may return only part of what the terminal holds: read until it is drained
            try:
                chunk = os.read(main_fd, 1 << 16)
            except OSError:  # EIO: the terminal's other end is closed and everything written has been read
                break
            if not chunk:
                break
            chunks.append(chunk)
        screen = b"".join(chunks).decode()
    finally:
        os.close(main_fd)
        if tty_fd is not None:
            os.close(tty_fd)
    assert screen.count("Old Earht") == 1 and screen.count("winner: Ann") == 2, screen
    assert screen.index("winner: Ann") < screen.index("line 2: error: ") < screen.rindex("winner: Ann"), screen

    both = tmp_path / "both.txt"  # `> both.txt 2>&1`
    with open(both, "w") as out, open(both, "a") as err:
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stderr", err)
        assert main(["score", "race", str(path)]) == 1
    assert both.read_text().count("Old Earht") == 1

    apart, errors = tmp_path / "apart.txt", tmp_path / "errors.txt"  # `> apart.txt` on a terminal
    with open(apart, "w") as out, open(errors, "w") as err:
        monkeypatch.setattr(sys, "stdout", out)
        monkeypatch.setattr(sys, "stderr", err)
        assert main(["score", "race", str(path)]) == 1
        assert main(["score", "race", str(path), "--json"]) == 1
    rows = [json.loads(line) for line in apart.read_text().splitlines() if line.startswith("{")]
    assert [sorted(row) for row in rows] == [["players", "winners"], ["error", "line"], ["players", "winners"]]
    assert apart.read_text().count("line 2: error: ") == 1
    said = errors.read_text().splitlines()
    assert len(said) == 2 and all(line.startswith(f"companion score: {path}: line 2: ") for line in said), said


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


# -- the configuration file a newcomer writes first ------------------------------------------------------------------

def test_config_check_of_a_missing_file_names_config_init_which_writes_it_whole_and_never_over_a_file(
        tmp_path, capsys, monkeypatch):
    """`companion config check FILE` on a missing FILE said 'write one (`python -m companion.config > FILE`)': outside
    the project's .venv that fails and the shell's `>` has already left an empty FILE. It names `companion config init
    FILE` (the entry point itself), which writes the commented default file and never replaces a file there."""
    import shlex

    missing = tmp_path / "my box" / "config.toml"  # a folder with a space: the command is quoted to be copied
    typed = shlex.quote(str(missing))
    assert main(["config", "check", str(missing)]) == 1
    assert capsys.readouterr().out == (f"{missing}: no such file: write the default one with "
                                       f"`companion config init {typed}`\n")
    monkeypatch.setenv("TABLETOP_CONFIG", str(missing))  # named by the variable: unsetting it is the other way out
    assert main(["config", "check"]) == 1
    assert capsys.readouterr().out == (f"{missing}: no such file: write the default one with "
                                       f"`companion config init {typed}`, or unset $TABLETOP_CONFIG\n")
    monkeypatch.delenv("TABLETOP_CONFIG")

    assert main(["config", "init", str(missing)]) == 0  # its folder made, the file whole
    out = capsys.readouterr().out
    assert out == (f"{missing}: the default configuration written: edit it, then check it with "
                   f"`companion config check {typed}`\n")
    shipped = Path(__file__).resolve().parents[1] / "companion" / "data" / "config.toml"
    assert missing.read_bytes() == shipped.read_bytes()
    assert sorted(p.name for p in missing.parent.iterdir()) == ["config.toml"]  # nothing else left beside it
    assert main(["config", "check", str(missing)]) == 0
    capsys.readouterr()

    missing.write_text('[web]\nport = 9000\n')  # the owner's own file is never replaced
    assert main(["config", "init", str(missing)]) == 1
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == (
        f"companion config init: {missing} is already there: it is not replaced (`companion config check {typed}` "
        "checks it)\n")
    assert missing.read_text() == '[web]\nport = 9000\n'
    assert main(["config", "init", str(tmp_path)]) == 2
    assert capsys.readouterr().err == f"companion config init: {tmp_path} is a folder: give a file name\n"


def test_config_init_that_cannot_write_leaves_no_file_behind(tmp_path, capsys, monkeypatch):
    """A disk that fills up while the file is written: nothing at FILE (not an empty or half file), no spare file
    beside it, one line naming FILE and why, exit 1."""
    import errno

    from companion import owner_commands

    def full(fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(owner_commands.os, "fsync", full)
    target = tmp_path / "config.toml"
    assert main(["config", "init", str(target)]) == 1
    assert capsys.readouterr().err == f"companion config init: cannot write {target}: the disk is full\n"
    assert list(tmp_path.iterdir()) == []


def test_config_init_under_a_file_says_a_file_is_in_the_way_not_that_the_file_is_there(tmp_path, capsys):
    """`companion config init notes.txt/config.toml`, notes.txt a file: it said 'notes.txt/config.toml is already
    there: it is not replaced', of a file that is not there. It says the path cannot be written, a file being where a
    folder should be (as `config check` says of it), exit 1, and notes.txt is untouched."""
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    target = notes / "config.toml"
    assert main(["config", "init", str(target)]) == 1
    assert capsys.readouterr().err == (f"companion config init: cannot write {target}: a file is where a folder "
                                       "should be\n")
    assert notes.read_text() == "mine" and sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


@pytest.mark.parametrize("lang, words", [("el", "γράψτε το προεπιλεγμένο με `companion config init "),
                                         ("pl", "zapisz domyślny poleceniem `companion config init "),
                                         ("hu", "írd ki az alapértelmezettet a `companion config init ")])
def test_config_check_names_config_init_in_the_commands_language(tmp_path, capsys, lang, words):
    missing = tmp_path / "config.toml"
    assert main(["--language", lang, "config", "check", str(missing)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{missing}: ") and f"{words}{missing}`" in out and "python -m" not in out, out
    assert main(["--language", lang, "config", "init", str(missing)]) == 0 and missing.is_file()
    assert "companion config check" in capsys.readouterr().out


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


# -- --players: what comes after ':' and between players -------------------------------------------------------------

@pytest.mark.parametrize("players, said", [
    # an empty colour was taken as "none": a colour forgotten is said so
    ("Ann:,Bob", "companion demo: --players 'Ann:,Bob': 'Ann:': after ':' comes a colour: write one of red, blue, "
                 "green, yellow, purple, or leave ':' out for the first free one"),
    # two colours were refused as a name holding ':'
    ("Ann:red:blue,Bob", "companion demo: --players 'Ann:red:blue,Bob': 'Ann:red:blue': one colour per player: write "
                         "'Ann:red'"),
    # one entry with ';' was only counted
    ("Ann;Bob", "companion demo: Roll for the Galaxy is for 2-5 players, got 1; 'Ann;Bob' holds ';': players are "
                "separated by ',' (\"Ann,Bob\")"),
    ("Ann/Bob", "companion demo: Roll for the Galaxy is for 2-5 players, got 1; 'Ann/Bob' holds '/': players are "
                "separated by ',' (\"Ann,Bob\")"),
    # as before: a name holding ':' and a name of two words are what they are
    ("Dr:Who:red,Bob", "companion demo: --players 'Dr:Who:red,Bob': 'Dr:Who': a name may not hold ',' or ':'"),
    ("Ann Smith", "companion demo: Roll for the Galaxy is for 2-5 players, got 1"),
])
def test_players_are_told_what_comes_after_a_colon_and_between_players(tmp_path, capsys, monkeypatch, players, said):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    code = main(["demo", "--game", "roll", "--players", players, "--db", str(tmp_path / "d.sqlite3"), "--no-web",
                 "--no-screen", "--no-gpio", "--max-frames", "1"])
    assert code == 2
    assert capsys.readouterr().err.strip() == said
    assert not (tmp_path / "d.sqlite3").exists()


def test_a_name_holding_a_separator_is_still_a_name_when_the_count_is_right(tmp_path, capsys, monkeypatch):
    """The hint is for a list that came out too short; 'Ann;x' beside Bob is a player's name like any other."""
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    db = tmp_path / "d.sqlite3"
    assert main(["demo", "--game", "roll", "--players", "Ann;x,Bob:blue", "--db", str(db), "--no-web", "--no-screen",
                 "--no-gpio", "--max-frames", "1"]) == 0
    from companion.session import SessionStore

    with SessionStore(db) as store:
        assert [seat["name"] for seat in store.resume_latest("roll").settings["seats"]] == ["Ann;x", "Bob"]


@pytest.mark.parametrize("lang, empty, two, separator", [
    ("el", "μετά το ':' ακολουθεί ένα χρώμα", "ένα χρώμα ανά παίκτη: γράψτε 'Ann:red'",
     "το όνομα 'Ann;Bob' περιέχει το ';': οι παίκτες χωρίζονται με ','"),
    ("pl", "po ':' podaje się kolor: wpisz jeden z", "jeden kolor na gracza: wpisz 'Ann:red'",
     "'Ann;Bob' zawiera ';': graczy oddziela się znakiem ','"),
    ("hu", "a ':' után egy szín következik", "játékosonként egy szín: írd így: 'Ann:red'",
     "'Ann;Bob': ';' karaktert tartalmaz; a játékosokat ',' választja el"),
])
def test_players_are_told_in_the_commands_language(tmp_path, capsys, monkeypatch, lang, empty, two, separator):
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(tmp_path / "data"))
    for players, words in (("Ann:,Bob", empty), ("Ann:red:blue", two), ("Ann;Bob", separator)):
        assert main(["--language", lang, "demo", "--game", "roll", "--players", players, "--db",
                     str(tmp_path / "d.sqlite3"), "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"]) == 2
        err = capsys.readouterr().err.strip()
        assert "\n" not in err and words in err, err


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


@pytest.mark.parametrize("lang, players, objectives, said", [
    ("en", "Ann,Bob,Cem", "On Budget,Intergalactic Trade",
     "3 players play 3 objectives, not 2 (Among the Stars rulebook, 3 Setup and 8 2-player rules)"),
    ("hu", "Ann,Bob", "On Budget,Intergalactic Trade,First Line of Defense",
     "2 játékoshoz 2 cél jár, nem 3 (Among the Stars szabálykönyv, 3 Előkészületek és 8 2-Játékos Szabályok)"),
])
def test_objectives_on_the_command_line_are_as_many_as_the_players_play(tmp_path, capsys, lang, players, objectives,
                                                                         said):
    """Among the Stars lays as many objectives as there are players, 2 with 2 players (rulebook 3 Setup, 8 2-player
    rules). `--objectives` of another count started the game with a reminder only; it is now refused as Start refuses
    it on the touchscreen and phones, in the command's language, before any database file is made."""
    box = ["--no-web", "--no-screen", "--no-gpio", "--once", "--fast", "--max-frames", "2"]
    code = main(["--language", lang, "demo", "--game", "among", "--players", players, "--objectives", objectives,
                 "--db", str(tmp_path / "d.sqlite3"), *box])
    assert code == 2
    assert said in capsys.readouterr().err
    assert not (tmp_path / "d.sqlite3").exists()
    code = main(["demo", "--game", "among", "--players", "Ann,Bob", "--objectives", "On Budget,Intergalactic Trade",
                 "--db", str(tmp_path / "e.sqlite3"), *box])
    assert code == 0
