"""Parity of ``eud evaluate`` with the official scorer (``udtools.udeval``), on every test treebank.

For each ``/work/shared/data/ud/*/*-test.conllu.xz`` (or the files given) two
systems are scored against gold:

* ``basic``: the gold file with its basic tree copied into DEPS (empty nodes dropped);
* ``perturbed``: a deterministic corruption of gold (:func:`perturb`): tags,
  lemmas, heads and labels changed, enhanced edges dropped/relabelled/moved,
  empty nodes dropped and added, tokens merged and split and turned into or
  out of multiword tokens (the non-space characters stay the same), and
  sentences merged and split.

The official scorer reads gold and system after empty nodes are collapsed
(``eud.collapse``, the semantics of UD's ``enhanced_collapse_empty_nodes.pl``);
``eud evaluate`` reads the uncollapsed files.  Every metric's counts (correct,
gold, system, aligned) must be equal, both for eud's streamed scoring (what
``eud evaluate`` runs; here cut at every place it may, ``chunk_words=1``) and
for whole-file scoring (:func:`eud.evaluate.evaluate_loaded`).  The official
scorer runs in-process.

    python -m eval.fidelity.evaluator_parity                      # all test files, default levels
    python -m eval.fidelity.evaluator_parity --enhancements 0 16 123456
    python -m eval.fidelity.evaluator_parity /work/shared/data/ud/en_ewt/en_ewt-ud-test.conllu.xz

Run on every shared test file (no files given), it writes ``eval/results/fidelity/evaluator_parity.json``;
run on files given, it only prints.
"""

from __future__ import annotations

import argparse
import copy
import dataclasses
import io
import random
import sys
import tempfile
import time
from pathlib import Path

from eud.collapse import collapse_empty_nodes
from eud.conllu import format_sentence, parse_conllu, read_conllu, write_conllu
from eud.evaluate import evaluate_files, evaluate_loaded
from eud.evaluate.data import read_for_scoring
from eud.graph import EmptyNode, EnhancedGraph, MultiwordToken, Sentence, Word
from eval.common import command_line, record

SHARED_UD = Path(__file__).resolve().parents[3] / "shared" / "data" / "ud"
METRIC_NAMES = (
    "Tokens", "Sentences", "Words", "UPOS", "XPOS", "UFeats", "AllTags", "Lemmas",
    "UAS", "LAS", "CLAS", "MLAS", "BLEX", "ELAS", "EULAS",
)
UPOS = ("NOUN", "VERB", "ADJ", "ADP", "PRON", "DET", "PUNCT", "X")
DEPRELS = ("nsubj", "obj", "obl", "obl:tmod", "nmod", "nmod:poss", "amod", "advmod", "case", "det", "cc",
           "mark", "aux", "cop", "conj", "punct", "xcomp", "acl", "acl:relcl", "dep", "flat")
ELABELS = ("nsubj", "nsubj:xsubj", "nsubj:pass", "obj", "obl:in", "obl", "nmod:of", "conj:and", "conj:or", "conj",
           "ref", "acl:relcl", "advcl:if", "case", "dep", "punct", "orphan")


class _W:
    """A word during perturbation: its columns and a reference to its head word (None: root)."""

    __slots__ = ("head", "word")

    def __init__(self, word: Word, head: _W | None) -> None:
        self.word = word
        self.head = head


class _E:
    """An empty node during perturbation, placed after a word (None: before the first)."""

    __slots__ = ("after", "empty")

    def __init__(self, empty: EmptyNode, after: _W | None) -> None:
        self.empty = empty
        self.after = after


_ROOT = object()


