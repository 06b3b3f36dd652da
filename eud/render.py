"""The graph viewer: sentences as inline SVG in one self-contained HTML page.

Each sentence is one ``<svg>``: the words in order, empty nodes inserted after
the word they follow (dashed boxes), enhanced arcs above the words and basic
arcs below, each labelled.  No script, font or style sheet is fetched: the
page works offline and in a notebook (``Sentence._repr_html_``).

Layout, as in displaCy and brat: an arc's height (its *level*) grows with the
arcs nested under it; among the levels that allows, it takes the lowest one
where neither its line nor its label overlaps another arc's line or label on
that level.  Where an arc meets a node, its leg gets its own x position
(outer arcs outside, inner arcs inside), so legs do not coincide.  Widths are
estimated from character counts, since a static page cannot measure text.

With a gold file (``compare``), enhanced edges the system lacks are drawn
dashed in one colour ("missing") and edges gold lacks in another ("extra");
the system's and gold's empty nodes are matched by id (the same word and rank
after it, as :mod:`eud.evaluate.empty_nodes` does for equal tokenisation).

The DOM is plain to count: every arc is a ``<g class="arc enhanced|basic …">``,
every node a ``<g class="node word|empty …">``.
"""

from __future__ import annotations

import html
import itertools
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from eud.graph import ROOT, EmptyNode, NodeId, Sentence, format_id

FORM_PX = 14  # font sizes
SMALL_PX = 10
LABEL_PX = 11
LEVEL_PX = 22  # height of one arc level
TOKEN_H = 34  # the box a token's two text lines sit in
PAD = 14  # space between token boxes
MARGIN = 16

COLOURS = {
    "basic": "#5b6b82",
    "enhanced": "#333333",
    "added": "#137a6b",  # enhanced edges that the basic tree lacks
    "missing": "#e07000",  # gold only (compare)
    "extra": "#c8007a",  # system only (compare)
}

CSS = """
body{font-family:"DejaVu Sans",Verdana,sans-serif;margin:18px;color:#222;background:#fff}
h1{font-size:18px;margin:0 0 6px}
.summary{font-size:13px;color:#444;margin-bottom:10px}
.legend{font-size:12px;margin:6px 0 14px;display:flex;flex-wrap:wrap;gap:14px}
.legend span{display:inline-flex;align-items:center;gap:5px}
.legend i{display:inline-block;width:26px;height:0;border-top:2px solid}
.legend b{display:inline-block;width:16px;height:12px;border:1.5px dashed #a08a3c;background:#fff6d9}
section{margin:0 0 22px;border-top:1px solid #e3e3e3;padding-top:6px}
section h2{font-size:13px;font-weight:normal;margin:0;color:#555}
section h2 code{color:#000}
section .diff{color:#b00}
.scroll{overflow-x:auto}
svg text{font-family:"DejaVu Sans",Verdana,sans-serif}
.node .form{font-size:14px}
.node .tag{font-size:10px;fill:#777}
.node.empty .form{font-style:italic;fill:#6d5a12}
.arc text{font-size:11px}
"""


def text_width(text: str, px: float) -> float:
    """Estimated width in pixels of ``text`` at font size ``px`` (wide East Asian characters count double)."""
    units = 0.0
    for ch in text:
        if unicodedata.east_asian_width(ch) in "WF":
            units += 1.0
        elif unicodedata.combining(ch):
            continue
        elif ch in "il.,:;'|!tfj ":
            units += 0.36
        elif ch.isupper() or ch in "mwMW@%":
            units += 0.78
        else:
            units += 0.6
    return units * px


@dataclass
class Arc:
    """One arc to draw: endpoints, label, style classes, and the layout filled in by :func:`assign_levels`."""

    head: NodeId
    dep: NodeId
    label: str
    kind: str  # "enhanced" or "basic"
    status: str = ""  # "", "added", "missing", "extra"
    level: int = 0
    x_head: float = 0.0
    x_dep: float = 0.0
    x_label: float | None = None  # set by place_labels when the middle is crossed by a leg

    @property
    def colour(self) -> str:
        """The stroke colour for this arc's kind and status."""
        return COLOURS[self.status or self.kind]


@dataclass
class Layout:
    """Node positions and the arcs of one sentence, ready to draw."""

    nodes: list[NodeId]
    centre: dict[NodeId, float]
    width: dict[NodeId, float]
    top: list[Arc] = field(default_factory=list)
    bottom: list[Arc] = field(default_factory=list)
    total_width: float = 0.0


