"""Training files from older UD releases, brought to today's annotation conventions while they are read.

Issue 36 gives languages training files from old releases: the lv_lvtb train of UD 2.0 (basic trees
only) follows guidelines the treebank has since changed, and a parser trained on both would learn two
answers for one question.  A training config names the upgrade for a file (``upgrade = "lv_r2.0"``,
see :mod:`eud.nn.data`), and :data:`UPGRADES` maps that name to a function that edits each sentence
in place.  Only changes that can be read off the old tree itself are made; what cannot (for example
``Definite`` on Latvian adjectives, absent in 2.0) stays as it is, and whether the file helps at all
is decided by cross-validation (``eval/parser/data_cv.py``).

Latvian, UD 2.0 → today (``lv_lvtb`` r2.12 dev is the reference; UD guidelines on auxiliaries:
https://universaldependencies.org/u/dep/aux_.html and https://universaldependencies.org/u/pos/AUX_.html):

- auxiliaries and copulas were ``VERB``; they are ``AUX``;
- a passive auxiliary (*tikt*, *tapt*, or any auxiliary whose head has a ``:pass`` subject) is
  ``aux:pass``, which 2.0 lacked, and its head, the passive participle, has ``Voice=Pass``;
- ``Evident=Fh,Nfh`` on indicative verbs is ``Evident=Fh``;
- a negated verb's lemma carried the prefix (*nebija* → *nebūt*); the lemma is the positive verb
  and ``Polarity=Neg`` says the rest (*nebija* → *būt*).
"""

from __future__ import annotations

from collections.abc import Callable

from eud.graph import Sentence, Word

PASSIVE_AUXILIARIES = {"tikt", "tapt", "netikt", "netapt"}


def set_feature(word: Word, name: str, value: str) -> None:
    """Set one feature of ``word``, keeping FEATS sorted as CoNLL-U asks."""
    feats = {} if word.feats == "_" else dict(item.split("=", 1) for item in word.feats.split("|"))
    feats[name] = value
    word.feats = "|".join(f"{k}={v}" for k, v in sorted(feats.items(), key=lambda kv: kv[0].lower()))


def lv_r2_0(sentence: Sentence) -> None:
    """Latvian LVTB annotation of UD 2.0 brought to today's (see the module docstring)."""
    words = sentence.words
    passive_heads = {w.head for w in words if w.deprel in ("nsubj:pass", "csubj:pass")}
    for word in words:
        if word.feat("Evident") == "Fh,Nfh":
            set_feature(word, "Evident", "Fh")
        if word.upos in ("VERB", "AUX") and word.lemma.startswith("ne") and word.feat("Polarity") == "Neg":
            word.lemma = word.lemma[2:]
        if word.deprel == "aux" and (word.lemma in PASSIVE_AUXILIARIES or word.head in passive_heads):
            word.deprel = "aux:pass"
            if word.head:
                set_feature(words[word.head - 1], "Voice", "Pass")
        if word.udeprel in ("aux", "cop") and word.upos == "VERB":
            word.upos = "AUX"


UPGRADES: dict[str, Callable[[Sentence], None]] = {"lv_r2.0": lv_r2_0}
