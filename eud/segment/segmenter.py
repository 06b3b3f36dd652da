"""Raw text → sentences of tokens and words, with the trained character model.

:class:`Segmenter` reads a model package (``config.json``, ``vocab.json``,
``model.safetensors``, ``mwt.json``: plain data, no pickles) and turns text into
:class:`~eud.graph.Sentence` objects whose words have only FORM filled.

Whitespace always ends a token; the model adds token ends inside
whitespace-free stretches (``don't.`` → ``don't`` ``.``), sentence ends and
multiword tokens.  A sentence end after a known abbreviation (``abbreviations.json``,
see :mod:`eud.segment.abbreviations`) is dropped.  A package of a multilingual
model names the shared folder (``"weights": "../multi"``) and its language.  A paragraph end always ends a sentence.  Guards keep odd
input cheap: a paragraph is processed in blocks cut at spaces, a sentence
longer than ``max_sentence_tokens`` is cut where the model most believes a
sentence ends, and a token longer than ``max_token_chars`` is cut.  Every
non-whitespace character of the input is kept, in order, and the whitespace
between tokens is recorded in MISC as UDPipe records it (:mod:`eud.spaces`).
"""

from __future__ import annotations

import dataclasses
import json
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import torch

from eud import spaces
from eud.graph import MultiwordToken, Sentence, Word
from eud.segment.abbreviations import Abbreviations
from eud.segment.data import normalise_space
from eud.segment.mwt import MwtExpander
from eud.segment.network import CharSegmenter, Vocab, predict_many
from eud.segment.text import clean_text, split_paragraphs

BLOCK_CHARS = 20000


class SegmenterError(ValueError):
    """A model package that cannot be loaded."""


@dataclass(slots=True)
class _Token:
    form: str
    space_after: bool
    mwt_prob: float  # the network's probability that the token is a multiword token
    sent_prob: float


