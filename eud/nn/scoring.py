"""Quick dev scores used while training (the official figures come from ``eud evaluate``)."""

from __future__ import annotations

from collections.abc import Iterable

from eud.graph import Sentence


def quick_scores(gold: Iterable[Sentence], pred: Iterable[Sentence]) -> dict[str, float]:
    """UPOS, XPOS, UFeats, Lemmas, UAS, LAS and ELAS (F1, edges between words only), in percent."""
    n = 0
    hits = {k: 0 for k in ("UPOS", "XPOS", "UFeats", "Lemmas", "UAS", "LAS")}
    g_edges = p_edges = both = 0
    for g, p in zip(gold, pred):
        for gw, pw in zip(g.words, p.words):
            n += 1
            hits["UPOS"] += gw.upos == pw.upos
            hits["XPOS"] += gw.xpos == pw.xpos
            hits["UFeats"] += gw.feats == pw.feats
            hits["Lemmas"] += gw.lemma == pw.lemma
            hits["UAS"] += gw.head == pw.head
            hits["LAS"] += gw.head == pw.head and gw.udeprel == pw.udeprel
        ge = {e for e in g.enhanced if not e.head[1] and not e.dep[1]}
        pe = {e for e in p.enhanced if not e.head[1] and not e.dep[1]}
        g_edges += len(ge)
        p_edges += len(pe)
        both += len(ge & pe)
    out = {k: 100.0 * v / max(n, 1) for k, v in hits.items()}
    out["ELAS"] = 200.0 * both / max(g_edges + p_edges, 1) if g_edges else 0.0
    return out
