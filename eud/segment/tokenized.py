"""Pre-tokenized input (``--input-format tokenized``): one sentence per line, tokens split on spaces."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from eud.graph import Sentence, Word


def read_tokenized(lines: Iterable[str], *, doc_id: str | None = None) -> Iterator[Sentence]:
    """One Sentence per non-blank line; each whitespace-separated token is one word.

    A blank line starts a new paragraph (``# newpar``), as in raw text.  No
    multiword tokens are made: a tokenized line already lists the words.
    """
    count = 0
    newpar = True
    for line in lines:
        forms = line.split()
        if not forms:
            newpar = True
            continue
        count += 1
        comments = []
        if count == 1:
            comments.append(f"# newdoc id = {doc_id}" if doc_id else "# newdoc")
        if newpar:
            comments.append("# newpar")
            newpar = False
        comments.append(f"# sent_id = {doc_id}-{count}" if doc_id else f"# sent_id = {count}")
        comments.append(f"# text = {' '.join(forms)}")
        yield Sentence(comments=comments, words=[Word(i, form) for i, form in enumerate(forms, 1)])
