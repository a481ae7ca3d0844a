"""The older version of a game to compare with: a git revision of the designer's repository,
read with `git archive` into a temporary folder (the work tree is never touched), or an older
copy of the content on disk."""

from __future__ import annotations

import io
import subprocess
import tarfile
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from ..project import UsageError
from ..system import folders
from ..reading.loader import MANIFEST

CONTENT = "content"


def _git(root: Path, *args: str) -> subprocess.CompletedProcess:
    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=120, check=False)
    except FileNotFoundError:
        raise UsageError("git is not installed here; compare with an older copy of the game instead "
                         "(--since-dir DIR)") from None


def _text(done: subprocess.CompletedProcess) -> str:
    return done.stdout.decode("utf-8", "replace").strip()


def revision(root: Path, game_id: str, ref: str) -> tuple[str, str]:
    """(the commit `ref` names, the game's folder in it): UsageError if the project is not in
    git, `ref` is unknown or has no such game."""
    inside = _git(root, "rev-parse", "--show-prefix")
    if inside.returncode != 0:
        raise UsageError(f"{root} is not in a git repository, so --since has nothing to read; "
                         f"compare with an older copy of the game instead (--since-dir DIR)")
    commit = _git(root, "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}") if not ref.startswith("-") else None
    if commit is None or commit.returncode != 0:
        raise UsageError(f"unknown revision '{ref}' in the git repository of {root}; give a tag, a branch "
                         f"or a commit ('git tag' lists the tags)")
    path = f"{_text(inside)}{CONTENT}/{game_id}"
    if _git(root, "cat-file", "-e", f"{_text(commit)}:{path}/{MANIFEST}").returncode != 0:
        raise UsageError(f"{ref} has no {path}/{MANIFEST}: the game is newer than that revision, or was "
                         f"elsewhere then")
    return _text(commit), path


@contextmanager
def from_git(root: Path, game_id: str, ref: str) -> Iterator[Path]:
    """A project folder holding content/GAME as it was at `ref`; removed afterwards.
    UsageError if the project is not in git, `ref` is unknown or has no such game."""
    commit, path = revision(root, game_id, ref)
    top = Path(_text(_git(root, "rev-parse", "--show-toplevel")))  # archive's paths are the repository's
    archive = _git(top, "archive", "--format=tar", commit, "--", path)
    if archive.returncode != 0:
        raise UsageError(f"git archive {ref} failed: {archive.stderr.decode('utf-8', 'replace').strip()}")
    with folders.scratch("rulesmith-since-") as folder:
        with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
            tar.extractall(folder, filter="data")
        yield folder / path.removesuffix(f"{CONTENT}/{game_id}")


@contextmanager
def from_folder(folder: Path, game_id: str) -> Iterator[Path]:
    """A project folder holding content/GAME copied from `folder`: the older game folder
    itself, a content folder holding it, or a project folder holding content/GAME."""
    for candidate in (folder / CONTENT / game_id, folder / game_id, folder):
        if (candidate / MANIFEST).is_file():
            break
    else:
        raise UsageError(f"no {MANIFEST} in {folder}, {folder / game_id} or {folder / CONTENT / game_id}; "
                         f"--since-dir names an older copy of the game's folder (or of content/)")
    with folders.scratch("rulesmith-since-") as root:
        folders.copy(candidate, root / CONTENT / game_id)
        yield root
