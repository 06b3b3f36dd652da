"""Property-based fuzzing (short run; eval/fidelity/fuzz_long.py runs the same properties for longer)."""

from __future__ import annotations

import functools

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eval.helpers import fuzzing

SHORT = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@functools.cache
def _enhancer():
    from eud.enhance import Enhancer, find_profile

    return Enhancer(find_profile("en"))


@SHORT
@given(fuzzing.mangled_bytes())
def test_reader_only_raises_conllu_error(data: bytes) -> None:
    fuzzing.reader_only_raises_its_own_error(data)


@SHORT
@given(fuzzing.valid_file())
def test_read_write_identity(text: str) -> None:
    fuzzing.read_write_identity(text)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(fuzzing.valid_file(graph=False))
def test_enhance_output_validates(text: str) -> None:
    fuzzing.enhanced_validates(text, _enhancer())


@SHORT
@given(fuzzing.valid_file(), fuzzing.valid_file(), st.booleans())
def test_evaluate_never_crashes(gold: str, system: str, same: bool) -> None:
    fuzzing.evaluate_never_crashes(gold, gold if same else system)
