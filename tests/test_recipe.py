"""Recipes: every shipped model has one, ``eud train --recipe`` runs its stages, and ta_ttb rebuilds to its card.

The fast tests run a tiny recipe end to end (train, lexicon, settings, int8) on a fixture and check
that a rerun skips what is done; the slow one rebuilds ``models/ta_ttb`` from ``recipes/ta_ttb.toml``
with the shared data and compares its tuning-slice scores with the card's.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from eud.recipe import RecipeError, Run, load_recipe
from tests.conftest import FIXTURES, REPO

# The shared data beside the repository; EUD_SHARED_DATA points elsewhere (e.g. from a git worktree).
SHARED = Path(os.environ.get("EUD_SHARED_DATA", REPO.parent / "shared" / "data"))
SHIPPED = sorted(p.parent.name for p in (REPO / "models").glob("*/config.json"))

TINY = """\
model = "tiny"

[[stage]]
name = "parser"
kind = "train"

[stage.config]
train = ["parser_tiny.conllu"]
dev = "parser_tiny.conllu"
language = "en"
threads = 1
max_epochs = 2
batch_words = 200
graph_mode = "rules"

[stage.config.encoder]
type = "charlstm"
char_dim = 8
char_out = 16
word_dim = 8
lstm_hidden = 16
lstm_layers = 1

[stage.config.model]
graph = false
tag_hidden = 16
arc_dim = 16
label_dim = 8

[[stage]]
name = "lexicon"
kind = "lexicon"
files = ["parser_tiny.conllu"]

[[stage]]
name = "settings"
kind = "settings"
set = {label_bias = {orphan = 1.5}}

[[stage]]
name = "int8"
kind = "store"
weights = "int8"
"""


@pytest.mark.parametrize("model", SHIPPED)
def test_every_shipped_model_has_a_recipe_and_its_card_points_to_it(model: str) -> None:
    recipe = load_recipe(REPO / "recipes" / f"{model}.toml")
    assert recipe["model"] == model
    assert any(stage["kind"] == "train" for stage in recipe["stage"])
    card = (REPO / "models" / model / "MODEL.md").read_text(encoding="utf-8")
    assert f"eud train --recipe recipes/{model}.toml" in card
    assert not re.search(r"(?<![\w./])work/", card), "the card points to a scratch path under work/"
    assert not re.search(r"git show [0-9a-f]{7}", card), "the card points to an old commit"


@pytest.mark.parametrize("model", SHIPPED)
def test_every_recipe_names_data_that_is_in_the_shared_folder(model: str) -> None:
    if not (SHARED / "ud").is_dir():
        pytest.skip(f"shared data not found at {SHARED}")
    run = Run(REPO / "recipes" / f"{model}.toml", shared=SHARED)
    for stage in run.recipe["stage"]:
        named = [stage["config"].get(k) for k in ("train", "dev", "test", "extra_dev")] if stage["kind"] == "train" \
            else [stage.get("files")]
        for value in filter(None, named):
            flat = value if isinstance(value, list) else [value]
            for item in flat:
                path = item["path"] if isinstance(item, dict) else item
                if "{run}" not in path:
                    assert Path(run.data(path)).is_file()


def test_a_bad_recipe_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('model = "x"\n[[stage]]\nname = "a"\nkind = "bake"\n', encoding="utf-8")
    with pytest.raises(RecipeError, match="kind must be one of"):
        load_recipe(path)
    done = subprocess.run([sys.executable, "-m", "eud", "train", "--recipe", str(path)], capture_output=True,
                          text=True, cwd=REPO, check=False)
    assert done.returncode == 2 and "kind must be one of" in done.stderr and "Traceback" not in done.stderr


def test_a_missing_data_file_names_the_shared_folder(tmp_path: Path) -> None:
    (tmp_path / "recipes").mkdir()
    path = tmp_path / "recipes" / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    with pytest.raises(RecipeError, match="parser_tiny.conllu: not under"):
        Run(path, shared=tmp_path / "nowhere", run_dir=tmp_path / "run").run(log=lambda m: None)


def test_a_tiny_recipe_runs_every_stage_and_a_rerun_skips_them(tmp_path: Path, one_torch_thread) -> None:
    (tmp_path / "recipes").mkdir()
    path = tmp_path / "recipes" / "tiny.toml"
    path.write_text(TINY, encoding="utf-8")
    run = Run(path, shared=FIXTURES, run_dir=tmp_path / "run")
    package = run.run(log=lambda m: None)
    config = json.loads((package / "config.json").read_text(encoding="utf-8"))
    assert config["weights"] == "int8" and config["label_bias"] == {"orphan": 1.5}
    assert (package / "lexicon.json").is_file() and (package / "model.safetensors").is_file()
    parsed = subprocess.run([sys.executable, "-m", "eud", "parse", "--model", str(package), "--threads", "1", "-q",
                             "--input-format", "tokenized", "-"], input="The dog barks .\n", capture_output=True,
                            text=True, cwd=REPO, check=False)
    assert parsed.returncode == 0, parsed.stderr
    assert [line.split("\t")[1] for line in parsed.stdout.splitlines() if line.split("\t")[0].isdigit()] == \
        ["The", "dog", "barks", "."]
    messages: list[str] = []
    Run(path, shared=FIXTURES, run_dir=tmp_path / "run").run(log=messages.append)
    assert messages == [f"stage {i} {n} ({k}): done before, skipped" for i, (n, k) in
                        enumerate([("parser", "train"), ("lexicon", "lexicon"), ("settings", "settings"),
                                   ("int8", "store")], 1)]


TINY_SEGMENTER = """\
model = "tiny_segmenter"

