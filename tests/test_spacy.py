"""eud as a spaCy pipeline, with the real spaCy: tokens, trees, empty nodes, sentences and CoNLL-U."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

import eud

spacy = pytest.importorskip("spacy", reason="spaCy is not installed (pip install 'eud[spacy]')")

from test_interop import INITIAL, rows
from test_interop import NESTED as NESTED_ONLY

import eud.spacy as eud_spacy
from eud.conllu import parse_conllu
from eud.document import Document


def doc_of(conllu: str):
    """A spaCy Doc of hand-written CoNLL-U, made by eud's tokenizer without a model."""
    tokenizer = eud_spacy.EudTokenizer(spacy.blank("en").vocab, pipeline=None)
    return tokenizer.to_doc(Document(parse_conllu(conllu)))


def test_import_eud_does_not_import_spacy():
    code = "import sys, eud; print('spacy' in sys.modules); import eud.spacy; print('spacy' in sys.modules)"
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env).stdout
    assert out.split() == ["False", "True"]
    assert eud.spacy is eud_spacy  # the attribute imports the module on first use


# The sentence-initial 0.1 and the nested 8.1 -xcomp-> 8.2 of test_interop, two spaces between them.
NESTED = INITIAL.replace("1:punct\t_\n", "1:punct\tSpacesAfter=\\s\\s\n") + NESTED_ONLY


def test_empty_nodes_sentence_initial_and_nested():
    doc = doc_of(NESTED)
    assert doc.text == "Went home.  Peter wants to eat an apple and Mary a pear."
    assert [t.text for t in doc][:5] == ["Went", "home", ".", " ", "Peter"]  # the second space is a token
    assert (doc[3].pos_, doc[3].head.i, doc[3]._.enhanced) == ("SPACE", 2, [])
    assert [s.text for s in doc.sents] == ["Went home.  ", "Peter wants to eat an apple and Mary a pear."]
    zero, wants, eat = doc._.empty_nodes
    assert (zero.id, zero.form, zero.copy_of, zero.heads) == ("0.1", "he", None, [(doc[0], "nsubj")])
    assert doc[0]._.enhanced == [(None, "root")] and doc[0].dep_ == "ROOT" and doc[0].head == doc[0]
    mary, pear = doc[11], doc[13]
    assert (mary.text, pear.text) == ("Mary", "pear")
    assert (wants.id, wants.lemma, wants.copy_of.text, wants.heads) == ("8.1", "want", "wants", [(doc[5], "conj:and")])
    assert (eat.id, eat.copy_of, eat.heads) == ("8.2", doc[7], [(wants, "xcomp")])
    assert wants.dependents == [(doc[10], "cc"), (mary, "nsubj"), (eat, "xcomp")]
    assert eat.dependents == [(mary, "nsubj:xsubj"), (pear, "obj")]
    assert mary._.enhanced == [(wants, "nsubj"), (eat, "nsubj:xsubj")]
    assert (mary.dep_, mary.head.text, pear.dep_, pear.head.text) == ("conj", "wants", "orphan", "Mary")
    first, second = doc.sents
    assert first._.empty_nodes == [zero] and second._.empty_nodes == [wants, eat]
    assert doc[4:8]._.empty_nodes == [] and doc[4:8]._.conllu == ""
    assert second._.conllu == NESTED[NESTED.index("# sent_id = nested"):]
    assert doc._.conllu == NESTED