class Segmenter:
    """A trained sentence splitter, tokenizer and multiword-token expander."""

    def __init__(self, model: CharSegmenter, vocab: Vocab, mwt: MwtExpander, settings: dict,
                 abbreviations: Abbreviations | None = None, lang: int | None = None) -> None:
        self.model = model.eval()
        self.vocab = vocab
        self.mwt = mwt
        self.settings = settings
        self.abbreviations = abbreviations
        self.lang = lang
        self.max_sentence_tokens = int(settings.get("max_sentence_tokens", 300))
        self.max_token_chars = int(settings.get("max_token_chars", 500))
        # The LSTM's matrices are small: one thread loses little, and on a busy
        # machine two threads were measured up to 50x slower than one.
        self.threads = int(settings.get("threads", 1))

    @classmethod
    def load(cls, path: str | Path) -> Segmenter:
        """Load a package folder written by ``train_segmenter``."""
        from safetensors.torch import load_file

        path = Path(path)
        try:
            settings = json.loads((path / "config.json").read_text(encoding="utf-8"))
            # A multilingual model's language folder borrows weights and vocabulary from a shared one.
            shared = path / settings["weights"] if "weights" in settings else path
            base = json.loads((shared / "config.json").read_text(encoding="utf-8")) if shared != path else settings
            vocab = Vocab.from_json(json.loads((shared / "vocab.json").read_text(encoding="utf-8")))
            mwt = MwtExpander.from_json(json.loads((path / "mwt.json").read_text(encoding="utf-8")))
            abbreviations = Abbreviations.load(path)
            weights = load_file(str(shared / "model.safetensors"))
            lang = base["langs"].index(settings["lang"]) if base.get("langs") else None
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise SegmenterError(f"{path}: not a segmenter package ({err})") from None
        for conf in (settings, base):
            if conf.get("format") != "eud-segmenter/1":
                raise SegmenterError(f"{path}: unknown segmenter format {conf.get('format')!r}")
        model = CharSegmenter(base["n_chars"], base["n_cats"], base["char_dim"], base["cat_dim"], base["hidden"],
                              base["layers"], 0.0, len(base.get("langs") or ()), base.get("lang_dim", 8))
        model.load_state_dict(weights)
        return cls(model, vocab, mwt, {**base, **settings}, abbreviations, lang)

    def save(self, path: str | Path) -> None:
        """Write this segmenter as a package folder (what :meth:`load` reads)."""
        from eud.segment.train import save_package

        if self.lang is not None:
            raise SegmenterError("a language of a multilingual segmenter is saved with its shared model")
        save_package(Path(path), self.model, self.vocab, self.settings, self.mwt.to_json())
        if self.abbreviations is not None:
            self.abbreviations.save(Path(path))

    # -- segmentation -----------------------------------------------------

    def segment(self, text: str | Iterable[str], *, doc_id: str | None = None,
                separator: str = "\n\n") -> Iterator[Sentence]:
        """Sentences of a text (paragraphs split at blank lines) or of an iterable of paragraphs.

        The whitespace around the tokens is kept in MISC (:mod:`eud.spaces`): as it was inside a
        paragraph, and as ``separator`` (one blank line) between paragraphs.
        """
        paras = split_paragraphs(text) if isinstance(text, str) else text
        # Wherever the text came from, what the output can carry is decided here (see clean_text).
        kept: dict[int, str] = {}

        def numbered(texts: Iterable[str]) -> Iterator[str]:
            for n, para in enumerate(p for p in texts if p.strip()):
                kept[n] = para
                yield para

        paras = numbered(clean_text(p, keep_spaces=True) for p in paras)
        spacing = _Spacing(kept, separator)
        last_par = -1
        held: Sentence | None = None
        for count, (par, tokens) in enumerate(self._sentences(paras), 1):
            comments = []
            if count == 1:
                comments.append(f"# newdoc id = {doc_id}" if doc_id else "# newdoc")
            if par != last_par:
                comments.append("# newpar")
                last_par = par
            comments.append(f"# sent_id = {doc_id}-{count}" if doc_id else f"# sent_id = {count}")
            before, gaps = spacing.gaps(par, [t.form for t in tokens])
            sentence = self._build(tokens, comments, gaps)
            if held is not None:
                # The held sentence's last token is followed by this sentence's leading whitespace.
                if before is not None:
                    spaces.set_after(held, before)
                yield held
            elif before:
                spaces.set_before(sentence, before)
            held = sentence
        if held is not None:
            # At the end of the text, nothing or one space reads as the usual "_".
            end = spacing.end()
            if end is not None:
                spaces.set_after(held, end or " ")
            yield held

    def segment_lines(self, lines: str | Iterable[str], *, doc_id: str | None = None) -> Iterator[Sentence]:
        """One sentence per non-blank line (UDPipe's ``presegmented``), from a text or its lines.

        The model tokenizes each line; where it would end a sentence inside a line, the
        parts are joined back into one.  Line breaks and blank lines are kept in MISC as
        whitespace after the line's last token (``SpacesAfter=\\n``).
        """
        lines = lines.splitlines() if isinstance(lines, str) else lines
        group: list[Sentence] = []
        count = 0
        for sentence in self.segment(_line_paragraphs(lines), separator="\n"):
            if group and "# newpar" in sentence.comments:
                count += 1
                yield _joined(group, count, doc_id)
                group = []
            group.append(sentence)
        if group:
            yield _joined(group, count + 1, doc_id)

    def _sentences(self, paras: Iterable[str]) -> Iterator[tuple[int, list[_Token]]]:
        """``(paragraph number, tokens)`` for each sentence, a batch of text at a time."""
        pending: list[_Token] = []
        ending = False
        for group in _groups(_pieces(paras, BLOCK_CHARS), BLOCK_CHARS):
            with _threads(self.threads):
                all_probs = predict_many(self.model, self.vocab, [text for _, text, _ in group], lang=self.lang)
            for (par, text, last), probs in zip(group, all_probs):
                for token in self._abbreviated(list(self._tokens(text, probs))):
                    # After a sentence end with no space, punctuation still belongs to the
                    # sentence (the quote in `cheap."`); a word starts the next one.
                    if ending and not _is_punct(token.form):
                        yield par, pending
                        pending, ending = [], False
                    pending.append(token)
                    ending = ending or token.sent_prob > 0.5
                    if ending and token.space_after:
                        yield par, pending
                        pending, ending = [], False
                    elif len(pending) >= self.max_sentence_tokens:
                        # Cut where a sentence end is likeliest, in the second half.
                        half = len(pending) // 2
                        cut = max(range(half, len(pending)), key=lambda i: pending[i].sent_prob)
                        yield par, pending[: cut + 1]
                        pending = pending[cut + 1:]
                if last and pending:
                    yield par, pending
                    pending, ending = [], False

    def _tokens(self, text: str, probs: torch.Tensor) -> Iterator[_Token]:
        """Tokens of one piece of normalised text, given its probabilities ``[len(text), 5]``.

        A piece that is not its paragraph's last was cut at a space, so its
        last token has a space after it; the paragraph's last token is also
        given one, since nothing follows it.
        """
        end = probs[:, 1:].sum(-1)
        sent = ((probs[:, 3] + probs[:, 4]) / end.clamp_min(0.5)).numpy()
        mwt = ((probs[:, 2] + probs[:, 4]) / end.clamp_min(1e-9)).numpy()
        codes = np.frombuffer(text.encode("utf-32-le"), dtype=np.uint32)
        space = codes == 32
        cut = (end > 0.5).numpy() & ~space
        cut[:-1] |= space[1:]
        cut[-1] = True
        start = 0
        for i in np.flatnonzero(cut).tolist():
            while start <= i:
                stop = min(i + 1, start + self.max_token_chars)
                form = text[start:stop]
                space_after = text[stop] == " " if stop < len(text) else True
                last = stop == i + 1
                prob = float(sent[i]) if last else 0.0
                yield _Token(form, space_after, float(mwt[i]) if last else 0.0, prob)
                start = stop
            start = i + 1
            while start < len(text) and text[start] == " ":
                start += 1

    def _abbreviated(self, tokens: list[_Token]) -> list[_Token]:
        """The tokens, with no sentence end after a known abbreviation (``Jan.`` ``5``).

        A period the model cut off such an abbreviation is glued back when the
        training data wrote abbreviations that way.
        """
        if self.abbreviations is None:
            return tokens
        out: list[_Token] = []
        for k, tok in enumerate(tokens):
            if tok.sent_prob > 0.5 and k + 1 < len(tokens):
                glued = out[-1].form if out and not out[-1].space_after else None
                following = [t.form for t in tokens[k + 1:k + 3]]
                if self.abbreviations.keeps_going(tok.form, glued, following):
                    tok.sent_prob = 0.0
                    if (glued is not None and tok.form == "." and out[-1].mwt_prob <= 0.5 and glued.isalpha()
                            and self.abbreviations.attaches()):
                        out[-1].form += "."
                        out[-1].space_after = tok.space_after
                        continue
            out.append(tok)
        return out

    def _build(self, tokens: list[_Token], comments: list[str], gaps: list[str | None]) -> Sentence:
        """A Sentence (FORM, SpaceAfter and SpacesAfter only) from its tokens and the whitespace
        after each (None: not known, one space or none as the model said)."""
        words: list[Word] = []
        mwts: list[MultiwordToken] = []
        for tok, gap in zip(tokens, gaps):
            if gap is None:
                gap = " " if tok.space_after else ""
            misc = spaces.after(gap)
            expansion = self.mwt.expand(tok.form) if self.mwt.is_multiword(tok.form, tok.mwt_prob) else None
            if expansion and len(expansion) > 1 and all(expansion):
                first = len(words) + 1
                for form in expansion:
                    words.append(Word(len(words) + 1, form))
                mwts.append(MultiwordToken(first, len(words), tok.form, misc=misc))
            else:
                words.append(Word(len(words) + 1, tok.form, misc=misc))
        sentence = Sentence(comments=comments, words=words, tokens=mwts)
        comments.append(f"# text = {spaces.text_of(sentence)}")
        return sentence


