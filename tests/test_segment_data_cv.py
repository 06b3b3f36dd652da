"""eval.segment.data_cv: the segmenter recipe's settings and one language's files, as a fold's training run gets them."""

import pytest

from eud.recipe import RecipeError, Run
from eval.segment.data_cv import segmenter_settings
from tests.conftest import REPO, SHARED_UD, needs_shared, shared_files


def test_a_language_gets_the_recipe_settings_and_its_own_files() -> None:
    needs_shared(shared_files("et_ewt/*.conllu.xz"))
    run = Run(REPO / "recipes" / "segmenters.toml", shared=SHARED_UD.parent)
    settings, files = segmenter_settings(run, "et")
    assert "languages" not in settings
    assert settings["hidden"] == 64 and settings["holdout"] == 10
    assert [f.rsplit("/", 1)[1] for f in files] == [
        "et_ewt-ud-train.conllu.xz", "et_ewt-ud-dev.conllu.xz", "et_edt-ud-dev.conllu.xz"]
    with pytest.raises(RecipeError, match="not a language"):
        segmenter_settings(run, "de")