def test_multiword_tokens_are_words_and_keep_their_surface_in_conllu():
    conllu = "# sent_id = de\n# text = Er geht zum Markt.\n" + rows(
        "1 | Er | er | PRON | PPER | Case=Nom | 2 | nsubj | 2:nsubj | _",
        "2 | geht | gehen | VERB | VVFIN | _ | 0 | root | 0:root | _",
        "3-4 | zum | _ | _ | _ | _ | _ | _ | _ | _",
        "3 | zu | zu | ADP | APPR | _ | 5 | case | 5:case | _",
        "4 | dem | der | DET | ART | Case=Dat | 5 | det | 5:det | _",
        "5 | Markt | Markt | NOUN | NN | Case=Dat | 2 | obl | 2:obl:zu | SpaceAfter=No",
        "6 | . | . | PUNCT | $. | _ | 2 | punct | 2:punct | _",
    ) + "# sent_id = en\n# text = I won't.\n" + rows(
        "1 | I | I | PRON | PRP | _ | 2 | nsubj | 2:nsubj | _",
        "2-3 | won't | _ | _ | _ | _ | _ | _ | _ | SpaceAfter=No",
        "2 | wo | will | AUX | MD | VerbForm=Fin | 0 | root | 0:root | _",
        "3 | n't | not | PART | RB | Polarity=Neg | 2 | advmod | 2:advmod | _",
        "4 | . | . | PUNCT | . | _ | 2 | punct | 2:punct | SpaceAfter=No",
    )
    doc = doc_of(conllu)
    assert [t.text for t in doc] == ["Er", "geht", "zu", "dem", "Markt", ".", "I", "wo", "n't", "."]
    # won't = wo + n't: the text stays; zum is not zu + dem, so the words are kept apart by a space.
    assert doc.text == "Er geht zu dem Markt. I won't."
    assert (doc[3].lemma_, str(doc[3].morph), doc[3].tag_, doc[3].head.text) == ("der", "Case=Dat", "ART", "Markt")
    assert doc[4]._.enhanced == [(doc[1], "obl:zu")]
    assert "3-4\tzum\t" in doc._.conllu and "2-3\twon't\t" in doc._.conllu
    assert [s.text for s in doc.sents] == ["Er geht zu dem Markt.", "I won't."]  # spaCy: no trailing space


def test_doc_keeps_its_annotation_through_bytes_and_says_when_it_no_longer_fits():
    doc = doc_of(NESTED)
    again = spacy.tokens.Doc(doc.vocab).from_bytes(doc.to_bytes())
    assert [e.id for e in again._.empty_nodes] == ["0.1", "8.1", "8.2"]
    assert again[11]._.enhanced[0][0].id == "8.1"
    with again.retokenize() as retokenizer:
        retokenizer.merge(again[4:6])
    with pytest.raises(ValueError, match="retokenized"):
        _ = again._.empty_nodes
    with pytest.raises(ValueError, match="not made by eud"):
        _ = spacy.blank("en")("Some text.")._.empty_nodes


# -- with the real model ------------------------------------------------------------

GAPPING = "John ate an apple and Mary a pear."
TEXT = "I won't go.  It's fine, isn't it?\n\nA new paragraph starts here.\n"


@pytest.fixture(scope="module")
def nlp(one_torch_thread):
    pytest.importorskip("torch", reason="the parser needs torch (pip install 'eud[nn]')")
    return eud_spacy.load("en")


def test_load_gives_a_spacy_language_named_in_its_config(nlp):
    assert isinstance(nlp, spacy.language.Language) and nlp.lang == "en"
    assert nlp.config["nlp"]["tokenizer"]["@tokenizers"] == "eud.Tokenizer.v1"
    assert nlp.tokenizer.pipeline is eud.load("en")
    assert nlp("The end.")[0].is_stop  # spaCy's English lexical attributes come with it
    by_folder = eud_spacy.load(os.path.relpath(REPO / "models" / "en_ewt"))
    assert by_folder.tokenizer.pipeline is nlp.tokenizer.pipeline
    assert by_folder.config["nlp"]["tokenizer"]["model"] == str(REPO / "models" / "en_ewt")  # absolute when saved


def test_saved_pipeline_loads_with_spacy_load(nlp, tmp_path):
    nlp.to_disk(tmp_path / "nlp")
    again = spacy.load(tmp_path / "nlp")  # the tokenizer is rebuilt from [nlp.tokenizer] in the config
    assert again("John ate an apple and Mary a pear.")._.conllu == nlp("John ate an apple and Mary a pear.")._.conllu


