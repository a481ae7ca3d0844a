"""`rulesmith` and `python -m generator`. Everything the command imports is imported inside the
boundary, so Ctrl+C from the command's first moment ends in one line, not a traceback."""


def main() -> None:
    try:
        from .cli import main as run

        run()
    except KeyboardInterrupt:
        from .system.faults import interrupted

        interrupted()


if __name__ == "__main__":
    main()
