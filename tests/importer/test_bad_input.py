"""Input that cannot be imported is reported with its file, hand and line, never a traceback;
the rest of the input goes on."""

import pytest
from click.testing import CliRunner

from trainer.cli import main
from trainer.importer import Limits, Refused, import_files
from trainer.scenarios import load_document, ScenarioError

STARS = """\
PokerStars Hand #149652017195: Tournament #1495192630, $0.91+$0.09 USD Hold'em No Limit - Level XI (400/800) - 2016/03/01 1:31:14 ET
Table '1495192630 3' 9-max Seat #1 is the button
Seat 1: Fischersito (4925 in chips)
Seat 3: Irisha2 (24764 in chips)
Seat 4: DmelloH (17101 in chips)
Seat 9: held (20710 in chips)
Fischersito: posts the ante 50
Irisha2: posts the ante 50
DmelloH: posts the ante 50
held: posts the ante 50
Irisha2: posts small blind 400
DmelloH: posts big blind 800
*** HOLE CARDS ***
Dealt to held [Ad Td]
held: raises 1199 to 1999
Fischersito: folds
Irisha2: folds
DmelloH: calls 1199
*** FLOP *** [Ks 8h 9c]
DmelloH: bets 4598
held: raises 14063 to 18661 and is all-in
DmelloH: calls 10454 and is all-in
Uncalled bet (3609) returned to held
*** SUMMARY ***
Total pot 34702 | Rake 0
"""

PHH = """\
variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [50, 100, 0]
min_bet = 100
starting_stacks = [10000, 10000, 10000]
actions = ['d dh p1 Jd9d', 'd dh p2 2h2d', 'd dh p3 6sQd',
  'p3 cbr 250', 'p1 f', 'p2 cc',
  'd db 9sAdAc', 'p2 cc', 'p3 cbr 300', 'p2 f']
hand = 7
"""


def refusals(*named, limits=Limits()):
    spots, report = import_files(named, limits=limits)
    return spots, [(r.file, r.hand, r.line, r.kind) for r in report.refusals], report


def test_a_whole_hand_imports_with_its_players_at_their_positions():
    spots, refused, _ = refusals(("stars.txt", STARS))

    assert refused == []
    first = spots[0].document
    assert first["source"] == {"file": "stars.txt", "hand": "149652017195", "decision": 1}
    assert first["names"] == {"SB": "Irisha2", "BB": "DmelloH", "CO": "held", "BTN": "Fischersito"}
    assert first["game"] == {"type": "no-limit", "blinds": [400, 800], "ante": 50}
    assert first["stacks"] == {"SB": 24764, "BB": 17101, "CO": 20710, "BTN": 4925}
    assert len(spots) == 7  # seven moves, each a decision


def test_a_hand_cut_short_is_reported_at_its_last_line():
    cut = "\n".join(STARS.splitlines()[:17])  # stops after "Fischersito: folds"

    spots, refused, _ = refusals(("cut.txt", cut))

    assert spots == []
    assert refused == [("cut.txt", "149652017195", 17, Refused.TRUNCATED)]


def test_a_line_cut_in_the_middle_is_a_truncated_hand():
    cut = STARS[: STARS.index("DmelloH: calls 1199") + len("DmelloH: cal")]

    _, refused, report = refusals(("cut.txt", cut))

    assert refused == [("cut.txt", "149652017195", 18, Refused.TRUNCATED)]
    assert "the hand stops before betting is over: BB is to act" in report.refusals[0].message


def test_a_call_of_the_wrong_amount_breaks_the_rules_at_its_line():
    wrong = STARS.replace("DmelloH: calls 1199", "DmelloH: calls 1000")

    _, refused, report = refusals(("wrong.txt", wrong))

    assert refused == [("wrong.txt", "149652017195", 18, Refused.RULES)]
    assert "calls 1000, but the call is 1199" in report.refusals[0].message


