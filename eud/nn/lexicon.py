"""Lemmas a reader can trust: a form+UPOS lexicon first, the classifier's edit script only for unseen forms.

``lexicon.json`` in a parser package maps UPOS → form → lemma, learnt from the
training treebank (the most frequent lemma of each form and UPOS; ``""``
stands for "the lemma is the form"; the head of a ``goeswith`` split, which
carries the whole word's lemma, is not counted).  :class:`Lemmatizer` looks a word up:

1. ``(form, UPOS)``, then ``(lowercased form, UPOS)`` (``The`` → ``the``);
2. otherwise the *analogy*, the script that forms of the same UPOS with the longest
   shared ending take in the lexicon (``replied`` → ``reply`` teaches ``applied`` →
   ``apply``; Russian *выросло* → *вырасти* teaches *возросло* → *возрасти*), if that ending
   is at least :data:`TRUST_SUFFIX` characters long and the result plausible;
3. otherwise the classifier's edit script, if its output is *plausible*;
4. otherwise the analogy with a shorter shared ending, if plausible;
5. otherwise the form (lowercased, unless the UPOS is PROPN or the
   training lemmas of that UPOS keep capitals).

An output is **plausible** when it is the form itself (or lowercased), or when
it is non-empty without whitespace, keeps the
form's first letter (case-insensitively), is at least half as long as the form
(rounded down), and its last three characters (the whole lemma if shorter)
end some training lemma of the same UPOS.  So ``ate`` → ``ao`` (no VERB lemma
ends in ``ao``), ``applied`` → ``appli`` and ``Dependencies`` →
``dependencie`` are refused.  Suppletive lemmas (``went`` → ``go``) only come
from the lexicon.
"""

from __future__ import annotations

import json
import sys
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable
from operator import itemgetter
from pathlib import Path

from eud.atomic import write_text_atomically
from eud.graph import Sentence
from eud.nn.lemma import apply_script, edit_script
from eud.nn.tables import command_parser, is_package, read_table, run_command, write_table

FILE = "lexicon.json"
FORMAT = "eud-lexicon/1"
KEY = "lexicon"
ENDING = 3
# The suffix analogy goes before the classifier when the shared ending is at least this long
# (None: only when the classifier's guess is refused).  Chosen by eval/parser/lemma_guard.py.
TRUST_SUFFIX: int | None = 5
LONGEST_SUFFIX = 6


def build_lexicon(sentences: Iterable[Sentence]) -> dict[str, dict[str, str]]:
    """UPOS → form → most frequent lemma (``""`` when it equals the form), from annotated sentences.

    The first part of a word split by a typo (``goeswith``) is left out: UD gives it the lemma of
    the whole word (EWT: *Carlos* / *Alatorre@ENRON* → ``CarlosAlatorre@ENRON``), which is no lemma
    of the part alone.
    """
    counts: dict[tuple[str, str], Counter] = {}
    for sentence in sentences:
        split = {w.head for w in sentence.words if w.deprel == "goeswith"}
        for w in sentence.words:
            if w.lemma in ("", "_") and w.form != "_" or not w.upos or w.upos == "_" or w.id in split:
                continue
            counts.setdefault((w.upos, w.form), Counter())[w.lemma] += 1
    table: dict[str, dict[str, str]] = {}
    for (upos, form), c in sorted(counts.items()):
        lemma = c.most_common(1)[0][0]
        table.setdefault(upos, {})[form] = "" if lemma == form else lemma
    return table


def write_lexicon(folder: str | Path, sentences: Iterable[Sentence], lang: str | None = None) -> Path:
    """Build the lexicon from training sentences and write ``lexicon.json`` into a parser package folder.

    A multilingual package keeps one table per language: give ``lang``, and the
    file's other languages are kept (call once per language).
    """
    return write_table(Path(folder) / FILE, FORMAT, KEY, build_lexicon(sentences), lang)


