"""What the machine does to a command: a full disk, read-only folders, a file where a folder
must be, Ctrl+C in the first moments, a game folder 1,200 levels deep. Each ends in one line
naming the path and what to do (exit 1; 130 for Ctrl+C), with the content untouched and no
temporary file left behind.

A real full disk is a small tmpfs mounted over output/ in a private mount namespace; a real
read-only folder is `chmod a-w`, run in a user namespace when the tests run as root (root there
has no power over files outside it). Both need `unshare`: on a developer's machine without it
those tests skip, in CI (the variable CI is set) they fail. An injected ENOSPC at the OS
boundary of generator/outputs/__init__.py covers the same paths in-process."""

from __future__ import annotations

import errno
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from generator.system import faults, folders
from generator import outputs
from generator.commands.new import scaffold

from .conftest import REPO, run_cli

CI = bool(os.environ.get("CI"))
ROOT = os.geteuid() == 0
NOSPACE = "no space left on the disk; free some space and run again"


def rulesmith(root: Path, *args: str, prefix: tuple[str, ...] = ()) -> subprocess.CompletedProcess:
    """The command run on `root`; under `prefix` (a command that changes what the process may do,
    like prlimit or unshare) as a real `python -m generator`."""
    if not prefix:
        return run_cli("--root", str(root), *args, timeout=600)
    return subprocess.run([*prefix, sys.executable, "-m", "generator", "--root", str(root), *args],
                          capture_output=True, text=True, cwd=REPO, timeout=600)


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in folders.files(folder)}


def leftovers(folder: Path) -> list[Path]:
    """Temporary files and half-made folders a command left behind."""
    return [p for p in folders.walk(folder) if p.name.endswith(".tmp") or p.name == ".pagefind-new"]


def one_error(result: subprocess.CompletedProcess, code: int = 1) -> str:
    """The single 'error:' line of a failed command (no traceback, nothing else said wrong)."""
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 1, result.stderr
    assert result.returncode == code, result.stderr
    return errors[0]


def _works(command: list[str]) -> bool:
    try:
        return subprocess.run(command, capture_output=True, timeout=30).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def need(command: list[str], what: str) -> None:
    """Skip when this machine cannot do `what`; in CI fail instead."""
    if shutil.which(command[0]) is None or not _works(command):
        if CI:
            pytest.fail(f"{what} does not work on this machine ({' '.join(command)}); CI must run this test")
        pytest.skip(f"{what} does not work here")


def private_mounts() -> tuple[str, ...]:
    """A prefix that runs a command in its own mount namespace (its mounts vanish with it)."""
    prefix = ("unshare", "-m", "--propagation", "private") if ROOT else ("unshare", "-r", "-m", "--propagation", "private")
    need([*prefix, "true"], "a private mount namespace")
    return prefix


def unprivileged() -> tuple[str, ...]:
    """A prefix under which file modes bind: as root, a user namespace of its own."""
    if not ROOT:
        return ()
    need(["unshare", "-U", "true"], "a user namespace")
    return ("unshare", "-U")


def mounted(prefix: tuple[str, ...], mount: str, then: str = "") -> tuple[str, ...]:
    """`prefix` that first runs `mount` (a shell line) in the new namespace, then the command, then
    `then` (a shell line that sees the mount, before it vanishes with the namespace)."""
    return (*prefix, "sh", "-c", f'{mount} && {{ "$@"; status=$?; {then} exit $status; }}', "sh")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    scaffold(root / "content" / "demo", "demo", "Demo")
    return root


# --- the mapping itself ---------------------------------------------------------------------