def test_a_raise_below_the_minimum_breaks_the_rules():
    wrong = STARS.replace("held: raises 1199 to 1999", "held: raises 300 to 1100")

    _, refused, report = refusals(("small.txt", wrong))

    assert refused == [("small.txt", "149652017195", 15, Refused.RULES)]
    assert "raises to 1100, but the raise must be to 1600–20660" in report.refusals[0].message


def test_the_rest_goes_on_after_a_bad_hand():
    two = STARS.replace("calls 1199", "calls 1000") + "\n\n" + STARS.replace("#149652017195", "#149652017196")

    spots, refused, report = refusals(("two.txt", two))

    assert [r[1] for r in refused] == ["149652017195"]
    assert {s.document["source"]["hand"] for s in spots} == {"149652017196"}
    assert report.lines()[-1] == "two.txt: 2 hands, 1 imported, refused: 1 breaks the rules; 7 spots"


@pytest.mark.parametrize("garbage", [b"\x00\xff\xfe\x80garbage\x81" * 50, "Just some notes about poker.\n", b""])
def test_garbage_is_unreadable_at_line_one(garbage):
    spots, refused, report = refusals(("notes.txt", garbage))

    assert spots == []
    assert refused == [("notes.txt", None, 1, Refused.UNREADABLE)]
    assert "no hand found" in report.refusals[0].message


def test_phh_that_toml_cannot_read_is_located():
    broken = PHH.replace("'p2 f']", "'p2 f'")

    _, refused, report = refusals(("broken.phh", broken))

    [(file, hand, line, kind)] = refused
    assert (file, hand, kind) == ("broken.phh", None, Refused.UNREADABLE) and line is not None
    assert report.refusals[0].message.startswith("not valid PHH (TOML)")


def test_a_phh_action_out_of_turn_is_located_on_its_line():
    wrong = PHH.replace("'p3 cbr 250', 'p1 f'", "'p1 f', 'p3 cbr 250'")

    _, refused, report = refusals(("turn.phh", wrong))

    assert refused == [("turn.phh", "7", 8, Refused.RULES)]
    assert "acts out of turn: BTN is to act" in report.refusals[0].message


def test_several_phh_hands_in_one_phhs_file():
    phhs = "[1]\n" + PHH + "\n[2]\n" + PHH.replace("hand = 7", "hand = 8")

    spots, refused, _ = refusals(("two.phhs", phhs))

    assert refused == []
    assert {(s.document["source"]["hand"], s.document["source"]["decision"]) for s in spots} >= {("7", 1), ("8", 1)}


def test_huge_input_is_refused_unread():
    huge = STARS * 20_000  # about 20 MB

    spots, refused, report = refusals(("huge.txt", huge), limits=Limits(file_bytes=1_000_000))

    assert spots == [] and refused == [("huge.txt", None, None, Refused.TOO_LARGE)]
    assert "more than the 1,000,000 allowed" in report.refusals[0].message


def test_files_past_the_count_are_refused():
    spots, refused, _ = refusals(("a.txt", STARS), ("b.txt", STARS), ("c.txt", STARS), limits=Limits(files=2))

    assert refused == [("c.txt", None, None, Refused.TOO_LARGE)]
    assert {s.document["source"]["file"] for s in spots} == {"a.txt", "b.txt"}


def test_decimal_commas_and_currency_signs_are_read_in_cents():
    winamax = """\
Winamax Poker - CashGame - HandId: #5338991-463-1383816406 - Holdem no limit (0,10€/0,25€) - 2013/11/07 09:26:46 UTC
Table: 'Cardiff' 5-max (real money) Seat #1 is the button
Seat 1: benhansen (25,50€)
Seat 4: ovechkin08 (20€)
*** ANTE/BLINDS ***
benhansen posts small blind 0,10€
ovechkin08 posts big blind 0,25€
*** PRE-FLOP ***
benhansen raises 0,50€ to 0,75€
ovechkin08 folds
*** SUMMARY ***
"""
    spots, refused, _ = refusals(("fr.txt", winamax))

    assert refused == []
    assert spots[0].document["game"]["blinds"] == [10, 25]
    assert spots[0].document["stacks"] == {"BB": 2000, "BTN": 2550}
    assert spots[1].document["expect"]["options"]["call"] == 50


