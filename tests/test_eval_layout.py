"""eval/ as a package of topics: every runnable benchmark records its result, and every result has a writer.

A module under ``eval/<topic>/`` that runs as ``python -m eval.<topic>.<name>`` either calls
:func:`eval.common.record` or is one of :data:`TOOLS`.  Every file under ``eval/results/`` names
the command that wrote it; its ``python -m eval.X.Y`` must be a module that records (or, for the
figures copied from a training log, an ``eud`` subcommand).  Both checks read the sources; nothing
is run.
"""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

from eud.cli import COMMANDS
from eval.common import REPO, RESULTS

# Runnable modules that are no benchmarks: they write packages, data, caches, pictures or pages.
TOOLS = (
    "eval.agrr.cache",
    "eval.enhance.profiles",
    "eval.fidelity.cli_snapshot",
    "eval.gapping.cache",
    "eval.gapping.hard_negatives",
    "eval.gapping.train_verifier",
    "eval.parser.interpolate_weights",
    "eval.parser.ru_training_data",
    "eval.server.render_docs",
)
MODULE = re.compile(r"python -m (eval(?:\.\w+)+)")


def runs_as_main(tree: ast.Module) -> bool:
    """Whether the module has an ``if __name__ == "__main__":`` block."""
    return any(isinstance(node, ast.If) and isinstance(node.test, ast.Compare)
               and isinstance(node.test.left, ast.Name) and node.test.left.id == "__name__"
               and any(isinstance(c, ast.Constant) and c.value == "__main__" for c in node.test.comparators)
               for node in tree.body)


def calls_record(tree: ast.Module) -> bool:
    """Whether the module calls ``record(...)`` (or ``common.record(...)``) anywhere."""
    return any(isinstance(node, ast.Call) and (isinstance(node.func, ast.Name) and node.func.id == "record"
                                               or isinstance(node.func, ast.Attribute) and node.func.attr == "record")
               for node in ast.walk(tree))


def topic_modules() -> dict[str, ast.Module]:
    """Every module of every ``eval/<topic>/`` package, by dotted name, parsed."""
    return {f"eval.{path.parent.name}.{path.stem}": ast.parse(path.read_text(encoding="utf-8"))
            for path in sorted((REPO / "eval").glob("*/*.py"))
            if (path.parent / "__init__.py").is_file() and path.name != "__init__.py"}


def unrecorded(modules: dict[str, ast.Module], tools: tuple[str, ...] = TOOLS) -> list[str]:
    """Runnable modules that neither record a result nor are tools."""
    return [name for name, tree in modules.items() if runs_as_main(tree) and not calls_record(tree)
            and name not in tools]


def module_path(name: str) -> Path:
    """The file ``python -m name`` runs."""
    path = REPO.joinpath(*name.split("."))
    return path / "__main__.py" if path.is_dir() else path.with_suffix(".py")


def test_every_runnable_topic_module_records_or_is_a_tool() -> None:
    assert unrecorded(topic_modules()) == []


def test_a_benchmark_that_forgets_to_record_is_caught() -> None:
    forgot = ast.parse("def main():\n    print(1)\n\nif __name__ == '__main__':\n    main()\n")
    records = ast.parse("from eval.common import record\n\ndef main():\n    record('t', 'n', {}, label='measurement',"
                        " command='c')\n\nif __name__ == '__main__':\n    main()\n")
    library = ast.parse("def helper():\n    return 1\n")
    assert unrecorded({"eval.x.forgot": forgot, "eval.x.records": records, "eval.x.library": library}) == ["eval.x.forgot"]
    assert unrecorded({"eval.x.forgot": forgot}, tools=("eval.x.forgot",)) == []


def test_tools_are_runnable_and_record_nothing() -> None:
    modules = topic_modules()
    for name in TOOLS:
        assert name in modules, f"{name} is listed as a tool but does not exist"
        assert runs_as_main(modules[name]) and not calls_record(modules[name]), name


def test_every_result_names_a_writer_that_exists_and_records() -> None:
    files = sorted(RESULTS.rglob("*.json"))
    assert len(files) > 40
    modules = topic_modules()
    for path in files:
        command = json.loads(path.read_text(encoding="utf-8"))["command"]
        found = MODULE.search(command)
        where = path.relative_to(REPO)
        if found is None:  # figures copied from a training log: the command is an eud subcommand
            words = command.split()
            assert words[0] == "eud" and words[1] in COMMANDS, f"{where}: no writer in {command!r}"
            continue
        name = found.group(1)
        assert module_path(name).is_file(), f"{where}: {command!r} names {name}, which does not exist"
        assert name in modules and calls_record(modules[name]), f"{where}: {name} records no result"