class _Spacing:
    """The whitespace around each token, read off the paragraphs as they were (whitespace kept).

    Tokens come in text order, and their forms, concatenated, are a paragraph's
    non-whitespace characters.  The whitespace after a sentence's last token is known
    for certain only when the next sentence begins (the next paragraph's leading
    whitespace belongs to it too), so :meth:`gaps` returns it as that sentence's
    *before*.  Where a form is not found where the text says (which the shipped
    segmenters never do), the rest of that paragraph keeps the model's spacing.
    """

    def __init__(self, kept: dict[int, str], separator: str) -> None:
        self.kept = kept
        self.separator = separator
        self.par = -1
        self.pos = 0
        self.lost = False

    def gaps(self, par: int, forms: list[str]) -> tuple[str | None, list[str | None]]:
        """``(whitespace before the first form, whitespace after each form)`` for one sentence.

        None stands for not known: the caller keeps the model's spacing there.
        """
        before: str | None
        if par != self.par:
            before = "" if self.par < 0 else self.end()
            if before is not None and self.par >= 0:
                before += self.separator
            self.kept.pop(self.par, None)
            self.par, self.pos, self.lost = par, 0, False
        elif self.lost:
            return None, [None] * len(forms)
        else:
            before = ""
        text = self.kept.get(par, "")
        lead = self._space(text)
        before = None if before is None else before + lead
        out: list[str | None] = []
        for form in forms:
            if not text.startswith(form, self.pos):
                self.lost = True
                return None, [None] * len(forms)
            self.pos += len(form)
            out.append(self._space(text))
        if out:  # read again as the next sentence's "before"
            self.pos -= len(out[-1] or "")
        return before, out

    def end(self) -> str | None:
        """The whitespace after the current paragraph's last token (None: not known)."""
        return None if self.lost else self.kept.get(self.par, "")[self.pos:]

    def _space(self, text: str) -> str:
        start = self.pos
        while self.pos < len(text) and text[self.pos].isspace():
            self.pos += 1
        return text[start:self.pos]


