"""Tests for eud.segment: labels from CoNLL-U, MWT expansion, robustness, tiny training."""

from __future__ import annotations

import io
import json
import random
import time
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")

from eud.conllu import format_sentence, parse_conllu, read_conllu
from eud.segment import TextError, paragraphs, read_text, read_tokenized
from eud.segment.data import NONE, SENT, SENT_MWT, TOKEN, TOKEN_MWT, read_paragraphs, surface_tokens
from eud.segment.mwt import MwtExpander
from eud.segment.network import CharSegmenter, Vocab
from eud.segment.segmenter import Segmenter
from eud.segment.text import clean_text

pytestmark = pytest.mark.usefixtures("one_torch_thread")


def surface_chars(sentences) -> str:
    """Non-whitespace characters of every token's surface form, in order."""
    out = [form for s in sentences for form, _, _ in surface_tokens(s)]
    return "".join("".join(out).split())


def non_space(text: str) -> str:
    # The characters docs/text_hygiene.md lists are dropped (and the text put in NFC) before segmenting.
    return "".join(clean_text(text).split())


# -- labels ---------------------------------------------------------------


def test_labels_from_fixture(fixtures):
    paras = read_paragraphs(fixtures / "segment_train.conllu")
    assert [p.text for p in paras] == [
        "I don't like rain. I'm tired, Dr. Smith.",
        'We can\'t go. "Really?" she asked.',
        "They don't know. We won't stay. Au marché du coin.",
    ]
    text, labels = paras[0].text, paras[0].labels
    assert len(labels) == len(text)
    ends = {i: labels[i] for i in range(len(text)) if labels[i] != NONE}
    assert ends[text.index("don't") + 4] == TOKEN_MWT
    assert ends[text.index("rain") + 3] == TOKEN
    assert ends[text.index(".")] == SENT
    assert ends[text.index("Dr.") + 2] == TOKEN  # the abbreviation's dot ends no sentence
    assert ends[len(text) - 1] == SENT
    assert text.index("Dr.") + 1 not in ends
    # A multiword token that ends a sentence.
    sents = parse_conllu("# text = I can't\n1-2\tcan't\t_\t_\t_\t_\t_\t_\t_\t_\n1\tca\t_\t_\t_\t_\t_\t_\t_\t_\n"
                         "2\tn't\t_\t_\t_\t_\t_\t_\t_\t_\n\n".replace("# text = I can't\n1-2", "# text = can't\n1-2"))
    from eud.segment.data import paragraphs as label_paragraphs

    (p,) = label_paragraphs(sents)
    assert p.labels == [NONE] * 4 + [SENT_MWT]


def test_mismatched_text_skips_paragraph():
    sents = parse_conllu("# text = Hello there\n1\tHello\t_\t_\t_\t_\t_\t_\t_\t_\n2\tthere!\t_\t_\t_\t_\t_\t_\t_\t_\n\n")
    from eud.segment.data import paragraphs as label_paragraphs

    stats: dict[str, int] = {}
    assert list(label_paragraphs(sents, stats)) == []
    assert stats["skipped"] == 1


# -- multiword tokens -------------------------------------------------------


def test_mwt_lexicon_and_fallback(fixtures):
    mwt = MwtExpander.build(read_conllu(fixtures / "segment_train.conllu"))
    assert mwt.lexicon["don't"] == ["do", "n't"]
    assert mwt.expand("Don't") == ["Do", "n't"]
    assert mwt.expand("DON'T") == ["DO", "N'T"]
    assert mwt.expand("can't") == ["ca", "n't"]
    # Not spelled by its words: the case pattern is copied instead.
    assert mwt.expand("du") == ["de", "le"]
    assert mwt.expand("Du") == ["De", "le"]
    # "n't" was seen 4 times, so it is a rule; "'m" only once, so it is not.
    assert [r.to_json() for r in mwt.rules] == [["n't"]]
    assert mwt.expand("shouldn't") == ["should", "n't"]
    assert mwt.fallback("don't") == ["do", "n't"]
    assert mwt.expand("Isn't") == ["Is", "n't"]
    assert mwt.expand("you'm") is None
    assert mwt.expand("n't") is None  # the whole form is the suffix: nothing to split off
    # "don't" was a multiword token only twice: too rare to expand without the model.
    assert mwt.always == frozenset()
    again = MwtExpander.from_json(mwt.to_json())
    assert again.expand("Shouldn't") == ["Should", "n't"] and again.lexicon == mwt.lexicon
    assert again.always == mwt.always


