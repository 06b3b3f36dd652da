"""Scores → annotations: decode a batch and write the predicted columns into sentences.

Only the predicted columns change: FORM, MISC, comments and multiword tokens
are kept.  The enhanced graph comes from one of three sources, chosen by
``graph_mode``:

``graph``
    the biaffine graph scorer alone (an edge wherever its sigmoid > 0.5, the
    best head when none is), labels relexicalised, then gapping on ``orphan``;
``rules``
    the predicted basic tree through the rule-based enhancer (:mod:`eud.enhance`);
``combined``
    the rules' graph, minus rule edges the graph scorer finds unlikely
    (p < ``drop_below``), plus scorer edges it is sure of (p > ``add_above``).

Every sentence then goes through :func:`eud.validate.repair.repair_sentence`, so the
output passes ``udvalidate --level 2``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

import numpy as np
import torch

from eud.enhance import Enhancer, find_profile
from eud.enhance.profiles import language_style
from eud.gapping.repair import REPAIRS, UNDOING, Evidence, Settings, repair_tree
from eud.gapping.rule import Alignment, Gapping
from eud.graph import Edge, EnhancedGraph, Sentence
from eud.nn.batching import Batch, length_batches, make_batch
from eud.nn.labels import relexicalise
from eud.nn.lemma import apply_script
from eud.nn.lexicon import Lemmatizer
from eud.nn.morphology import FeatsChoice
from eud.nn.mst import decode_tree
from eud.nn.network import TAGS, Parser, quantize_int8, resolve_precision
from eud.nn.parallelism import ParallelismCheck
from eud.nn.verifier import GappingVerifier
from eud.nn.vocab import Vocab
from eud.validate.repair import repair_sentence

GRAPH_MODES = ("graph", "rules", "combined")


@dataclass
class Decoded:
    """What the network predicts for one sentence (no sentence objects touched)."""

    tags: dict[str, list[str]]
    heads: list[int]
    deprels: list[str]
    # [n, n+1]: P(edge head→dep) for dep 1..n (row n-1) and head 0..n; None when the graph scorer did not run.
    edge_probs: np.ndarray | None
    edges: list[Edge]  # the graph scorer's edges, delexicalised labels
    # Per word, the best relation other than ``orphan`` (where the tree has no room for an elided predicate).
    fallback: list[str] = field(default_factory=list)
    # Per word, the ``orphan`` score minus the fallback's (after the bias): how sure the parser is of an orphan.
    margins: list[float] = field(default_factory=list)
    # [n, d] the encoder's word states (with ``fallback``), for the gapping verifier.
    states: np.ndarray | None = None
    # [n, F] the FEATS classifier's scores (with ``feats_scores``), for :mod:`eud.nn.morphology`.
    feats_scores: np.ndarray | None = None


def _label_choices(scores: np.ndarray, root_ix: int | None, is_root: np.ndarray) -> np.ndarray:
    """Best label index per row of ``scores`` [K, L]: ``root`` for root attachments, never elsewhere."""
    if root_ix is None:
        return scores.argmax(axis=1)
    scores = scores.copy()
    scores[:, root_ix] = -np.inf
    best = scores.argmax(axis=1)
    best[is_root] = root_ix
    return best


def decode(model: Parser, scores: dict[str, torch.Tensor], batch: Batch, vocabs: dict[str, Vocab],
           threshold: float = 0.5, label_bias: np.ndarray | None = None, fallback: bool = False,
           feats_scores: bool = False) -> list[Decoded]:
    """Decode a batch: tags by argmax, trees by Chu-Liu/Edmonds, graph edges by threshold, then labels.

    ``label_bias`` [L] is added to the basic-relation scores before the label is chosen
    (see :func:`label_bias_vector`); with ``fallback`` each word's best relation other than
    ``orphan`` is kept too (:attr:`Decoded.fallback`, for :func:`eud.gapping.checks.demote_orphans`);
    with ``feats_scores`` the FEATS classifier's scores (:attr:`Decoded.feats_scores`).
    """
    tag_ix = {t: scores[t].argmax(-1).numpy() for t in TAGS}
    arc_logp = torch.log_softmax(scores["arc"], -1).numpy()  # [B, N, N+1]
    lengths = batch.lengths.tolist()
    tree_index: list[tuple[int, int, int]] = []
    all_heads = []
    for b, n in enumerate(lengths):
        square = np.full((n + 1, n + 1), -1e30)
        square[1:] = arc_logp[b, :n, : n + 1]
        heads = decode_tree(square)[1:].tolist()
        all_heads.append(heads)
        tree_index.extend((b, i, h) for i, h in enumerate(heads))
    t_index = torch.tensor(tree_index)
    dv = vocabs["deprel"]
    label_scores = model.tree_labels(scores, t_index).numpy()  # [K, L]
    if label_bias is not None:
        label_scores = label_scores + label_bias[None, :]
    deprel_ix = _label_choices(label_scores, dv.index.get("root"),
                               t_index[:, 2].numpy() == 0)
    deprels = [dv.items[k] for k in deprel_ix]
    others, margins = deprels, np.zeros(len(deprels))
    if fallback and "orphan" in dv.index:
        orphan = label_scores[:, dv.index["orphan"]].copy()
        label_scores[:, dv.index["orphan"]] = -np.inf
        other_ix = _label_choices(label_scores, dv.index.get("root"), t_index[:, 2].numpy() == 0)
        others = [dv.items[k] for k in other_ix]
        margins = orphan - label_scores[np.arange(len(other_ix)), other_ix]
    probs = torch.sigmoid(scores["enh"]).numpy() if "enh" in scores else None
    edges: list[list[Edge]] = [[] for _ in lengths]
    if probs is not None:
        graph_index: list[tuple[int, int, int]] = []
        for b, n in enumerate(lengths):
            p = probs[b, :n, : n + 1]
            best = p.argmax(axis=1)
            # The best head always; more heads only when the scorer is sure of them.
            extra_dep, extra_head = np.nonzero((p > threshold) & (np.arange(n + 1)[None, :] != best[:, None]))
            graph_index.extend((b, i, int(h)) for i, h in enumerate(best))
            graph_index.extend((b, int(i), int(h)) for i, h in zip(extra_dep, extra_head))
        g_index = torch.tensor(graph_index)
        ev = vocabs["enh_label"]
        enh_ix = _label_choices(model.graph_labels(scores, g_index).numpy(), ev.index.get("root"),
                                g_index[:, 2].numpy() == 0)
        for (b, i, h), k in zip(graph_index, enh_ix):
            edges[b].append(Edge((h, 0), (i + 1, 0), ev.items[k]))
    out, start = [], 0
    for b, n in enumerate(lengths):
        tags = {t: [vocabs[t].items[i] for i in tag_ix[t][b, :n]] for t in TAGS}
        edge_probs = probs[b, :n, : n + 1] if probs is not None else None
        out.append(Decoded(tags, all_heads[b], deprels[start:start + n], edge_probs, edges[b],
                           others[start:start + n] if fallback else [],
                           margins[start:start + n].tolist() if fallback else [],
                           scores["states"][b, :n].numpy() if fallback and "states" in scores else None,
                           scores["feats"][b, :n].float().numpy() if feats_scores else None))
        start += n
    return out


class Predictor:
    """A trained parser plus the enhancer settings: annotates sentences in place."""

    def __init__(self, model: Parser, vocabs: dict[str, Vocab], config: dict[str, Any], *,
                 graph_mode: str | None = None, batch_words: int = 2000, precision: str | None = None,
                 lemmatizer: Lemmatizer | None = None, language: str | None = None,
                 verifier: GappingVerifier | None = None, feats: FeatsChoice | None = None) -> None:
        """``precision``: auto, fp32, bf16 or int8 (:func:`eud.nn.network.resolve_precision`; None keeps the
        model's setting).  int8 quantizes ``model`` in place.

        ``language`` (a language or treebank code) overrides the config's: a multilingual model
        embeds it, and the enhancer takes its profile.

        ``lemmatizer`` (the package's lexicon, :mod:`eud.nn.lexicon`) decides lemmas from the
        classifier's scripts; without one the scripts are applied as they are.

        ``verifier`` (:mod:`eud.nn.verifier`) judges each predicted gapped clause from the
        encoder's states, after the orphan checks (only with ``orphan_check``).

        ``feats`` (the package's ``feats.json``, :mod:`eud.nn.morphology`) limits each word's
        FEATS to the sets the treebank gave its form (closed classes) or its UPOS.
        """
        self.model = model.eval()
        self.vocabs = vocabs
        language = language or config.get("language", "")
        self.config = {**config, "language": language}
        self.lang_id = language_id(vocabs, language)
        self.graph_mode = graph_mode or config.get("graph_mode", "graph")
        if model.graph is None:
            self.graph_mode = "rules"  # a model without a graph scorer: the rules build the graph
        if self.graph_mode not in GRAPH_MODES:
            raise ValueError(f"unknown graph mode {self.graph_mode!r}; known: {', '.join(GRAPH_MODES)}")
        self.batch_words = batch_words
        self.max_chars = config["encoder"].get("max_chars", 24)
        self.drop_below = float(config.get("drop_below", 0.1))
        self.add_above = float(config.get("add_above", 0.9))
        self.edge_threshold = float(config.get("edge_threshold", 0.5))
        self.enhancer = _make_enhancer(language)
        if model.graph is None and self.enhancer is None:
            raise ValueError(f"this model has no graph scorer, so its enhanced graphs come from an enhancer profile, "
                             f"and there is none for language {language or '(none given)'!r}; give a language "
                             "that converters/ has a profile for (eud parse --lang CODE)")
        # How ``obl:[case]`` is spelt out: "rules" uses the enhancer's case rule, "own" eud.nn.labels.
        self.relex = config.get("relex", "rules")
        self.case_rule = _make_case_rule(self.enhancer) if self.relex == "rules" else None
        self.gapping = Gapping(copy_of=True, style=language_style(language or None))
        self.repair = repair_sentence
        self.lemmatizer = lemmatizer
        self.set_label_bias(config.get("label_bias") or {})
        # The package's gapping block (eud.gapping.repair.Settings): which tree repairs run.
        self.gapping_settings = Settings.from_config(config, language)
        # orphan_check: an orphan needs a predicate antecedent (eud.gapping.checks); off unless the package says so.
        self.orphan_check = self.gapping_settings.orphan_check
        # orphan_margins: how sure of some gapped clauses the parser must be (eud.gapping.checks.unsure).
        self.orphan_margins: dict[str, float] = dict(self.gapping_settings.orphan_margins)
        self.verifier = verifier
        # gapping.parallelism: remnants must resemble their correlates (eud.nn.parallelism).
        self.parallelism = ParallelismCheck.from_config(config)
        self.feats = feats
        if precision is not None:
            model.precision = resolve_precision(precision, family=config["encoder"].get("type", "charlstm"))
            if model.precision == "int8" and not getattr(model, "quantized", False):
                quantize_int8(model)
                model.quantized = True

    def set_label_bias(self, bias: dict[str, float]) -> None:
        """Replace the biases on basic relations (``{"orphan": 2.0}``; see :func:`label_bias_vector`)."""
        self.label_bias = label_bias_vector(self.vocabs["deprel"], bias)

    @property
    def repairs(self) -> Settings:
        """The tree repairs of :data:`eud.gapping.repair.REPAIRS` this package runs (its current settings)."""
        return replace(self.gapping_settings, orphan_check=self.orphan_check, orphan_margins=self.orphan_margins)

    def set_repairs(self, **switches: bool) -> Settings:
        """Switch repairs of :data:`eud.gapping.repair.REPAIRS` on or off by their setting names; returns the settings before.

        ``orphan_check`` is the attribute of its own name, not a switch here.
        """
        names = {name for name, _ in REPAIRS} - UNDOING
        unknown = sorted(set(switches) - names)
        if unknown:
            raise ValueError(f"no repair switch {', '.join(unknown)} (known: {', '.join(sorted(names))})")
        before = self.gapping_settings
        self.gapping_settings = replace(before, **switches)
        return before

    @property
    def needs_graph(self) -> bool:
        """Whether writing needs the graph scorer (not when the rules build the whole graph)."""
        return self.model.graph is not None and (self.graph_mode != "rules" or self.enhancer is None)

    @torch.inference_mode()
    def decode_all(self, sentences: list[Sentence]) -> list[Decoded]:
        """Run the network over sentences (any order inside, results in input order)."""
        lengths = [len(s.words) for s in sentences]
        results: list[Decoded | None] = [None] * len(sentences)
        langs = [self.lang_id] * len(sentences) if self.lang_id is not None else None
        for idx in length_batches(lengths, self.batch_words):
            batch = make_batch(sentences, idx, self.vocabs, max_chars=self.max_chars, langs=langs)
            scores = self.model(batch, graph=self.needs_graph)
            decoded = decode(self.model, scores, batch, self.vocabs, min(0.5, self.edge_threshold), self.label_bias,
                             fallback=self.orphan_check, feats_scores=self.feats is not None)
            for i, d in zip(idx, decoded):
                results[i] = d
        return results  # type: ignore[return-value]

    def annotate(self, sentences: list[Sentence]) -> list[Sentence]:
        """Predict every column but FORM and MISC, and the enhanced graph, in place."""
        return self.write_all(sentences, self.decode_all(sentences))

    def write_all(self, sentences: list[Sentence], decoded: list[Decoded]) -> list[Sentence]:
        """Write what :meth:`decode_all` predicted for ``sentences`` into them, in place (one network pass, many writes)."""
        # A language whose treebanks spell the graph differently: each sentence's convention is
        # judged from the relations predicted around it (eud.enhance.conventions).
        enhancers = (self.enhancer.choose([d.deprels for d in decoded]) if self.enhancer is not None
                     else [None] * len(sentences))
        for s, d, enhancer in zip(sentences, decoded, enhancers):
            self.write(s, d, enhancer)
        return sentences

    def write(self, sentence: Sentence, d: Decoded, enhancer: Any = None) -> None:
        """Write one decoded sentence: each stage of :attr:`WRITE_STAGES`, in order.

        ``enhancer``: the rules for this sentence's convention (default: the language's).
        """
        for _, stage in self.WRITE_STAGES:
            stage(self, sentence, d, enhancer)

    def _write_columns(self, sentence: Sentence, d: Decoded, enhancer: Any) -> None:
        """UPOS, XPOS, FEATS, LEMMA, HEAD and DEPREL from the network."""
        for i, w in enumerate(sentence.words):
            w.upos, w.xpos, w.feats = d.tags["upos"][i], d.tags["xpos"][i], d.tags["feats"][i]
            if self.feats is not None and d.feats_scores is not None:
                w.feats = self.feats.choose(w.form, w.upos, d.feats_scores[i])
            script = d.tags["lemma"][i]
            w.lemma = (self.lemmatizer.lemma(w.form, w.upos, script) if self.lemmatizer is not None
                       else apply_script(w.form, script))
            w.head, w.deprel = d.heads[i], d.deprels[i]

    def _repair_tree(self, sentence: Sentence, d: Decoded, enhancer: Any) -> None:
        """The gapping tree repairs (:data:`eud.gapping.repair.REPAIRS`), the learned judges passed in."""
        settings = self.repairs
        if not d.fallback:
            # Decoded without the relations an undone orphan falls back to: the orphan checks cannot run.
            settings = replace(settings, orphan_check=False)
        if any(settings.enabled(name) for name, _ in REPAIRS):
            repair_tree(sentence, self.gapping, settings, Evidence(d.fallback, d.margins, self._verify(sentence, d)))

    def _build_graph(self, sentence: Sentence, d: Decoded, enhancer: Any) -> None:
        """The enhanced graph, as ``graph_mode`` says (see the module docstring)."""
        sentence.empty_nodes = []
        # A network trained without a graph scorer (``graph = false``) has only the rules.
        mode = self.graph_mode if self.model.graph is not None else "rules"
        if d.edge_probs is None and self.enhancer is None:
            sentence.copy_basic_to_enhanced()  # neither a scorer nor rules: the tree is the graph
        elif mode == "graph" or self.enhancer is None:
            self._graph_edges(sentence, d)
        else:
            (enhancer or self.enhancer).enhance(sentence)
            if mode == "combined":
                self._combine(sentence, d)

    def _validate(self, sentence: Sentence, d: Decoded, enhancer: Any) -> None:
        """The validator's repair, so that the output passes ``udvalidate --level 2``."""
        self.repair(sentence)

    # What write does to a sentence, first to last.
    WRITE_STAGES: tuple[tuple[str, Callable[..., None]], ...] = (
        ("columns", _write_columns),
        ("tree_repairs", _repair_tree),
        ("graph", _build_graph),
        ("validation", _validate),
    )

    def _verify(self, sentence: Sentence, d: Decoded) -> Callable[[Alignment], bool] | None:
        """The package's last word on a gapped clause: the verifier, then the parallelism check."""
        judges: list[Callable[[Alignment], bool]] = []
        if self.verifier is not None and d.states is not None:
            judges.append(partial(self.verifier.accepts, sentence, states=d.states, margins=d.margins))
        if self.parallelism is not None:
            judges.append(partial(self.parallelism.accepts, sentence))
        if not judges:
            return None
        return lambda clause: all(judge(clause) for judge in judges)

    def _kept_edges(self, d: Decoded) -> list[Edge]:
        """The scorer's edges: each word's best head, plus others above ``edge_threshold``."""
        p = d.edge_probs
        best = p.argmax(axis=1)
        return [e for e in d.edges if e.head[0] == best[e.dep[0] - 1] or p[e.dep[0] - 1, e.head[0]] > self.edge_threshold]

    def _graph_edges(self, sentence: Sentence, d: Decoded) -> None:
        edges = self._kept_edges(d)
        if self.case_rule is not None:
            # Placeholders become the bare relation, which the case rule then spells out.
            sentence.enhanced = EnhancedGraph(Edge(h, dep, _strip(label)) for h, dep, label in edges)
            from eud.enhance.context import Context

            self.case_rule.apply(Context(sentence))
        else:
            children = sentence.basic_children()
            sentence.enhanced = EnhancedGraph(
                Edge(h, dep, relexicalise(label, sentence, dep[0], children)) for h, dep, label in edges
            )
        if any(w.deprel == "orphan" for w in sentence.words):
            self.gapping.apply(sentence)

    def _combine(self, sentence: Sentence, d: Decoded) -> None:
        graph = sentence.enhanced
        children = sentence.basic_children()
        p = d.edge_probs
        for edge in list(graph):
            (h, hm), (dep, dm) = edge.head, edge.dep
            if hm == 0 and dm == 0 and p[dep - 1, h] < self.drop_below and len(graph.heads(edge.dep)) > 1:
                graph.remove(*edge)
        for h, dep, label in d.edges:
            if p[dep[0] - 1, h[0]] > self.add_above and not graph.has(h, dep):
                graph.add(h, dep, relexicalise(label, sentence, dep[0], children))


def label_bias_vector(deprels: Vocab, bias: dict[str, float]) -> np.ndarray | None:
    """A package's ``label_bias`` ({relation: added log-score}) as a vector over the relation table.

    Gapping is rare in treebanks, so a parser's ``orphan`` scores are badly
    calibrated: a negative bias makes it surer before it posits an elided
    predicate (fewer false empty nodes), a positive one finds more gaps.
    Relations the table lacks are ignored; None when nothing is biased.
    """
    vector = np.zeros(len(deprels), dtype=np.float32)
    for label, value in bias.items():
        if label in deprels.index:
            vector[deprels.index[label]] += float(value)
    return vector if vector.any() else None


def language_id(vocabs: dict[str, Vocab], language: str) -> int | None:
    """The row of a multilingual model's language table for a language or treebank code (None: no table).

    ValueError when the model has a table but not this language.
    """
    table = vocabs.get("lang")
    if table is None:
        return None
    for code in (language, language.split("_")[0]):
        if code in table.index:
            return table.index[code]
    raise ValueError(f"this model knows the languages {', '.join(table.items)}, not {language or '(none given)'!r}")


def _strip(label: str) -> str:
    """``obl:[case]`` → ``obl``, ``conj:[cc]`` → ``conj``; other labels unchanged."""
    return label.rpartition(":")[0] if label.endswith("]") else label


def _make_case_rule(enhancer: Any) -> Any:
    """The enhancer's case-label rule, or None (then eud.nn.labels spells the labels)."""
    if enhancer is None:
        return None
    for rule in enhancer.rules:
        if getattr(rule, "name", "") == "case_labels":
            return rule
    return None


def _make_enhancer(language: str) -> Any:
    """The rule-based enhancer for a language, or None when it has no profile."""
    try:
        profile = find_profile(language or "default")
    except Exception:  # noqa: BLE001 - any profile problem falls back to the graph scorer
        return None
    return Enhancer(profile, repair=False)

