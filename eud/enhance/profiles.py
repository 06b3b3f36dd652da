"""Language profiles: which enhancements apply and in which label dialect.

A profile is a small TOML file in ``converters/`` (read with :mod:`tomllib`):
``converters/en.toml`` for a language, ``converters/en_gum.toml`` for one
treebank.  A treebank file names its language file in ``based_on`` and only
overrides what differs; tables merge key by key.  ``--lang`` accepts either a
language code (``cs``) or a treebank code (``cs_cac``); a treebank code with no
file of its own falls back to its language.
"""

from __future__ import annotations

import os
import sys
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from eud.enhance.conventions import Conventions, ConventionsError
from eud.gapping.rule import Style

# Keys a profile's [gapping] table had before they became settings of a parser package.
PARSER_KEYS = ("verbless_subjects", "bare_remnants", "mirrored_phrases", "echoed_subjects")


def _converters_folder() -> Path:
    """Where the shipped profiles are: $EUD_CONVERTERS, the source checkout, or the installed copy."""
    if os.environ.get("EUD_CONVERTERS"):
        return Path(os.environ["EUD_CONVERTERS"])
    checkout = Path(__file__).resolve().parents[2] / "converters"
    if checkout.is_dir():
        return checkout
    # A non-editable install puts them in <prefix>/share/eud/converters (pyproject data-files).
    return Path(sys.prefix) / "share" / "eud" / "converters"


CONVERTERS = _converters_folder()

#: How a case-marked label is composed when the dependent has a case/mark word
#: ("lemma": ``obl:in``; "lemma+case": ``obl:v:loc``; "none": plain) and when it
#: has none ("case": ``nmod:gen``; "none": plain).
MARKED = ("none", "lemma", "lemma+case")
UNMARKED = ("none", "case")


class ProfileError(ValueError):
    """A profile file that cannot be used (names the file and the problem)."""


@dataclass
class Profile:
    """Everything the rules need to know about one language or treebank."""

    name: str = "default"
    rules: tuple[str, ...] = ("gapping", "coordination", "shared", "control", "relative", "case_labels")
    # basic label -> enhanced label, applied when the basic tree is copied
    label_map: dict[str, str] = field(default_factory=dict)
    # full basic deprel -> (marked, unmarked) composition
    compose: dict[str, tuple[str, str]] = field(default_factory=dict)
    # Case values added to labels, per universal relation ("" for all relations)
    case_values: dict[str, frozenset[str]] = field(default_factory=dict)
    case_instead: frozenset[str] = frozenset()  # markers whose label takes the Case value instead
    marker: str = "nearest"  # of several markers before the word, label with the "nearest" or "first"
    fixed: str = "lemma"  # spell fixed multiword markers with "lemma" or "form"
    conj_cc: bool = False  # conj:and
    conj_label_from_first: bool = False  # a propagated conjunct copies the first's composed label
    conj_cc_next: bool = True  # a conjunct without cc borrows the next conjunct's
    xsubj: str = "nsubj:xsubj"  # label of a controlled subject ("nsubj" when plain)
    xsubj_by_xcomp: dict[str, str] = field(default_factory=dict)  # xcomp subtype -> its subject's label
    xsubj_pass: bool = True  # nsubj:pass controller keeps :pass (nsubj:pass:xsubj)
    conj_skip: tuple[str, ...] = ()  # incoming labels not propagated to conjuncts
    conj_share: tuple[str, ...] = ("nsubj", "nsubj:pass", "obj")  # dependents shared by verb conjuncts
    relcl: tuple[str, ...] = ("acl:relcl",)  # basic relations of relative clauses
    relative_skip: tuple[str, ...] = ()  # basic relations of relative words left alone
    relative_words: frozenset[str] = frozenset()
    relative_gap: dict[str, str] = field(default_factory=dict)  # clause signature -> antecedent's role
    relative_role: dict[str, str] = field(default_factory=dict)  # relative word's relation -> antecedent's
    advmod_markers: frozenset[str] = frozenset()  # adverbs that name an advcl/acl ("when")
    object_control: frozenset[str] = frozenset()
    subject_control: frozenset[str] = frozenset()  # keep the subject even with an object ("promise")
    no_control: frozenset[str] = frozenset()  # xcomp heads that do not pass a subject
    # The [gapping] table: where the gapping rule puts empty nodes and which edges it moves
    # (keys of eud.gapping.rule.Style, checked by profile_style).
    gapping: dict[str, object] = field(default_factory=dict)
    # The [conventions] table: a language whose treebanks spell the graph differently
    # (eud.enhance.conventions); None for one convention.
    conventions: Conventions | None = None
    source: str = ""


def _merge(base: dict, over: dict) -> dict:
    out = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _load_raw(path: Path, seen: tuple[Path, ...] = ()) -> dict:
    if path in seen:
        raise ProfileError(f"{path}: based_on loops back to itself")
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except OSError as err:
        raise ProfileError(f"{path}: cannot read profile ({err.strerror})") from None
    except tomllib.TOMLDecodeError as err:
        raise ProfileError(f"{path}: bad TOML: {err}") from None
    parent = data.get("profile", {}).get("based_on")
    if parent:
        base = _load_raw(path.parent / f"{parent}.toml", seen + (path,))
        base.pop("conventions", None)  # a treebank's profile is one convention, not a choice among them
        data = _merge(base, data)
    return data


