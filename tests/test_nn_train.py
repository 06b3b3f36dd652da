"""Training, saving and loading the neural parser on a tiny fixture (fast: two updates)."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
pytest.importorskip("transformers")
pytest.importorskip("safetensors")

from eud.commands.train import main as train_main
from eud.conllu import format_sentence, read_conllu
from eud.nn.encoders import resolve_encoder_config
from eud.nn.network import Parser
from eud.nn.package import load_package, save_package
from eud.nn.predict import Predictor
from eud.nn.vocab import build_vocabs

SMALL_MODEL = {"tag_hidden": 16, "arc_dim": 16, "label_dim": 8, "dropout": 0.1}
SMALL_CHARLSTM = {"type": "charlstm", "char_dim": 8, "char_out": 16, "word_dim": 8, "lstm_hidden": 16, "lstm_layers": 1}


def tiny_bert(folder: Path, words: list[str]) -> Path:
    """A randomly initialised 2-layer BERT and its WordPiece tokenizer, saved to ``folder``."""
    from transformers import BertConfig, BertModel, BertTokenizerFast

    folder.mkdir(parents=True, exist_ok=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] + sorted({w.lower() for w in words}) + list("abcdefghijklmnopqrstuvwxyz.,'")
    vocab += ["##" + c for c in "abcdefghijklmnopqrstuvwxyz"]
    (folder / "vocab.txt").write_text("\n".join(dict.fromkeys(vocab)) + "\n")
    tokenizer = BertTokenizerFast(vocab_file=str(folder / "vocab.txt"), do_lower_case=True)
    tokenizer.save_pretrained(str(folder))
    config = BertConfig(vocab_size=len(tokenizer), hidden_size=16, num_hidden_layers=2, num_attention_heads=2,
                        intermediate_size=32, max_position_embeddings=64)
    torch.manual_seed(0)
    BertModel(config).save_pretrained(str(folder))
    return folder


def _config(tmp_path: Path, fixtures: Path, encoder: dict) -> Path:
    config = {
        "train": str(fixtures / "parser_tiny.conllu"), "dev": str(fixtures / "parser_tiny.conllu"),
        "output": str(tmp_path / "model"), "work_dir": str(tmp_path / "work"), "language": "en",
        "max_epochs": 1, "batch_words": 30, "threads": 1, "encoder": encoder, "model": SMALL_MODEL,
    }
    path = tmp_path / "train.json"
    path.write_text(json.dumps(config))
    return path


def _parse_all(folder: Path, fixtures: Path) -> list[str]:
    model, vocabs, config = load_package(folder)
    sentences = list(read_conllu(fixtures / "parser_tiny.conllu"))
    Predictor(model, vocabs, config).annotate(sentences)
    return [format_sentence(s) for s in sentences]


def test_two_step_training_writes_a_package(tmp_path: Path, fixtures: Path) -> None:
    config = _config(tmp_path, fixtures, SMALL_CHARLSTM)
    assert train_main(["--config", str(config), "--max-steps", "2"]) == 0
    out = tmp_path / "model"
    assert {"config.json", "vocab.json", "model.safetensors", "MODEL.md", "lexicon.json", "feats.json"} <= {
        p.name for p in out.iterdir()}
    card = (out / "MODEL.md").read_text()
    assert "eud train --config" in card and "| dev |" in card
    assert "## Training curve" in card and "\n| 1 | " in card  # dev scores of epoch 1
    assert (tmp_path / "work" / "checkpoint.pt").is_file()
    assert "epoch 1 done" in (tmp_path / "work" / "train.log").read_text()
    parsed = _parse_all(out, fixtures)
    assert len(parsed) == 8
    # Resuming after the last epoch trains nothing more and leaves a loadable package.
    assert train_main(["--config", str(config), "--max-steps", "2"]) == 0
    assert "resumed from" in (tmp_path / "work" / "train.log").read_text()
    assert _parse_all(out, fixtures) == parsed
    # --finish-only rescores the saved package and rewrites the card with the plain command.
    (out / "MODEL.md").unlink()
    assert train_main(["--config", str(config), "--finish-only"]) == 0
    card = (out / "MODEL.md").read_text()
    assert "--finish-only" not in card and f"eud train --config {config}" in card
    assert json.loads((out / "config.json").read_text())["graph_mode"] in ("graph", "rules", "combined")


def test_training_without_a_graph_scorer_selects_on_dev_with_the_rules(tmp_path: Path, fixtures: Path) -> None:
    config = _config(tmp_path, fixtures, SMALL_CHARLSTM)
    cfg = json.loads(config.read_text())
    cfg["model"] = {**SMALL_MODEL, "graph": False}
    config.write_text(json.dumps(cfg))
    assert train_main(["--config", str(config), "--max-steps", "2"]) == 0
    out = tmp_path / "model"
    assert json.loads((out / "config.json").read_text())["graph_mode"] == "rules"
    assert "dev rules" in (tmp_path / "work" / "train.log").read_text()
    parsed = _parse_all(out, fixtures)
    word_lines = [cols for text in parsed for line in text.splitlines()
                  if (cols := line.split("\t"))[0].isdigit()]  # words, not multiword-token ranges
    assert len(parsed) == 8 and all(cols[8] != "_" for cols in word_lines)  # the rules built every graph
    model, _, _ = load_package(out)
    assert model.graph is None


def test_transformer_encoder_trains_and_reloads(tmp_path: Path, fixtures: Path) -> None:
    words = [w.form for s in read_conllu(fixtures / "parser_tiny.conllu") for w in s.words]
    bert = tiny_bert(tmp_path / "bert", words)
    encoder = {"type": "transformer", "transformer": str(bert), "pooling": "mean", "chars": True, "char_out": 8}
    config = _config(tmp_path, fixtures, encoder)
    assert train_main(["--config", str(config), "--max-steps", "2"]) == 0
    shutil.rmtree(bert)  # the package must stand alone
    out = tmp_path / "model"
    assert (out / "encoder" / "config.json").is_file()
    assert len(_parse_all(out, fixtures)) == 8


@pytest.mark.parametrize("pooling", ["first", "mean"])
def test_save_load_gives_identical_predictions(tmp_path: Path, fixtures: Path, pooling: str) -> None:
    sentences = list(read_conllu(fixtures / "parser_tiny.conllu"))
    vocabs = build_vocabs(sentences, min_word_count=1)
    words = [w.form for s in sentences for w in s.words]
    bert = tiny_bert(tmp_path / "bert", words)
    enc = resolve_encoder_config({"type": "transformer", "transformer": str(bert), "pooling": pooling,
                                  "chars": True, "char_out": 8, "words": True, "word_dim": 8})
    config = {"encoder": enc, "model": SMALL_MODEL, "language": "en", "graph_mode": "graph", "fp16_weights": False}
    torch.manual_seed(3)
    model = Parser(config, vocabs)
    for p in model.parameters():  # random, non-zero biaffines so that predictions depend on every weight
        if p.dim() == 3:
            torch.nn.init.normal_(p)
    before = [format_sentence(s) for s in Predictor(model, vocabs, config).annotate(list(sentences))]
    save_package(tmp_path / "pkg", model, vocabs, config)
    loaded, vocabs2, config2 = load_package(tmp_path / "pkg")
    fresh = list(read_conllu(fixtures / "parser_tiny.conllu"))
    after = [format_sentence(s) for s in Predictor(loaded, vocabs2, config2).annotate(fresh)]
    assert after == before


def test_int8_storage_is_within_half_a_step_of_each_row() -> None:
    from eud.nn.package import INT8_MIN_ROW, SCALE, decode_weights, encode_weights

    torch.manual_seed(0)
    state = {"w": torch.randn(5, 40) * torch.tensor([[0.01], [1.0], [3.0], [0.0], [100.0]]),
             "label": torch.randn(3, 20, 20), "bias": torch.randn(40), "narrow": torch.randn(4, INT8_MIN_ROW - 1),
             "steps": torch.tensor(7)}
    stored = encode_weights(state, "int8")
    assert stored["w"].dtype == torch.int8 and stored["w" + SCALE].shape == (5,)
    assert stored["label"].dtype == torch.int8 and stored["label" + SCALE].shape == (3, 20)
    assert stored["bias"].dtype == torch.float16 and stored["narrow"].dtype == torch.float16
    assert stored["steps"].dtype == torch.int64
    back = decode_weights(stored)
    assert set(back) == set(state) and all(v.dtype == torch.float32 for k, v in back.items() if k != "steps")
    step = state["w"].abs().amax(dim=-1, keepdim=True) / 127
    assert bool(((back["w"] - state["w"]).abs() <= step / 2 + 1e-7).all())
    assert bool((back["w"][3] == 0).all())  # an all-zero row stays zero (no division by zero)


def test_store_package_weights_rewrites_a_package_in_int8(tmp_path: Path, fixtures: Path) -> None:
    from eud.nn.package import load_config, store_package_weights

    sentences = list(read_conllu(fixtures / "parser_tiny.conllu"))
    vocabs = build_vocabs(sentences, min_word_count=1)
    enc = resolve_encoder_config({"type": "charlstm", **SMALL_CHARLSTM})
    config = {"encoder": enc, "model": SMALL_MODEL, "language": "en", "graph_mode": "graph"}
    torch.manual_seed(3)
    model = Parser(config, vocabs)
    save_package(tmp_path / "pkg", model, vocabs, config)
    fp16 = (tmp_path / "pkg" / "model.safetensors").stat().st_size
    store_package_weights(tmp_path / "pkg", "int8")
    assert load_config(tmp_path / "pkg")["weights"] == "int8"
    assert (tmp_path / "pkg" / "model.safetensors").stat().st_size < 0.85 * fp16  # tiny: many vectors stay fp16
    loaded, _, _ = load_package(tmp_path / "pkg")
    for name, value in model.state_dict().items():
        if value.is_floating_point():
            assert torch.allclose(loaded.state_dict()[name], value, atol=0.05), name
    assert not list((tmp_path / "pkg").glob("*.tmp"))


def test_a_rules_package_can_drop_its_graph_scorer(tmp_path: Path, fixtures: Path) -> None:
    from eud.nn.package import PackageError, load_config, store_package_weights
    from eud.pipeline import Pipeline

    sentences = list(read_conllu(fixtures / "parser_tiny.conllu"))
    vocabs = build_vocabs(sentences, min_word_count=1)
    enc = resolve_encoder_config({"type": "charlstm", **SMALL_CHARLSTM})
    torch.manual_seed(5)
    model = Parser({"encoder": enc, "model": SMALL_MODEL}, vocabs)
    for mode in ("graph", "rules"):
        save_package(tmp_path / mode, model, vocabs, {"encoder": enc, "model": SMALL_MODEL, "language": "en",
                                                      "graph_mode": mode})
    with pytest.raises(PackageError, match="not 'rules'"):
        store_package_weights(tmp_path / "graph", "int8", drop_graph_scorer=True)
    store_package_weights(tmp_path / "rules", "int8")
    before = [format_sentence(s) for s in Pipeline.load(tmp_path / "rules").parse_sentences(copy.deepcopy(sentences))]
    store_package_weights(tmp_path / "rules", "int8", drop_graph_scorer=True)
    assert load_config(tmp_path / "rules")["model"]["graph"] is False
    loaded, _, _ = load_package(tmp_path / "rules")
    assert loaded.graph is None and not any(k.startswith("graph.") for k in loaded.state_dict())
    after = [format_sentence(s) for s in Pipeline.load(tmp_path / "rules").parse_sentences(copy.deepcopy(sentences))]
    assert after == before  # the rules never read the scorer


def test_rules_mode_skips_the_graph_scorer_and_writes_the_same(tmp_path: Path, fixtures: Path) -> None:
    sentences = list(read_conllu(fixtures / "parser_tiny.conllu"))
    vocabs = build_vocabs(sentences, min_word_count=1)
    enc = resolve_encoder_config(SMALL_CHARLSTM)
    torch.manual_seed(7)
    model = Parser({"encoder": enc, "model": SMALL_MODEL}, vocabs)
    config = {"encoder": enc, "language": "en"}
    rules = Predictor(model, vocabs, config, graph_mode="rules")
    assert not rules.needs_graph and Predictor(model, vocabs, config, graph_mode="combined").needs_graph
    decoded = rules.decode_all(list(sentences))
    assert all(d.edge_probs is None and d.edges == [] for d in decoded)
    fast = [format_sentence(s) for s in rules.annotate(list(read_conllu(fixtures / "parser_tiny.conllu")))]
    # Decoding with the graph scorer (as a graph-mode predictor does), then writing with the rules.
    full = Predictor(model, vocabs, config, graph_mode="graph")
    slow = list(read_conllu(fixtures / "parser_tiny.conllu"))
    for s, d in zip(slow, full.decode_all(slow)):
        assert d.edge_probs is not None
        rules.write(s, d)
    assert [format_sentence(s) for s in slow] == fast


def test_precision_setting(fixtures: Path) -> None:
    from eud.nn.network import resolve_precision

    assert resolve_precision("fp32") == "fp32" and resolve_precision("auto") in ("fp32", "bf16")
    with pytest.raises(ValueError, match="unknown precision"):
        resolve_precision("fp8")
    sentences = list(read_conllu(fixtures / "parser_tiny.conllu"))
    vocabs = build_vocabs(sentences, min_word_count=1)
    enc = resolve_encoder_config(SMALL_CHARLSTM)
    model = Parser({"encoder": enc, "model": SMALL_MODEL}, vocabs)
    Predictor(model, vocabs, {"encoder": enc}, precision="bf16")
    assert model.precision == "bf16"
    # bf16 autocast changes the encoder's arithmetic only: the scores come out fp32 and close to fp32's.
    from eud.nn.batching import make_batch

    batch = make_batch(sentences, list(range(len(sentences))), vocabs)
    with torch.inference_mode():
        low = model.eval()(batch)["arc"]
        model.precision = "fp32"
        high = model(batch)["arc"]
    assert low.dtype == torch.float32
    mask = high > -1e8
    assert torch.allclose(low[mask], high[mask], atol=0.1)


def test_output_passes_udvalidate_level_2(tmp_path: Path, fixtures: Path) -> None:
    if shutil.which("udvalidate") is None:
        pytest.skip("udvalidate (udtools) is not installed")
    sentences = list(read_conllu(fixtures / "parser_tiny.conllu"))
    vocabs = build_vocabs(sentences, min_word_count=1)
    enc = resolve_encoder_config(SMALL_CHARLSTM)
    torch.manual_seed(5)
    model = Parser({"encoder": enc, "model": SMALL_MODEL}, vocabs)
    for p in model.parameters():  # an untrained model makes messy graphs: repair must clean them
        torch.nn.init.normal_(p)
    for mode in ("graph", "rules", "combined"):
        pred = Predictor(model, vocabs, {"encoder": enc, "language": "en"}, graph_mode=mode).annotate(list(sentences))
        out = tmp_path / f"{mode}.conllu"
        out.write_text("".join(format_sentence(s) for s in pred))
        sentences = list(read_conllu(fixtures / "parser_tiny.conllu"))
        run = subprocess.run(["udvalidate", "--lang", "en", "--level", "2", str(out)], capture_output=True, text=True, check=False)
        assert "*** PASSED ***" in run.stdout + run.stderr, (mode, run.stdout[-2000:], run.stderr[-2000:])


def test_label_bias_moves_the_relation_choice(fixtures: Path) -> None:
    sentences = list(read_conllu(fixtures / "parser_tiny.conllu"))
    vocabs = build_vocabs(sentences, min_word_count=1)
    assert "orphan" in vocabs["deprel"].index
    enc = resolve_encoder_config(SMALL_CHARLSTM)
    torch.manual_seed(7)
    model = Parser({"encoder": enc, "model": SMALL_MODEL}, vocabs)
    config = {"encoder": enc, "language": "en"}
    plain = Predictor(model, vocabs, config, graph_mode="rules").decode_all(list(sentences))
    pushed = Predictor(model, vocabs, {**config, "label_bias": {"orphan": 1e4, "no-such-relation": 5.0}},
                       graph_mode="rules").decode_all(list(sentences))
    pulled = Predictor(model, vocabs, {**config, "label_bias": {"orphan": -1e4}}, graph_mode="rules")
    # The same trees; every non-root relation becomes orphan under a huge bias, none under a huge negative one.
    assert [d.heads for d in pushed] == [d.heads for d in plain]
    for d in pushed:
        assert {r for h, r in zip(d.heads, d.deprels) if h != 0} == {"orphan"}
        assert [r for h, r in zip(d.heads, d.deprels) if h == 0] == ["root"] * d.heads.count(0)
    assert all("orphan" not in d.deprels for d in pulled.decode_all(list(sentences)))
    assert pulled.label_bias is not None and Predictor(model, vocabs, config).label_bias is None


def test_label_weights_weigh_the_relation_in_the_loss(fixtures: Path) -> None:
    from eud.nn.batching import make_batch
    from eud.nn.trainer import label_weight_vector

    sentences = list(read_conllu(fixtures / "parser_tiny.conllu"))
    vocabs = build_vocabs(sentences, min_word_count=1)
    weights = label_weight_vector(vocabs["deprel"], {"orphan": 5.0})
    assert weights[vocabs["deprel"].index["orphan"]] == 5.0 and float(weights.sum()) == len(vocabs["deprel"]) + 4
    with pytest.raises(ValueError, match="no such relation in the training data: orphn"):
        label_weight_vector(vocabs["deprel"], {"orphn": 5.0})
    enc = resolve_encoder_config(SMALL_CHARLSTM)
    torch.manual_seed(7)
    model = Parser({"encoder": enc, "model": {**SMALL_MODEL, "dropout": 0.0}}, vocabs).eval()
    for p in model.tree.label.parameters():  # starts at zero: every relation equally likely, every loss alike
        torch.nn.init.normal_(p)
    gapped = next(i for i, s in enumerate(sentences) if any(w.deprel == "orphan" for w in s.words))
    plain = [i for i, s in enumerate(sentences) if all(w.deprel != "orphan" for w in s.words)][:1]

    def loss(indices: list[int], weight: dict[str, float] | None) -> float:
        model.deprel_weight = label_weight_vector(vocabs["deprel"], weight) if weight else None
        batch = make_batch(sentences, indices, vocabs, with_targets=True)
        with torch.no_grad():
            return float(model.loss(model(batch), batch))

    # A weight of 1 is no weight; a sentence without orphan has the same loss whatever orphan weighs.
    assert loss([gapped], {"orphan": 1.0}) == pytest.approx(loss([gapped], None))
    assert loss(plain, {"orphan": 5.0}) == pytest.approx(loss(plain, None))
    assert loss([gapped], {"orphan": 5.0}) != pytest.approx(loss([gapped], None))


def test_arc_weights_weigh_the_whole_gapped_clause(fixtures: Path) -> None:
    from eud.nn.batching import IGNORE, make_batch
    from eud.nn.trainer import label_weight_vector

    sentences = list(read_conllu(fixtures / "parser_tiny.conllu"))
    vocabs = build_vocabs(sentences, min_word_count=1)
    model = Parser({"encoder": resolve_encoder_config(SMALL_CHARLSTM), "model": SMALL_MODEL}, vocabs).eval()
    model.arc_weight = label_weight_vector(vocabs["deprel"], {"orphan": 5.0})
    d = vocabs["deprel"].index
    # *John ate apples and Mary beans* (+ a padding slot): the orphan and the promoted remnant it hangs
    # from weigh 5, the rest 1, padding 0.
    head = torch.tensor([[2, 0, 2, 5, 2, 5, IGNORE]])
    deprel = torch.tensor([[d["nsubj"], d["root"], d["obj"], d["cc"], d["conj"], d["orphan"], IGNORE]])
    assert model.arc_weights(head, deprel).tolist() == [[1.0, 1.0, 1.0, 1.0, 5.0, 5.0, 0.0]]
    # All weights 1: the weighted mean is the plain one.
    for p in model.parameters():
        torch.nn.init.normal_(p, std=0.3)
    batch = make_batch(sentences, list(range(len(sentences))), vocabs, with_targets=True)

    def loss(orphan: float | None) -> float:
        model.arc_weight = label_weight_vector(vocabs["deprel"], {"orphan": orphan}) if orphan else None
        with torch.no_grad():
            return float(model.loss(model(batch), batch))

    assert loss(1.0) == pytest.approx(loss(None), rel=1e-5) and loss(5.0) != pytest.approx(loss(None), rel=1e-5)


def test_char_bilstm_reads_each_word_in_order() -> None:
    from eud.nn.encoders import CharBiLSTM

    torch.manual_seed(0)
    enc = CharBiLSTM(10, 4, 6)
    chars = torch.tensor([[[2, 3, 4, 0], [4, 3, 2, 0], [2, 3, 4, 0]], [[5, 0, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]])
    out = enc(chars)
    assert out.shape == (2, 3, 6)
    assert torch.equal(out[0, 0], out[0, 2])  # the same word, the same vector
    assert not torch.allclose(out[0, 0], out[0, 1])  # its reversal reads differently
    assert torch.equal(out[1, 1], torch.zeros(6))  # padding stays zero
    out.sum().backward()
    assert enc.embed.weight.grad is not None and enc.embed.weight.grad[2].abs().sum() > 0
    with torch.autocast("cpu", dtype=torch.bfloat16), torch.no_grad():  # parsing in bf16
        fast = enc(chars)
    assert torch.allclose(fast.float(), out.detach(), atol=0.05) and torch.equal(fast[1, 1].float(), torch.zeros(6))


def test_weight_average_tunes_and_ships_the_averaged_weights(tmp_path: Path, fixtures: Path) -> None:
    from safetensors.torch import load_file

    from eud.nn.package import decode_weights

    config = _config(tmp_path, fixtures, {**SMALL_CHARLSTM, "char_encoder": "bilstm"})
    cfg = json.loads(config.read_text())
    config.write_text(json.dumps({**cfg, "ema": 0.9, "lr": 0.05}))
    assert train_main(["--config", str(config), "--max-steps", "3"]) == 0
    ckpt = torch.load(tmp_path / "work" / "checkpoint.pt", weights_only=True)
    assert int(ckpt["average"]["updates"]) == 3
    shipped = decode_weights(load_file(str(tmp_path / "model" / "model.safetensors")))
    name = "encoder.chars.proj.weight"
    averaged, live = ckpt["average"][f"w.{name}"], ckpt["model"][name]
    assert not torch.allclose(averaged, live)  # the average trails the live weights
    assert torch.allclose(shipped[name].float(), averaged, atol=1e-3)  # and the package holds the average
    assert json.loads((tmp_path / "model" / "config.json").read_text())["encoder"]["char_encoder"] == "bilstm"
    card = (tmp_path / "model" / "MODEL.md").read_text()
    assert "chars: bilstm" in card and "(ema 0.9)" in card
    assert len(_parse_all(tmp_path / "model", fixtures)) == 8