def test_leading_whitespace_and_tabs_are_space_tokens(nlp):
    doc = nlp("  Hello there.\tBye.")
    assert doc.text == "  Hello there.\tBye."
    assert [(t.text, t.pos_, t.head.text) for t in doc if t.is_space] == [("  ", "SPACE", "Hello"), ("\t", "SPACE", ".")]
    assert [s.text for s in doc.sents] == ["  Hello there.\t", "Bye."]


def test_gapping_gives_an_empty_node_copying_ate(nlp, tmp_path):
    doc = nlp(GAPPING)
    words = {t.text: t for t in doc}
    (node,) = doc._.empty_nodes
    assert (node.form, node.copy_of) == ("ate", words["ate"])
    assert node.heads == [(words["ate"], "conj:and")]
    assert (words["Mary"], "nsubj") in node.dependents and (words["pear"], "obj") in node.dependents
    assert words["Mary"]._.enhanced == [(node, "nsubj")] and words["pear"]._.enhanced == [(node, "obj")]
    assert (words["ate"].dep_, words["ate"].head, words["ate"].pos_, words["ate"].lemma_) == ("ROOT", words["ate"],
                                                                                              "VERB", "eat")
    assert str(words["ate"].morph) == "Mood=Ind|Number=Sing|Person=3|Tense=Past|VerbForm=Fin"
    assert words["John"].head == words["ate"] and words["John"].dep_ == "nsubj" and words["ate"].tag_ == "VBD"
    (tmp_path / "doc.conllu").write_text(doc._.conllu, encoding="utf-8")
    from eud.commands.validate import main

    assert main(["--level", "2", "-q", str(tmp_path / "doc.conllu")]) == 0
    udvalidate = shutil.which("udvalidate", path=str(Path(sys.executable).parent))  # from udtools, an eud dependency
    assert udvalidate, "udvalidate is not installed beside this python"
    run = subprocess.run([udvalidate, "--level", "2", "--lang", "en", str(tmp_path / "doc.conllu")],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stdout + run.stderr


def test_conllu_is_what_eud_parse_writes_and_sentences_are_euds(nlp, tmp_path):
    from eud.commands.parse import main

    (tmp_path / "in.txt").write_text(TEXT, encoding="utf-8")
    assert main(["--lang", "en", "-q", str(tmp_path / "in.txt"), "-o", str(tmp_path / "out.conllu")]) == 0
    written = (tmp_path / "out.conllu").read_text(encoding="utf-8")
    doc = nlp(TEXT)
    assert doc._.conllu == written
    assert doc.text == TEXT[:-1]  # CoNLL-U keeps no line end after the last token (eud.spaces.rebuild)
    # Whitespace beyond one space is a token of the sentence before it.
    assert [s.text for s in doc.sents] == ["I won't go.  ", "It's fine, isn't it?\n\n", "A new paragraph starts here."]
    assert [s.text.strip() for s in doc.sents] == [s.text for s in eud.parse_conllu(written)]
    assert [t.text for t in doc][:4] == ["I", "wo", "n't", "go"]
    assert "2-3\twon't\t" in doc._.conllu
    assert all(t.head.sent == s for s in doc.sents for t in s)


def test_pipe_streams_the_texts_together_in_order(nlp, monkeypatch):
    texts = ["First text. It has two sentences.", GAPPING, "", "Third one."]
    single = [nlp(t)._.conllu for t in texts]
    calls = []
    parse = eud.Pipeline.parse_sentences

    def counted(self, sentences):
        calls.append(len(sentences))
        return parse(self, sentences)

    monkeypatch.setattr(eud.Pipeline, "parse_sentences", counted)
    docs = list(nlp.pipe(iter(texts)))
    assert [d._.conllu for d in docs] == single
    assert calls == [4]  # the four sentences of four texts went to the parser together
    assert [len(d._.empty_nodes) for d in docs] == [0, 1, 0, 0]
    pairs = list(nlp.pipe([(GAPPING, "a"), (texts[0], "b")], as_tuples=True))
    assert [(d._.conllu, c) for d, c in pairs] == [(single[1], "a"), (single[0], "b")]
    with pytest.raises(ValueError, match="one process"):
        list(nlp.pipe(texts, n_process=2))
