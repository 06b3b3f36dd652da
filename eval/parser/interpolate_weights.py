"""Average two parser packages' weights (same network and tables): ``(1 - t) * A + t * B``.

Fine-tuning for one construction can cost a little everywhere else; interpolating the
fine-tuned weights with the ones it started from keeps most of both (Wortsman et al. 2022,
"Robust fine-tuning of zero-shot models", WiSE-FT).  The result is written as a package
(config, tables, lexicon and segmenter copied from B).

    python -m eval.parser.interpolate_weights models/en_ewt work/en_gapping/model 0.5 work/en_gapping/mix50

``--from-a PREFIX`` keeps the tensors under a prefix exactly as A has them: a head
the fine-tuning data taught badly (the GAPPING corpus' FEATS are not EWT's) goes back
to A's.  Files B's folder lacks (``lexicon.json``, ``segmenter/``) are copied from A.

    python -m eval.parser.interpolate_weights models/en_ewt work/en_gapping/model 1 work/en_gapping/ship --from-a taggers.feats.

A tool, not a benchmark: it writes a package and records no result.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    """Write the interpolated package."""
    from safetensors.torch import load_file, save_file

    from eud.nn.package import decode_weights, encode_weights, load_config, weights_storage

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("a", type=Path, help="package the fine-tuning started from")
    ap.add_argument("b", type=Path, help="fine-tuned package")
    ap.add_argument("t", type=float, help="weight of b, 0..1")
    ap.add_argument("out", type=Path)
    ap.add_argument("--from-a", nargs="+", default=[], metavar="PREFIX", help="tensors under PREFIX come from a")
    args = ap.parse_args(argv)
    if not 0.0 <= args.t <= 1.0:
        print("error: t must lie in 0..1", file=sys.stderr)
        return 2
    # Either package may store int8 or fp16 weights: mix in fp32, write in b's storage.
    wa = decode_weights(load_file(str(args.a / "model.safetensors")))
    wb = decode_weights(load_file(str(args.b / "model.safetensors")))
    if wa.keys() != wb.keys() or any(wa[k].shape != wb[k].shape for k in wa):
        print(f"error: {args.a} and {args.b} hold different networks", file=sys.stderr)
        return 1
    mixed = {}
    for k, va in wa.items():
        vb = wb[k]
        if any(k.startswith(prefix) for prefix in args.from_a):
            mixed[k] = va
        else:
            mixed[k] = (1 - args.t) * va + args.t * vb if vb.is_floating_point() else vb
    if args.out.exists() and args.out.resolve() != args.b.resolve():
        shutil.rmtree(args.out)
    shutil.copytree(args.b, args.out, ignore=shutil.ignore_patterns("model.safetensors", "MODEL.md"))
    stored = encode_weights(mixed, weights_storage(load_config(args.b)))
    save_file(stored, str(args.out / "model.safetensors"), metadata={"format": "eud-parser/1"})
    for name in ("lexicon.json", "segmenter"):
        if (args.a / name).exists() and not (args.out / name).exists():
            copy = shutil.copytree if (args.a / name).is_dir() else shutil.copy2
            copy(args.a / name, args.out / name)
    kept = f"; {', '.join(args.from_a)} from {args.a}" if args.from_a else ""
    print(f"wrote {args.out} ({1 - args.t:g} x {args.a} + {args.t:g} x {args.b}{kept})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
