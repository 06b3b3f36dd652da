"""Infer an enhancer language profile from gold enhanced data (the library behind ``eud profile learn``).

It counts, over gold sentences, what the treebank's enhanced layer does with
each basic relation: the label dialect (which relations take a marker lemma,
lemma plus ``Case``, or ``Case`` alone, and which ``Case`` values), whether
``conj`` takes its ``cc`` lemma and whether ``root`` is propagated to
conjuncts, ``nsubj:xsubj`` vs plain ``nsubj``, verbs seen with object or
subject control, relative words and the relations of relative clauses, and
the dependents shared by conjoined verbs.  The result is a TOML file for
``eud enhance --profile`` that is meant to be reviewed by hand.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from eud.enhance.case_labels import CaseLabels
from eud.enhance.context import Context
from eud.enhance.coordination import coordinations, share_candidates
from eud.enhance.profiles import MARKED, UNMARKED, Profile
from eud.graph import Edge, Sentence

_COMPOSABLE = ("obl", "nmod", "advcl", "acl")
_SUBJ = ("nsubj", "csubj")


class Counts:
    """Everything counted over the gold sentences."""

    def __init__(self) -> None:
        self.kept: dict[str, Counter[str]] = {}  # basic deprel -> gold labels on the same head
        self.compose: dict[str, Counter[tuple[str, str, str]]] = {}  # deprel -> hits per (marked, unmarked, fixed)
        self.case_hits: Counter[tuple[str, str]] = Counter()  # (udeprel, Case) -> label ends in it
        self.case_seen: Counter[tuple[str, str]] = Counter()
        self.marker_style: dict[str, Counter[str]] = {}  # marker lemma -> "case"/"lemma" wins
        self.conj = Counter()
        self.propagated: dict[str, Counter[str]] = {}  # first conjunct's relation -> did conjuncts get it
        self.advmod_markers: Counter[str] = Counter()
        self.xsubj = Counter()
        self.object_control: Counter[str] = Counter()
        self.subject_control: Counter[str] = Counter()
        self.relative: Counter[str] = Counter()
        self.relcl: Counter[str] = Counter()
        self.relcl_total = 0
        self.gap: dict[str, Counter[str]] = {}  # relcl without relative word: signature -> antecedent's role
        self.role: dict[str, Counter[str]] = {}  # relative word's relation -> antecedent's role
        self.control_by_lemma: dict[str, Counter[str]] = {}  # matrix lemma -> xcomp got a subject or not
        self.cc_next = Counter()
        self.xsubj_labels: dict[str, Counter[str]] = {}  # xcomp deprel -> label of its controlled subject
        self.fixed = Counter()
        self.marker_pick = Counter()  # several markers before the word: gold names the "first" or "nearest"  # fixed multiword markers: spelt by "lemma" or "form"
        self.from_first = Counter()  # propagated conjunct with its own marker: gold copies the first's label?  # conjunct without cc: gold borrows the next cc or not
        self.shared: Counter[str] = Counter()  # share key -> candidates
        self.shared_hits: Counter[str] = Counter()  # share key -> shared in gold
        self.conjuncts = 0


def _options() -> list[tuple[str, str, str]]:
    return [(m, u, f) for m in MARKED for u in UNMARKED for f in ("lemma", "form")]


def count(sentences, counts: Counts) -> None:
    """Add one file's sentences to ``counts``."""
    trials = {opt: CaseLabels(Profile(fixed=opt[2])) for opt in _options()}
    for s in sentences:
        if not s.enhanced:
            continue
        _count_sentence(s, counts, trials)


