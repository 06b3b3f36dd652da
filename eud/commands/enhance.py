"""``eud enhance``: basic UD trees in, enhanced UD graphs out, by language-profile rules (see :mod:`eud.enhance`)."""

from __future__ import annotations

import argparse
import sys
import textwrap

from eud.commands.cluster import HELP as CLUSTER_HELP
from eud.commands.cluster import add_cluster_options, run_on_cluster, wants_cluster
from eud.commands.errors import add_lenient_options, input_error, lenient_reader, lenient_status
from eud.conllu import ConlluError, write_conllu
from eud.enhance.pipeline import Enhancer
from eud.enhance.profiles import ProfileError, find_profile, load_profile

EPILOG = textwrap.dedent(
    """\
    examples:
      eud enhance en_ewt-ud-test.conllu --lang en -o en_ewt.enhanced.conllu
      eud enhance gold.conllu.xz --lang cs_cac -o - | udvalidate --level 2 --lang cs
      eud enhance trees.conllu --profile converters/pl_pdb.toml -o out.conllu

    --lang takes a language code (cs) or a treebank code (cs_cac); a treebank
    without a profile of its own uses its language's.  Profiles live in
    converters/*.toml.  Only the DEPS column and empty-node lines change;
    empty nodes already in the input are replaced.
    """
)


def main(argv: list[str] | None = None) -> int:
    """Run ``eud enhance``."""
    parser = argparse.ArgumentParser(
        prog="eud enhance",
        description="Basic UD trees in, enhanced UD graphs out, by language-profile rules.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("input", help="CoNLL-U file with basic trees (.xz/.gz ok, - for stdin)")
    parser.add_argument("-o", "--output", default="-", help="where to write (default stdout)")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("--lang", help="language or treebank code, e.g. en, cs_cac")
    group.add_argument("--profile", help="a profile TOML file")
    parser.add_argument("--no-repair", action="store_true", help="skip the validator's repair step")
    add_lenient_options(parser)
    add_cluster_options(parser, chunk=True)
    parser.epilog += "\n" + CLUSTER_HELP
    args = parser.parse_args(argv)
    if wants_cluster(args):
        return run_on_cluster("eud enhance", args, args.chunk, kind="enhance", lang=args.lang, profile=args.profile,
                              repair=not args.no_repair)
    try:
        profile = load_profile(args.profile) if args.profile else find_profile(args.lang)
    except ProfileError as err:
        print(f"eud enhance: {err}", file=sys.stderr)
        return 2
    enhancer = Enhancer(profile, repair=not args.no_repair)
    reader = lenient_reader("eud enhance", args.input, args.lenient)
    try:
        write_conllu(enhancer.enhance_stream(reader), args.output)
    except (ConlluError, OSError) as err:
        return input_error("eud enhance", err, args.input)
    return lenient_status(reader, args.lenient)