def test_trainer_import_reports_bad_files_without_a_traceback(tmp_path):
    (tmp_path / "notes.txt").write_bytes(b"\x00\x01 not a hand history")
    (tmp_path / "cut.txt").write_text("\n".join(STARS.splitlines()[:17]), encoding="utf-8")

    result = CliRunner().invoke(main, ["import", str(tmp_path / "notes.txt"), str(tmp_path / "cut.txt"), "--out", str(tmp_path / "out")])

    assert result.exit_code == 1
    assert "notes.txt:1: unreadable: no hand found" in result.stderr
    assert "cut.txt:17: hand 149652017195 truncated: the hand stops before betting is over" in result.stderr
    assert "2 files, 1 hand, 0 imported, 1 refused; 0 spots written" in result.output
    assert "Traceback" not in result.output + result.stderr


@pytest.mark.parametrize(
    ("source", "error"),
    [
        ({"file": "a.txt", "hand": "12"}, "source.decision: missing"),
        ({"file": "a.txt", "hand": "12", "decision": 0}, "source.decision: must be a whole number ≥ 1"),
        ({"file": "a.txt", "hand": "12", "decision": 1, "seat": 3}, 'unknown key "source.seat"'),
        ([1, 2], "source: must be a text or {file: NAME, hand: ID, decision: N}"),
    ],
)
def test_the_loader_checks_the_source_key(source, error):
    document = {"game": {"type": "no-limit", "blinds": [50, 100]}, "stacks": {"SB": 1000, "BB": 1000}, "source": source}

    with pytest.raises(ScenarioError) as raised:
        load_document(document, "spot.yaml")

    assert error in str(raised.value)


def test_a_source_loads_and_is_kept():
    document = {"game": {"type": "no-limit", "blinds": [50, 100]}, "stacks": {"SB": 1000, "BB": 1000},
                "source": {"file": "a.txt", "hand": "12", "decision": 3}}

    assert load_document(document, "spot.yaml").source == {"file": "a.txt", "hand": "12", "decision": 3}
    assert load_document({**document, "source": "TDA 2024 rule 40"}, "s.yaml").source == "TDA 2024 rule 40"


def test_more_seats_than_a_table_is_refused_at_the_eleventh():
    header, rest = STARS.split("\n", 1)
    seats = "".join(f"Seat {i}: extra{i} (100 in chips)\n" for i in range(11, 20000))

    _, refused, _ = refusals(("crowd.txt", header + "\n" + seats + rest))

    assert refused == [("crowd.txt", "149652017195", 12, Refused.UNSUPPORTED)]


def test_amounts_past_what_a_json_reader_keeps_are_refused():
    rich = STARS.replace("Seat 9: held (20710 in chips)", "Seat 9: held (90071992547409930 in chips)")

    _, refused, report = refusals(("rich.txt", rich))

    assert refused == [("rich.txt", "149652017195", 1, Refused.UNSUPPORTED)]
    assert "an amount over 9007199254740991 chips" in report.refusals[0].message


def test_a_client_writing_other_words_is_refused_hand_by_hand():
    french = STARS
    for english, other in ((": folds", ": se couche"), (": calls", ": suit"), (": bets", ": mise"), (": raises", ": relance")):
        french = french.replace(english, other)

    spots, refused, report = refusals(("fr.txt", french))

    assert spots == [] and refused == [("fr.txt", "149652017195", 24, Refused.TRUNCATED)]  # at *** SUMMARY ***
    assert "the hand stops before betting is over" in report.refusals[0].message
