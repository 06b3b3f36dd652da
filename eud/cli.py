"""The ``eud`` command: one subcommand per job, each a ``main(argv=None)``.

Subcommands are listed explicitly in :data:`COMMANDS`; each lives in its own
module under :mod:`eud.commands`, imported only when it runs, so ``eud
validate`` never loads torch.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

Main = Callable[[list[str] | None], int]


def _validate() -> Main:
    from eud.commands.validate import main

    return main


def _collapse() -> Main:
    from eud.commands.collapse import main

    return main


def _evaluate() -> Main:
    from eud.commands.evaluate import main

    return main


def _enhance() -> Main:
    from eud.commands.enhance import main

    return main


def _profile() -> Main:
    from eud.commands.profile import main

    return main


def _train() -> Main:
    from eud.commands.train import main

    return main


def _parse() -> Main:
    from eud.commands.parse import main

    return main


def _render() -> Main:
    from eud.commands.render import main

    return main


def _agrr() -> Main:
    from eud.commands.agrr import main

    return main


def _models() -> Main:
    from eud.commands.models import main

    return main


def _serve() -> Main:
    from eud.commands.serve import main

    return main


# name -> (one-line summary, loader of its main)
COMMANDS: dict[str, tuple[str, Callable[[], Main]]] = {
    "parse": ("raw text or CoNLL-U in, enhanced CoNLL-U out (neural parser)", _parse),
    "models": ("the shipped models, their languages and test figures", _models),
    "enhance": ("basic UD trees in, enhanced UD graphs out (rule-based)", _enhance),
    "evaluate": ("IWPT-style scores: LAS, ELAS, EULAS and more", _evaluate),
    "validate": ("check CoNLL-U as UD's validator does (levels 1-2); --fix repairs enhanced graphs", _validate),
    "collapse": ("replace empty nodes by path labels such as conj>nsubj", _collapse),
    "profile": ("learn an enhancer language profile from gold data", _profile),
    "train": ("train a parser or segmenter model package", _train),
    "render": ("draw graphs as one self-contained HTML page (--compare marks differences)", _render),
    "agrr": ("AGRR-2019 (Russian gapping): answer from eud's empty nodes, or --score answers", _agrr),
    "serve": ("HTTP server speaking UDPipe's REST API, plus /enhance, /evaluate, /render", _serve),
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
    from eud.commands.errors import EXIT_CODES

    lines += ["", "Run 'eud COMMAND --help' for a command's options and examples.", "", EXIT_CODES]
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