def _mwt_sentence(form: str, words: list[str]) -> str:
    lines = [f"1-{len(words)}\t{form}" + "\t_" * 8] + [f"{i}\t{w}" + "\t_" * 8 for i, w in enumerate(words, 1)]
    return "\n".join(lines) + "\n\n"


def test_mwt_rule_rewrites_the_end_of_the_first_word():
    """The token's host and clitic are not spelt as the words are (Tamil -வும் -> -வ் + உம், here -um -> -' + um)."""
    seen = [("walkavum", ["walkav'", "um"]), ("talkavum", ["talkav'", "um"]), ("sitavum", ["sitav'", "um"]),
            ("ranum", ["ran", "um"]), ("don't", ["do", "n't"]), ("can't", ["ca", "n't"])]
    mwt = MwtExpander.build(parse_conllu("".join(_mwt_sentence(f, w) for f, w in seen)))
    # Three tokens rewrite -um as -' + um, one only splits it off: the more frequent rewrite is kept.
    rules = {r.suffix: r.to_json() for r in mwt.rules}
    assert rules == {"um": {"suffix": "um", "first": "'", "rest": ["um"]}, "n't": ["n't"]}
    assert mwt.fallback("singavum") == ["singav'", "um"]
    assert mwt.fallback("Singavum") == ["Singav'", "um"]
    assert mwt.fallback("wouldn't") == ["would", "n't"]
    assert mwt.fallback("um") is None  # nothing would be left of the host
    again = MwtExpander.from_json(mwt.to_json())
    assert again.fallback("singavum") == ["singav'", "um"] and again.rules == mwt.rules


def test_mwt_ending_rates_mix_with_the_network():
    """Six tokens end in -avum, four of them multiword: the rate 4/6 of -avum (longest ending seen
    five times or more) is mixed into the network's probability with the language's weight."""
    seen = [_mwt_sentence(f, [f[:-2] + "'", "um"]) for f in ("walkavum", "talkavum", "sitavum", "runavum")]
    plain = "".join(f"1\t{f}" + "\t_" * 8 + "\n\n" for f in ("eatavum", "drinkavum", "book", "tree", "cook"))
    sentences = parse_conllu("".join(seen) + plain)
    assert MwtExpander.build(sentences).suffix_rates == {}  # weight 0: no table
    mwt = MwtExpander.build(sentences, suffix_weight=0.5)
    assert mwt.rate("jumpavum") == round(4 / 6, 3)
    assert mwt.rate("xyz") is None  # no ending seen five times
    # 0.5 * 0.4 + 0.5 * 0.667 = 0.53: multiword; the network alone (0.4) would say no.
    assert mwt.is_multiword("jumpavum", 0.4) and not MwtExpander.build(sentences).is_multiword("jumpavum", 0.4)
    assert not mwt.is_multiword("jumpavum", 0.3)  # 0.15 + 0.33 = 0.48
    again = MwtExpander.from_json(json.loads(json.dumps(mwt.to_json())))
    assert again.suffix_weight == 0.5 and again.rate("jumpavum") == mwt.rate("jumpavum")
    assert "suffix_rates" not in MwtExpander.build(sentences).to_json()


def test_mwt_always_needs_three_and_a_majority():
    mwt_line = "1-2\tgotta\t_\t_\t_\t_\t_\t_\t_\t_\n1\tgot\t_\t_\t_\t_\t_\t_\t_\t_\n2\tta\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
    plain = "1\tgotta\t_\t_\t_\t_\t_\t_\t_\t_\n\n"
    assert MwtExpander.build(parse_conllu(mwt_line * 3 + plain)).always == {"gotta"}
    assert MwtExpander.build(parse_conllu(mwt_line * 3 + plain * 2)).always == frozenset()
    assert MwtExpander.build(parse_conllu(mwt_line * 2)).always == frozenset()


# -- reading text -------------------------------------------------------------


def test_paragraphs_bom_crlf_and_blank_lines():
    data = b"\xef\xbb\xbfHello\r\nworld.\r\n\r\n \t \nNext\rline\n\n\n"
    assert list(paragraphs(io.BytesIO(data))) == ["Hello\nworld.", "Next\nline"]
    assert list(paragraphs(io.BytesIO(b""))) == []
    assert list(paragraphs(io.BytesIO(b"\n \n"))) == []
    assert list(paragraphs(io.BytesIO("a b\n\nc".encode("utf-16")))) == ["a b", "c"]