def _node_texts(sentence: Sentence, node: NodeId) -> tuple[str, str]:
    item = sentence.node(node)
    tag = item.upos if item.upos != "_" else ""
    return item.form, f"{format_id(node)} {tag}".strip()


def _place_nodes(sentence: Sentence, nodes: list[NodeId], extra_empty: dict[NodeId, EmptyNode],
                 arcs: Iterable[Arc]) -> tuple[dict[NodeId, float], dict[NodeId, float], float]:
    """Centre x and box width per node; gaps widen where an arc between neighbours has a long label."""
    width: dict[NodeId, float] = {}
    for node in nodes:
        form, tag = _texts(sentence, node, extra_empty)
        width[node] = max(text_width(form, FORM_PX), text_width(tag, SMALL_PX), 22) + 8
    index = {n: i for i, n in enumerate(nodes)}
    gap = [float(PAD)] * len(nodes)  # gap[i]: space before node i
    for arc in arcs:
        if arc.head == ROOT:
            continue
        i, j = sorted((index[arc.head], index[arc.dep]))
        if j == i + 1:  # the label must fit between the two legs
            need = text_width(arc.label, LABEL_PX) + 14 - (width[nodes[i]] + width[nodes[j]]) / 2 * 0.5
            gap[j] = max(gap[j], need)
    centre: dict[NodeId, float] = {}
    x = float(MARGIN)
    for i, node in enumerate(nodes):
        x += gap[i] if i else 0
        centre[node] = x + width[node] / 2
        x += width[node]
    return centre, width, x + MARGIN


def _texts(sentence: Sentence, node: NodeId, extra_empty: dict[NodeId, EmptyNode]) -> tuple[str, str]:
    if node in extra_empty:
        e = extra_empty[node]
        return e.form, f"{format_id(node)} {e.upos if e.upos != '_' else ''}".strip()
    return _node_texts(sentence, node)


def _attach(arcs: list[Arc], centre: dict[NodeId, float], width: dict[NodeId, float]) -> None:
    """Spread the legs meeting one node over its box: far-left arcs leftmost... far-right arcs leftmost of the right.

    That order (left arcs near to far, the root's leg, right arcs far to near)
    keeps a nested arc's leg inside the arc around it, so legs do not cross
    lines at the node.
    """
    legs: dict[NodeId, list[tuple[tuple[float, float], Arc, str]]] = {}
    for arc in arcs:
        for end, other in (("head", arc.dep), ("dep", arc.head)):
            node = arc.head if end == "head" else arc.dep
            if node == ROOT:
                continue
            if other == ROOT:
                key = (0.5, 0.0)
            else:
                x_other = centre[other]
                key = (1.0, -x_other) if x_other > centre[node] else (0.0, -x_other)
            legs.setdefault(node, []).append((key, arc, end))
    for node, items in legs.items():
        items.sort(key=lambda item: item[0])
        span = min(width[node] * 0.7, 7.0 * (len(items) - 1))
        for k, (_, arc, end) in enumerate(items):
            x = centre[node] - span / 2 + (span * k / (len(items) - 1) if len(items) > 1 else span / 2)
            if end == "head":
                arc.x_head = x
            else:
                arc.x_dep = x


def _extent(arc: Arc) -> tuple[float, float]:
    """The horizontal stretch an arc's line and label take at its level."""
    if arc.head == ROOT:
        half = text_width(arc.label, LABEL_PX) / 2 + 4
        return arc.x_dep - half, arc.x_dep + half
    left, right = sorted((arc.x_head, arc.x_dep))
    half = text_width(arc.label, LABEL_PX) / 2 + 5
    mid = (left + right) / 2
    return min(left, mid - half) - 3, max(right, mid + half) + 3