class _Draft:
    """A sentence as an object graph, so words can be merged, split and moved before renumbering."""

    def __init__(self, sentence: Sentence) -> None:
        self.comments = list(sentence.comments)
        self.words = [_W(copy.copy(w), None) for w in sentence.words]
        for w in self.words:
            h = w.word.head
            w.head = self.words[h - 1] if h else None
        mwt = {t.first: t for t in sentence.tokens}
        self.tokens: list[tuple[str | None, list[_W]]] = []
        i = 1
        while i <= len(self.words):
            t = mwt.get(i)
            if t is not None:
                self.tokens.append((t.form, self.words[t.first - 1:t.last]))
                i = t.last + 1
            else:
                self.tokens.append((None, [self.words[i - 1]]))
                i += 1
        self.empties = [_E(copy.copy(e), self.words[e.major - 1] if e.major else None) for e in sentence.empty_nodes]
        by_id: dict = {(0, 0): _ROOT}
        by_id.update({w.word.node: w for w in self.words})
        by_id.update({e.empty.node: e for e in self.empties})
        self.edges = [(by_id[h], by_id[d], lab) for h, d, lab in sentence.enhanced]
        self.enhanced = bool(sentence.enhanced)

    def nodes(self) -> list:
        return [_ROOT, *self.words, *self.empties]

    def repair(self) -> None:
        """One root, no cycles, heads inside the sentence."""
        inside = {id(w) for w in self.words}
        for w in self.words:
            if w.head is not None and id(w.head) not in inside:
                w.head = None
        roots = [w for w in self.words if w.head is None]
        if not roots:
            self.words[0].head = None
            roots = [self.words[0]]
        main = roots[0]
        for r in roots[1:]:
            r.head = main
        for w in self.words:
            while True:
                seen = set()
                x = w
                while x is not None and id(x) not in seen:
                    seen.add(id(x))
                    x = x.head
                if x is None:
                    break
                x.head = main

    def to_sentence(self) -> Sentence:
        self.repair()
        ids = {id(w): i for i, w in enumerate(self.words, 1)}
        words = []
        for w in self.words:
            word = copy.copy(w.word)
            word.id = ids[id(w)]
            word.head = ids[id(w.head)] if w.head is not None else 0
            words.append(word)
        tokens = []
        for form, group in self.tokens:
            if form is not None and len(group) > 1:
                tokens.append(MultiwordToken(ids[id(group[0])], ids[id(group[-1])], form))
            elif form is not None:
                words[ids[id(group[0])] - 1].form = form
        empties = []
        node_of: dict[int, tuple[int, int]] = {id(_ROOT): (0, 0)}
        node_of.update({id(w): (ids[id(w)], 0) for w in self.words})
        counter: dict[int, int] = {}
        for e in sorted(self.empties, key=lambda e: ids.get(id(e.after), 0)):
            major = ids[id(e.after)] if e.after is not None and id(e.after) in ids else 0
            counter[major] = counter.get(major, 0) + 1
            empty = copy.copy(e.empty)
            empty.major, empty.minor = major, counter[major]
            empties.append(empty)
            node_of[id(e)] = empty.node
        graph = EnhancedGraph()
        if self.enhanced:
            for h, d, lab in self.edges:
                if id(h) in node_of and id(d) in node_of and d is not _ROOT:
                    graph.add(node_of[id(h)], node_of[id(d)], lab)
        return Sentence(comments=self.comments, words=words, tokens=tokens, empty_nodes=empties, enhanced=graph)