def test_invalid_utf8_strict_names_offset_and_replace(tmp_path):
    path = tmp_path / "bad.txt"
    path.write_bytes(b"fine line\nab\xffc\n")
    with pytest.raises(TextError, match=r"bad.txt: invalid UTF-8 at byte offset 12 \(line 2\)"):
        list(paragraphs(path))
    assert read_text(path, errors="replace") == "fine line\nab\ufffdc"
    with pytest.raises(TextError, match="cannot open"):
        list(paragraphs(tmp_path / "missing.txt"))


def test_read_tokenized():
    sents = list(read_tokenized(["I do n't know .\n", "\n", "  Yes  it  is \n"], doc_id="d"))
    assert [[w.form for w in s.words] for s in sents] == [["I", "do", "n't", "know", "."], ["Yes", "it", "is"]]
    assert sents[0].comments == ["# newdoc id = d", "# newpar", "# sent_id = d-1", "# text = I do n't know ."]
    assert sents[1].comments == ["# newpar", "# sent_id = d-2", "# text = Yes it is"]
    assert all(w.head is None and w.misc == "_" for s in sents for w in s.words)


# -- the segmenter, with a random model (the invariants hold for any model) ----


def random_segmenter(fixtures, hidden: int = 8) -> Segmenter:
    torch.manual_seed(0)
    paras = read_paragraphs(fixtures / "segment_train.conllu")
    vocab = Vocab.build([p.text for p in paras], 1)
    model = CharSegmenter(len(vocab.chars), len(vocab.categories), 8, 4, hidden, 1, 0.0)
    mwt = MwtExpander.build(read_conllu(fixtures / "segment_train.conllu"))
    settings = {"format": "eud-segmenter/1", "n_chars": len(vocab.chars), "n_cats": len(vocab.categories),
                "char_dim": 8, "cat_dim": 4, "hidden": hidden, "layers": 1, "dropout": 0.0,
                "max_sentence_tokens": 50}
    return Segmenter(model, vocab, mwt, settings)


TRICKY = [
    "",
    "   \n\n \t ",
    "Hello world. I don't know!\n\nNew paragraph\nover two lines.",
    "Mixed scripts: Москва, 東京都, القاهرة, 🙂🙂 e\u0301t\u00e9.",
    "Control\x00chars\x07 and\x1b[0m escapes, zero\u200bwidth, \ufeffBOM inside.",
    "tabs\tand\u00a0no-break\u2003spaces\u2028line sep",
    "a" * 3000,
    "word " * 2000,
    "x",
    "'\"«»“”",
]


@pytest.mark.parametrize("text", TRICKY)
def test_keeps_every_non_space_character(fixtures, text):
    seg = random_segmenter(fixtures)
    sents = list(seg.segment(text))
    assert surface_chars(sents) == non_space(text)
    for s in sents:
        assert s.words and all(w.form and not any(c.isspace() for c in w.form) for w in s.words)
        format_sentence(s)  # writable


def forced_probs(seed: int):
    """A stand-in for the model that returns random class probabilities."""
    rng = torch.Generator().manual_seed(seed)

    def predict(model, vocab, text, **_):
        probs = torch.rand(len(text), 5, generator=rng) ** 3
        probs[:, 0] += 2.0
        # Before a space, often call the whole word a multiword token.
        for i in range(len(text)):
            if (i + 1 == len(text) or text[i + 1] == " ") and torch.rand(1, generator=rng) < 0.5:
                probs[i, 2] += 5
        return probs / probs.sum(-1, keepdim=True)

    return predict


def for_each(predict):
    """Turn a one-text stand-in into one for ``predict_many``."""
    return lambda model, vocab, texts, **_: [predict(model, vocab, t) for t in texts]


@pytest.mark.parametrize("seed", range(5))
def test_invariant_under_random_decisions(fixtures, monkeypatch, seed):
    # Random token/sentence/MWT decisions exercise the MWT path and the length guards.
    import eud.segment.segmenter as module

    monkeypatch.setattr(module, "predict_many", for_each(forced_probs(seed)))
    seg = random_segmenter(fixtures)
    text = "\n\n".join(TRICKY) + "\n\nWe don't can't won't SHOULDN'T du Du."
    sents = list(seg.segment(text))
    assert surface_chars(sents) == non_space(text)
    assert any(s.tokens for s in sents)
    for s in sents:
        assert len(s.words) <= 50 + 5  # max_sentence_tokens, plus words of expanded MWTs
        for t in s.tokens:
            assert "".join(w.form for w in s.words[t.first - 1: t.last]).lower() in (t.form.lower(), "dele")
        assert non_space(s.text) == surface_chars([s])