def test_each_os_error_is_one_sentence_with_the_path_and_what_to_do(tmp_path: Path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    target = tmp_path / "output" / "demo" / "rulebook.pdf"
    assert faults.describe(OSError(errno.ENOSPC, "No space left on device", str(target))) == (
        f"cannot write output/demo/rulebook.pdf: {NOSPACE}")
    assert faults.describe(OSError(errno.EROFS, "Read-only file system", str(target))) == (
        "cannot write output/demo/rulebook.pdf: the disk is mounted read-only; make it writable, "
        "or run the command in a writable copy")
    assert "a folder stands where a file must be; remove or rename that folder" in faults.describe(
        IsADirectoryError(errno.EISDIR, "Is a directory", str(target)))
    assert faults.describe(OSError(errno.ENAMETOOLONG, "File name too long", str(target))) == (
        "cannot use output/demo/rulebook.pdf: the name is too long for this system; "
        "use shorter names or fewer nested folders")
    (tmp_path / "output").write_text("not a folder")
    assert faults.describe(NotADirectoryError(errno.ENOTDIR, "Not a directory", str(target))) == (
        "cannot write output/demo/rulebook.pdf: output is a file where a folder must be; "
        "remove or rename output and run again")
    assert faults.describe(FileExistsError(errno.EEXIST, "File exists", str(tmp_path / "output"))) == (
        "cannot write output: a file stands where a folder must be; remove or rename it and run again")
    (tmp_path / "content").mkdir()
    assert faults.describe(PermissionError(errno.EACCES, "Permission denied", str(tmp_path / "content" / "x.po"))) == (
        "cannot write content/x.po: permission denied; make content writable for the user running the command, "
        "or run the command in a writable copy")
    assert faults.describe(OSError(errno.ENOSPC, "No space left on device")) == f"cannot write: {NOSPACE}"


def test_a_failed_write_names_the_file_not_its_temporary(tmp_path: Path, monkeypatch):
    """A write to a full disk fails on the open file, which names nothing; the message names the
    file being written, and its temporary is gone."""
    def full(path, mode="r", *args, **kwargs):
        handle = open(path, mode, *args, **kwargs)
        handle.write = lambda data: (_ for _ in ()).throw(OSError(errno.ENOSPC, "No space left on device"))
        return handle

    monkeypatch.setattr(outputs, "open", full, raising=False)
    with pytest.raises(OSError) as caught:
        outputs.write_bytes(tmp_path / "a" / "b.pdf", b"%PDF")
    assert caught.value.filename == str(tmp_path / "a" / "b.pdf")
    assert list((tmp_path / "a").iterdir()) == []


# --- a full disk ----------------------------------------------------------------------------

def _run_main(monkeypatch, capsys, *args: str) -> tuple[int, str]:
    """`rulesmith ARGS` through the CLI boundary, in this process."""
    from generator import cli

    monkeypatch.setattr(sys, "argv", ["rulesmith", *args])
    with pytest.raises(SystemExit) as ended:
        cli.main()
    return ended.value.code, capsys.readouterr().err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_injected_full_disk_ends_the_build_in_one_line(project: Path, monkeypatch, capsys, jobs: str):
    """ENOSPC on every document the build writes, in the build process (--jobs 1) or in its
    (forked) workers: the worker's error comes back as the machine's, the build stops, and the
    CLI boundary says it once, naming the document."""
    def full(path, mode="r", *args, **kwargs):
        if "w" in mode and f"{os.sep}output{os.sep}demo{os.sep}" in str(path):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return open(path, mode, *args, **kwargs)

    content = snapshot(project / "content")
    monkeypatch.setattr(outputs, "open", full, raising=False)
    code, err = _run_main(monkeypatch, capsys, "--root", str(project), "build", "--only", "rulebook,cards",
                          "--jobs", jobs)
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 1 and len(errors) == 1, err
    assert errors[0].startswith("error: cannot write ") and errors[0].endswith(NOSPACE), err
    assert "/output/demo/en/" in errors[0] and ".tmp" not in errors[0], err
    assert snapshot(project / "content") == content
    assert leftovers(project / "output") == []


def test_full_disk_while_the_checker_writes_its_tables(tmp_path: Path, monkeypatch, capsys):
    """The probability tables are written in the procedures' own child process: the disk's
    error comes back from it as the disk's, not as a bug in procedures.py."""
    root = tmp_path / "project"
    scaffold(root / "content" / "demo", "demo", "Demo", complete=True)

    def full(path, mode="r", *args, **kwargs):
        if "w" in mode and f"{os.sep}tables{os.sep}" in str(path):
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return open(path, mode, *args, **kwargs)

    monkeypatch.setattr(outputs, "open", full, raising=False)
    code, err = _run_main(monkeypatch, capsys, "--root", str(root), "build", "--only", "reference", "--jobs", "1")
    errors = [line for line in err.splitlines() if line.startswith("error:")]
    assert code == 1 and len(errors) == 1, err
    assert "/output/demo/tables/" in errors[0] and errors[0].endswith(NOSPACE), err


def test_workers_stopped_by_a_fault_leave_no_temporary_file(project: Path, monkeypatch):
    """One document meets a full disk while another worker is half-way through writing its
    file: the build stops that worker at once, and its temporary file goes with it."""
    from generator.print import jobs

    output = project / "output"
    output.mkdir()

    def document(job):
        if job.kind == "slow":  # a temporary file half-written, then a long wait
            with open(outputs._temp_name(output / "slow.pdf"), "wb") as handle:
                handle.write(b"%PDF-half")
            time.sleep(60)
        for _ in range(200):  # the failing one waits until the other is writing
            if leftovers(output):
                break
            time.sleep(0.05)
        raise OSError(errno.ENOSPC, "No space left on device", str(output / "fast.pdf"))

    def done(result):
        if result.fault is not None:
            raise result.fault

    def no_waiting(_processes, within=1.0):
        raise AssertionError("a build stopped by a fault waited for its live workers' exit codes")

    monkeypatch.setattr(jobs, "run_job", document)  # the workers are forked: they run it too
    monkeypatch.setattr(jobs, "_exit_codes", no_waiting)  # a worker that vanished is not this case
    work = [jobs.Job(project, "demo", "en", "slow"), jobs.Job(project, "demo", "en", "fast")]
    started = time.monotonic()
    with pytest.raises(OSError, match="No space"):
        jobs.run_jobs(work, workers=2, on_done=done)
    assert time.monotonic() - started < 30  # the slow worker was stopped, not waited for
    assert leftovers(output) == []


@pytest.mark.parametrize("size", ["8k", "40k", "400k"])
def test_real_full_disk_under_output(project: Path, size: str):
    """output/ on a tmpfs too small for the build: whichever file meets the full disk first
    (the build's state, a PDF, a card image), one line, exit 1, content untouched."""
    output = project / "output"
    prefix = mounted(private_mounts(), f"mount -t tmpfs -o size={size} tmpfs {output}",
                     then=f"find {output} -name '*.tmp' -o -name .pagefind-new | sed 's/^/left: /';")
    output.mkdir()
    content = snapshot(project / "content")
    result = rulesmith(project, "build", "--only", "rulebook,cards,site", prefix=prefix)
    line = one_error(result)
    assert line.startswith("error: cannot write ") and line.endswith(NOSPACE), line
    assert "left: " not in result.stdout, result.stdout
    assert snapshot(project / "content") == content


REWRITE = """
import os, sys
import pikepdf
from generator.print.pdfsave import save

folder = sys.argv[1]
target = os.path.join(folder, "x.pdf")
pdf = pikepdf.new()
pdf.add_blank_page()
pdf.save(target)
with open(os.path.join(folder, "filler"), "wb", buffering=0) as filler:  # the disk full to the byte
    try:
        while True:
            filler.write(b"x" * 512)
    except OSError:
        pass
with pikepdf.open(target, allow_overwriting_input=True) as pdf:
    pdf.pages[0].contents_add(pikepdf.Stream(pdf, os.urandom(int(sys.argv[2]))))
    try:
        save(pdf, target)
    except OSError as exc:
        print("OSError", exc.errno)
"""


@pytest.mark.parametrize("size", [3000, 10000])
def test_a_pdf_rewritten_on_a_full_disk_is_an_os_error_not_an_abort(tmp_path: Path, size: int):
    """qpdf writing a file itself ends the process when the disk is full and the last bytes only
    fail as its file closes ("terminate called after throwing an instance of 'QPDFSystemError'",
    exit 134: a build worker that vanished). Written through pdfsave.save, the document is
    either written whole or the write is an OSError."""
    disk = tmp_path / "disk"
    disk.mkdir()
    prefix = mounted(private_mounts(), f"mount -t tmpfs -o size=40k tmpfs {disk}")
    result = subprocess.run([*prefix, sys.executable, "-c", REWRITE, str(disk), str(size)],
                            capture_output=True, text=True, cwd=REPO, timeout=120)
    assert result.returncode == 0, result.stderr
    assert "terminate called" not in result.stderr
    if size > 4096:  # more than the file's page on the tmpfs already holds: the disk refuses it
        assert result.stdout.strip() == f"OSError {errno.ENOSPC}", result.stdout + result.stderr


def test_no_pdf_is_saved_by_qpdf_itself():
    """Every document changed with pikepdf is written back through pdfsave.save."""
    import ast

    found = []
    for path in sorted((REPO / "generator").rglob("*.py")):
        if path.name == "pdfsave.py" or "pikepdf" not in path.read_text(encoding="utf-8"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "save":
                found.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert found == []


class _Ends:
    """Later work for run_jobs whose worker dies without a word (a library's abort)."""

    def __init__(self, root: Path, kind: str):
        self.root, self.game, self.lang, self.kind, self.cost = root, "demo", "en", kind, 0.0

    @property
    def label(self) -> str:
        return f"demo/en/{self.kind}"

    def run(self):
        if self.kind == "aborts":
            os.abort()
        time.sleep(60)


def test_a_worker_that_vanishes_ends_the_build_in_one_line(project: Path):
    """A worker killed or crashed inside a library leaves the pool broken: the build says so in
    one line naming the documents being made and the signal, stops the other workers at once,
    and leaves no temporary file."""
    from generator.print import jobs

    output = project / "output"
    output.mkdir()
    started = time.monotonic()
    with pytest.raises(faults.Fault) as raised:
        jobs.run_jobs([], workers=2, later=[_Ends(project, "sleeps"), _Ends(project, "aborts")])
    assert time.monotonic() - started < 30
    line = str(raised.value)
    assert line.startswith("a build worker ended abruptly (SIGABRT) while making "), line
    assert "demo/en/aborts" in line and "--jobs 1" in line, line
    assert leftovers(output) == []


def test_a_killed_worker_is_said_to_be_perhaps_out_of_memory():
    from generator.print.jobs import vanished

    line = vanished([-signal.SIGKILL, -signal.SIGTERM, None], ["demo/en/rulebook"])
    assert line.startswith("a build worker ended abruptly (SIGKILL; the system may have run out of "
                           "memory) while making demo/en/rulebook;"), line
    assert vanished([-signal.SIGTERM], []).startswith("a build worker ended abruptly (SIGTERM);")


def test_a_search_index_cut_short_by_a_full_disk_is_an_error_not_a_json_error(tmp_path: Path, monkeypatch):
    """Pagefind exits 0 when the disk fills up under it, leaving empty files; the build used to
    read the empty pagefind-entry.json back and end in a JSONDecodeError."""
    from generator.site.search import check_index

    index = tmp_path / "site" / ".pagefind-new"
    index.mkdir(parents=True)
    (index / "pagefind-entry.json").write_text("")
    (index / "pagefind.js").write_text("x")
    with pytest.raises(faults.Fault, match=r"cannot write .*site/pagefind: Pagefind left pagefind-entry.json"):
        check_index(index, tmp_path / "site" / "pagefind")
    (index / "pagefind-entry.json").write_text('{"languages": {}}')
    check_index(index, tmp_path / "site" / "pagefind")  # a whole index passes

    class Full:
        f_bavail = 0

    monkeypatch.setattr(os, "statvfs", lambda path: Full())
    with pytest.raises(OSError) as caught:
        check_index(index, tmp_path / "site" / "pagefind")
    assert caught.value.errno == errno.ENOSPC and caught.value.filename.endswith("site/pagefind")


@pytest.fixture
def small_disk(tmp_path: Path):
    """A 1 MB disk (a tmpfs) at tmp_path/disk, unmounted after the test."""
    disk = tmp_path / "disk"
    disk.mkdir()
    need(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)], "mounting a tmpfs")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], capture_output=True)


