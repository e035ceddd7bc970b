"""one_move_neighbours lists every drag and every judgment change once, as a list would do it."""
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import irlib
from irlib.measures.neighbours import move_orders

states = st.lists(st.integers(0, 4), min_size=0, max_size=9)


def expected_moves(grades):
    """Every (from, to, grades) of a drag, by list.pop / list.insert."""
    out = []
    for i in range(len(grades)):
        for j in range(len(grades)):
            if i != j:
                moved = list(grades)
                moved.insert(j, moved.pop(i))
                out.append((i, j, moved))
    return out


def expected_grade_changes(grades, levels):
    return [(i, level, grades[:i] + [level] + grades[i + 1:])
            for i in range(len(grades)) for level in levels if level != grades[i]]


@given(states)
def test_moves_are_list_pop_insert(grades):
    nb = irlib.one_move_neighbours(grades, range(5), grade_changes=False)
    assert set(nb.kinds) <= {"move"}
    got = [(i, j, row) for i, j, row in zip(nb.positions.tolist(), nb.to_positions.tolist(),
                                            nb.grades.tolist())]
    assert got == expected_moves(grades)
    # orders say which current result sits where, and the moved one keeps its grade
    assert (nb.grades == np.asarray(grades, dtype=float)[nb.orders]).all()
    assert (nb.new_grades == nb.grades[np.arange(len(nb)), nb.to_positions]).all()


@given(states, st.sampled_from([(0, 1), tuple(range(5)), (0, 2, 3)]))
def test_grade_changes_are_one_card_to_each_other_level(grades, levels):
    nb = irlib.one_move_neighbours(grades, levels, moves=False)
    assert set(nb.kinds) <= {"grade"}
    assert (nb.positions == nb.to_positions).all()
    assert (nb.orders == np.arange(len(grades))).all()
    got = [(i, g, row) for i, g, row in zip(nb.positions.tolist(), nb.new_grades.tolist(),
                                            nb.grades.tolist())]
    assert got == expected_grade_changes(grades, levels)


@pytest.mark.parametrize("levels, count", [((0, 1), 56 + 8), (range(5), 56 + 32)])
def test_playground_counts_and_unique_keys(levels, count):
    nb = irlib.one_move_neighbours([0, 1, 0, 1, 1, 0, 1, 0], levels)
    assert len(nb) == nb.grades.shape[0] == count and nb.grades.shape[1] == 8
    keys = nb.keys()
    assert len(set(keys)) == count
    assert keys[0] == "move:0:1" and keys[55] == "move:7:6" and keys[56] == "grade:0:1"
    # different keys can lead to the same grades (two irrelevant cards swapped): rows are
    # per action, not per distinct state
    assert len({tuple(row) for row in nb.grades.tolist()}) < count


def test_keys_read_back_to_the_action():
    nb = irlib.one_move_neighbours([0, 4, 1, 3, 4, 1, 3, 2], range(5))
    state = [0, 4, 1, 3, 4, 1, 3, 2]
    for key, row in zip(nb.keys(), nb.grades.tolist()):
        kind, position, value = key.split(":")
        expected = list(state)
        if kind == "move":
            expected.insert(int(value), expected.pop(int(position)))
        else:
            expected[int(position)] = float(value)
        assert row == expected, key


def test_grade_outside_levels_gets_every_level():
    nb = irlib.one_move_neighbours([2.5, 0], (0, 1), moves=False)
    assert nb.keys() == ["grade:0:0", "grade:0:1", "grade:1:1"]


def test_one_card_and_no_card():
    assert irlib.one_move_neighbours([1], (0, 1)).keys() == ["grade:0:0"]
    empty = irlib.one_move_neighbours([], (0, 1))
    assert len(empty) == 0 and empty.grades.shape == (0, 0) and empty.keys() == []
    nothing = irlib.one_move_neighbours([0, 1], (0, 1), moves=False, grade_changes=False)
    assert nothing.grades.shape == (0, 2) and nothing.kinds == ()


def test_neighbours_own_their_arrays():
    """Writing into one neighbour table leaves the cached move orders and the next table alone."""
    first = irlib.one_move_neighbours([0, 1, 1], (0, 1))
    first.grades[:] = 9
    first.orders[:] = 9
    second = irlib.one_move_neighbours([0, 1, 1], (0, 1))
    assert second.grades[0].tolist() == [1.0, 0.0, 1.0] and second.orders[0].tolist() == [1, 0, 2]
    with pytest.raises(ValueError):
        move_orders(3)[2][0, 0] = 5


@pytest.mark.parametrize("grades, levels, message", [
    ([0, 1], (0, 1, 1), r"levels must not repeat a grade, got \[0.0, 1.0, 1.0\]"),
    ([0, -1], (0, 1), r"grades\[1\] is -1"),
    ([0, 1], (0, np.inf), r"levels\[1\] is inf"),
    ([[0, 1]], (0, 1), "grades must be one-dimensional"),
])
def test_bad_input_is_named(grades, levels, message):
    with pytest.raises(ValueError, match=message):
        irlib.one_move_neighbours(grades, levels)