def _count_sentence(s: Sentence, c: Counts, trials: dict) -> None:
    ctx = Context(s)
    words = ctx.words
    g = s.enhanced
    for w in s.words:
        node = w.node
        gold = {(h, lab) for h, _, lab in g.heads(node)}
        same = [lab for h, lab in gold if h == (w.head, 0)]
        for lab in same:
            c.kept.setdefault(w.deprel, Counter())[lab] += 1
        if w.udeprel in _COMPOSABLE and same:
            lab = same[0]
            case = w.feat("Case")
            edge = Edge((w.head, 0), node, w.deprel)
            hits = c.compose.setdefault(w.deprel, Counter())
            any_rule = next(iter(trials.values()))
            mark = any_rule.marker(ctx, w.id, ("case", "mark"))
            if case:
                # separately with and without a marker: a value may be spelt in one only
                key = (w.udeprel, case, mark is not None)
                c.case_seen[key] += 1
                if lab.endswith(":" + case.lower()):
                    c.case_hits[key] += 1
            if mark and case:
                style = c.marker_style.setdefault(mark, Counter())
                if lab == f"{w.deprel}:{case.lower()}":
                    style["case"] += 1
                elif lab.startswith(f"{w.deprel}:{mark}"):
                    style["lemma"] += 1
            before = [x for x in ctx.children[w.id] if x < w.id and words[x].udeprel in ("case", "mark")]
            if len(before) > 1:
                for which, x in (("first", before[0]), ("nearest", before[-1])):
                    spelt = any_rule.spell(ctx, x)
                    c.marker_pick[which] += bool(spelt) and f":{spelt}" in lab
            k = any_rule.marker_word(ctx, w.id, ("case", "mark"))
            if k is not None and any(words[f].deprel == "fixed" for f in ctx.children[k]):
                for spelling, rule in (("lemma", trials[("lemma", "none", "lemma")]), ("form", trials[("lemma", "none", "form")])):
                    spelt = rule.spell(ctx, k)
                    c.fixed[spelling] += bool(spelt) and f":{spelt}" in lab
            for opt, rule in trials.items():
                rule.compose = {w.deprel: opt[:2]}
                rule.case_values = {"": frozenset({case})} if case else {}
                new = rule.compose_label(ctx, edge) or w.deprel
                hits[opt] += new == lab
            hits[("total", "", "")] += 1
        if w.udeprel in ("advcl", "acl") and same and not ctx.kids(w.id, "mark", "case"):
            for k in ctx.children[w.id]:
                x = words[k]
                if k < w.id and x.udeprel == "advmod" and same[0].endswith(":" + x.lemma.lower()):
                    c.advmod_markers[x.lemma.lower()] += 1
        if w.deprel == "acl:relcl":
            c.relcl_total += 1
        if w.udeprel == "conj":
            c.conjuncts += 1
            if not ctx.kids(w.id, "cc") and same:
                borrowed = trials[("none", "none", "lemma")]._conj_label(ctx, w.id)
                if borrowed:
                    c.cc_next["yes" if borrowed in same else "no"] += 1
            c.conj["subtyped" if any(lab.startswith("conj:") for lab in same) else "plain"] += 1
            first = ctx.first_conjunct(w.id)
            fw = words[first]
            if fw.udeprel in _COMPOSABLE and fw.head is not None:
                mine = trials[("lemma", "none", "lemma")].marker(ctx, w.id, ("case", "mark"))
                theirs = trials[("lemma", "none", "lemma")].marker(ctx, first, ("case", "mark"))
                gold_first = [lab for h, _, lab in g.heads((first, 0)) if h == (fw.head, 0)]
                gold_mine = [lab for h, lab in gold if h == (fw.head, 0)]
                if mine and theirs and mine != theirs and gold_first and gold_mine:
                    c.from_first["yes" if gold_mine[0] == gold_first[0] else "no"] += 1
            if fw.head is not None:
                got = any(h == (fw.head, 0) for h, _ in gold)
                c.propagated.setdefault(fw.deprel, Counter())["yes" if got else "no"] += 1
        if w.udeprel == "xcomp" and w.head:
            subj = [(d, lab) for _, d, lab in g.dependents(node) if lab.startswith(_SUBJ)]
            own = any(words[k].udeprel in _SUBJ for k in ctx.children[w.id])
            if own:
                continue
            c.control_by_lemma.setdefault(words[w.head].lemma, Counter())["yes" if subj else "no"] += 1
            if not subj:
                c.xsubj["none"] += 1
                continue
            c.xsubj["xsubj" if any(lab.endswith(":xsubj") for _, lab in subj) else "plain"] += 1
            c.xsubj_labels.setdefault(w.deprel, Counter())[subj[0][1]] += 1
            matrix = words[w.head]
            objs = {k for k in ctx.children[w.head] if words[k].udeprel in ("obj", "iobj")}
            ctrl = {h[0] for h, _ in subj}
            if objs & ctrl:
                c.object_control[matrix.lemma] += 1
            elif objs:
                c.subject_control[matrix.lemma] += 1
    for conjs in coordinations(ctx):
        for conj, k, key in share_candidates(ctx, conjs):
            u = words[k].udeprel
            hit = any(h == (conj, 0) and lab.partition(":")[0] == u for h, _, lab in g.heads((k, 0)))
            c.shared[key] += 1
            c.shared_hits[key] += hit
    refs = {}
    for h, d, lab in g:
        if lab == "ref" and d[1] == 0 and h[1] == 0:
            refs[d[0]] = h[0]
            p = words[d[0]]
            c.relative[p.lemma.lower()] += 1
            if p.head:
                roles = [lb for hh, _, lb in g.heads(h) if hh == (p.head, 0)]
                role = roles[0] if roles else ""
                if role.startswith(p.deprel + ":") or role.partition(":")[0] in _COMPOSABLE:
                    role = p.deprel if role.startswith(p.deprel) else role.partition(":")[0]  # the case rule spells the rest
                c.role.setdefault(p.deprel, Counter())[role] += 1
            # the clause: the ancestor of the pronoun attached to the antecedent
            i, steps = d[0], 0
            while i and words[i].head != h[0] and steps < 8:
                i, steps = words[i].head or 0, steps + 1
            if i and words[i].head == h[0]:
                c.relcl[words[i].deprel] += 1
    _count_gaps(s, ctx, refs, c)