def test_full_disk_in_the_translation_commands_leaves_the_catalogs_as_they_were(small_disk: Path):
    """The i18n commands and `new` write into content/: on a full disk every catalog keeps its
    bytes, no temporary is left beside it, and `new` leaves no half-made game."""
    project = small_disk / "project"
    project.mkdir()
    made = rulesmith(project, "new", "demo", "--languages", "de")
    assert made.returncode == 0, made.stderr
    filler = os.open(small_disk / "filler", os.O_CREAT | os.O_WRONLY)  # the rest of the disk
    try:
        while os.write(filler, b"\0" * 4096):
            pass
    except OSError as exc:
        assert exc.errno == errno.ENOSPC
    finally:
        os.close(filler)
    content = snapshot(project / "content")
    for args in (("i18n", "extract", "demo"), ("i18n", "update", "de", "demo"), ("i18n", "ui", "de", "demo"),
                 ("new", "other", "--languages", "de")):
        line = one_error(rulesmith(project, *args))
        assert line.startswith("error: cannot write ") and line.endswith(NOSPACE) and "/content/" in line, (args, line)
        assert snapshot(project / "content") == content, args
        assert leftovers(project) == [], args


# --- read-only folders ----------------------------------------------------------------------

def _read_only(folder: Path) -> None:
    for path in [folder, *folders.walk(folder)]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode & ~0o222)