def test_comments_and_space_after(fixtures, monkeypatch):
    import eud.segment.segmenter as module

    def predict(model, vocab, text, **_):
        # End a token before every "." and "'", and a sentence at every ".".
        probs = torch.zeros(len(text), 5)
        probs[:, 0] = 1
        for i, ch in enumerate(text):
            nxt = text[i + 1] if i + 1 < len(text) else " "
            if ch == "." or nxt == " ":
                probs[i] = torch.tensor([0, 1.0, 0, 0, 0])
            if ch == ".":
                probs[i] = torch.tensor([0, 0, 0, 1.0, 0])
            if nxt in ".":
                probs[i] = torch.tensor([0, 1.0, 0, 0, 0])
            if text[i - 3: i + 1] == "n't" or text[i - 4:i + 1] == "don't":
                probs[i] = torch.tensor([0, 0, 1.0, 0, 0])
        return probs

    monkeypatch.setattr(module, "predict_many", for_each(predict))
    seg = random_segmenter(fixtures)
    sents = list(seg.segment("I don't  know.It is.\n\nSecond   para.", doc_id="doc"))
    assert [s.text for s in sents] == ["I don't know.", "It is.", "Second para."]
    assert sents[0].comments[:3] == ["# newdoc id = doc", "# newpar", "# sent_id = doc-1"]
    assert sents[1].comments == ["# sent_id = doc-2", "# text = It is."]
    assert sents[2].comments[0] == "# newpar"
    first = sents[0]
    assert [w.form for w in first.words] == ["I", "do", "n't", "know", "."]
    assert [(t.first, t.last, t.form) for t in first.tokens] == [(2, 3, "don't")]
    assert first.word(4).misc == "SpaceAfter=No"
    # No space between "know." and "It": the sentence-final token says so too.
    assert first.word(5).misc == "SpaceAfter=No"
    # The whitespace is kept as UDPipe keeps it (eud.spaces): two spaces after the multiword
    # token, a blank line after the paragraph, three spaces inside the next one.
    assert first.tokens[0].misc == "SpacesAfter=\\s\\s"
    assert sents[1].words[-1].misc == "SpacesAfter=\\n\\n"
    assert sents[2].words[0].misc == "SpacesAfter=\\s\\s\\s"
    assert sents[2].words[-1].misc == "_"


def test_long_line_is_linear(fixtures):
    seg = random_segmenter(fixtures)
    text = "lorem ipsum dolor sit amet " * 2000  # about 54 KB, no sentence punctuation
    started = time.time()
    sents = list(seg.segment(text))
    assert time.time() - started < 30
    assert surface_chars(sents) == non_space(text)
    assert max(len(s.words) for s in sents) <= 50


# -- training ------------------------------------------------------------------


def tiny_config(fixtures, tmp_path) -> dict:
    data = str(fixtures / "segment_train.conllu")
    return {"task": "segmenter", "train": data, "dev": data, "output": str(tmp_path / "seg"),
            "epochs": 1, "max_steps": 2, "batch_size": 2, "window": 16, "hidden": 8, "char_dim": 8,
            "min_char_count": 1, "seed": 3}


def test_tiny_training_save_load_identical(fixtures, tmp_path):
    from eud.segment.train import train_segmenter

    assert train_segmenter(tiny_config(fixtures, tmp_path), tmp_path / "config.toml") == 0
    out = tmp_path / "seg"
    for name in ("config.json", "vocab.json", "model.safetensors", "mwt.json", "MODEL.md"):
        assert (out / name).is_file(), name
    assert "epoch" in (out / "MODEL.md").read_text()
    seg = Segmenter.load(out)
    text = "I don't like rain. We can't go.\n\n\"Really?\" she asked."
    first = [format_sentence(s) for s in seg.segment(text)]
    seg.save(tmp_path / "copy")
    again = [format_sentence(s) for s in Segmenter.load(tmp_path / "copy").segment(text)]
    assert first == again
    assert surface_chars(seg.segment(text)) == non_space(text)


def test_a_languages_multiword_rates_weight_reaches_its_package(fixtures, tmp_path):
    from eud.segment.train import train_segmenter

    config = tiny_config(fixtures, tmp_path)
    data = tmp_path / "four_times.conllu"  # enough tokens for endings seen five times
    data.write_text((fixtures / "segment_train.conllu").read_text(encoding="utf-8") * 4, encoding="utf-8")
    del config["train"], config["dev"]
    config.update(languages={"xx": [str(data)], "yy": [str(data)]}, mwt_suffix_weight={"xx": 0.5})
    assert train_segmenter(config, tmp_path / "config.toml") == 0
    xx, yy = (json.loads((tmp_path / "seg" / lang / "mwt.json").read_text()) for lang in ("xx", "yy"))
    assert xx["suffix_weight"] == 0.5 and xx["suffix_rates"]
    assert "suffix_weight" not in yy and "suffix_rates" not in yy