def keep_languages(folder: str | Path, keep: Iterable[str]) -> list[str]:
    """Drop every table but ``keep`` from a multilingual package's lexicon; return the dropped languages.

    A language without a table falls back to the classifier alone at parse time, so this is for
    languages that other packages serve (a smaller repository, at their lemmas' cost here).
    """
    path = Path(folder) / FILE
    data = json.loads(path.read_text(encoding="utf-8"))
    if "languages" not in data:
        raise ValueError(f"{path}: not a multilingual lexicon (it has no per-language tables)")
    wanted = set(keep)
    missing = sorted(wanted - set(data["languages"]))
    if missing:
        raise ValueError(f"{path}: no table for {', '.join(missing)}")
    dropped = sorted(set(data["languages"]) - wanted)
    data["languages"] = {lang: t for lang, t in data["languages"].items() if lang in wanted}
    write_text_atomically(path, json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n")
    return dropped


class Lemmatizer:
    """Lexicon lookup, then a guarded edit script (see the module doc)."""

    def __init__(self, lexicon: dict[str, dict[str, str]], ending: int = ENDING,
                 trust_suffix: int | None = TRUST_SUFFIX) -> None:
        self.lexicon = lexicon
        self.ending = ending
        self.trust_suffix = trust_suffix
        self.lower = {upos: {f.lower(): (lemma or f) for f, lemma in forms.items() if f == f.lower()}
                      for upos, forms in lexicon.items()}
        self.endings: dict[str, set[str]] = {}
        self.cased: dict[str, bool] = {}
        for upos, forms in lexicon.items():
            lemmas = [lemma or form for form, lemma in forms.items()]
            self.endings[upos] = {lemma[-ending:].lower() for lemma in lemmas}
            capitals = sum(1 for lemma in lemmas if lemma[:1].isupper())
            self.cased[upos] = capitals > len(lemmas) / 2
        # For the analogy, built on first use (most texts never need it): per UPOS, the lexicon's
        # lowercased forms reversed and sorted, so that the forms sharing an ending are one slice.
        self._reversed: dict[str, tuple[list[str], list[int], list[str]]] = {}
        self._scripts: dict[tuple[str, str], str | None] = {}

    def _by_ending(self, upos: str) -> tuple[list[str], list[int], list[str]]:
        """The UPOS's lowercased forms reversed and sorted, each one's place in the lexicon, and its lowercased lemma."""
        table = self._reversed.get(upos)
        if table is None:
            entries = sorted((form.lower()[::-1], i, (lemma or form).lower())
                             for i, (form, lemma) in enumerate(self.lexicon.get(upos, {}).items()))
            table = self._reversed[upos] = ([e[0] for e in entries], [e[1] for e in entries],
                                            [e[2] for e in entries])
        return table

    def suffix_script(self, upos: str, suffix: str) -> str | None:
        """The edit script most forms of a UPOS ending in ``suffix`` (1 to 6 lowercase characters) take,
        counting only forms longer than the ending; None when there is none.

        Ties go to the script whose first form comes first in the lexicon.
        """
        key = (upos, suffix)
        if key in self._scripts:
            return self._scripts[key]
        reversed_forms, places, lemmas = self._by_ending(upos)
        end = suffix[::-1]
        lo = bisect_left(reversed_forms, end)
        matches = []
        for j in range(lo, len(reversed_forms)):
            if not reversed_forms[j].startswith(end):
                break
            if len(reversed_forms[j]) > len(end):
                matches.append(j)
        votes: dict[str, int] = {}
        for j in sorted(matches, key=places.__getitem__):
            script = edit_script(reversed_forms[j][::-1], lemmas[j])
            votes[script] = votes.get(script, 0) + 1
        best = max(votes.items(), key=itemgetter(1))[0] if votes else None
        self._scripts[key] = best
        return best

    @classmethod
    def load(cls, folder: str | Path, lang: str | None = None) -> Lemmatizer | None:
        """The package's lemmatizer, or None when the package has no ``lexicon.json`` (or none for ``lang``).

        A multilingual package's file holds one table per language; ``lang`` picks one.
        """
        table = read_table(Path(folder) / FILE, FORMAT, KEY, lang)
        return cls(table) if table is not None else None

    def known(self, form: str, upos: str) -> str | None:
        """The lexicon's lemma for a form and UPOS (trying the lowercased form too), or None."""
        forms = self.lexicon.get(upos)
        if forms is None:
            return None
        if form in forms:
            return forms[form] or form
        return self.lower[upos].get(form.lower())

    def plausible(self, form: str, lemma: str, upos: str) -> bool:
        """Whether a guessed lemma looks like a word (see the module doc for the definition)."""
        if not lemma or any(ch.isspace() for ch in lemma) or not form:
            return False
        if lemma in (form, form.lower()):
            return True  # the form itself is a word
        if lemma[0].lower() != form[0].lower() or len(lemma) < len(form) // 2:
            return False
        endings = self.endings.get(upos)
        return endings is None or lemma[-self.ending:].lower() in endings

    def lemma(self, form: str, upos: str, script: str) -> str:
        """The lemma of a word whose classifier predicted ``script`` (see the module doc for the order)."""
        seen = self.known(form, upos)
        if seen is not None:
            return seen
        # The analogy is looked up only when needed (its index is built on first use).
        analogue = self.analogy(form, upos) if self.trust_suffix is not None else None
        if analogue is not None and analogue[1] >= self.trust_suffix:
            return analogue[0]
        guess = apply_script(form, script)
        if self.plausible(form, guess, upos):
            return guess
        if self.trust_suffix is None:
            analogue = self.analogy(form, upos)
        if analogue is not None:
            return analogue[0]
        return form if upos == "PROPN" or self.cased.get(upos, False) else form.lower()

    def analogy(self, form: str, upos: str) -> tuple[str, int] | None:
        """The lemma that the lexicon's forms with the longest shared ending suggest, and that ending's
        length; None when there is no such form or its lemma is not plausible."""
        low = form.lower()
        keep_case = upos == "PROPN" or self.cased.get(upos, False)
        for n in range(min(LONGEST_SUFFIX, len(low) - 1), 0, -1):
            analogue = self.suffix_script(upos, low[-n:])
            if analogue is not None:
                # Scripts here are learnt on lowercased forms; a capitalised form keeps its capital
                # only where lemmas of this UPOS do (PROPN), so sentence-initial nouns lose theirs.
                guess = apply_script(form if keep_case else low, analogue)
                return (guess, n) if self.plausible(form, guess, upos) else None
        return None


def main(argv: list[str] | None = None) -> int:
    """Write lexicon.json into a parser package from its training CoNLL-U: ``python -m eud.nn.lexicon``."""
    parser = command_parser("python -m eud.nn.lexicon", main.__doc__, conllu_nargs="*")
    parser.add_argument("--keep", nargs="+", metavar="LANG",
                        help="a multilingual package: keep only these languages' tables (no CoNLL-U needed)")
    args = parser.parse_args(argv)
    if not is_package(args.package, "eud lexicon"):
        return 2
    if args.keep:
        try:
            dropped = keep_languages(args.package, args.keep)
        except (OSError, ValueError) as err:
            print(f"eud lexicon: {err}", file=sys.stderr)
            return 2
        print(f"{args.package / FILE}: dropped {', '.join(dropped) or 'nothing'}", file=sys.stderr)
        return 0
    if not args.conllu:
        parser.error("give the training CoNLL-U files (or --keep)")
    return run_command(args, "eud lexicon", write_lexicon)


if __name__ == "__main__":
    sys.exit(main())