def assign_levels(arcs: list[Arc]) -> int:
    """Give each arc a level (1 = lowest) and return the top level, the root arcs' own.

    Short arcs go first.  An arc sits above every arc strictly inside its span
    and, from there up, on the first level where its extent (line and label)
    overlaps no arc already placed on that level.
    """
    placed: dict[int, list[tuple[float, float]]] = {}
    ordered = sorted((a for a in arcs if a.head != ROOT), key=lambda a: (abs(a.x_head - a.x_dep), a.x_dep))
    done: list[Arc] = []
    for arc in ordered:
        left, right = sorted((arc.x_head, arc.x_dep))
        floor = 1 + max((d.level for d in done if left <= min(d.x_head, d.x_dep) and max(d.x_head, d.x_dep) <= right
                         and (d.x_head, d.x_dep) != (arc.x_head, arc.x_dep)), default=0)
        lo, hi = _extent(arc)
        level = floor
        while any(lo < b and a < hi for a, b in placed.get(level, [])):
            level += 1
        arc.level = level
        placed.setdefault(level, []).append((lo, hi))
        done.append(arc)
    top = max((a.level for a in done), default=0) + 1
    for arc in arcs:
        if arc.head == ROOT:
            arc.level = top
    return top


def place_labels(arcs: list[Arc]) -> None:
    """Move a label off the middle when a taller arc's leg crosses it there: to the middle of the widest free stretch.

    Crossing arcs (around an empty node, or non-projective ones) cannot avoid
    crossing lines, but their labels can stay readable.
    """
    for arc in arcs:
        if arc.head == ROOT:
            continue
        left, right = sorted((arc.x_head, arc.x_dep))
        legs = sorted(x for other in arcs if other.level > arc.level
                      for x in ((other.x_dep,) if other.head == ROOT else (other.x_head, other.x_dep))
                      if left < x < right)
        half = text_width(arc.label, LABEL_PX) / 2 + 3
        mid = (left + right) / 2
        if not any(mid - half < x < mid + half for x in legs):
            continue
        bounds = [left, *legs, right]
        a, b = max(itertools.pairwise(bounds), key=lambda pair: pair[1] - pair[0])
        if b - a > 2 * half:
            arc.x_label = (a + b) / 2


def _arcs(sentence: Sentence, gold: Sentence | None) -> tuple[list[Arc], list[Arc]]:
    basic = [Arc(e.head, e.dep, e.label, "basic") for e in sentence.basic_edges()]
    basic_set = {(e.head, e.dep) for e in sentence.basic_edges()}
    enhanced: list[Arc] = []
    system = set(sentence.enhanced)
    gold_edges = set(gold.enhanced) if gold is not None else set()
    for e in sorted(system):
        status = ""
        if gold is not None and e not in gold_edges:
            status = "extra"
        elif (e.head, e.dep) not in basic_set:
            status = "added"
        enhanced.append(Arc(e.head, e.dep, e.label, "enhanced", status))
    for e in sorted(gold_edges - system):
        enhanced.append(Arc(e.head, e.dep, e.label, "enhanced", "missing"))
    return enhanced, basic


def check_comparable(system: Sentence, gold: Sentence, number: int) -> None:
    """Raise ValueError unless both sentences have the same words (the viewer aligns by word number)."""
    forms = [w.form for w in system.words]
    gold_forms = [w.form for w in gold.words]
    if forms != gold_forms:
        where = system.sent_id or f"sentence {number}"
        first = next((i for i, (a, b) in enumerate(zip(forms, gold_forms)) if a != b), min(len(forms), len(gold_forms)))
        raise ValueError(f"{where}: the system and gold words differ from word {first + 1} on "
                         f"({len(forms)} vs {len(gold_forms)} words); --compare needs the same tokenisation")


def sentence_svg(sentence: Sentence, gold: Sentence | None = None) -> str:
    """One sentence as an ``<svg>`` element (enhanced arcs above, basic below; with ``gold``, the differences)."""
    extra_empty = {}
    if gold is not None:
        own = {e.node for e in sentence.empty_nodes}
        extra_empty = {e.node: e for e in gold.empty_nodes if e.node not in own}
    nodes = sorted(set(sentence.nodes()) | set(extra_empty))
    top, bottom = _arcs(sentence, gold)
    known = set(nodes) | {ROOT}
    top = [a for a in top if a.head in known and a.dep in known]
    centre, width, total = _place_nodes(sentence, nodes, extra_empty, top + bottom)
    _attach(top, centre, width)
    _attach(bottom, centre, width)
    top_level = assign_levels(top) if top else 0
    bottom_level = assign_levels(bottom) if bottom else 0
    place_labels(top)
    place_labels(bottom)
    label_h = LABEL_PX + 6
    y_tokens = MARGIN + label_h + top_level * LEVEL_PX if top else MARGIN
    y_bottom = y_tokens + TOKEN_H
    height = y_bottom + (bottom_level * LEVEL_PX + label_h if bottom else 0) + MARGIN
    # The widest root label or arc label may stick out to the right.
    total = max([total] + [_extent(a)[1] + MARGIN for a in top + bottom])
    out = [(f'<svg xmlns="http://www.w3.org/2000/svg" class="sentence" width="{total:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {total:.0f} {height:.0f}" role="img">')]
    out.append(_defs())
    for node in nodes:
        out.append(_node_svg(sentence, node, extra_empty, centre[node], width[node], y_tokens))
    for arc in top:
        out.append(_arc_svg(arc, y_tokens - 2, -1))
    for arc in bottom:
        out.append(_arc_svg(arc, y_bottom + 2, 1))
    out.append("</svg>")
    return "\n".join(out)