def test_training_resumes_from_checkpoint(fixtures, tmp_path):
    from eud.segment.train import train_segmenter

    config = tiny_config(fixtures, tmp_path)
    train_segmenter(config, tmp_path / "config.toml")
    train_segmenter({**config, "epochs": 2}, tmp_path / "config.toml")
    card = (tmp_path / "seg" / "MODEL.md").read_text()
    assert "| 1 |" in card and "| 2 |" in card


def test_eud_train_passes_its_switches_to_the_segmenter(fixtures, tmp_path, capsys):
    from eud.commands.train import main as train_main

    config = tmp_path / "seg.json"
    config.write_text(json.dumps(tiny_config(fixtures, tmp_path)))
    assert train_main(["--config", str(config), "--threads", "1"]) == 0
    assert train_main(["--config", str(config), "--max-epochs", "2"]) == 0  # resumes: one more epoch
    card = (tmp_path / "seg" / "MODEL.md").read_text()
    assert "| 1 |" in card and "| 2 |" in card
    assert train_main(["--config", str(config), "--max-epochs", "1", "--fresh"]) == 0  # starts over
    assert "| 2 |" not in (tmp_path / "seg" / "MODEL.md").read_text()
    assert train_main(["--config", str(config), "--finish-only"]) == 2
    assert "parser configs only" in capsys.readouterr().err


def test_bad_config_is_a_message_not_a_traceback(fixtures, tmp_path, capsys):
    from eud.segment.train import train_segmenter

    config = tiny_config(fixtures, tmp_path)
    assert train_segmenter({**config, "train": str(tmp_path / "nope.conllu")}, tmp_path / "c.toml") == 2
    assert "nope.conllu not found" in capsys.readouterr().err
    assert train_segmenter({**config, "epoch": 3}, tmp_path / "c.toml") == 2
    assert "unknown key(s) epoch" in capsys.readouterr().err
    bad = tmp_path / "bad.conllu"
    bad.write_text("1\tx\n\n", encoding="utf-8")
    assert train_segmenter({**config, "train": str(bad)}, tmp_path / "c.toml") == 2
    assert "bad.conllu:1" in capsys.readouterr().err


def test_load_rejects_non_package(tmp_path):
    from eud.segment.segmenter import SegmenterError

    with pytest.raises(SegmenterError, match="not a segmenter package"):
        Segmenter.load(tmp_path)


# -- the shipped English model ------------------------------------------------------

EN_MODEL = Path(__file__).resolve().parents[1] / "models" / "en_ewt" / "segmenter"


def shipped() -> Segmenter:
    if not (EN_MODEL / "model.safetensors").is_file():
        pytest.skip("models/en_ewt/segmenter is not trained")
    return Segmenter.load(EN_MODEL)


def test_shipped_model_on_example():
    seg = shipped()
    example = Path(__file__).resolve().parents[1] / "examples" / "en.txt"
    sents = list(seg.segment(paragraphs(example), doc_id="en"))
    assert surface_chars(sents) == non_space(read_text(example))
    assert sents[0].text == "I'm not sure we can't fix this by Friday."
    assert [w.form for w in sents[0].words] == ["I", "'m", "not", "sure", "we", "ca", "n't", "fix", "this", "by",
                                               "Friday", "."]
    assert [(t.first, t.last, t.form) for t in sents[0].tokens] == [(1, 2, "I'm"), (6, 7, "can't")]
    assert sents[0].words[-2].misc == "SpaceAfter=No"
    # The closing quote stays with its sentence.
    assert any(s.text.endswith('won\'t be cheap."') for s in sents)
    assert sum(1 for s in sents if "# newpar" in s.comments) == 5


@pytest.mark.slow
def test_shipped_model_one_megabyte_line(tmp_path):
    seg = shipped()
    rng = random.Random(0)
    words = ["alpha", "beta", "gamma", "delta", "don't", "x1", "épée", "東京"]
    text = " ".join(rng.choice(words) for _ in range(150_000))[:1_000_000]
    path = tmp_path / "long.txt"
    path.write_text(text, encoding="utf-8")
    started = time.time()
    longest = 0
    kept = []
    for s in seg.segment(paragraphs(path)):
        longest = max(longest, len(s.words))
        kept.append(surface_chars([s]))
    assert "".join(kept) == non_space(text)
    assert longest <= 300 + 300  # max_sentence_tokens, plus expanded words
    assert time.time() - started < 600