def _writable(folder: Path) -> None:
    for path in [folder, *folders.walk(folder)]:
        if not path.is_symlink():
            path.chmod(path.stat().st_mode | 0o200)


@pytest.mark.parametrize("args, where", [
    (("build", "--only", "rulebook"), "output"),
    (("schema",), "output"),
    (("new", "other"), "content/other"),
    (("i18n", "extract", "demo"), "content/demo/locale"),
    (("i18n", "ui", "en", "demo"), "content/demo/locale"),
])
def test_read_only_project(project: Path, args: tuple[str, ...], where: str):
    prefix = unprivileged()
    content = snapshot(project / "content")
    _read_only(project)
    try:
        result = rulesmith(project, *args, prefix=prefix)
    finally:
        _writable(project)
    line = one_error(result)
    assert line.startswith(f"error: cannot write {project / where}: permission denied; make "), line
    assert line.endswith(" writable for the user running the command, or run the command in a writable copy"), line
    assert snapshot(project / "content") == content


def test_read_only_output_and_site(project: Path):
    """A built project whose output/site (then output/) may not be written: the next build that
    has something to write there says so in one line."""
    prefix = unprivileged()
    assert rulesmith(project, "build", "--only", "rulebook,site").returncode == 0
    site = project / "output" / "site"
    (site / "demo" / "en" / "index.html").unlink()  # something to write again
    _read_only(site)
    try:
        result = rulesmith(project, "build", "--only", "rulebook,site", prefix=prefix)
    finally:
        _writable(site)
    line = one_error(result)
    assert "output/site" in line and "permission denied" in line, line
    _read_only(project / "output")
    try:
        result = rulesmith(project, "build", "--only", "rulebook,site", prefix=prefix)
    finally:
        _writable(project / "output")
    line = one_error(result)
    assert "output/.lock: permission denied" in line or "output: permission denied" in line, line