def _defs() -> str:
    markers = []
    for name, colour in COLOURS.items():
        markers.append(f'<marker id="ah-{name}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
                       f'markerHeight="7" orient="auto-start-reverse"><path d="M0,1 L10,5 L0,9 z" '
                       f'fill="{colour}"/></marker>')
    return "<defs>" + "".join(markers) + "</defs>"


def _node_svg(sentence: Sentence, node: NodeId, extra_empty: dict[NodeId, EmptyNode], x: float, w: float,
              y: float) -> str:
    form, tag = _texts(sentence, node, extra_empty)
    title = html.escape(f"{format_id(node)} {form}")
    if node[1] == 0:
        kind, box = "word", ""
    else:
        stroke = COLOURS["missing"] if node in extra_empty else "#a08a3c"
        kind = "empty missing" if node in extra_empty else "empty"
        box = (f'<rect x="{x - w / 2:.1f}" y="{y:.1f}" width="{w:.1f}" height="{TOKEN_H}" rx="4" fill="#fff6d9" '
               f'stroke="{stroke}" stroke-width="1.5" stroke-dasharray="4 3"/>')
    return (f'<g class="node {kind}" data-id="{format_id(node)}"><title>{title}</title>{box}'
            f'<text class="form" x="{x:.1f}" y="{y + 15:.1f}" text-anchor="middle">{html.escape(form)}</text>'
            f'<text class="tag" x="{x:.1f}" y="{y + 28:.1f}" text-anchor="middle">{html.escape(tag)}</text></g>')


def _arc_svg(arc: Arc, y0: float, direction: int) -> str:
    """One arc: legs from the token row to its level, a line across, an arrow into the dependent, the label."""
    colour = arc.colour
    dash = ' stroke-dasharray="5 3"' if arc.status == "missing" else ""
    y = y0 + direction * arc.level * LEVEL_PX
    label = html.escape(arc.label)
    classes = " ".join(c for c in ("arc", arc.kind, arc.status, "root" if arc.head == ROOT else "") if c)
    head = "ROOT" if arc.head == ROOT else format_id(arc.head)
    title = html.escape(f"{head} → {format_id(arc.dep)} {arc.label}" + (f" ({arc.status})" if arc.status else ""))
    if arc.head == ROOT:
        path = f"M{arc.x_dep:.1f},{y:.1f} L{arc.x_dep:.1f},{y0:.1f}"
        lx = arc.x_dep
    else:
        r = min(6.0, abs(arc.x_dep - arc.x_head) / 2)
        sign = 1 if arc.x_dep > arc.x_head else -1
        path = (f"M{arc.x_head:.1f},{y0:.1f} L{arc.x_head:.1f},{y - direction * r:.1f} "
                f"Q{arc.x_head:.1f},{y:.1f} {arc.x_head + sign * r:.1f},{y:.1f} "
                f"L{arc.x_dep - sign * r:.1f},{y:.1f} Q{arc.x_dep:.1f},{y:.1f} {arc.x_dep:.1f},{y - direction * r:.1f} "
                f"L{arc.x_dep:.1f},{y0:.1f}")
        lx = arc.x_label if arc.x_label is not None else (arc.x_head + arc.x_dep) / 2
    lw = text_width(arc.label, LABEL_PX) + 6
    ly = y  # on the line across, or at the far end of the root's leg
    marker = arc.status or arc.kind
    return (f'<g class="{classes}"><title>{title}</title>'
            f'<path d="{path}" fill="none" stroke="{colour}" stroke-width="1.4"{dash} marker-end="url(#ah-{marker})"/>'
            f'<rect x="{lx - lw / 2:.1f}" y="{ly - LABEL_PX / 2 - 2:.1f}" width="{lw:.1f}" height="{LABEL_PX + 4}" '
            f'fill="#fff" opacity="0.92"/>'
            f'<text x="{lx:.1f}" y="{ly + LABEL_PX / 2 - 1.5:.1f}" text-anchor="middle" fill="{colour}">{label}</text>'
            f"</g>")