def _perturb_draft(d: _Draft, rng: random.Random) -> None:
    for w in d.words:
        word = w.word
        r = rng.random()
        if r < 0.05:
            word.upos = rng.choice(UPOS)
        elif r < 0.08:
            word.xpos = word.xpos + "x"
        elif r < 0.11:
            word.feats = "Case=Nom" if word.feats == "_" else word.feats.split("|", 1)[-1] if "|" in word.feats else "_"
        elif r < 0.14:
            word.lemma = "_" if rng.random() < 0.3 else word.lemma.upper() + "q"
        r = rng.random()
        if r < 0.05:
            w.head = rng.choice([None, *d.words])
        elif r < 0.10:
            word.deprel = rng.choice(DEPRELS)
    nodes = d.nodes()
    edges = []
    for h, dep, lab in d.edges:
        r = rng.random()
        if r < 0.04:
            continue
        if r < 0.08:
            lab = rng.choice(ELABELS)
        elif r < 0.12:
            h = rng.choice(nodes)
        edges.append((h, dep, lab))
    for _ in range(rng.choice((0, 0, 1, 2))):
        edges.append((rng.choice(nodes), rng.choice(d.words), rng.choice(ELABELS)))
    d.edges = edges
    if d.empties and rng.random() < 0.3:
        gone = rng.choice(d.empties)
        d.empties.remove(gone)
        d.edges = [e for e in d.edges if e[0] is not gone and e[1] is not gone]
    if d.enhanced and rng.random() < 0.15:
        after = rng.choice(d.words)
        new = _E(EmptyNode(0, 0, "_", "_", "VERB"), after)
        d.empties.append(new)
        d.edges.append((rng.choice([_ROOT, *d.words]), new, rng.choice(("conj", "conj:and", "root"))))
        for child in rng.sample(d.words, min(len(d.words), rng.choice((1, 2)))):
            d.edges.append((new, child, rng.choice(("nsubj", "obj", "orphan", "obl:in"))))
        if len(d.empties) > 1 and rng.random() < 0.5:
            other = rng.choice(d.empties[:-1])
            d.edges.append((new, other, "dep"))
    _perturb_tokens(d, rng)


def _standalone(d: _Draft) -> list[int]:
    return [i for i, (form, group) in enumerate(d.tokens) if form is None]


def _replace(d: _Draft, old: _W, new: _W) -> None:
    for w in d.words:
        if w.head is old:
            w.head = new
    for e in d.empties:
        if e.after is old:
            e.after = new
    d.edges = [(new if h is old else h, new if dep is old else dep, lab) for h, dep, lab in d.edges]


def _is_ancestor(a: _W, b: _W) -> bool:
    seen = set()
    x = b.head
    while x is not None and id(x) not in seen:
        if x is a:
            return True
        seen.add(id(x))
        x = x.head
    return False


def _perturb_tokens(d: _Draft, rng: random.Random) -> None:
    r = rng.random()
    single = _standalone(d)
    pairs = [i for i in single if i + 1 < len(d.tokens) and d.tokens[i + 1][0] is None]
    if r < 0.12 and pairs:
        # Merge two tokens into one word, keeping the characters.
        i = rng.choice(pairs)
        a, b = d.tokens[i][1][0], d.tokens[i + 1][1][0]
        a.word.form = a.word.form + b.word.form
        if _is_ancestor(a, b) or not _is_ancestor(b, a):
            keep_head = a.head
        else:
            keep_head = b.head
        d.words.remove(b)
        del d.tokens[i + 1]
        _replace(d, b, a)
        a.head = keep_head if keep_head is not a else None
    elif r < 0.24:
        # Split a word in two tokens.
        long = [i for i in single if len(d.tokens[i][1][0].word.form) >= 2]
        if long:
            i = rng.choice(long)
            a = d.tokens[i][1][0]
            k = rng.randrange(1, len(a.word.form))
            b = _W(copy.copy(a.word), a)
            a.word.form, b.word.form = a.word.form[:k], a.word.form[k:]
            b.word.deprel = "flat"
            d.words.insert(d.words.index(a) + 1, b)
            d.tokens.insert(i + 1, (None, [b]))
            d.edges.append((a, b, "flat"))
    elif r < 0.34 and pairs:
        # Two tokens become one multiword token.
        i = rng.choice(pairs)
        a, b = d.tokens[i][1][0], d.tokens[i + 1][1][0]
        d.tokens[i:i + 2] = [(a.word.form + b.word.form, [a, b])]
    elif r < 0.44:
        multi = [i for i, (form, group) in enumerate(d.tokens) if form is not None and len(form) >= len(group)]
        if multi:
            i = rng.choice(multi)
            form, group = d.tokens[i]
            if rng.random() < 0.5:
                # A multiword token becomes separate tokens with the same characters.
                cuts = sorted(rng.sample(range(1, len(form)), len(group) - 1))
                bounds = [0, *cuts, len(form)]
                for w, x, y in zip(group, bounds, bounds[1:]):
                    w.word.form = form[x:y]
                d.tokens[i:i + 1] = [(None, [w]) for w in group]
            else:
                # Same token, a word's FORM differs (exercises the LCS alignment).
                rng.choice(group).word.form = "zz"


