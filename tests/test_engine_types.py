"""The value types made at every decision write their own ``__init__`` (for speed, see
trainer/engine/types.py): they must still be the frozen, keyword-only dataclasses the rest are."""

import dataclasses
import inspect

import pytest

from trainer.engine.types import Card, Event, Options, Range, Street

SAMPLES = {
    Card: dict(current_total=400, last_full_increment=200, committed=100, acted=False, to_add=300),
    Range: dict(min=600, max=5000),
    Options: dict(fold=True, check=False, call=300, bet=None, raise_=Range(min=600, max=5000)),
    Event: dict(street=Street.FLOP, position="BB", kind="raise", to=600, added=600, all_in=True, full=False),
}


@pytest.mark.parametrize("cls", list(SAMPLES), ids=lambda c: c.__name__)
def test_the_init_takes_exactly_the_fields_by_keyword_with_their_defaults(cls):
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in dataclasses.fields(cls)]
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params)
    defaults = {f.name: f.default for f in dataclasses.fields(cls)}
    assert {p.name: p.default for p in params} == {
        k: (inspect.Parameter.empty if v is dataclasses.MISSING else v) for k, v in defaults.items()
    }


@pytest.mark.parametrize("cls", list(SAMPLES), ids=lambda c: c.__name__)
def test_a_value_is_frozen_comparable_and_hashable(cls):
    value = cls(**SAMPLES[cls])
    assert {f.name: getattr(value, f.name) for f in dataclasses.fields(cls)} == SAMPLES[cls]
    assert value == cls(**SAMPLES[cls]) and hash(value) == hash(cls(**SAMPLES[cls]))
    assert dataclasses.replace(value) == value
    with pytest.raises(dataclasses.FrozenInstanceError):
        setattr(value, dataclasses.fields(cls)[0].name, 1)
    with pytest.raises(TypeError):
        cls(*SAMPLES[cls].values())  # keyword-only


def test_event_defaults():
    event = Event(street=Street.PREFLOP, position="SB", kind="small-blind", to=50, added=50)
    assert (event.all_in, event.full) == (False, True)