def test_output_on_a_read_only_mount(project: Path):
    prefix = mounted(private_mounts(), f"mount --bind -o ro {project / 'output'} {project / 'output'}")
    (project / "output").mkdir()
    line = one_error(rulesmith(project, "build", "--only", "rulebook", prefix=prefix))
    assert line.endswith("the disk is mounted read-only; make it writable, or run the command in a writable copy")


# --- a file where a folder must be, a folder where a file must be ---------------------------

def test_output_is_a_file(project: Path):
    (project / "output").write_text("notes")
    line = one_error(rulesmith(project, "build", "--only", "rulebook"))
    assert line.endswith("/output: a file stands where a folder must be; remove or rename it and run again"), line
    line = one_error(rulesmith(project, "schema"))  # schema takes the build's lock in output/ first
    assert line.endswith("/output: a file stands where a folder must be; remove or rename it and run again"), line
    assert (project / "output").read_text() == "notes"


def test_site_is_a_file(project: Path):
    (project / "output").mkdir()
    (project / "output" / "site").write_text("notes")
    line = one_error(rulesmith(project, "build", "--only", "site"))
    assert "output/site is a file where a folder must be; remove or rename" in line, line
    assert (project / "output" / "site").read_text() == "notes"


def test_a_folder_where_a_pdf_must_be(project: Path):
    blocker = project / "output" / "demo" / "en" / "rulebook.pdf"
    (blocker / "kept").mkdir(parents=True)
    line = one_error(rulesmith(project, "build", "--only", "rulebook"))
    assert "output/demo/en/rulebook.pdf: a folder stands where a file must be" in line, line
    assert (blocker / "kept").is_dir() and leftovers(project / "output") == []