[[stage]]
name = "segmenter"
kind = "train"

[stage.config]
task = "segmenter"
epochs = 1
batch_size = 2
window = 16
hidden = 8
char_dim = 8
min_char_count = 1
holdout = 2
lang_dim = 4

[stage.config.languages]
en = ["segment_train.conllu"]
xx = ["segment_train.conllu"]
"""


def test_a_segmenter_recipe_builds_the_multilingual_package(tmp_path: Path, one_torch_thread) -> None:
    (tmp_path / "recipes").mkdir()
    path = tmp_path / "recipes" / "tiny_segmenter.toml"
    path.write_text(TINY_SEGMENTER, encoding="utf-8")
    package = Run(path, shared=FIXTURES, run_dir=tmp_path / "run", max_steps=2).run(log=lambda m: None)
    assert (package / "multi" / "model.safetensors").is_file()
    assert {p.name for p in package.iterdir() if p.is_dir()} >= {"multi", "en", "xx"}
    assert "Command: `eud train --recipe recipes/tiny_segmenter.toml`" in (package / "multi" / "MODEL.md").read_text()
    from eud.segment import Segmenter

    words = [w for s in Segmenter.load(package / "en").segment("We can go.") for w in s.words]
    assert "".join(w.form for w in words) == "Wecango."


def test_the_shipped_segmenters_have_a_recipe_whose_data_is_shared() -> None:
    card = (REPO / "models" / "segmenters" / "multi" / "MODEL.md").read_text(encoding="utf-8")
    assert "eud train --recipe recipes/segmenters.toml" in card
    run = Run(REPO / "recipes" / "segmenters.toml", shared=SHARED)
    (stage,) = run.recipe["stage"]
    languages = stage["config"]["languages"]
    assert sorted(languages) == sorted(p.name for p in (REPO / "models" / "segmenters").iterdir()
                                       if p.is_dir() and p.name != "multi")
    if (SHARED / "ud").is_dir():
        assert all(Path(run.data(f)).is_file() for files in languages.values() for f in files)


@pytest.mark.slow
def test_ta_ttb_rebuilds_from_its_recipe_to_its_card(tmp_path: Path) -> None:
    """About 6 minutes on a quiet thread: up to 60 epochs of the Tamil parser (patience 10), then int8."""
    if not (SHARED / "ud" / "ta_ttb").is_dir():
        pytest.skip(f"shared UD data not found at {SHARED}")
    done = subprocess.run([sys.executable, "-m", "eud", "train", "--recipe", str(REPO / "recipes" / "ta_ttb.toml"),
                           "--run-dir", str(tmp_path / "run"), "--shared", str(SHARED)], cwd=REPO, capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    row = re.compile(r"^\| tune ta \| rules \|(.*)\|$", re.MULTILINE)
    card = [float(x) for x in row.search((REPO / "models/ta_ttb/MODEL.md").read_text()).group(1).split("|")]
    built = [float(x) for x in row.search((tmp_path / "run/parser/model/MODEL.md").read_text()).group(1).split("|")]
    # UPOS, XPOS, UFeats, Lemmas, UAS, LAS, ELAS on the 150-sentence tuning slice: within noise of the card.
    assert all(abs(a - b) <= 3.0 for a, b in zip(card, built)), (card, built)
    assert json.loads((tmp_path / "run/package/config.json").read_text())["weights"] == "int8"
    shutil.rmtree(tmp_path / "run")
