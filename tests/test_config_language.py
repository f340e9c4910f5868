"""The box's configuration as an owner writes it: a language written "EL", "Pl", "hu_HU" or "greek" is the box's
language it means; one close to a language is refused saying which it likely meant; a configuration link to a file
that is not there says what to do with the link, not to write over it; the demo plays in a temporary folder when the
data folder cannot be written, while a real run refuses that folder."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from companion import i18n
from companion.cli import main
from companion.cli_types import language_arg
from companion.config import load, setting


@pytest.mark.parametrize("written, code", [
    ("EL", "el"), ("Pl", "pl"), ("HU", "hu"), ("hu_HU", "hu"), ("el-GR", "el"), ("pl_PL.UTF-8", "pl"),
    ("greek", "el"), ("Hungarian", "hu"), ("Ελληνικά", "el"), ("magyar", "hu"), ("Polski", "pl"), ("en_GB", "en"),
    ("węgierski", "hu"), ("ell", "el"),
])
def test_a_language_that_means_one_of_the_boxs_is_taken(tmp_path, written, code):
    path = tmp_path / "config.toml"
    path.write_text(f'version = 1\n\n[box]\nlanguage = "{written}"\n', encoding="utf-8")
    config = load(path, env={})
    assert config["box.language"] == code and not config.problems
    assert config.values["box.language"].raw == written  # `config show` still shows what was written


@pytest.mark.parametrize("written, likely", [("gr", "el"), ("GR", "el"), ("grek", "el"), ("hungarain", "hu"),
                                             ("gb", "en"), ("polnisch", "pl")])
def test_a_language_close_to_one_is_refused_with_the_code_it_likely_meant(written, likely):
    with pytest.raises(ValueError) as refused:
        setting("box.language").value_of(written)
    assert f'(did you mean "{likely}"?)' in str(refused.value), refused.value


@pytest.mark.parametrize("written, likely", [("ελ", "el"), ("ΕΛ", "el"), ("έλ", "el"), ("πλ", "pl"), ("ηθ", "hu"),
                                             ("εν", "en"), ("ελ_ΓΡ", "el"), ("ｅｌ", "el"), ("ＨＵ", "hu")])
def test_a_code_typed_with_the_greek_layout_on_is_refused_with_the_code_it_meant(capsys, written, likely):
    """A Greek owner types "el" with the keyboard still on the Greek layout and gets "ελ" (the keys E and L); a phone's
    full-width keyboard gives "ｅｌ". Both were refused with no hint (no code is a letter or two away); now the
    refusal names the code on the same keys, as for "gr", and takes nothing on its own."""
    with pytest.raises(ValueError) as refused:
        setting("box.language").value_of(written)
    assert str(refused.value).endswith(f'is not one of en, el, pl, hu (did you mean "{likely}"?)'), refused.value
    with pytest.raises(SystemExit) as stopped:
        main(["--language", written, "config", "show"])
    assert stopped.value.code == 2 and f'(did you mean "{likely}"?)' in capsys.readouterr().err


def test_a_language_like_none_is_refused_listing_the_choices():
    with pytest.raises(ValueError) as refused:
        setting("box.language").value_of("klingon")
    assert str(refused.value) == '"klingon" is not one of en, el, pl, hu'


def test_the_language_variable_takes_it_too(tmp_path):
    config = load(None, env={"TABLETOP_LANGUAGE": "PL", "HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path)})
    assert config["box.language"] == "pl"


@pytest.mark.parametrize("lang, words", [
    ("en", "is a link to {target}, which is not there: write the default file there with `companion config init "
           "{target}`, or point the link at your configuration file"),
    ("el", "είναι σύνδεσμος προς το {target}, που δεν υπάρχει"),
    ("pl", "jest dowiązaniem do {target}, którego nie ma"),
    ("hu", "hivatkozás erre: {target}, ami nem létezik"),
])
def test_a_link_to_nothing_says_where_it_points_not_to_write_over_it(tmp_path, capsys, lang, words):
    """`config check LINK` of a link to a missing file said "no such file: write the default one with `companion
    config init LINK`", which then refused ("already there"): the link is named with its target, and the command
    that writes the target."""
    target = tmp_path / "kept" / "config.toml"
    link = tmp_path / "config.toml"
    link.symlink_to(target)
    assert main(["--language", lang, "config", "check", str(link)]) == 1
    out = capsys.readouterr().out
    assert words.format(target=target) in out, out
    assert main(["config", "init", str(target)]) == 0  # the advice works: the link now reads the default file
    capsys.readouterr()
    assert main(["config", "check", str(link)]) == 0


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux's /proc, where nothing can be made")
@pytest.mark.parametrize("lang, words", [("en", "this demo keeps its games in"), ("el", "αυτή η επίδειξη κρατά"),
                                         ("pl", "ta demonstracja trzyma swoje gry w"),
                                         ("hu", "ez a bemutató a játékait helyette itt tartja")])
def test_the_demo_plays_in_a_temporary_folder_when_the_data_folder_cannot_be_written(tmp_path, capsys, monkeypatch,
                                                                                   lang, words):
    """`box.data_dir` on a folder nothing can be made in stopped the demo (exit 3); a player trying the demo expects
    it to play. It says on one line why and where its games go, and the folder goes when it stops; `companion run`
    still refuses the folder (a table's games would be lost)."""
    from companion.commands.box import demo_photos

    config = tmp_path / "config.toml"
    config.write_text('version = 1\n\n[box]\ndata_dir = "/proc/nope/box"\n', encoding="utf-8")
    monkeypatch.setenv("TABLETOP_CONFIG", str(config))
    monkeypatch.delenv("TABLETOP_DATA_DIR", raising=False)
    assert main(["--language", lang, "demo", "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"]) == 0
    err = [line for line in capsys.readouterr().err.splitlines() if "companion demo:" in line]
    assert len(err) == 1 and words in err[0] and "/proc/nope/box" in err[0], err
    # the folder first, then what is wrong with it and the advice, then where the games go
    assert err[0].startswith("companion demo: /proc/nope/box: "), err
    assert err[0].index("box.data_dir") < err[0].index(words), err
    spare = Path(_folder_named(err[0]))
    assert spare.is_dir() and spare.name.startswith("companion-demo-")  # removed when the process ends (atexit)
    assert os.environ.get("TABLETOP_DATA_DIR") in (None, "")  # the command's own, not left to the next
    i18n.set_box_language("en")
    assert main(["run", "--source", str(demo_photos()), "--no-web", "--no-screen", "--no-gpio",
                 "--max-frames", "1"]) == 3
    assert "/proc/nope/box" in capsys.readouterr().err and not Path("/proc/nope").exists()


def _folder_named(line: str) -> str:
    """The temporary folder a demo's line names (the word starting with the system's temporary folder)."""
    import tempfile

    start = tempfile.gettempdir() + "/companion"
    return next(word for word in line.replace(",", " ").split() if word.startswith(start))


@pytest.mark.parametrize("written", [["--language", "EL"], ["--language=el_GR"], ["--language", "greek"]])
def test_the_language_flag_takes_it_too(capsys, written):
    assert main([*written, "config", "show"]) == 0
    assert "προεπιλογή" in capsys.readouterr().out  # "default", said in Greek


@pytest.mark.parametrize("written, said", [
    ("gr", '"gr" is not one of en, el, pl, hu (did you mean "el"?)'),  # Greece's code, not Greek's
    ("grek", '"grek" is not one of en, el, pl, hu (did you mean "el"?)'),
    ("el\x01", '"el\\u0001" is not one of en, el, pl, hu (did you mean "el"?)'),  # a control character shown escaped
    ("", '"" is not one of en, el, pl, hu'),
    ("zh", '"zh" is not one of en, el, pl, hu: "zh" is Chinese, which the box does not speak'),
    ("x" * 1000, '"' + "x" * 60 + '…" is not one of en, el, pl, hu'),  # cut, not a screenful
])
def test_the_language_flag_refuses_as_the_setting_does(capsys, written, said):
    """``--language gr`` is refused with the code it likely meant, as ``box.language = "gr"`` is; the command stops
    with the usage error (2) and runs nothing."""
    with pytest.raises(SystemExit) as stopped:
        main(["--language", written, "config", "show"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.rstrip().endswith(f"argument --language: {said}"), err


def test_the_language_flag_refusal_is_said_in_the_boxs_language(capsys, monkeypatch):
    monkeypatch.setenv("TABLETOP_LANGUAGE", "pl")
    with pytest.raises(SystemExit):
        main(["--language", "gr", "config", "show"])
    assert '"gr" nie jest jednym z: en, el, pl, hu (czy chodziło o "el"?)' in capsys.readouterr().err


@pytest.mark.parametrize("link, said", [
    ("loop", "cannot make the data folder (links that lead back to themselves)"),
    ("unmounted", "is a link to {target}, which is not there (a disk not mounted?)"),
])
def test_a_data_folder_link_to_nothing_is_said_so_and_nothing_made_at_its_target(tmp_path, capsys, monkeypatch,
                                                                                 link, said):
    """`box.data_dir` on a link to a USB stick not mounted, or on a link loop: the demo said "a file is where a folder
    should be" and stopped (exit 3). Now the demo plays in a temporary folder naming the link's problem, `run`
    refuses it (exit 3) with the same words, and no folder is made at the link's target (that would fill the SD
    card under an empty mount point)."""
    from companion.commands.box import demo_photos

    data = tmp_path / "box-data"
    target = tmp_path / "usb" / "companion"
    data.symlink_to(data if link == "loop" else target)
    said = said.format(target=target)
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(data))
    monkeypatch.delenv("TABLETOP_CONFIG", raising=False)
    assert main(["demo", "--no-web", "--no-screen", "--no-gpio", "--max-frames", "1"]) == 0
    err = [line for line in capsys.readouterr().err.splitlines() if "companion demo:" in line]
    assert len(err) == 1 and said in err[0] and str(data) in err[0], err
    monkeypatch.setenv("TABLETOP_DATA_DIR", str(data))
    assert main(["run", "--source", str(demo_photos()), "--no-web", "--no-screen", "--no-gpio",
                 "--max-frames", "1"]) == 3
    assert said in capsys.readouterr().err
    assert not (tmp_path / "usb").exists() and data.is_symlink()


def test_a_configuration_link_loop_is_said_in_words(tmp_path, capsys):
    loop = tmp_path / "config.toml"
    loop.symlink_to(loop)
    assert main(["--language", "pl", "config", "check", str(loop)]) != 0
    said = capsys.readouterr()
    assert "(dowiązania prowadzące z powrotem do samych siebie)" in said.out + said.err


@pytest.mark.parametrize("written, shown", [
    ("\u200bel", '"\\u200bel"'),  # a zero width space pasted before "el": said, not hidden
    ("e\u00a0l", '"e\\u00a0l"'),  # a no-break space inside, not a plain one
    ("\u202eel", '"\\u202eel"'),  # a right-to-left override
])
def test_a_refused_language_shows_what_cannot_be_seen(written, shown):
    """``box.language = "\u200bel"`` was refused as ``"el" is not one of en, el, pl, hu (did you mean "el"?)``: the
    character that made it wrong printed as nothing. It is shown as TOML writes it (and reads it back)."""
    with pytest.raises(ValueError) as refused:
        setting("box.language").value_of(written)
    assert str(refused.value).startswith(f'{shown} is not one of en, el, pl, hu'), str(refused.value)


@pytest.mark.parametrize("written, said", [
    ("uk", '"uk" is not one of en, el, pl, hu: "uk" is Ukrainian, which the box does not speak'),
    ("UK", '"UK" is not one of en, el, pl, hu: "UK" is Ukrainian, which the box does not speak'),
    ("cy", '"cy" is not one of en, el, pl, hu: "cy" is Welsh, which the box does not speak'),
    ("deu", '"deu" is not one of en, el, pl, hu: "deu" is German, which the box does not speak'),
])
def test_another_languages_code_is_refused_naming_it_without_a_guess(written, said):
    """"uk" is Ukrainian's code (ISO 639-1), not the United Kingdom's (GB): it was answered 'did you mean "en"?'. Now
    the refusal names the language the code is (CLDR's name, through Babel) and the box's own, and guesses none; in
    the reader's language, the language's name too."""
    with pytest.raises(ValueError) as refused:
        setting("box.language").value_of(written)
    assert str(refused.value) == said
    message = refused.value.args[0]
    assert i18n.say(message, "el") == (f'το "{written}" δεν είναι ένα από τα en, el, pl, hu: το "{written}" σημαίνει '
                                       f'τη γλώσσα «{i18n.say(message.params["language"], "el")}», που το κουτί δεν '
                                       "μιλά")
    if written == "uk":
        assert "«Ουκρανικά»" in i18n.say(message, "el") and "„ukraiński”" in i18n.say(message, "pl")
        assert "ukrán" in i18n.say(message, "hu")


@pytest.mark.parametrize("written", ["el-", "EL-", "el_", "el--GR", "el-1", "hu-HU-", "hu-h", "hu-HU-u-", "pl-PL-x",
                                     "el-GR-u-c", "el-GR-x-toolongtag"])
def test_a_malformed_language_tag_is_refused_not_taken(written):
    """BCP 47 (through Babel's Locale.parse): "el-" has an empty subtag, so it is no language tag; it was taken as
    Greek. Now it is refused, saying why and how to write it; "el-GR" and a region CLDR has no data for ("el-XX")
    are still Greek."""
    with pytest.raises(ValueError) as refused:
        setting("box.language").value_of(written)
    assert "not a language tag" in str(refused.value) and "did you mean" not in str(refused.value)
    primary = written[:2].lower()
    assert str(refused.value).endswith(f'write "{primary}", or "{primary}-" and a region such as "{primary}-'
                                       f'{ {"el": "GR", "hu": "HU", "pl": "PL"}[primary] }"')
    assert setting("box.language").value_of("el-GR") == "el" and setting("box.language").value_of("el-XX") == "el"


@pytest.mark.parametrize("written, code", [
    ("en-US-u-ca-gregory", "en"), ("el-GR-u-nu-latn", "el"), ("hu-HU-x-phonebk", "hu"), ("pl-x-a", "pl"),
    ("EL_GR-U-CA-GREGORY", "el"),
])
def test_a_language_tag_with_extensions_or_private_use_is_its_language(written, code):
    """BCP 47 (RFC 5646 2.1): after the language and region a tag may carry extensions ("-u-ca-gregory": the
    Gregorian calendar) and private use ("-x-phonebk"), which say nothing about the language. "en-US-u-ca-gregory"
    was refused as "not a language tag"; it is English, and the CLI flag takes it too."""
    assert setting("box.language").value_of(written) == code
    assert language_arg(written) == code


@pytest.mark.parametrize("written, said", [
    ("uk", '"uk" is not one of en, el, pl, hu: "uk" is Ukrainian, which the box does not speak'),
    ("el-", '"el-" is not one of en, el, pl, hu: not a language tag'),
])
def test_the_language_flag_refuses_another_language_and_a_malformed_tag_too(capsys, written, said):
    with pytest.raises(SystemExit) as stopped:
        main(["--language", written, "config", "show"])
    assert stopped.value.code == 2
    assert f"argument --language: {said}" in capsys.readouterr().err
