"""Recipes: everything that builds a shipped model package, as one file that ``eud train --recipe`` runs.

A recipe (``recipes/<model>.toml``) names the model and lists its stages in order.  Data paths are
relative to the shared data folder (``../shared/data`` beside the repository, or ``--shared``), so a
fresh clone with the shared data beside it rebuilds the package with one command.  Each stage writes
into the run folder (``work/recipes/<model>`` by default); a finished stage leaves a marker and is
skipped when the command is run again, and a training stage resumes from its last checkpoint, so an
interrupted rebuild continues where it stopped.

Stage kinds:

- ``train``: train a parser from the ``[stage.config]`` table (the keys of ``eud train --config``);
  ``init_from = "stage:<name>"`` starts from an earlier stage's package; ``like = "<name>"`` takes an
  earlier training stage's config, with the keys of ``set`` changed (another seed for an ensemble).  With ``task = "segmenter"``
  it trains a segmenter instead (``train``/``dev``, or a ``[languages]`` table of files per language;
  ``eud.segment.train``).  The result becomes the package.
- ``lexicon`` / ``feats``: write ``lexicon.json`` (lemmas of training forms) or ``feats.json``
  (FEATS per closed-class form) into the package from ``files``.
- ``settings``: set decoding keys of the package's ``config.json`` (``set``), e.g. a label bias or a
  threshold that a named benchmark chose (``chosen_by`` says which command, for the reader).
- ``store``: store the weights as ``weights`` (``int8`` or ``fp16``), optionally without the graph scorer.
- ``ensemble``: make training stage ``base``'s package the package, with the packages of the training
  stages in ``members`` (the same config, other seeds) as the other members (:mod:`eud.nn.ensemble`).
- ``use``: make a folder an earlier ``run`` stage wrote (``folder``) the package.
- ``run``: run a Python module (``module``, ``args``) from the repository root, for artifact steps
  that live in ``eval/`` (``{package}``, ``{shared}``, ``{run}`` and ``{stage:<name>}`` are filled in).
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

KINDS = ("train", "lexicon", "feats", "settings", "store", "run", "use", "ensemble")
DATA_KEYS = ("train", "dev", "test", "extra_dev")


class RecipeError(ValueError):
    """A recipe that cannot be run as written (the message says which key of which stage)."""


def load_recipe(path: str | Path) -> dict[str, Any]:
    """Read and check a recipe: a ``model`` name and a non-empty list of ``[[stage]]`` tables."""
    path = Path(path)
    try:
        recipe = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as err:
        raise RecipeError(f"{path}: cannot read recipe: {err.strerror}") from None
    except tomllib.TOMLDecodeError as err:
        raise RecipeError(f"{path}: bad recipe: {err}") from None
    if not isinstance(recipe.get("model"), str):
        raise RecipeError(f"{path}: a recipe needs model = \"<name>\"")
    stages = recipe.get("stage")
    if not isinstance(stages, list) or not stages:
        raise RecipeError(f"{path}: a recipe needs at least one [[stage]]")
    names = set()
    for i, stage in enumerate(stages, 1):
        name, kind = stage.get("name"), stage.get("kind")
        if not isinstance(name, str) or name in names:
            raise RecipeError(f"{path}: stage {i} needs a name of its own")
        names.add(name)
        if kind not in KINDS:
            raise RecipeError(f"{path}: stage {name!r}: kind must be one of {', '.join(KINDS)}, not {kind!r}")
        if kind == "train" and "like" in stage:
            earlier = next((s for s in stages[:i - 1] if s.get("name") == stage["like"] and s.get("kind") == "train"), None)
            if earlier is None or "like" in earlier:
                raise RecipeError(f"{path}: stage {name!r}: like = {stage['like']!r} must name an earlier training "
                                  "stage with a [stage.config] of its own")
            stage["config"] = {**earlier["config"], **stage.get("set", {})}
        if kind == "train" and not isinstance(stage.get("config"), dict):
            raise RecipeError(f"{path}: stage {name!r}: a train stage needs a [stage.config] table")
        if kind in ("lexicon", "feats") and not stage.get("files"):
            raise RecipeError(f"{path}: stage {name!r}: give the training files (files = [...])")
        if kind == "use" and not isinstance(stage.get("folder"), str):
            raise RecipeError(f"{path}: stage {name!r}: a use stage needs folder = \"...\"")
        if kind == "run" and not isinstance(stage.get("module"), str):
            raise RecipeError(f"{path}: stage {name!r}: a run stage needs module = \"...\"")
        if kind == "ensemble":
            trained = {s.get("name") for s in stages[:i - 1] if s.get("kind") == "train"}
            wanted = [stage.get("base"), *(stage.get("members") or [None])]
            if not stage.get("members") or any(w not in trained for w in wanted):
                raise RecipeError(f"{path}: stage {name!r}: an ensemble stage needs base = \"...\" and members = [...], "
                                  "names of training stages before it")
    return recipe


def default_shared(recipe_path: Path) -> Path:
    """``../shared/data`` beside the repository that holds ``recipes/``."""
    return recipe_path.resolve().parent.parent.parent / "shared" / "data"


class Run:
    """One rebuild: the recipe, where the shared data is, and the run folder."""

    def __init__(self, recipe_path: str | Path, *, shared: Path | None = None, run_dir: Path | None = None,
                 threads: int | None = None, max_steps: int | None = None, max_epochs: int | None = None):
        self.path = Path(recipe_path)
        self.recipe = load_recipe(self.path)
        self.repo = self.path.resolve().parent.parent
        self.shared = (shared or default_shared(self.path)).resolve()
        self.run_dir = (run_dir or self.repo / "work" / "recipes" / self.recipe["model"]).resolve()
        self.package = self.run_dir / "package"
        self.overrides = {k: v for k, v in (("threads", threads), ("max_steps", max_steps),
                                            ("max_epochs", max_epochs)) if v is not None}

    def data(self, value):
        """Data paths made absolute: under the shared folder, or ``{run}/...`` for a file an earlier stage wrote.

        ``value`` is a path, a ``{path = ..., ...}`` table (as in training configs) or a list of them.
        """
        if isinstance(value, list):
            return [self.data(v) for v in value]
        if isinstance(value, dict):
            return {**value, "path": self.data(value["path"])}
        filled = self.fill(value)
        path = Path(filled) if filled != value else self.shared / value
        if not path.is_file():
            where = "an earlier stage did not write it" if filled != value else (
                f"not under {self.shared} (the shared data sits beside the repository, or give --shared)")
            raise RecipeError(f"{self.path}: data file {value}: {where}")
        return str(path)

    def stage_output(self, name: str) -> Path:
        return self.run_dir / name / "model"

    def marker(self, index: int, stage: dict) -> Path:
        return self.run_dir / f"{index:02d}-{stage['name']}.done"

    def fill(self, text: str) -> str:
        text = text.replace("{package}", str(self.package)).replace("{shared}", str(self.shared))
        text = text.replace("{run}", str(self.run_dir))
        for stage in self.recipe["stage"]:
            text = text.replace("{stage:" + stage["name"] + "}", str(self.stage_output(stage["name"])))
        return text

    def stages(self) -> list[tuple[int, dict, bool]]:
        """(index, stage, done) for every stage."""
        out = []
        for i, stage in enumerate(self.recipe["stage"], 1):
            marker = self.marker(i, stage)
            done = marker.is_file() and json.loads(marker.read_text(encoding="utf-8")) == stage
            out.append((i, stage, done))
        return out

    def run(self, *, only: str | None = None, log=print) -> Path:
        """Run every stage not yet done (or only the named one); return the package folder."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        for i, stage, done in self.stages():
            if only is not None and stage["name"] != only:
                continue
            if done and only is None:
                log(f"stage {i} {stage['name']} ({stage['kind']}): done before, skipped")
                continue
            log(f"stage {i} {stage['name']} ({stage['kind']})")
            getattr(self, "_" + stage["kind"])(stage)
            if not self.overrides.get("max_steps"):  # a smoke run's stages are not finished
                self.marker(i, stage).write_text(json.dumps(stage, sort_keys=True), encoding="utf-8")
        return self.package

    def _train(self, stage: dict) -> None:
        config = dict(stage["config"])
        if config.get("task") == "segmenter":
            self._train_segmenter(stage, config)
            return
        from eud.nn.trainer import train_parser

        for key in DATA_KEYS:
            if key in config:
                config[key] = self.data(config[key])
        init = config.get("init_from")
        if isinstance(init, str) and init.startswith("stage:"):
            config["init_from"] = str(self.stage_output(init[len("stage:"):]))
        config["output"] = str(self.stage_output(stage["name"]))
        config["work_dir"] = str(self.run_dir / stage["name"])
        config.update(self.overrides)
        train_parser(config, self._stage_config(stage, config), argv=["--recipe", str(self.path)])
        self._adopt(self.stage_output(stage["name"]))

    def _train_segmenter(self, stage: dict, config: dict) -> None:
        """A ``task = "segmenter"`` training stage: one language (``train``, ``dev``) or many (``[languages]``)."""
        from eud.segment.train import train_segmenter

        for key in ("train", "dev"):
            if key in config:
                config[key] = self.data(config[key])
        if "languages" in config:
            config["languages"] = {lang: self.data(files) for lang, files in config["languages"].items()}
        config["output"] = str(self.stage_output(stage["name"]))
        config["checkpoint"] = str(self.run_dir / stage["name"] / "checkpoint")
        for ours, theirs in (("threads", "threads"), ("max_steps", "max_steps"), ("max_epochs", "epochs")):
            if ours in self.overrides:
                config[theirs] = self.overrides[ours]
        config["command"] = f"eud train --recipe recipes/{self.path.name}"
        if train_segmenter(config, self._stage_config(stage, config)) != 0:
            raise RecipeError(f"{self.path}: stage {stage['name']!r}: the segmenter could not be trained")
        self._adopt(self.stage_output(stage["name"]))

    def _stage_config(self, stage: dict, config: dict) -> Path:
        """Write a training stage's resolved config beside its run folder (what the trainer reads)."""
        path = self.run_dir / f"{stage['name']}.json"
        path.write_text(json.dumps(config, indent=1), encoding="utf-8")
        return path

    def _adopt(self, folder: Path) -> None:
        """Make ``folder`` the package, replacing what an earlier stage made."""
        if self.package.exists():
            shutil.rmtree(self.package)
        shutil.copytree(folder, self.package)

    def _sentences(self, stage: dict):
        from eud.conllu import read_conllu

        for path in self.data(stage["files"]):
            yield from read_conllu(path)

    def _lexicon(self, stage: dict) -> None:
        from eud.nn.lexicon import write_lexicon

        write_lexicon(self.package, self._sentences(stage), lang=stage.get("language"))

    def _feats(self, stage: dict) -> None:
        from eud.nn.morphology import write_feats

        write_feats(self.package, self._sentences(stage), lang=stage.get("language"))

    def _settings(self, stage: dict) -> None:
        path = self.package / "config.json"
        config = json.loads(path.read_text(encoding="utf-8"))
        config.update(stage.get("set", {}))
        for key in stage.get("unset", []):
            config.pop(key, None)
        path.write_text(json.dumps(config, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")

    def _store(self, stage: dict) -> None:
        from eud.nn.package import store_package_weights

        store_package_weights(self.package, stage.get("weights", "int8"),
                              drop_graph_scorer=bool(stage.get("drop_graph_scorer", False)))

    def _ensemble(self, stage: dict) -> None:
        from eud.nn.package import PackageError, add_members

        self._adopt(self.stage_output(stage["base"]))
        try:
            add_members(self.package, [self.stage_output(name) for name in stage["members"]])
        except PackageError as err:
            raise RecipeError(f"{self.path}: stage {stage['name']!r}: {err}") from None

    def _use(self, stage: dict) -> None:
        folder = Path(self.fill(stage["folder"]))
        if not (folder / "config.json").is_file():
            raise RecipeError(f"{self.path}: stage {stage['name']!r}: {folder} is not a package")
        self._adopt(folder)

    def _run(self, stage: dict) -> None:
        args = [self.fill(str(a)) for a in stage.get("args", [])]
        done = subprocess.run([sys.executable, "-m", stage["module"], *args], cwd=self.repo, check=False)
        if done.returncode != 0:
            raise RecipeError(f"{self.path}: stage {stage['name']!r}: {stage['module']} exited {done.returncode}")
