"""Regenerate the learned starting points of converters/*.toml from shared dev data.

    python -m eval.enhance.profiles /tmp/learned

writes one learned profile per language (from all its dev files) and, for
languages with several treebanks, a treebank profile holding only what differs
(``based_on`` the language).  The files in converters/ started from this output
and were then reviewed and edited by hand, so do not overwrite them blindly.

A tool, not a benchmark: it writes profiles to review and records no result.
"""

from __future__ import annotations

import sys
import tomllib
from pathlib import Path

from eud.commands.profile import main as learn

UD = Path(__file__).resolve().parents[3] / "shared" / "data" / "ud"
LANGS = {
    "en": ["en_ewt", "en_gum"], "nl": ["nl_alpino", "nl_lassysmall"], "sv": ["sv_talbanken"],
    "fi": ["fi_tdt"], "it": ["it_isdt"], "cs": ["cs_cac", "cs_fictree"], "pl": ["pl_lfg", "pl_pdb"],
    "lv": ["lv_lvtb"], "ta": ["ta_ttb"], "bg": ["bg_btb"], "et": ["et_edt", "et_ewt"],
    "lt": ["lt_alksnis"], "sk": ["sk_snk"], "uk": ["uk_iu"],
}


def _value(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return '"' + str(v).replace("\\", "\\\\").replace('"', '\\"') + '"'


def diff_toml(base: dict, over: dict, prefix: str = "") -> list[str]:
    """TOML lines for the keys of ``over`` that differ from ``base``."""
    plain = [f"{k if k.isidentifier() else _value(k)} = {_value(v)}" for k, v in over.items()
             if not isinstance(v, dict) and base.get(k) != v]
    lines = ([f"[{prefix}]"] + plain + [""]) if plain and prefix else plain
    for k, v in over.items():
        if isinstance(v, dict):
            lines += diff_toml(base.get(k, {}), v, f"{prefix}.{k}" if prefix else k)
    return lines


# Hand review: learned relative words that are annotation noise, removed.
REVIEW_REMOVE = {
    "nl": ["bijdrage", "onderwerp", "partij"],  # nouns
    "et": ["õnnestuma"],  # a verb
    "uk": ["він"],  # a personal (resumptive) pronoun
}


def apply_review(folder: Path) -> None:
    """Apply the hand review to freshly learned language profiles in ``folder``."""
    for lang, words in REVIEW_REMOVE.items():
        path = folder / f"{lang}.toml"
        lines = path.read_text(encoding="utf-8").split("\n")
        for i, line in enumerate(lines):
            if line.startswith("relative = "):
                kept = [w for w in tomllib.loads(line)["relative"] if w not in words]
                lines[i] = f"# reviewed by hand: removed {', '.join(words)} from the learned relative words\n" + (
                    "relative = [" + ", ".join(f'"{w}"' for w in kept) + "]"
                )
        path.write_text("\n".join(lines), encoding="utf-8")
    for path in folder.glob("*.toml"):
        text = path.read_text(encoding="utf-8")
        text = text.replace("# Review by hand before use.", "# Reviewed by hand; edits are marked where made.")
        path.write_text(text, encoding="utf-8")


def main() -> None:
    out = Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for lang, tbs in LANGS.items():
        devs = [str(UD / tb / f"{tb}-ud-dev.conllu.xz") for tb in tbs]
        learn(["learn", *devs, "-o", str(out / f"{lang}.toml"), "--name", lang])
        if len(tbs) < 2:
            continue
        base = tomllib.loads((out / f"{lang}.toml").read_text())
        for tb, dev in zip(tbs, devs):
            learn(["learn", dev, "-o", str(out / f"{tb}.full.toml"), "--name", tb])
            own = tomllib.loads((out / f"{tb}.full.toml").read_text())
            own.pop("words", None)  # word lists: the language's, learned on more data
            own["profile"] = {"name": tb, "based_on": lang, "source": own["profile"]["source"]}
            lines = [f"# {tb}: only what differs from {lang}.toml (learned on dev, reviewed by hand)", ""]
            (out / f"{tb}.toml").write_text("\n".join(lines + diff_toml(base, own)) + "\n")
    apply_review(out)


if __name__ == "__main__":
    main()
