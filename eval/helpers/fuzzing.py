"""Hypothesis strategies and the four properties fuzzed in tests/test_fuzz.py and eval/fidelity/fuzz_long.py.

- the reader never raises anything but :class:`~eud.conllu.ConlluError`, which names file and line;
- read -> write is the identity on every valid file;
- ``enhance`` output always validates (UD level 2 and eud's graph checks) for any valid basic tree;
- ``evaluate`` never crashes on any pair of readable files (a clean ``ScoringError`` is allowed).
"""

from __future__ import annotations

import io
import tempfile
import unicodedata

from hypothesis import strategies as st

from eud.conllu import ConlluError, format_sentence, parse_conllu, read_conllu
from eud.evaluate import ScoringError, evaluate_sentences

UPOS = ["ADJ", "ADP", "ADV", "AUX", "CCONJ", "DET", "INTJ", "NOUN", "NUM", "PART", "PRON", "PROPN", "PUNCT", "SCONJ",
        "SYM", "VERB", "X"]  # fmt: skip
DEPRELS = ["nsubj", "obj", "iobj", "obl", "advmod", "amod", "nmod", "det", "case", "mark", "cc", "conj", "aux", "cop",
           "punct", "xcomp", "ccomp", "advcl", "acl", "acl:relcl", "compound", "flat", "fixed", "appos", "nummod",
           "parataxis", "orphan", "dep", "nsubj:pass", "obl:tmod", "discourse", "vocative", "expl", "list"]  # fmt: skip
FEATS = ["_", "Number=Sing", "Number=Plur", "Case=Nom|Number=Sing", "Mood=Ind|Tense=Past|VerbForm=Fin"]
FORM_CHARS = st.characters(blacklist_categories=("Cc", "Cs", "Zs", "Zl", "Zp", "Cf", "Co", "Cn", "Mn", "Mc", "Me"))


def _nfc(form: str) -> bool:
    # UD wants NFC in every column; the lemma is the lower-cased form.
    return unicodedata.normalize("NFC", form) == form and unicodedata.normalize("NFC", form.lower()) == form.lower()


@st.composite
def basic_sentence(draw: st.DrawFn, sent_id: str = "s1", graph: bool = True) -> str:
    """One valid CoNLL-U sentence: a random tree, random forms, tags and features, text from the forms."""
    n = draw(st.integers(1, 12))
    order = draw(st.permutations(list(range(1, n + 1))))
    heads = {order[0]: 0}
    for k, word in enumerate(order[1:], 1):
        heads[word] = order[draw(st.integers(0, k - 1))]
    forms = [draw(st.text(FORM_CHARS, min_size=1, max_size=6).filter(_nfc)) for _ in range(n)]
    glued = [draw(st.booleans()) for _ in range(n)]
    lines = [f"# sent_id = {sent_id}"]
    text = ""
    rows = []
    for i in range(1, n + 1):
        deprel = "root" if heads[i] == 0 else draw(st.sampled_from(DEPRELS))
        misc = "SpaceAfter=No" if glued[i - 1] and i < n else "_"
        deps = f"{heads[i]}:{deprel}" if graph else "_"
        upos = draw(st.sampled_from(UPOS))
        feats = draw(st.sampled_from(FEATS))
        rows.append(f"{i}\t{forms[i - 1]}\t{forms[i - 1].lower()}\t{upos}\t_\t{feats}\t{heads[i]}\t{deprel}\t{deps}\t{misc}")
        text += forms[i - 1] + ("" if misc != "_" or i == n else " ")
    lines.append(f"# text = {text}")
    return "\n".join(lines + rows) + "\n\n"


@st.composite
def valid_file(draw: st.DrawFn, graph: bool | None = None) -> str:
    """A valid CoNLL-U file of 1-4 sentences (all with graphs or all without)."""
    with_graph = draw(st.booleans()) if graph is None else graph
    count = draw(st.integers(1, 4))
    return "".join(draw(basic_sentence(f"s{k}", with_graph)) for k in range(count))


CONLLU_ALPHABET = st.sampled_from(list("\t\n0123456789_-.:|=#abcNOUNrootX ") + ["\r", "\x00", "\ufeff", "é", "\xff"])


@st.composite
def mangled_bytes(draw: st.DrawFn) -> bytes:
    """Bytes near CoNLL-U: a valid file with random edits, or CoNLL-U-alphabet noise."""
    if draw(st.booleans()):
        text = draw(valid_file())
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(text)))
            cut = draw(st.integers(0, 5))
            text = text[:at] + draw(st.text(CONLLU_ALPHABET, max_size=5)) + text[at + cut :]
        data = text.encode("utf-8", "surrogatepass")
    else:
        data = "".join(draw(st.lists(CONLLU_ALPHABET, max_size=200))).encode("utf-8")
    if draw(st.integers(0, 9)) == 0:
        data = data.replace(b"\xc3\xa9", b"\xc3")  # broken UTF-8
    return data


def reader_only_raises_its_own_error(data: bytes) -> None:
    """Property 1: reading any bytes either works or raises ConlluError naming the source (and line when known)."""
    try:
        for sentence in read_conllu(io.BytesIO(data)):
            format_sentence(sentence)
    except ConlluError as err:
        assert err.source and str(err).startswith(err.source)
        assert err.line is None or err.line >= 1


def read_write_identity(text: str) -> None:
    """Property 2: a valid file comes back byte for byte."""
    assert "".join(format_sentence(s) for s in parse_conllu(text)) == text


def enhanced_validates(text: str, enhancer: object) -> None:
    """Property 3: the enhancer's output of valid basic trees passes UD level 2 and eud's graph checks."""
    from eud.validate import check_sentence
    from eud.validate.files import RunState, check_file
    from eud.validate.official import OfficialChecks

    out = [enhancer.enhance(s) for s in parse_conllu(text)]  # type: ignore[attr-defined]
    for sentence in out:
        assert check_sentence(sentence) == [], format_sentence(sentence)
    written = "".join(format_sentence(s) for s in out)

    with tempfile.NamedTemporaryFile("w", suffix=".conllu", encoding="utf-8", delete=True) as f:
        f.write(written)
        f.flush()
        problems = [p for c in check_file(f.name, RunState(official=OfficialChecks(2))) for p in c.problems]
    assert problems == [], (problems, written)


def evaluate_never_crashes(gold: str, system: str) -> None:
    """Property 4: any two readable files score or give a clean ScoringError."""
    try:
        evaluation = evaluate_sentences(parse_conllu(gold), parse_conllu(system))
    except ScoringError as err:
        assert str(err)
        return
    for name in ("LAS", "ELAS", "EULAS"):
        assert 0.0 <= evaluation[name].f1 <= 1.0
