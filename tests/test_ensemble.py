"""Ensembles: packages of one recipe trained with other seeds, decoded as one (eud.nn.ensemble)."""

from __future__ import annotations

import json
import shutil

import pytest
from conftest import FIXTURES

from eud.conllu import read_conllu

TINY = FIXTURES / "multilingual"

CONFIG = """
train = ["{en}"]
output = "model"
work_dir = "work"
seed = {seed}
threads = 1
max_epochs = 3
batch_words = 40
warmup_steps = 2
lr = 0.01
min_word_count = 1
language = "en"
[encoder]
type = "charlstm"
char_dim = 8
char_out = 16
word_dim = 8
lstm_hidden = 16
[model]
graph = false
tag_hidden = 16
arc_dim = 16
label_dim = 8
"""


def _train(root, seed: int, train=None):
    from eud.commands.train import main as train_main

    root.mkdir(parents=True, exist_ok=True)
    config = root / "tiny.toml"
    config.write_text(CONFIG.format(en=train or TINY / "en_tiny-ud-train.conllu", seed=seed))
    assert train_main(["--config", str(config)]) == 0
    return root / "model"


@pytest.fixture(scope="module")
def seeds(tmp_path_factory):
    root = tmp_path_factory.mktemp("ensemble")
    return [_train(root / f"seed{s}", s) for s in (1, 2)]


def _parse(folder) -> str:
    from eud.pipeline import Pipeline

    text = (TINY / "en_tiny-ud-train.conllu").read_text()
    return Pipeline.load(folder, lang="en", precision="fp32").parse_conllu(text).to_conllu()


def test_an_ensemble_of_one_parser_twice_parses_as_that_parser(seeds, tmp_path):
    from eud.nn.ensemble import Ensemble
    from eud.nn.package import add_members, load_package

    twice = tmp_path / "twice"
    shutil.copytree(seeds[0], twice)
    add_members(twice, [seeds[0]])
    model, _, config = load_package(twice)
    assert isinstance(model, Ensemble) and config["members"] == ["member-2.safetensors"]
    assert _parse(twice) == _parse(seeds[0])


def test_members_average_their_log_probabilities(seeds, tmp_path):
    import torch

    from eud.nn.batching import make_batch
    from eud.nn.package import add_members, load_package

    both = tmp_path / "both"
    shutil.copytree(seeds[0], both)
    add_members(both, [seeds[1]])
    ensemble, vocabs, _ = load_package(both)
    one, two = (load_package(s)[0] for s in seeds)
    sentences = list(read_conllu(TINY / "en_tiny-ud-train.conllu"))
    batch = make_batch(sentences, [0, 1], vocabs)
    with torch.no_grad():
        mean = ensemble(batch, graph=False)
        a, b = one(batch, graph=False), two(batch, graph=False)
        assert torch.allclose(mean["upos"], (a["upos"].log_softmax(-1) + b["upos"].log_softmax(-1)) / 2)
        assert torch.allclose(mean["arc"], (a["arc"].log_softmax(-1) + b["arc"].log_softmax(-1)) / 2)
        index = torch.tensor([[0, 0, 2], [1, 1, 0]])
        labels = (one.tree_labels(a, index).log_softmax(-1) + two.tree_labels(b, index).log_softmax(-1)) / 2
        assert torch.allclose(ensemble.tree_labels(mean, index), labels)
    assert not torch.allclose(a["arc"], b["arc"])  # the seeds differ, so the mean is not either one
    parsed = _parse(both)
    assert parsed.count("\n1\t") == 4 and "\t_\t_\t_\t_\t" not in parsed  # every sentence tagged and parsed


def test_int8_storage_converts_every_member(seeds, tmp_path):
    from eud.nn.package import add_members, load_package, store_package_weights

    both = tmp_path / "both"
    shutil.copytree(seeds[0], both)
    add_members(both, [seeds[1]])
    store_package_weights(both, "int8")
    config = json.loads((both / "config.json").read_text())
    assert config["weights"] == "int8" and config["members"] == ["member-2.safetensors"]
    from safetensors.torch import load_file

    stored = load_file(str(both / "member-2.safetensors"))
    assert any(name.endswith(":scale") for name in stored)  # the second member was converted too
    load_package(both)


def test_members_must_share_the_label_tables(seeds, tmp_path):
    from eud.nn.package import PackageError, add_members

    other = _train(tmp_path / "fr", 1, train=TINY / "fr_tiny-ud-train.conllu")
    target = tmp_path / "target"
    shutil.copytree(seeds[0], target)
    with pytest.raises(PackageError, match="label tables differ"):
        add_members(target, [other])
    assert "members" not in json.loads((target / "config.json").read_text())


def test_a_recipe_ensemble_stage_names_training_stages_before_it(tmp_path):
    from eud.recipe import RecipeError, load_recipe

    path = tmp_path / "r.toml"
    path.write_text('model = "x"\n[[stage]]\nname = "parser"\nkind = "train"\n[stage.config]\ntrain = []\n'
                    '[[stage]]\nname = "all"\nkind = "ensemble"\nbase = "parser"\nmembers = ["seed2"]\n')
    with pytest.raises(RecipeError, match="an ensemble stage needs base"):
        load_recipe(path)


def test_a_recipe_stage_like_another_changes_only_what_it_sets(tmp_path):
    from eud.recipe import RecipeError, load_recipe

    path = tmp_path / "r.toml"
    head = 'model = "x"\n[[stage]]\nname = "parser"\nkind = "train"\n[stage.config]\ntrain = ["a"]\nseed = 1\nlr = 0.002\n'
    path.write_text(head + '[[stage]]\nname = "seed2"\nkind = "train"\nlike = "parser"\nset = {seed = 2}\n'
                    '[[stage]]\nname = "all"\nkind = "ensemble"\nbase = "parser"\nmembers = ["seed2"]\n')
    stages = load_recipe(path)["stage"]
    assert stages[1]["config"] == {"train": ["a"], "seed": 2, "lr": 0.002}
    assert stages[0]["config"]["seed"] == 1
    path.write_text(head + '[[stage]]\nname = "seed2"\nkind = "train"\nlike = "nothing"\n')
    with pytest.raises(RecipeError, match="must name an earlier training stage"):
        load_recipe(path)