def _merge(a: _Draft, b: _Draft) -> _Draft:
    for e in b.empties:
        if e.after is None:
            e.after = a.words[-1]
    a.words += b.words
    a.tokens += b.tokens
    a.empties += b.empties
    a.edges += b.edges
    a.enhanced = a.enhanced or b.enhanced
    return a


def _split(d: _Draft, rng: random.Random) -> list[_Draft]:
    if len(d.tokens) < 2:
        return [d]
    cut = rng.randrange(1, len(d.tokens))
    first_words = [w for _, group in d.tokens[:cut] for w in group]
    second = copy.copy(d)
    second.comments = [c for c in d.comments if c.startswith("# sent_id")]
    second.comments = [c + "-b" for c in second.comments]
    second.tokens = d.tokens[cut:]
    second.words = [w for _, group in second.tokens for w in group]
    keep = {id(w) for w in first_words}
    second.empties = [e for e in d.empties if e.after is not None and id(e.after) not in keep]
    d.empties = [e for e in d.empties if e.after is None or id(e.after) in keep]
    d.tokens = d.tokens[:cut]
    d.words = first_words
    second.edges = list(d.edges)
    return [d, second]


def perturb(sentences: list[Sentence], seed: int = 0) -> list[Sentence]:
    """A deterministic corruption of gold that keeps the non-space characters (see the module doc)."""
    rng = random.Random(seed)
    drafts = [_Draft(s) for s in sentences]
    out: list[_Draft] = []
    i = 0
    while i < len(drafts):
        d = drafts[i]
        _perturb_draft(d, rng)
        r = rng.random()
        if r < 0.05 and i + 1 < len(drafts):
            nxt = drafts[i + 1]
            _perturb_draft(nxt, rng)
            out.append(_merge(d, nxt))
            i += 2
            continue
        if r < 0.10:
            out.extend(_split(d, rng))
        else:
            out.append(d)
        i += 1
    return [d.to_sentence() for d in out]


def basic_copy(sentences: list[Sentence]) -> list[Sentence]:
    """The gold sentences with the basic tree copied into DEPS (words shared, not copied)."""
    return [dataclasses.replace(s, enhanced=EnhancedGraph(s.basic_edges()), empty_nodes=[]) for s in sentences]


_LEVEL_KEYS = {
    "no_gapping": "1", "no_shared_parents_in_coordination": "2", "no_shared_dependents_in_coordination": "3",
    "no_control": "4", "no_external_arguments_of_relative_clauses": "5", "no_case_info": "6",
}


def collapsed_text(sentences: list[Sentence]) -> str:
    """The sentences written with their empty nodes collapsed: what the official scorer reads."""
    return "".join(format_sentence(collapse_empty_nodes(s) if s.empty_nodes else s) for s in sentences)


def official_load(collapsed: str, enhancements: str = "0"):
    """udeval's representation of a collapsed text (in-process)."""
    from udtools import udeval

    treebank_type = {k: int(v in enhancements) for k, v in _LEVEL_KEYS.items()}
    return udeval.load_conllu(io.StringIO(collapsed), "collapsed", treebank_type)


def official_counts(gold, system) -> dict[str, tuple]:
    """udeval's counts for two representations from :func:`official_load`."""
    from udtools import udeval

    result = udeval.evaluate(gold, system)
    return {m: (result[m].correct, result[m].gold_total, result[m].system_total, result[m].aligned_total)
            for m in METRIC_NAMES}


