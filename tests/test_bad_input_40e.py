"""Bad input of the fifth fresh probe round (issue 40, fix40e): each class refused with one line
naming what is wrong. Cheap: nothing here executes a notebook or builds a book."""
from __future__ import annotations

import importlib.util
import os

import pytest

from helpers import paths


def _book():
    spec = importlib.util.spec_from_file_location("build_book_40e", paths.ROOT / "tools" / "build_book.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def book(tmp_path, monkeypatch):
    monkeypatch.setenv("SUBJEVAL_REPORTS_DIR", str(tmp_path / "rep"))
    (tmp_path / "rep" / "book").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    module = _book()
    # nothing may be built: a refusal must come before the first page
    monkeypatch.setattr(module, "entries_of", lambda profile: pytest.fail("the book was built"))
    return module


def _main(module, capsys, *argv):
    code = module.main(list(argv))
    return code, capsys.readouterr().err


# ---- 1. --profile is a run's name; every folder the builder replaces is checked, links refused ----

@pytest.mark.parametrize("name", ["ABS", "../../victim", "../notebooks", "a/b", ""])
def test_book_profile_is_a_name_not_a_path(book, tmp_path, capsys, name):
    victim = tmp_path / "v"
    victim.mkdir()
    (victim / "thesis.tex").write_text("mine")
    name = str(victim) if name == "ABS" else name
    code, err = _main(book, capsys, "--profile", name, "--no-pdf")
    assert code == 2 and err.count("\n") == 1 and f"--profile {name!r} is not a run's name" in err
    assert (victim / "thesis.tex").read_text() == "mine"


def test_book_folder_through_a_link_out_of_the_reports_root(book, tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / "rep" / "book").rmdir()
    (tmp_path / "rep" / "book").symlink_to(elsewhere)
    code, err = _main(book, capsys, "--profile", "ci", "--no-pdf")
    assert code == 2 and "a symbolic link to" in err and "outside the reports folder" in err
    assert not any(elsewhere.iterdir())


@pytest.mark.parametrize("target", ["outside", "inside"])
def test_book_folder_itself_a_link(book, tmp_path, capsys, target):
    mine = tmp_path / "mine" if target == "outside" else tmp_path / "rep" / "book" / "other"
    mine.mkdir()
    (mine / "keep.txt").write_text("mine")
    (tmp_path / "rep" / "book" / "ci").symlink_to(mine)
    code, err = _main(book, capsys, "--profile", "ci", "--no-pdf")
    assert code == 2 and err.count("\n") == 1 and "symbolic link" in err
    assert (tmp_path / "rep" / "book" / "ci").is_symlink() and (mine / "keep.txt").read_text() == "mine"
    assert not [p for p in (tmp_path / "rep" / "book").iterdir() if p.name.startswith(".ci")]


def test_book_out_link_refused(book, tmp_path, capsys):
    (tmp_path / "mine").mkdir()
    os.symlink(tmp_path / "mine", tmp_path / "link")
    code, err = _main(book, capsys, "--profile", "ci", "--out", "link", "--no-pdf")
    assert code == 2 and "--out" in err and "is a symbolic link" in err


def test_book_out_under_a_file(book, tmp_path, capsys):
    (tmp_path / "f").write_text("a file")
    code, err = _main(book, capsys, "--profile", "ci", "--out", "f/x/book", "--no-pdf")
    assert code == 2 and err.count("\n") == 1 and "f is a file, not a folder" in err


def test_book_oserror_is_one_line(book, capsys, monkeypatch):
    def fail(*a, **k):
        raise PermissionError(13, "Permission denied", "/nowhere/book")
    monkeypatch.setattr(book, "build", fail)
    code, err = _main(book, capsys, "--profile", "ci")
    assert code == 1 and err == "build_book: /nowhere/book: Permission denied\n"


# ---- 4. every option of build_book once ----

@pytest.mark.parametrize("argv", [["--out", "A", "--out", "B"], ["--profile", "ci", "--profile", "real"],
                                  ["--no-pdf", "--no-pdf"], ["--onecolumn", "--onecolumn"]])
def test_book_repeated_option(book, tmp_path, capsys, argv):
    with pytest.raises(SystemExit) as exc:
        book.main(argv)
    assert exc.value.code == 2 and "given twice" in capsys.readouterr().err
    assert not (tmp_path / "A").exists() and not (tmp_path / "B").exists()
