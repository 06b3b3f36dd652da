"""The ``eud`` command: one subcommand per job, each a ``main(argv=None)``.

Subcommands are listed explicitly in :data:`COMMANDS`; each entry imports its
module only when it runs, so ``eud validate`` never loads torch.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

Main = Callable[[list[str] | None], int]


def _validate() -> Main:
    from eud.validate_command import main

    return main


def _collapse() -> Main:
    from eud.collapse import main

    return main


def _evaluate() -> Main:
    from eud.evaluate import main

    return main


def _enhance() -> Main:
    from eud.enhance import main

    return main


def _profile() -> Main:
    from eud.profile import main

    return main


def _train() -> Main:
    from eud.nn.train import main

    return main


def _parse() -> Main:
    from eud.parse import main

    return main


def input_error(prog: str, err: Exception, name: str | None = None) -> int:
    """Print a subcommand's one-line error for unreadable input or output and return exit code 1.

    ``OSError`` is shown as ``file: reason`` (``name`` stands in when the error
    names no file); anything else (``ConlluError`` and friends already name
    file and line) is shown as is.
    """
    if isinstance(err, OSError):
        message = f"{err.filename or name}: {err.strerror}"
    else:
        message = str(err)
    print(f"{prog}: {message}", file=sys.stderr)
    return 1


# name -> (one-line summary, loader of its main)
COMMANDS: dict[str, tuple[str, Callable[[], Main]]] = {
    "parse": ("raw text or CoNLL-U in, enhanced CoNLL-U out (neural parser)", _parse),
    "enhance": ("basic UD trees in, enhanced UD graphs out (rule-based)", _enhance),
    "evaluate": ("IWPT-style scores: LAS, ELAS, EULAS and more", _evaluate),
    "validate": ("check (and --fix) enhanced graphs as UD level-2 validation does", _validate),
    "collapse": ("replace empty nodes by path labels such as conj>nsubj", _collapse),
    "profile": ("learn an enhancer language profile from gold data", _profile),
    "train": ("train a parser or segmenter model package", _train),
}


def usage() -> str:
    """The top-level help text."""
    lines = [
        "usage: eud COMMAND [ARGS...]",
        "",
        "eud: enhanced Universal Dependencies toolkit.",
        "",
        "commands:",
    ]
    lines += [f"  {name:<10} {summary}" for name, (summary, _) in COMMANDS.items()]
    lines += ["", "Run 'eud COMMAND --help' for a command's options and examples."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Dispatch to a subcommand."""
    args = sys.argv[1:] if argv is None else list(argv)
    if not args or args[0] in ("-h", "--help"):
        print(usage())
        return 0 if args else 2
    if args[0] in ("-V", "--version"):
        from eud import __version__

        print(f"eud {__version__}")
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        print(f"eud: unknown command {name!r}\n\n{usage()}", file=sys.stderr)
        return 2
    try:
        return COMMANDS[name][1]()(rest)
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
