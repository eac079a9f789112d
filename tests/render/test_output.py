"""JSON as every command writes it (exact.render.output.json_text), and the one field a
command's output takes after it is written (its assumptions): put in without writing the
rest again, the same bytes as the whole written anew."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from exact.render.output import JsonText, json_text

SCALARS = (st.none() | st.booleans() | st.integers() |
           st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=8))
VALUES = st.recursive(SCALARS, lambda inner: st.lists(inner, max_size=3) |
                      st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=12)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.text(max_size=6), VALUES, max_size=4), st.text(max_size=6), VALUES,
       st.sampled_from([2, None, 1]))
def test_a_field_put_in_is_the_whole_written_anew(data, key, value, indent):
    written = json_text(data, indent)
    assert isinstance(written, JsonText) and json.loads(written) == written.data
    expected = json_text({**data, key: value}, indent) if key not in data else None
    if expected is None:
        return
    added = written.with_field(key, value)
    assert added == expected
    assert json.loads(added) == json.loads(expected)


def test_the_assumptions_join_a_commands_json_as_its_last_field(capsys):
    """``analyze --json``: the assumptions come last, and the output is JSON.loads-equal and
    byte-equal to the command's data with the field added and written whole."""
    from exact.cli.app import main

    assert main(["analyze", "punto-banco", "--decks", "1", "--bet", "tie", "--json"]) == 0
    out = capsys.readouterr().out
    data = json.loads(out)
    assert list(data)[-1] == "assumptions" and data["assumptions"]
    assert out == json.dumps(data, indent=2, ensure_ascii=False) + "\n"
