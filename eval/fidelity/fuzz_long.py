"""The long fuzzing run: the four properties of eval/helpers/fuzzing.py with many more examples.

Prints, per property, how many inputs Hypothesis tried and what it found (the
shrunk failing input, if any).  The short run is tests/test_fuzz.py.

    python -m eval.fidelity.fuzz_long --examples 3000

It writes ``eval/results/fidelity/fuzz_long.json`` unless given ``--no-record`` (for a quick run
with few ``--examples``).
"""

from __future__ import annotations

import argparse
import time
import traceback
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eval.common import command_line, record
from eval.helpers import fuzzing


def _counting(prop, tried: list[int]):  # type: ignore[no-untyped-def]
    """The property, counting its calls (Hypothesis wants a function without defaults)."""

    def counted(value) -> None:  # type: ignore[no-untyped-def]
        tried[0] += 1
        prop(value)

    return counted


def main(argv: list[str] | None = None) -> None:
    """Run every property with ``--examples`` inputs and record what each found."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--examples", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=20261123)
    parser.add_argument("--no-record", action="store_true", help="print only; write no result file")
    args = parser.parse_args(argv)
    from eud.enhance import Enhancer, find_profile

    enhancer = Enhancer(find_profile("en"))
    checks = {
        "reader raises only ConlluError": (fuzzing.mangled_bytes(), fuzzing.reader_only_raises_its_own_error),
        "read -> write identity": (fuzzing.valid_file(), fuzzing.read_write_identity),
        "enhance output validates": (
            fuzzing.valid_file(graph=False),
            lambda text: fuzzing.enhanced_validates(text, enhancer),
        ),
        "evaluate never crashes": (
            st.tuples(fuzzing.valid_file(), fuzzing.valid_file()),
            lambda pair: fuzzing.evaluate_never_crashes(*pair),
        ),
    }
    figures: dict[str, dict] = {}
    for name, (strategy, prop) in checks.items():
        tried = [0]
        counted = _counting(prop, tried)

        test = settings(
            max_examples=args.examples, deadline=None, database=None, derandomize=False,
            suppress_health_check=list(HealthCheck),
        )(given(strategy)(counted))  # fmt: skip
        start = time.perf_counter()
        try:
            test()
            found = "nothing"
        except Exception as err:  # noqa: BLE001 - any failed property is a finding to report
            found = "".join(traceback.format_exception_only(type(err), err)).strip()[:2000]
        print(f"{name}: {tried[0]} inputs in {time.perf_counter() - start:.0f} s; found: {found}", flush=True)
        figures[name] = {"inputs": tried[0], "found": found.partition("\n")[0][:200]}
    if not args.no_record:
        record("fidelity", "fuzz_long", figures, label="measurement", command=command_line("eval.fidelity.fuzz_long"),
               one_row=True)


if __name__ == "__main__":
    main()
