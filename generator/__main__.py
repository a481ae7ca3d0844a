"""`rulesmith` and `python -m generator`. The command's modules are imported inside the
boundary, so Ctrl+C from the command's first moment ends in one line, not a traceback."""

from .faults import interrupted


def main() -> None:
    try:
        from .cli import main as run

        run()
    except KeyboardInterrupt:
        interrupted()


if __name__ == "__main__":
    main()