def _legend(compare: bool) -> str:
    items = [("basic", "basic tree (below the words)"), ("enhanced", "enhanced edge also in the basic tree"),
             ("added", "enhanced edge the basic tree lacks")]
    if compare:
        items += [("missing", "missing: in gold, not in the system (dashed)"), ("extra", "extra: in the system, not in gold")]
    spans = [f'<span><i style="border-color:{COLOURS[k]}{";border-top-style:dashed" if k == "missing" else ""}">'
             f"</i>{html.escape(text)}</span>" for k, text in items]
    spans.append("<span><b></b>empty node</span>")
    return '<div class="legend">' + "".join(spans) + "</div>"


def sentence_section(sentence: Sentence, number: int, gold: Sentence | None = None) -> str:
    """One sentence's ``<section>``: its id, text and SVG (and the difference counts when comparing)."""
    head = f"<code>{html.escape(sentence.sent_id or f'#{number}')}</code>"
    if sentence.text:
        head += " " + html.escape(sentence.text)
    if gold is not None:
        missing = len(set(gold.enhanced) - set(sentence.enhanced))
        extra = len(set(sentence.enhanced) - set(gold.enhanced))
        if missing or extra:
            head += f' <span class="diff">({missing} missing, {extra} extra)</span>'
    return (f'<section id="s{number}"><h2>{head}</h2><div class="scroll">{sentence_svg(sentence, gold)}</div>'
            "</section>")


def sentence_html(sentence: Sentence) -> str:
    """A fragment for notebooks: the legend and one sentence (what ``Sentence._repr_html_`` shows)."""
    return f'<div class="eud-render"><style>{CSS}</style>{_legend(False)}{sentence_section(sentence, 1)}</div>'


def render_page(sentences: Sequence[Sentence], gold: Sequence[Sentence] | None = None, *, title: str = "eud") -> str:
    """The whole self-contained HTML page for a list of sentences (and their gold, to compare).

    Raises ValueError when ``gold`` has another number of sentences or other words.
    """
    if gold is not None:
        if len(gold) != len(sentences):
            raise ValueError(f"the system has {len(sentences)} sentences and gold {len(gold)}; "
                             "--compare needs the same sentences")
        for number, (s, g) in enumerate(zip(sentences, gold), 1):
            check_comparable(s, g, number)
    parts = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
             f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body>",
             f"<h1>{html.escape(title)}</h1>"]
    words = sum(len(s.words) for s in sentences)
    summary = f"{len(sentences)} sentences, {words} words"
    if gold is not None:
        system_edges = sum(len(s.enhanced) for s in sentences)
        gold_edges = sum(len(g.enhanced) for g in gold)
        correct = sum(len(set(s.enhanced) & set(g.enhanced)) for s, g in zip(sentences, gold))
        summary += (f"; enhanced edges: {correct} correct, {gold_edges - correct} missing, "
                    f"{system_edges - correct} extra")
    parts.append(f'<div class="summary">{html.escape(summary)}</div>')
    parts.append(_legend(gold is not None))
    for number, sentence in enumerate(sentences, 1):
        parts.append(sentence_section(sentence, number, gold[number - 1] if gold is not None else None))
    parts.append("</body></html>\n")
    return "\n".join(parts)


def expected_counts(sentence: Sentence, gold: Sentence | None = None) -> dict[str, int]:
    """How many arcs and nodes of each kind :func:`sentence_svg` draws (what a DOM count should find)."""
    system = set(sentence.enhanced)
    gold_edges = set(gold.enhanced) if gold is not None else set()
    extra_empty = {e.node for e in gold.empty_nodes} - {e.node for e in sentence.empty_nodes} if gold else set()
    return {
        "words": len(sentence.words),
        "empty": len(sentence.empty_nodes) + len(extra_empty),
        "basic": sum(1 for w in sentence.words if w.head is not None),
        "enhanced": len(system | gold_edges),
        "missing": len(gold_edges - system) if gold is not None else 0,
        "extra": len(system - gold_edges) if gold is not None else 0,
    }


__all__ = ["Arc", "assign_levels", "expected_counts", "render_page", "sentence_html", "sentence_svg",
           "text_width"]
