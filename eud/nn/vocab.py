"""Vocabularies: the string ↔ index tables of every input and output column."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from eud.graph import Sentence
from eud.nn.labels import delexicalise_graph
from eud.nn.lemma import edit_script

PAD, UNK = "<pad>", "<unk>"
# Tables whose index 0/1 are padding and unknown (inputs); output tables have neither.
INPUT_TABLES = ("words", "chars")
OUTPUT_TABLES = ("upos", "xpos", "feats", "lemma", "deprel", "enh_label")


class Vocab:
    """One table: a list of strings and its reverse index."""

    def __init__(self, items: Iterable[str]) -> None:
        self.items = list(items)
        self.index = {s: i for i, s in enumerate(self.items)}

    def __len__(self) -> int:
        return len(self.items)

    def get(self, item: str, default: int = -100) -> int:
        """The index of ``item`` or ``default`` when unknown."""
        return self.index.get(item, default)


def normalise_word(form: str) -> str:
    """The key of a form in the word-embedding table (lowercase, digits folded)."""
    return "".join("0" if c.isdigit() else c for c in form.lower())


# Output tables with many rare classes; ``min_class_count`` prunes them (their words then train no tag).
RARE_CLASS_TABLES = ("xpos", "feats", "lemma")


def build_vocabs(sentences: list[Sentence], *, min_word_count: int = 2, min_char_count: int = 1,
                 min_class_count: int = 1) -> dict[str, Vocab]:
    """Collect every table from training sentences.

    ``min_class_count`` > 1 drops rarer XPOS, FEATS and lemma-script classes: with many
    languages together these tables grow to tens of thousands of classes, most seen once,
    and their output layers cost more than the whole encoder.
    """
    counts: dict[str, Counter] = {name: Counter() for name in INPUT_TABLES + OUTPUT_TABLES}
    for s in sentences:
        enhanced = delexicalise_graph(s)
        for w in s.words:
            counts["words"][normalise_word(w.form)] += 1
            counts["chars"].update(w.form)
            counts["upos"][w.upos] += 1
            counts["xpos"][w.xpos] += 1
            counts["feats"][w.feats] += 1
            counts["lemma"][edit_script(w.form, w.lemma)] += 1
            counts["deprel"][w.deprel] += 1
        for _, _, label in enhanced:
            counts["enh_label"][label] += 1
    vocabs = {
        "words": Vocab([PAD, UNK] + sorted(w for w, c in counts["words"].items() if c >= min_word_count)),
        "chars": Vocab([PAD, UNK] + sorted(c for c, n in counts["chars"].items() if n >= min_char_count)),
    }
    for name in OUTPUT_TABLES:
        # Most frequent first, so ties in argmax favour common classes.
        floor = min_class_count if name in RARE_CLASS_TABLES else 1
        kept = [x for x, c in counts[name].items() if c >= floor]
        vocabs[name] = Vocab(sorted(kept, key=lambda x: (-counts[name][x], x)))
    return vocabs


def vocabs_to_json(vocabs: dict[str, Vocab]) -> dict[str, list[str]]:
    """Plain JSON form of the tables."""
    return {name: v.items for name, v in vocabs.items()}


def vocabs_from_json(data: dict[str, list[str]]) -> dict[str, Vocab]:
    """Tables back from their JSON form."""
    return {name: Vocab(items) for name, items in data.items()}