def eud_load(path: Path, enhancements: str = "0"):
    """eud's scoring view of an uncollapsed file, read as ``eud evaluate`` reads it."""
    return read_for_scoring(path, enhancements)


def eud_counts(gold, system) -> dict[str, tuple]:
    """eud evaluate's counts for two files from :func:`eud_load`."""
    ev = evaluate_loaded(gold, system)
    return {m: (ev[m].correct, ev[m].gold, ev[m].system, ev[m].aligned) for m in METRIC_NAMES}


def eud_streamed_counts(gold: Path, system: Path, enhancements: str = "0") -> dict[str, tuple]:
    """eud evaluate's counts from its streamed scoring, cut into the smallest chunks it allows."""
    ev = evaluate_files(gold, system, enhancements=enhancements, chunk_words=1)
    return {m: (ev[m].correct, ev[m].gold, ev[m].system, ev[m].aligned) for m in METRIC_NAMES}


def systems_for(path: Path, seed: int = 0) -> tuple[list[Sentence], dict[str, list[Sentence]]]:
    """Gold sentences and the two systems scored against them.

    The perturbed system goes through text and back, so it is checked to be valid CoNLL-U.
    """
    gold = list(read_conllu(path))
    perturbed = "".join(format_sentence(s) for s in perturb(gold, seed))
    return gold, {"basic": basic_copy(gold), "perturbed": parse_conllu(perturbed, name="perturbed")}


def compare_file(path: Path, levels_list: tuple[str, ...] = ("0",), seed: int = 0) -> list[tuple[str, str, list[str]]]:
    """(system, levels, differences) for both systems of one gold file; no differences means parity."""
    gold, systems = systems_for(path, seed)
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for name, sentences in systems.items():
            files[name] = Path(tmp) / f"{name}.conllu"
            write_conllu(sentences, files[name])
        collapsed = {name: collapsed_text(sentences) for name, sentences in systems.items()}
        gold_collapsed = collapsed_text(gold)
        for levels in levels_list:
            official_gold = official_load(gold_collapsed, levels)
            eud_gold = eud_load(path, levels)
            for name in systems:
                ours = eud_counts(eud_gold, eud_load(files[name], levels))
                streamed = eud_streamed_counts(path, files[name], levels)
                theirs = official_counts(official_gold, official_load(collapsed[name], levels))
                diffs = [f"{m}: eud {ours[m]} udeval {theirs[m]}" for m in METRIC_NAMES if ours[m] != theirs[m]]
                diffs += [f"{m}: eud streamed {streamed[m]} udeval {theirs[m]}"
                          for m in METRIC_NAMES if streamed[m] != theirs[m]]
                out.append((name, levels, diffs))
    return out


def main(argv: list[str] | None = None) -> int:
    """Check parity on the given test files (default: all shared test files)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--enhancements", nargs="+", default=["0"], help="official levels to check, e.g. 0 16")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    files = args.files or sorted(SHARED_UD.glob("*/*-test.conllu.xz"))
    failures = runs = 0
    systems: set[str] = set()
    for path in files:
        t0 = time.perf_counter()
        for name, levels, diffs in compare_file(path, tuple(args.enhancements), args.seed):
            status = "OK" if not diffs else "MISMATCH"
            failures += bool(diffs)
            runs += 1
            systems.add(name)
            print(f"{path.name:32} {name:10} --enhancements {levels:7} {status}")
            for line in diffs:
                print("   ", line)
        print(f"{path.name:32} ({time.perf_counter() - t0:.1f}s)", flush=True)
    print(f"{len(files)} files, {failures} mismatching runs")
    if not args.files:  # every shared test file: the published figure
        key = f"runs ({len(files)} test files x {len(systems)} systems x {len(args.enhancements)} levels)"
        record("fidelity", "evaluator_parity", {key: runs, "mismatching runs": failures},
               label="measurement", command=command_line("eval.fidelity.evaluator_parity"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
