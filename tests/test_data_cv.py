"""eval.parser.data_cv: folds keep documents whole and balance sentences; without documents, contiguous blocks."""

import pytest

from eval.parser import data_cv
from eval.parser.data_cv import (
    document_folds,
    file_options,
    held_fold_figures,
    other_files,
    train_unless_finished,
    with_settings,
    write_fold,
)


def block(n: int, newdoc: bool = False) -> str:
    return ("# newdoc id = d\n" if newdoc else "") + f"# sent_id = s{n}\n1\tx\tx\tX\t_\t_\t0\troot\t_\t_"


def test_whole_documents_go_to_the_fold_with_fewest_sentences() -> None:
    # documents of 3, 1 and 2 sentences
    blocks = [block(0, True), block(1), block(2), block(3, True), block(4, True), block(5)]
    assert document_folds(blocks, 2) == [0, 0, 0, 1, 1, 1]


def test_fewer_documents_than_folds_gives_contiguous_blocks() -> None:
    blocks = [block(i) for i in range(5)]
    assert document_folds(blocks, 2) == [0, 0, 0, 1, 1]


def test_add_options_become_a_training_file_table() -> None:
    assert file_options(["upgrade=lv_r2.0", "tune_every=0", "enhanced=false"]) == {
        "upgrade": "lv_r2.0", "tune_every": 0, "enhanced": False}
    with pytest.raises(ValueError, match="KEY=VALUE"):
        file_options(["upgrade"])


def test_the_without_design_leaves_out_what_the_recipe_already_ships():
    # After the choice the recipe trains on the added file too; the comparison must stay the same.
    train = ["ud/lv/dev.conllu.xz", {"path": "ud/lv/old-train.conllu.xz", "upgrade": "lv_r2.0"}, "ud/lv/other.conllu.xz"]
    assert other_files(train, "ud/lv/dev.conllu.xz", ["ud/lv/old-train.conllu.xz"]) == ["ud/lv/other.conllu.xz"]


def test_with_settings_reach_into_tables_and_leave_the_recipe_alone() -> None:
    base = {"max_epochs": 40, "encoder": {"type": "charlstm", "lstm_layers": 2}}
    out = with_settings(base, ["encoder.lang_dim=32", "max_epochs=20", "lr=0.001"])
    assert out == {"max_epochs": 20, "lr": 0.001, "encoder": {"type": "charlstm", "lstm_layers": 2, "lang_dim": 32}}
    assert base == {"max_epochs": 40, "encoder": {"type": "charlstm", "lstm_layers": 2}}


def test_a_with_design_needs_added_files_or_settings(capsys) -> None:
    with pytest.raises(SystemExit) as stop:
        data_cv.main(["--recipe", "recipes/ta_ttb.toml", "--folds-of", "ud/ta_ttb/ta_ttb-ud-train.conllu.xz"])
    assert stop.value.code == 2
    assert "needs --add, --with-config or both" in capsys.readouterr().err


def test_held_fold_figures_give_each_design_and_column_its_mean_spread_and_folds() -> None:
    per_fold = {"without": [{"ELAS": 67.9}, {"ELAS": 69.41}], "with": [{"ELAS": 68.85}, {"ELAS": 70.4}]}
    assert held_fold_figures(per_fold, ("ELAS",)) == {
        "without: held-fold ELAS": {"mean": 68.66, "sd": 1.07, "folds": [67.9, 69.41]},
        "with: held-fold ELAS": {"mean": 69.62, "sd": 1.1, "folds": [68.85, 70.4]},
    }
    assert held_fold_figures({"with": [{"ELAS": 50.0}]}, ("ELAS",)) == {
        "with: held-fold ELAS": {"mean": 50.0, "sd": 0.0, "folds": [50.0]}}


def test_write_fold_writes_the_other_folds_or_the_held_one(tmp_path) -> None:
    blocks = [block(i) for i in range(4)]
    folds = [0, 1, 0, 1]
    rest = write_fold(blocks, folds, 0, tmp_path / "rest.conllu")
    held = write_fold(blocks, folds, 0, tmp_path / "held.conllu", held=True)
    assert rest.read_text() == block(1) + "\n\n" + block(3) + "\n\n"
    assert held.read_text() == block(0) + "\n\n" + block(2) + "\n\n"


def test_train_unless_finished_trains_once_and_not_after_a_failure_or_a_smoke_run(tmp_path) -> None:
    calls = []

    def train(code: int = 0):
        calls.append(code)
        return code

    assert not train_unless_finished(tmp_path / "a", lambda: train(2))
    assert not (tmp_path / "a" / "finished").exists()
    assert train_unless_finished(tmp_path / "b", train, smoke=True)
    assert not (tmp_path / "b" / "finished").exists()
    assert train_unless_finished(tmp_path / "c", train) and train_unless_finished(tmp_path / "c", train)
    assert calls == [2, 0, 0]  # the finished run is not trained again
