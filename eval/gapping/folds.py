"""Five fixed folds over GAPPING train+dev, and document folds for the negatives (EWT, GUM train+dev).

The GAPPING corpus of Schuster, Nivre & Manning (2018) (``../shared/data/gapping``) has no
comments at all: no ``sent_id``, no ``newdoc``, nothing that names the document a sentence came
from, and none of its sentences is in en_ewt or en_gum train or dev.  So the folds are
*contiguous blocks* in file order (train's 164 sentences, then dev's 79): fold f holds sentences
``243*f//5`` up to ``243*(f+1)//5``.  Sentences that share a template (*rated X by Moody's and Y by
S&P*) can still fall into different folds, so a rule built from one of them may look better on
held folds than it would on new text.

The negatives come from UD treebanks whose ``sent_id`` names the document (``<doc>-<n>``), so
their folds keep documents together: a document's fold is the CRC-32 of its id modulo 5.

Every choice a gapping benchmark makes (a threshold, a margin, keeping a rule) is made on four
of these folds and scored on the fifth (:mod:`eval.crossval`).
"""

from __future__ import annotations

import zlib
from pathlib import Path

from eval.common import REPO, SHARED

FOLDS = 5
# ../shared/data beside the checkout, or two levels up for a worktree under wt/.
DATA = next((d for d in (SHARED, REPO.parent.parent / "shared" / "data") if d.exists()), SHARED)
GAPPING = DATA / "gapping"
UD = DATA / "ud"
SPLITS = ("train", "dev")


def gapping_paths(kind: str = "enhanced", data: Path = GAPPING) -> list[Path]:
    """The GAPPING train and dev files of one kind: ``enhanced`` (gold graphs) or ``orphan-basic`` (gold trees)."""
    return [data / f"gapping-{kind}.{split}.conllu.xz" for split in SPLITS]


def block_folds(count: int, folds: int = FOLDS) -> list[int]:
    """Fold of each of ``count`` items in order: ``folds`` contiguous blocks, sizes differing by at most one."""
    return [index * folds // count for index in range(count)]


def document(sent_id: str) -> str:
    """The document part of a UD ``sent_id`` (``GUM_academic_art-12`` → ``GUM_academic_art``)."""
    head, dash, tail = sent_id.rpartition("-")
    return head if dash and tail.isdigit() else sent_id


def document_fold(sent_id: str, folds: int = FOLDS) -> int:
    """The fold of a treebank sentence: its document's CRC-32 modulo ``folds``."""
    return zlib.crc32(document(sent_id).encode("utf-8")) % folds