def _line_paragraphs(lines: Iterable[str]) -> Iterator[str]:
    """Each non-blank line as a paragraph of its own, the blank lines around it kept as its whitespace."""
    pending: str | None = None
    lead = ""
    for line in lines:
        if not line.strip():
            if pending is None:
                lead += line + "\n"
            else:
                pending += "\n" + line
            continue
        if pending is not None:
            yield pending
        pending, lead = lead + line, ""
    if pending is not None:
        yield pending


def _joined(parts: list[Sentence], number: int, doc_id: str | None) -> Sentence:
    """The sentences the segmenter made of one line, as one sentence numbered ``number``."""
    sentence = Sentence(comments=[], words=[], tokens=[])
    for part in parts:
        offset = len(sentence.words)
        for w in part.words:
            w.id += offset
            sentence.words.append(w)
        sentence.tokens += [dataclasses.replace(t, first=t.first + offset, last=t.last + offset) for t in part.tokens]
    if number == 1:
        sentence.comments.append(f"# newdoc id = {doc_id}" if doc_id else "# newdoc")
    sentence.comments.append(f"# sent_id = {doc_id}-{number}" if doc_id else f"# sent_id = {number}")
    sentence.comments.append(f"# text = {spaces.text_of(sentence)}")
    return sentence


@contextmanager
def _threads(n: int) -> Iterator[None]:
    """Run torch with ``n`` threads inside the block, restoring the caller's setting after."""
    before = torch.get_num_threads()
    if n and n != before:
        torch.set_num_threads(n)
    try:
        yield
    finally:
        if n and n != before:
            torch.set_num_threads(before)


def _is_punct(form: str) -> bool:
    """Whether a token is only punctuation (Unicode categories P*)."""
    return all(unicodedata.category(ch).startswith("P") for ch in form)


def _block_spans(text: str, size: int) -> Iterator[tuple[int, int]]:
    """Spans of about ``size`` characters cut at spaces (never inside a token)."""
    start = 0
    while len(text) - start > size:
        cut = text.rfind(" ", start + size // 2, start + size)
        if cut < 0:
            cut = text.find(" ", start + size)
            if cut < 0:
                break
        yield start, cut
        start = cut + 1
    if start < len(text):
        yield start, len(text)


def _pieces(paras: Iterable[str], size: int) -> Iterator[tuple[int, str, bool]]:
    """``(paragraph number, text, is its last piece)``: normalised paragraphs cut at spaces."""
    for n, para in enumerate(paras):
        norm = normalise_space(para)
        spans = list(_block_spans(norm, size))
        for j, (start, stop) in enumerate(spans):
            yield n, norm[start:stop], j == len(spans) - 1


def _groups(pieces: Iterator[tuple[int, str, bool]], size: int) -> Iterator[list[tuple[int, str, bool]]]:
    """Batches of pieces of about ``size`` characters in all, so the model runs on many at once."""
    group: list[tuple[int, str, bool]] = []
    total = 0
    for piece in pieces:
        group.append(piece)
        total += len(piece[1])
        if total >= size:
            yield group
            group, total = [], 0
    if group:
        yield group
