"""The `rulesmith` command: one module per verb under generator/commands/."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .system import faults
from .project import Project, UsageError, find_root


class Context:
    def __init__(self, root: Path):
        self.project = Project(root)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--root", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Project folder (holds content/). Default: the nearest one at or above the current folder.")
@click.version_option(package_name="rulesmith")
@click.pass_context
def cli(ctx: click.Context, root: Path | None) -> None:
    """Rulesmith: validate, check and publish tabletop wargame rules."""
    if root is not None and not root.is_dir():
        raise click.BadParameter(f"'{root}' is not a folder", param_hint="--root")
    ctx.obj = Context((root or find_root(Path.cwd())).resolve())
    from . import outputs

    outputs.confine_to(ctx.obj.project.output)  # every command writes only into this project's output/


def _register() -> None:
    from .commands import build, changes, clean, docs, export, i18n, new, roster, schema, serve, validate

    for module in (validate, export, schema, new, i18n, build, clean, serve, docs, roster, changes):
        cli.add_command(module.command)
    from .commands.check import command as check_command; cli.add_command(check_command)  # noqa: E702


_register()


def main() -> None:
    """Run the command; what the machine does to it (an OS error, Ctrl+C) ends in one line."""
    try:
        cli.main(prog_name="rulesmith", standalone_mode=False)
    except (click.exceptions.Abort, KeyboardInterrupt):
        faults.interrupted()
    except (OSError, faults.Fault) as exc:
        click.echo(f"error: {faults.message(exc)}", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except UsageError as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    sys.exit(0)