def profile_from_dict(data: dict, name: str = "profile") -> Profile:
    """Build a :class:`Profile` from parsed TOML (see ``converters/en.toml``)."""
    meta = data.get("profile", {})
    labels = data.get("labels", {})
    words = data.get("words", {})
    compose = {}
    for deprel, spec in labels.get("compose", {}).items():
        if not (isinstance(spec, list) and len(spec) == 2 and spec[0] in MARKED and spec[1] in UNMARKED):
            raise ProfileError(
                f"{name}: labels.compose.{deprel} must be [marked, unmarked] with marked in {MARKED} "
                f"and unmarked in {UNMARKED}, got {spec!r}"
            )
        compose[deprel] = (spec[0], spec[1])
    prof = Profile(
        name=meta.get("name", name),
        label_map=dict(labels.get("map", {})),
        compose=compose,
        case_values=_case_values(labels.get("case_values", ()), name),
        case_instead=frozenset(labels.get("case_instead", ())),
        fixed=labels.get("fixed", "lemma"),
        marker=labels.get("marker", "nearest"),
        conj_cc=bool(labels.get("conj_cc", False)),
        conj_label_from_first=bool(labels.get("conj_label_from_first", False)),
        conj_cc_next=bool(labels.get("conj_cc_next", True)),
        xsubj=labels.get("xsubj", "nsubj:xsubj"),
        xsubj_by_xcomp=dict(labels.get("xsubj_by_xcomp", {})),
        xsubj_pass=bool(labels.get("xsubj_pass", True)),
        conj_skip=tuple(labels.get("conj_skip", ())),
        conj_share=tuple(labels.get("conj_share", Profile.conj_share)),
        relcl=tuple(labels.get("relcl", Profile.relcl)),
        relative_skip=tuple(labels.get("relative_skip", ())),
        relative_gap=dict(labels.get("relative_gap", {})),
        relative_role=dict(labels.get("relative_role", {})),
        relative_words=frozenset(w.lower() for w in words.get("relative", ())),
        advmod_markers=frozenset(w.lower() for w in words.get("advmod_markers", ())),
        object_control=frozenset(words.get("object_control", ())),
        subject_control=frozenset(words.get("subject_control", ())),
        no_control=frozenset(words.get("no_control", ())),
        gapping=dict(data.get("gapping", {})),
        conventions=_conventions(data.get("conventions"), name),
        source=meta.get("source", ""),
    )
    if "rules" in data:
        prof.rules = tuple(data["rules"].get("enabled", prof.rules))
    return prof


def _conventions(table: dict | None, name: str) -> Conventions | None:
    if table is None:
        return None
    try:
        return Conventions.from_table(table, name)
    except ConventionsError as err:
        raise ProfileError(str(err)) from None


def _case_values(spec, name: str) -> dict[str, frozenset[str]]:
    if isinstance(spec, (list, tuple)):
        return {"": frozenset(spec)} if spec else {}
    if isinstance(spec, dict):
        return {k: frozenset(v) for k, v in spec.items()}
    raise ProfileError(f"{name}: labels.case_values must be a list or a table of lists")


def load_profile(path: str | Path) -> Profile:
    """Read one profile file (following ``based_on``)."""
    path = Path(path)
    return profile_from_dict(_load_raw(path), path.stem)


def find_profile(code: str, folder: Path = CONVERTERS) -> Profile:
    """The profile for a language (``cs``) or treebank (``cs_cac``) code."""
    candidates = [code, code.split("_")[0]] if "_" in code else [code]
    for cand in candidates:
        path = folder / f"{cand}.toml"
        if path.is_file():
            return load_profile(path)
    known = sorted(p.stem for p in folder.glob("*.toml"))
    raise ProfileError(f"no profile for {code!r} in {folder} (known: {', '.join(known) or 'none'})")


def profile_style(profile: Profile) -> Style:
    """The :class:`Style` a profile's ``[gapping]`` table spells (the default for keys it leaves out)."""
    known = Style.__dataclass_fields__
    unknown = sorted(set(profile.gapping) - set(known))
    moved = sorted(set(unknown) & set(PARSER_KEYS))
    if moved:
        raise ProfileError(f"{profile.name}: [gapping] {', '.join(moved)}: a parser setting now, in the model "
                           "package's config.json (its \"gapping\" block), not in a profile")
    if unknown:
        raise ProfileError(f"{profile.name}: unknown [gapping] key(s) {', '.join(unknown)} (known: {', '.join(known)})")
    values = dict(profile.gapping)
    for key, value in values.items():
        want = type(getattr(Style(), key))
        if want is tuple:
            slashes = 1 if key == "contrasts" else 0
            if not isinstance(value, list) or not all(isinstance(v, str) and v.count("/") == slashes for v in value):
                shape = '"lemma/lemma"' if slashes else "lemma"
                raise ProfileError(f"{profile.name}: [gapping] {key} must be a list of {shape} strings")
            values[key] = tuple(value)
        elif not isinstance(value, (float, int) if want is float else want) or isinstance(value, bool) != (want is bool):
            raise ProfileError(f"{profile.name}: [gapping] {key} must be a {type(getattr(Style(), key)).__name__}")
    return Style(**values)  # type: ignore[arg-type]


def language_style(code: str | None) -> Style:
    """The style in the profile of a treebank (``en_ewt``) or language (``lv``) code; the default without one."""
    if not code:
        return Style()
    try:
        profile = find_profile(code.lower())
    except ProfileError:
        return Style()
    return profile_style(profile)
