"""repair_sentence: known repairs of each broken fixture, udvalidate on the result, and random breakage."""

from __future__ import annotations

import itertools
import random
import shutil
import subprocess
import time
import warnings
from pathlib import Path

import pytest

from eud.commands.validate import main
from eud.conllu import format_sentence, parse_conllu, read_conllu
from eud.graph import ROOT, EnhancedGraph, Sentence, Word
from eud.validate import check_file, check_sentence, label_problem, reachable
from eud.validate.repair import repair_sentence

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BROKEN = [
    "validate_deps_order.conllu",
    "validate_graph.conllu",
    "validate_labels.conllu",
    "validate_empty.conllu",
    "validate_ids.conllu",
    "validate_sometimes.conllu",
]
UDVALIDATE = shutil.which("udvalidate")


def udvalidate(path: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    """Run the official validator (level 2 unless told otherwise); --lang ud needs no language data."""
    assert UDVALIDATE is not None
    # The file goes first: --include-only takes every word after it.
    args = [UDVALIDATE, str(path), "--lang", "ud", "--level", "2", "--max-err", "0", *extra]
    return subprocess.run(args, check=False, capture_output=True, text=True, timeout=120)


def assert_udvalidate_passes(path: Path) -> None:
    if UDVALIDATE is None:
        return
    result = udvalidate(path)
    assert result.returncode == 0, result.stdout + result.stderr
    # The two enhanced root rules are level 3 in udvalidate; check them alone.
    roots = udvalidate(path, "--level", "3", "--include-only", "enhanced-0-is-not-root", "enhanced-root-is-not-0")
    assert roots.returncode == 0, roots.stdout + roots.stderr


def fixture_sentences(name: str) -> dict[str, Sentence]:
    text = (FIXTURES / name).read_text(encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the reader skips the sentences it cannot read, with a warning
        return {s.sent_id: s for s in parse_conllu(text, lenient=True)}


# -- known repairs -------------------------------------------------------------


def test_self_loop_dropped() -> None:
    sentence = fixture_sentences("validate_graph.conllu")["graph-1"]
    assert repair_sentence(sentence) == ["dropped self-loop 1→1 (dep)"]
    assert sentence.deps((1, 0)) == "2:nsubj"


def test_detached_cycle_hangs_from_the_basic_head_of_its_first_word() -> None:
    sentence = fixture_sentences("validate_graph.conllu")["graph-2"]
    assert repair_sentence(sentence) == ["connected 5: added 2→5 (conj)"]
    # One edge reconnects the whole cycle 4 ⇄ 5 and the cc below it.
    assert [sentence.deps((i, 0)) for i in (3, 4, 5)] == ["5:cc", "5:nsubj", "2:conj|4:dep"]


def test_headless_empty_node_takes_the_conj_edge_of_its_remnant() -> None:
    sentence = fixture_sentences("validate_graph.conllu")["graph-3"]
    assert repair_sentence(sentence) == ["connected 5.1: added 2→5.1 (conj)"]
    assert sentence.deps((5, 1)) == "2:conj"
    assert sentence.deps((5, 0)) == "5.1:nsubj"


def test_missing_root_edge_goes_to_the_basic_root() -> None:
    sentence = fixture_sentences("validate_graph.conllu")["graph-4"]
    assert repair_sentence(sentence) == ["added root edge 0→2 (root)"]
    assert sentence.deps((2, 0)) == "0:root|1:nsubj"


def test_labels_cleaned() -> None:
    sentences = fixture_sentences("validate_labels.conllu")
    one, two = sentences["labels-1"], sentences["labels-2"]
    repair_sentence(one)
    repair_sentence(two)
    assert [one.deps((i, 0)) for i in (1, 2, 3)] == ["2:nsubj", "0:root", "2:dep"]
    assert [two.deps((i, 0)) for i in (1, 2, 3)] == ["2:dep", "0:root", "2:obj:za_účelem"]


def test_empty_node_columns_cleared() -> None:
    sentence = fixture_sentences("validate_empty.conllu")["empty-1"]
    assert repair_sentence(sentence) == ["set HEAD and DEPREL of empty node 5.1 to _"]
    empty = sentence.node((5, 1))
    assert (empty.head, empty.deprel) == ("_", "_")


def test_no_graph_copies_the_basic_tree() -> None:
    sentence = fixture_sentences("validate_nograph.conllu")["nograph-1"]
    assert repair_sentence(sentence) == ["copied the basic tree into the empty enhanced graph"]
    assert [sentence.deps((1, 0)), sentence.deps((2, 0))] == ["2:nsubj", "0:root"]


def test_misnumbered_empty_nodes_renumbered_with_their_edges() -> None:
    sentence = fixture_sentences("validate_valid.conllu")["valid-2"]
    edges = sentence.enhanced.edges()
    sentence.empty_nodes[0].minor = 3
    sentence.enhanced.rename({(5, 1): (5, 3)})
    assert check_sentence(sentence)[0].testid == "misplaced-empty-node"
    assert repair_sentence(sentence) == ["renumbered empty nodes 5.3 as 5.1"]
    assert sentence.enhanced.edges() == edges


def test_valid_sentences_untouched() -> None:
    for sentence in fixture_sentences("validate_valid.conllu").values():
        before = format_sentence(sentence)
        assert repair_sentence(sentence) == []
        assert format_sentence(sentence) == before


# -- the command line on every broken fixture ---------------------------------------


@pytest.mark.parametrize("name", BROKEN)
def test_fix_makes_every_fixture_valid(name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "fixed.conllu"
    assert main(["--fix", "-q", "-o", str(out), str(FIXTURES / name)]) == 0
    checked = list(check_file(str(out)))
    assert [p for c in checked for p in c.problems] == []
    # Every input sentence is written, none is lost.
    assert len(checked) == (FIXTURES / name).read_text(encoding="utf-8").count("# sent_id")
    assert main([str(out)]) == 0
    capsys.readouterr()
    assert_udvalidate_passes(out)


def test_fix_keeps_valid_files_byte_identical(tmp_path: Path) -> None:
    for name in ("validate_valid.conllu", "validate_nograph.conllu"):
        out = tmp_path / name
        assert main(["--fix", "-q", "-o", str(out), str(FIXTURES / name)]) == 0
        assert out.read_bytes() == (FIXTURES / name).read_bytes()


def test_fix_gives_graphless_sentences_a_graph_when_others_have_one(tmp_path: Path) -> None:
    out = tmp_path / "fixed.conllu"
    assert main(["--fix", "-q", "-o", str(out), str(FIXTURES / "validate_sometimes.conllu")]) == 0
    assert all(s.enhanced for s in read_conllu(out))


# -- random breakage -----------------------------------------------------------------

LABELS = ["nsubj", "obj", "conj", "dep", "amod", "nmod:poss", "obl:in"]
BAD_LABELS = ["root", "Foo", "object", "nsubj:", "obl::x", ""]


def random_sentence(rng: random.Random, n_words: int, n_empty: int, index: int) -> Sentence:
    """A random basic tree, its copy as the enhanced graph, random empty nodes and extra edges."""
    order = rng.sample(range(1, n_words + 1), n_words)
    heads = {order[0]: 0}
    for k, wid in enumerate(order[1:], 1):
        heads[wid] = rng.choice(order[:k])
    words = [
        Word(i, f"w{i}", f"w{i}", "X", "_", "_", heads[i], "root" if heads[i] == 0 else rng.choice(LABELS[:5]))
        for i in range(1, n_words + 1)
    ]
    text = " ".join(w.form for w in words)
    sentence = Sentence(comments=[f"# sent_id = r{index}", f"# text = {text}"], words=words)
    sentence.copy_basic_to_enhanced()
    for _ in range(n_empty):
        node = sentence.add_empty_node(rng.randint(0, n_words), form="e", lemma="e", upos="X")
        sentence.enhanced.add((rng.randint(1, n_words), 0), node, "conj")
        sentence.enhanced.add(node, (rng.randint(1, n_words), 0), rng.choice(LABELS))
    nodes = sentence.nodes()
    for _ in range(rng.randint(0, 3)):
        head, dep = rng.choice(nodes), rng.choice(nodes)
        if head != dep:
            sentence.enhanced.add(head, dep, rng.choice(LABELS))
    return sentence


def break_sentence(rng: random.Random, sentence: Sentence) -> None:
    """Apply a random handful of the breakages repair must undo."""
    graph = sentence.enhanced
    nodes = sentence.nodes()
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(9)
        edges = list(graph)
        if kind == 0 and edges:
            graph.remove(*rng.choice(edges))
        elif kind == 1:
            node = rng.choice(nodes)
            graph.add(node, node, rng.choice(LABELS))
        elif kind == 2:
            head, dep = rng.choice([ROOT, *nodes]), rng.choice(nodes)
            graph.add(head, dep, rng.choice(LABELS + BAD_LABELS))
        elif kind == 3 and sentence.empty_nodes:
            graph.clear_heads(rng.choice(sentence.empty_nodes).node)
        elif kind == 4:
            for edge in graph.dependents(ROOT):
                graph.remove(*edge)
        elif kind == 5 and rng.random() < 0.3:
            sentence.enhanced = EnhancedGraph()  # no graph at all
        elif kind == 6 and sentence.empty_nodes:
            rng.choice(sentence.empty_nodes).head = "1"
        elif kind == 7:
            for _ in range(rng.randint(1, 3)):
                graph.clear_heads(rng.choice(nodes))
        elif kind == 8:
            graph.add((len(sentence.words) + 5, 0), rng.choice(nodes), "dep")


def test_random_breakage_always_repaired() -> None:
    rng = random.Random(20261122)
    for index in range(2000):
        sentence = random_sentence(rng, rng.randint(1, 9), rng.randint(0, 3), index)
        break_sentence(rng, sentence)
        repair_sentence(sentence)
        problems = check_sentence(sentence)
        assert problems == [], (index, problems, format_sentence(sentence))
        assert repair_sentence(sentence) == [], index  # a repaired graph needs nothing more
        assert all(edge.head != edge.dep for edge in sentence.enhanced)


def test_valid_edges_are_never_removed() -> None:
    rng = random.Random(7)
    for index in range(500):
        sentence = random_sentence(rng, rng.randint(2, 8), rng.randint(0, 2), index)
        for _ in range(rng.randint(1, 3)):
            sentence.enhanced.clear_heads(rng.choice(sentence.nodes()))
        keep = {
            e for e in sentence.enhanced
            if e.head != e.dep and label_problem(e.label) is None and (e.head == ROOT) == (e.label == "root")
        }
        repair_sentence(sentence)
        assert keep <= sentence.enhanced.edges(), index


def brute_force_min_edges(sentence: Sentence) -> int:
    """The fewest new edges that make every node reachable (tried by brute force over targets)."""
    lost = [n for n in sentence.nodes() if n not in reachable(sentence)]
    for k in range(len(lost) + 1):
        for targets in itertools.combinations(lost, k):
            trial = sentence.copy()
            for node in targets:
                trial.enhanced.add(ROOT, node, "root")
            if len(reachable(trial)) == len(sentence.nodes()) + 1:
                return k
    raise AssertionError("unreachable")


def test_connecting_adds_the_fewest_edges_possible() -> None:
    rng = random.Random(11)
    tried = 0
    for index in range(400):
        sentence = random_sentence(rng, rng.randint(2, 7), rng.randint(0, 2), index)
        for _ in range(rng.randint(1, 4)):
            edges = [e for e in sentence.enhanced if e.head != ROOT]
            if edges:
                sentence.enhanced.remove(*rng.choice(edges))
        if not sentence.enhanced.dependents(ROOT):
            continue
        expected = brute_force_min_edges(sentence)
        done = repair_sentence(sentence)
        assert sum(d.startswith("connected ") for d in done) == expected, (index, done)
        tried += expected > 0
    assert tried > 50  # the random breakage did disconnect graphs often enough to mean something


@pytest.mark.skipif(UDVALIDATE is None, reason="udvalidate (udtools) is not installed")
def test_random_repairs_pass_udvalidate(tmp_path: Path) -> None:
    rng = random.Random(5)
    path = tmp_path / "random.conllu"
    with path.open("w", encoding="utf-8") as out:
        for index in range(300):
            sentence = random_sentence(rng, rng.randint(1, 9), rng.randint(0, 3), index)
            break_sentence(rng, sentence)
            repair_sentence(sentence)
            out.write(format_sentence(sentence))
    assert_udvalidate_passes(path)



def test_degenerate_inputs_still_end_valid() -> None:
    # An empty node beyond the last word, edges to nodes that do not exist, no basic heads at all.
    sentence = random_sentence(random.Random(3), 3, 0, 0)
    sentence.add_empty_node(3)
    sentence.empty_nodes[0].major = 9
    sentence.enhanced.add((2, 0), (9, 1), "conj")
    sentence.enhanced.add((2, 0), (4, 2), "obj")
    done = repair_sentence(sentence)
    assert "moved empty node 9.1 after word 3" in done
    assert [e.id for e in sentence.empty_nodes] == ["3.1"]
    assert sentence.enhanced.has((2, 0), (3, 1), "conj")
    assert check_sentence(sentence) == []

    headless = Sentence(words=[Word(i, f"w{i}") for i in (1, 2, 3)])
    done = repair_sentence(headless)
    assert check_sentence(headless) == []
    assert headless.deps((1, 0)) == "0:root"
    assert [headless.deps((2, 0)), headless.deps((3, 0))] == ["1:dep", "1:dep"]


def test_repair_is_fast_on_valid_sentences() -> None:
    # It runs on every sentence eud writes: a generous bound that still catches a quadratic slip.
    sentences = [random_sentence(random.Random(i), 40, 2, i) for i in range(50)]
    for sentence in sentences:
        repair_sentence(sentence)
    began = time.process_time()
    for sentence in sentences:
        assert repair_sentence(sentence) == []
        assert check_sentence(sentence) == []
    per_word = (time.process_time() - began) / (40 * len(sentences))
    assert per_word < 100e-6