def _count_gaps(s: Sentence, ctx: Context, refs: dict[int, int], c: Counts) -> None:
    words = ctx.words
    for w in s.words:
        if not w.deprel.endswith(":relcl") or not w.head:
            continue
        inside = [p for p, a in refs.items() if a == w.head and _under(ctx, p, w.id)]
        if inside:
            continue
        own = {words[k].udeprel for k in ctx.children[w.id]}
        key = ("subj" if own & {"nsubj", "csubj", "expl"} else "-") + " " + ("obj" if own & {"obj", "ccomp", "xcomp"} else "-")
        labs = [lab for h, _, lab in s.enhanced.heads((w.head, 0)) if h == w.node]
        label = labs[0].partition(":")[0] if labs else ""
        c.gap.setdefault(key, Counter())[label] += 1


def _under(ctx: Context, i: int, top: int) -> bool:
    for _ in range(50):
        if i == top:
            return True
        if not i:
            return False
        i = ctx.words[i].head or 0
    return False


def build(c: Counts, name: str, sources: list[str]) -> str:
    """Turn counts into profile TOML text."""
    label_map = {}
    for deprel, labs in sorted(c.kept.items()):
        top, n = labs.most_common(1)[0]
        total = sum(labs.values())
        if top != deprel and not top.startswith(deprel + ":") and n > 0.6 * total and total >= 3:
            label_map[deprel] = top
    compose = {}
    for deprel, hits in sorted(c.compose.items()):
        total = hits.pop(("total", "", ""))
        best = max(hits.items(), key=lambda kv: (kv[1], kv[0] == ("none", "none", "lemma")))
        base = hits[("none", "none", "lemma")]
        if best[0][:2] != ("none", "none") and best[1] > base and total >= 3:
            compose[deprel] = best[0]
    fixed = "form" if c.fixed["form"] > c.fixed["lemma"] else "lemma"
    case_values: dict[str, list[str]] = {}
    for (udeprel, case, marked), hits in sorted(c.case_hits.items()):
        if hits >= 2 and hits >= 0.3 * c.case_seen[(udeprel, case, marked)]:
            values = case_values.setdefault(udeprel, [])
            if case not in values:
                values.append(case)
    case_instead = sorted(m for m, n in c.marker_style.items() if n["case"] > n["lemma"] and n["case"] >= 3)
    conj_cc = c.conj["subtyped"] > 0.3 * max(1, sum(c.conj.values()))
    skip = sorted(lab for lab, n in c.propagated.items() if n["yes"] < n["no"] and n["yes"] + n["no"] >= 3)
    xs = c.xsubj
    xsubj = "nsubj:xsubj" if xs["xsubj"] >= xs["plain"] else "nsubj"
    rules = ["gapping", "coordination", "shared"]
    if xs["xsubj"] + xs["plain"] > 0.2 * max(1, sum(xs.values())):
        rules.append("control")
    if sum(c.relative.values()) >= max(3, 0.2 * c.relcl_total):
        rules.append("relative")
    rules.append("case_labels")
    share = sorted(k for k, n in c.shared.items() if c.shared_hits[k] >= 3 and c.shared_hits[k] >= 0.5 * n)
    obj_ctrl = sorted(k for k, v in c.object_control.items() if v > c.subject_control[k])
    subj_ctrl = sorted(k for k, v in c.subject_control.items() if v > c.object_control[k])
    by_xcomp = {}
    for deprel, labs in sorted(c.xsubj_labels.items()):
        top, n = labs.most_common(1)[0]
        if deprel != "xcomp" and top != xsubj and n >= 3 and n > 0.5 * sum(labs.values()):
            by_xcomp[deprel] = top
    gap = {}
    for key, labs in sorted(c.gap.items()):
        top, n = labs.most_common(1)[0]
        if top and n >= 5 and n > 0.5 * sum(labs.values()):
            gap[key] = top
    role = {}
    for deprel, labs in sorted(c.role.items()):
        top, n = labs.most_common(1)[0]
        if top and top != deprel and n >= 3 and n > 0.5 * sum(labs.values()):
            role[deprel] = top
    no_control = []
    if "control" in rules:  # otherwise every matrix verb would look like one
        no_control = sorted(k for k, n in c.control_by_lemma.items() if n["no"] >= 2 and n["no"] > 2 * n["yes"])
    relative = sorted(k for k, v in c.relative.items() if v >= 1 and k != "_")
    relcl = sorted(k for k, v in c.relcl.items() if v >= 2)

    def tlist(items) -> str:
        return "[" + ", ".join(_q(x) for x in items) + "]"

    lines = [
        f"# Enhancer profile for {name}: learned by 'eud profile learn' from",
        *[f"#   {src}" for src in sources],
        "# Review by hand before use.",
        "",
        "[profile]",
        f"name = {_q(name)}",
        f"source = {_q('learned from ' + ', '.join(Path(s).name for s in sources))}",
        "",
        "[rules]",
        f"enabled = {tlist(rules)}",
        "",
        "[labels]",
        f"fixed = {_q(fixed)}",
        f"marker = {_q('first' if c.marker_pick['first'] > c.marker_pick['nearest'] else 'nearest')}",
        f"case_instead = {tlist(case_instead)}",
        f"conj_cc = {'true' if conj_cc else 'false'}",
        f"conj_label_from_first = {'true' if c.from_first['yes'] > c.from_first['no'] else 'false'}",
        f"conj_cc_next = {'true' if c.cc_next['yes'] >= c.cc_next['no'] else 'false'}",
        f"conj_skip = {tlist(skip)}",
        f"conj_share = {tlist(share)}",
        f"xsubj = {_q(xsubj)}",
        f"relcl = {tlist(relcl or ['acl:relcl'])}",
        "",
        "[labels.map]",
        *[f"{_q(k)} = {_q(v)}" for k, v in label_map.items()],
        "",
        "[labels.xsubj_by_xcomp]",
        *[f"{_q(k)} = {_q(v)}" for k, v in by_xcomp.items()],
        "",
        "[labels.relative_gap]",
        *[f"{_q(k)} = {_q(v)}" for k, v in gap.items()],
        "",
        "[labels.relative_role]",
        *[f"{_q(k)} = {_q(v)}" for k, v in role.items()],
        "",
        "[labels.case_values]",
        *[f"{_q(k)} = {tlist(v)}" for k, v in case_values.items()],
        "",
        "[labels.compose]",
        *[f"{_q(k)} = [{_q(v[0])}, {_q(v[1])}]" for k, v in compose.items()],
        "",
        "[words]",
        f"relative = {tlist(relative)}",
        f"advmod_markers = {tlist(sorted(k for k, v in c.advmod_markers.items() if v >= 2))}",
        f"object_control = {tlist(obj_ctrl)}",
        f"subject_control = {tlist(subj_ctrl)}",
        f"no_control = {tlist(no_control)}",
        "",
    ]
    return "\n".join(lines)


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'