def test_a_name_near_the_limit_is_written(project: Path):
    """A chapter whose file name is near the system's 255-byte limit gives a site page of a name
    as long; its temporary name (longer still) once failed with ENAMETOOLONG."""
    name = "01-" + "b" * 240
    chapter = project / "content" / "demo" / "rules" / f"{name}.md"
    chapter.parent.mkdir(parents=True, exist_ok=True)
    chapter.write_text("# Long\n\nText.\n", encoding="utf-8")
    result = rulesmith(project, "build", "--only", "site")
    assert result.returncode == 0, result.stderr
    assert [p for p in (project / "output" / "site" / "demo" / "en").iterdir() if len(p.name) > 240]


# --- serve keeps serving ---------------------------------------------------------------------

def test_serve_says_a_full_disk_and_goes_on(project: Path, monkeypatch, capsys):
    from generator.commands.devserver import LiveState
    from generator.commands.serve import rebuild
    from generator.project import Project

    def full(path, mode="r", *args, **kwargs):
        if "w" in mode:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        return open(path, mode, *args, **kwargs)

    monkeypatch.setattr(outputs, "open", full, raising=False)
    state = LiveState(project / "output" / "site")
    rebuild(Project(project), state)  # returns: the server goes on
    assert state.error is not None and state.error.startswith("cannot write ") and state.error.endswith(NOSPACE)
    assert f"error: {state.error}" in capsys.readouterr().err


# --- Ctrl+C -----------------------------------------------------------------------------------

# Python's own start (site-packages' .pth files) runs before any program code and cannot be
# guarded by it; the child says when it has started, and the moments are counted from there.
STARTED = ("import runpy, sys; sys.stdout.write('started\\n'); sys.stdout.flush(); "
           "runpy.run_module('generator', run_name='__main__', alter_sys=True)")


