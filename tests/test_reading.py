"""Every file of content, templates or kept state is read one way (generator/system/folders.py's
read_bytes): only a regular file, opened without blocking, up to a size. A named pipe, a socket,
a device, a loop of links or a dangling one is refused at once, never waited on or read
without end."""

from __future__ import annotations

import errno
import os
import signal
import stat
import time
from pathlib import Path

import pytest

from generator.system import folders
from generator.project import keptstate

from .conftest import Workspace

SECONDS = 10  # a refusal is immediate; this only keeps a regression from hanging the suite


@pytest.fixture
def deadline():
    """Fail the test instead of hanging it when a read blocks."""
    def expired(signum, frame):
        raise AssertionError(f"blocked for {SECONDS} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(SECONDS)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, previous)


def test_a_named_pipe_is_refused_without_waiting_for_a_writer(tmp_path: Path, deadline):
    pipe = tmp_path / "chapter.md"
    os.mkfifo(pipe)
    with pytest.raises(folders.Refused) as refused:
        folders.read_bytes(pipe)
    assert refused.value.kind == "a named pipe (FIFO)" and "not a regular file" in refused.value.strerror


def test_a_link_to_a_device_is_refused_unread(tmp_path: Path, deadline):
    link = tmp_path / "chapter.md"
    link.symlink_to("/dev/zero")
    with pytest.raises(folders.Refused) as refused:
        folders.read_bytes(link)
    assert refused.value.strerror == "it is a symbolic link to a character device, not a regular file"


def test_a_socket_and_a_folder_are_refused(tmp_path: Path):
    socket_path = tmp_path / "units.yaml"
    os.mknod(socket_path, stat.S_IFSOCK | 0o600)
    with pytest.raises(folders.Refused, match="a socket"):
        folders.read_bytes(socket_path)
    with pytest.raises(folders.Refused, match="a folder"):
        folders.read_bytes(tmp_path)


def test_a_file_over_the_limit_is_refused_and_one_at_it_is_read(tmp_path: Path):
    path = tmp_path / "big.po"
    path.write_bytes(b"x" * 1000)
    assert folders.read_bytes(path, limit=1000) == b"x" * 1000
    with pytest.raises(folders.Refused) as refused:
        folders.read_bytes(path, limit=999)
    assert refused.value.kind == "too large" and "999 bytes" in refused.value.strerror


def test_links_are_followed_to_their_file_unless_told_not_to(tmp_path: Path):
    (tmp_path / "real.md").write_text("# Title\n", encoding="utf-8")
    (tmp_path / "link.md").symlink_to("real.md")
    assert folders.read_text(tmp_path / "link.md") == "# Title\n"
    with pytest.raises(OSError):
        folders.read_bytes(tmp_path / "link.md", follow=False)


def test_loops_and_dangling_links_raise_what_the_system_says(tmp_path: Path):
    (tmp_path / "loop.md").symlink_to("loop.md")
    (tmp_path / "gone.md").symlink_to("nowhere.md")
    with pytest.raises(OSError) as loop:
        folders.read_bytes(tmp_path / "loop.md")
    assert loop.value.errno == errno.ELOOP
    with pytest.raises(FileNotFoundError):
        folders.read_bytes(tmp_path / "gone.md")
    assert folders.present(tmp_path / "loop.md") and folders.present(tmp_path / "gone.md")
    assert not folders.present(tmp_path / "nothing.md")


def test_the_messages_say_what_stands_there(tmp_path: Path):
    from generator.reading.yamlsource import read_text, unreadable

    (tmp_path / "loop.md").symlink_to("loop.md")
    (tmp_path / "gone.md").symlink_to("nowhere.md")
    os.mkfifo(tmp_path / "pipe.md")
    said = {}
    for name in ("loop.md", "gone.md", "pipe.md"):
        with pytest.raises(OSError) as exc:
            read_text(tmp_path / name)
        said[name] = unreadable(tmp_path / name, exc.value)
    assert "leads back to itself" in said["loop.md"][0]
    assert "link to 'nowhere.md', which does not exist" in said["gone.md"][0]
    assert said["pipe.md"][0] == "cannot read this file: it is a named pipe (FIFO), not a regular file"
    assert all(hint for _message, _where, hint in said.values())


def test_a_kept_state_file_that_is_a_pipe_is_discarded_unread(tmp_path: Path, deadline):
    store = tmp_path / "output" / ".rulesmith" / "fit.json"
    store.parent.mkdir(parents=True)
    os.mkfifo(store)
    with pytest.raises(keptstate.Damaged):
        keptstate.read_json(store)
    assert not folders.present(store)


def test_a_picture_that_is_a_pipe_is_refused_at_once(tmp_path: Path, deadline):
    from generator.safety.pictures import refusal

    os.mkfifo(tmp_path / "map.png")
    found = refusal(tmp_path / "map.png")
    assert found is not None and found.code == "E064" and "named pipe" in found.message


def test_a_template_is_read_through_the_one_reader(tmp_path: Path, monkeypatch):
    """Jinja's own loader opens the file it finds with open(); ours reads it as content is read."""
    from generator.print.context import environment

    (tmp_path / "page.html.j2").write_text("{{ 1 + 1 }}", encoding="utf-8")
    calls = []
    original = folders.read_text
    monkeypatch.setattr(folders, "read_text", lambda path, *a, **k: calls.append(path) or original(path, *a, **k))
    assert environment([tmp_path]).get_template("page.html.j2").render() == "2"
    assert [os.path.basename(p) for p in calls] == ["page.html.j2"]


@pytest.mark.parametrize("command", [("validate",), ("check",), ("build", "--game", "demo", "--only", "reference")])
def test_a_pipe_in_place_of_a_chapter_is_e024_at_once(ws: Workspace, command: tuple[str, ...]):
    """The issue's first finding: validate, check and build waited forever on a named pipe."""
    from .conftest import run_cli

    chapter = ws.game / "rules" / "01-rules.md"
    chapter.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(chapter)
    start = time.monotonic()
    result = run_cli("--root", str(ws.root), *command, timeout=60)
    took = time.monotonic() - start
    output = result.stdout + result.stderr
    assert result.returncode == 1 and "Traceback" not in output, output
    assert "content/demo/rules/01-rules.md: error[E024]: cannot read this file: it is a named pipe (FIFO)" in output
    assert took < 30, f"took {took:.1f} s"
