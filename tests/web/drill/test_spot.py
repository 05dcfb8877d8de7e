"""The table drawing's geometry, for every spot of the library, in both layouts.

The browser tests measure rendered pages for a few spots; this checks the
placement itself for all of them: seats never cover each other, the board
sits on the felt clear of every seat and chip, and the player to act's tag
hangs below that player's box, off the felt.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from trainer.scenarios import load_file
from trainer.library.spot import NARROW, WIDE, build_spot

LIBRARY = Path(__file__).resolve().parents[3] / "scenarios"


def _library():
    for path in sorted(LIBRARY.rglob("*.yaml")):
        try:
            yield load_file(path)
        except Exception:  # the problems page lists files that do not load; not this test's subject
            continue


SPOTS = [build_spot(sc, "en") for sc in _library()]
TAG_H = 29  # the tag's offset (5) and height (24) under the seat


def overlap(a, b) -> bool:
    (ax, ay, aw, ah), (bx, by, bw, bh) = a, b
    return ax < bx + bw and bx < ax + aw and ay < by + bh and by < ay + ah


def seat_box(p, layout):
    return (p.x - layout.seat_w / 2, p.y - layout.seat_h / 2, layout.seat_w, layout.seat_h)


def test_the_library_has_spots_of_every_size():
    assert {len(s.seats) for s in SPOTS} >= set(range(2, 11))


@pytest.mark.parametrize("which", [0, 1], ids=["wide", "narrow"])
def test_seats_board_and_chips_never_cover_each_other(which):
    for spot in SPOTS:
        table = spot.tables[which]
        L = table.layout
        boxes = [seat_box(p, L) for p in table.seats]
        for i, a in enumerate(boxes):
            assert 0 <= a[0] and a[0] + a[2] <= L.width and 0 <= a[1], (spot.summary, table.seats[i].seat.position)
            for b in boxes[i + 1:]:
                assert not overlap(a, b), spot.summary
        cards = [(c.x, c.y, L.card_w, L.card_h) for c in table.board]
        for c in cards:
            # on the felt
            assert abs(c[0] + c[2] / 2 - L.cx) + c[2] / 2 <= L.table_rx and abs(c[1] - L.cy) <= L.table_ry
            assert not any(overlap(c, b) for b in boxes), spot.summary
            if not L.bets_in_seat:
                chips = [(p.bet_x - 9, p.bet_y - 9, 18, 18) for p in table.seats if p.seat.committed]
                assert not any(overlap(c, chip) for chip in chips), spot.summary
        bx, by = table.button
        if not (L.bets_in_seat and spot.button_seat):
            dealer = (bx - 12, by - 12, 24, 24)
            pot = (table.pot_x - 50, table.pot_y - 30, 100, 40)  # the chip stack and a long amount
            assert not any(overlap(dealer, b) for b in boxes + cards + [pot]), spot.summary
            if not L.bets_in_seat:
                # a chip and its amount, above or below it
                bets = [(p.bet_x - 20, p.bet_y - 25 if p.bet_above else p.bet_y - 9, 40, 34)
                        for p in table.seats if p.seat.committed]
                assert not any(overlap(dealer, b) for b in bets), spot.summary


@pytest.mark.parametrize("which", [0, 1], ids=["wide", "narrow"])
def test_the_player_to_act_sits_at_the_bottom_with_the_tag_under_the_seat(which):
    for spot in SPOTS:
        table = spot.tables[which]
        L = table.layout
        hero = [p for p in table.seats if p.seat.to_act]
        if not spot.to_act:
            assert hero == []
            continue
        (p,) = hero
        assert p.x == pytest.approx(L.cx) and p.y == max(q.y for q in table.seats)
        tag_bottom = p.y + L.seat_h / 2 + TAG_H
        assert tag_bottom <= L.height
        assert p.y + L.seat_h / 2 > L.cy + L.table_ry  # the tag starts below the felt's edge


def test_a_spot_past_the_preflop_without_named_cards_draws_the_dealt_cards_face_down():
    by_street = {}
    for sc in _library():
        if not sc.board:
            by_street.setdefault(str(sc.hand().street), sc)
    assert {"flop", "turn", "river"} <= set(by_street)
    for street, count in (("preflop", 0), ("flop", 3), ("turn", 4), ("river", 5)):
        spot = build_spot(by_street[street], "zh-Hant")
        assert len(spot.board) == count and all(c.face_down for c in spot.board)
        assert not spot.board_named
        assert all(len(t.board) == count for t in spot.tables)


def test_named_board_and_hole_cards_are_kept():
    reading = next(s for s in SPOTS if any(seat.cards for seat in s.seats))
    assert reading.board_named and len(reading.board) == 5
    assert all(not c.face_down for c in reading.board)


def test_layouts_fit_a_phone_and_a_column():
    assert NARROW.width == 360 and WIDE.width == 680


def test_a_board_run_out_after_an_all_in_is_read_at_the_river():
    """All in before the river and the five cards dealt: the heading names the river, as the table
    shows it, not the street the betting stopped on ("The spot: preflop" above five cards)."""
    from trainer.generate import generate
    from trainer.scenarios import load_document

    seen = 0
    for seed in range(80):
        for generated in generate("hand-reading", level=2, seed=seed, count=1):
            scenario = load_document(generated.document, f"{generated.id}.yaml")
            if str(scenario.hand().street) != "river" and len(scenario.board or ()) == 5:
                spot = build_spot(scenario, "en")
                assert spot.street == "river", generated.id
                assert "on the river" in spot.summary
                seen += 1
    assert seen >= 3