@pytest.mark.parametrize("moment", [0.02, 0.1, 0.3, 1.0, 2.0])
def test_ctrl_c_at_any_moment_ends_in_one_line(project: Path, moment: float):
    """Ctrl+C reaches the whole process group, as from a terminal: the build, its workers, the
    procedures' child, Pagefind. One line, exit 130 (or 0 when it had finished), no traceback,
    no temporary file, the content untouched."""
    content = snapshot(project / "content")
    child = subprocess.Popen([sys.executable, "-c", STARTED, "--root", str(project), "build", "--jobs", "2"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=REPO,
                             start_new_session=True)
    try:
        assert child.stdout.readline() == "started\n"
        time.sleep(moment)
        os.killpg(child.pid, signal.SIGINT)
        out, err = child.communicate(timeout=120)
    finally:
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
            child.wait()
    assert "Traceback" not in err + out, err
    assert child.returncode in (130, 0), err
    if child.returncode == 130:
        assert err.strip() == "Aborted.", err
    assert snapshot(project / "content") == content
    assert leftovers(project / "output") == [] if (project / "output").is_dir() else True


# --- deep folders -----------------------------------------------------------------------------

DEPTH = 1200


@pytest.fixture
def deep():
    """Make `DEPTH` nested folders under a folder, one file at the bottom; removed after the test
    without recursion (pytest's own clean-up of tmp_path recurses, as shutil.rmtree does)."""
    made: list[Path] = []

    def make(folder: Path) -> Path:
        here = os.getcwd()
        folder.mkdir(parents=True, exist_ok=True)
        made.append(folder / "a")
        os.chdir(folder)  # short relative paths: the whole path stays within the system's limit
        try:
            for _ in range(DEPTH):
                os.mkdir("a")
                os.chdir("a")
            Path("bottom.txt").write_text("deep")
            return Path(os.getcwd()) / "bottom.txt"
        finally:
            os.chdir(here)

    yield make
    for folder in made:
        folders.remove(folder)


def test_walk_goes_as_deep_as_the_disk(tmp_path: Path, deep):
    bottom = deep(tmp_path / "tree")
    (tmp_path / "tree" / "loop").symlink_to(tmp_path / "tree")  # listed, not entered
    found = folders.walk(tmp_path / "tree")
    assert len(found) == DEPTH + 2 and bottom in found and tmp_path / "tree" / "loop" in found
    assert folders.files(tmp_path / "tree") == [bottom]
    assert folders.walk(tmp_path / "missing") == []
    folders.copy(tmp_path / "tree", tmp_path / "copy")
    assert (tmp_path / "copy" / bottom.relative_to(tmp_path / "tree")).read_text() == "deep"
    assert (tmp_path / "copy" / "loop").is_symlink()
    with folders.scratch("deep-") as held:
        folders.copy(tmp_path / "tree", held / "tree")
    assert not held.exists()
    folders.remove(tmp_path / "copy")
    folders.remove(tmp_path / "tree")
    assert not (tmp_path / "tree").exists()


def test_no_recursive_walk_over_content():
    """Path.rglob, os.walk and shutil.copytree recurse once per level; only `folders.walk` goes
    as deep as the disk. The slow build below finds such a call only when it lies on its path;
    this finds every one, in the default run."""
    import ast
    found = []
    for path in folders.files(REPO / "generator"):
        if path.suffix != ".py" or path.name == "folders.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr in ("rglob", "walk", "copytree") \
                    and not (isinstance(node.func.value, ast.Name) and node.func.value.id in ("folders", "ast")):
                found.append(f"{path.relative_to(REPO)}:{node.lineno} {node.func.attr}")
    assert found == [], "walk content with generator.system.folders.walk instead"


@pytest.mark.slow  # builds, rebuilds, validates and extracts a game with two 1200-folder-deep trees
def test_a_game_1200_folders_deep_builds(project: Path, deep):
    game = project / "content" / "demo"
    bottom = deep(game / "notes")
    deep(game / "data" / "old")
    result = rulesmith(project, "build", "--only", "rulebook,site")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "RecursionError" not in result.stderr
    assert (project / "output" / "demo" / "en" / "rulebook.pdf").is_file()
    bottom.write_text("deeper")  # a change at the bottom is an input like any other
    again = rulesmith(project, "build", "--only", "rulebook")
    assert again.returncode == 0 and "same as before" in again.stdout, again.stdout + again.stderr
    for args in (("validate",), ("i18n", "extract", "demo")):
        assert rulesmith(project, *args).returncode == 0
