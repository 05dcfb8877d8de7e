"""The scenario loader: everything the contract allows loads; every mistake names file, line and key."""

import textwrap
from pathlib import Path

import pytest
import yaml

from trainer.engine import GameType, Street
from trainer.scenarios import ScenarioError, load_document, load_paths, load_text

REPO = Path(__file__).resolve().parents[1]

CONTRACT_EXAMPLE = """\
id: turn-btn-faces-short-all-in        # optional; defaults to the file name without .yaml
title:
  en: BTN faces a short all-in on the turn
  zh-Hant: 轉牌圈 BTN 面對不足額全下
  zh-Hans: 转牌圈 BTN 面对不足额全下
topics: [short-all-in, reopening]
level: 2
game:
  type: no-limit
  blinds: [100, 200]
start: turn
pot: 600
stacks: {SB: 10000, BB: 10000, CO: 1400, BTN: 10000}
actions:
  - SB bet 1000
  - BB call
  - CO allin
ask: [card, options]
explain:
  en: CO's all-in adds only 400, less than SB's 1000, so it is a short all-in.
expect:
  to_act: BTN
  card: {current_total: 1400, last_full_increment: 1000, committed: 0, acted: false, to_add: 1400}
  options: {call: 1400, raise: {min_to: 2400, max_to: 10000}}
"""


def load(text, file="x.yaml"):
    return load_text(textwrap.dedent(text), file)


def error_of(text, file="x.yaml") -> ScenarioError:
    with pytest.raises(ScenarioError) as err:
        load(text, file)
    return err.value


def test_contract_example_loads_and_solves_as_documented():
    sc = load(CONTRACT_EXAMPLE)
    assert sc.id == "turn-btn-faces-short-all-in"
    assert sc.title.text("zh-Hant") == "轉牌圈 BTN 面對不足額全下"
    assert sc.explain.text("zh-Hans").startswith("CO's all-in")  # falls back to English
    assert sc.check_expect() == []
    assert sc.solve() == {
        "id": "turn-btn-faces-short-all-in",
        "file": "x.yaml",
        "street": "turn",
        "to_act": "BTN",
        "card": {"current_total": 1400, "last_full_increment": 1000, "committed": 0, "acted": False, "to_add": 1400},
        "options": {"fold": True, "check": False, "call": 1400, "bet": None, "raise": {"min_to": 2400, "max_to": 10000}},
        "pot": 4000,
    }


def test_every_game_key_and_the_street_mapping_form():
    sc = load(
        """\
        game:
          type: fixed-limit
          blinds: [5, 10]
          ante: 1
          bb_ante: 0
          straddles: [20]
          bets: [10, 20]
          rules: {bba: ante-first, limit_cap: 3, limit_cap_heads_up: false}
        stacks: {UTG: 500, CO: 500, BTN: 500, SB: 500, BB: 500}
        names: {UTG: Ann, BB: 小明}
        board: [Kc, 7d, 2s]
        hands: {UTG: [Ah, Ad]}
        actions:
          preflop: [CO call, BTN call, SB call, BB call, UTG check]
          flop: [SB check]
        ask: [card, options, pot]
        """,
        "limit-flop.yaml",
    )
    assert sc.id == "limit-flop"
    assert sc.game.type is GameType.FIXED_LIMIT and sc.game.rules.limit_cap == 3
    assert sc.names == {"UTG": "Ann", "BB": "小明"}
    assert [a.street for a in sc.actions][-1] is Street.FLOP
    assert sc.solution["to_act"] == "BB" and sc.solution["street"] == "flop"
    assert sc.solution["pot"] == 5 * 1 + 5 * 20
    no_limit = load("game: {type: no-limit, blinds: [1, 2], rules: {reopen: exceed}}\nstacks: {SB: 100, BB: 100}\n")
    assert no_limit.game.rules.reopen == "exceed"


def test_id_defaults_to_file_name_and_ids_are_unique(tmp_path):
    body = "game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\n"
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "same.yaml").write_text(body)
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "same.yaml").write_text(body)
    result = load_paths([tmp_path])
    assert [s.id for s in result.scenarios] == ["same"]
    assert len(result.errors) == 1 and 'id "same" is already used' in str(result.errors[0])


@pytest.mark.parametrize(
    "text, line, fragment",
    [
        # unknown key, with a suggestion
        ("game: {type: no-limit, blinds: [1, 2]}\nstakcs: {SB: 100, BB: 100}\n", 2, 'unknown key "stakcs"; did you mean "stacks"?'),
        # unknown nested key
        ("game: {type: no-limit, blinds: [1, 2], antes: 1}\nstacks: {SB: 100, BB: 100}\n", 1, 'unknown key "game.antes"'),
        # duplicate key
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nstacks: {SB: 10, BB: 10}\n", 3, 'duplicate key "stacks" (first on line 2)'),
        # illegal action with what was legal
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nactions:\n  - SB raise 3\n", 4, '"SB raise 3": the minimum raise is to 4 (the last full raise added 2) (R-MINRAISE); SB may fold, call 1, or raise to 4–100'),
        # typo in a verb
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nactions: [SB rase 4]\n", 3, 'unknown verb "rase" (verbs: fold, check, call, bet N, raise N, allin); did you mean "raise"?'),
        # not a number
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nactions: [SB raise abc]\n", 3, '"abc" is not a whole number of chips'),
        # position not in the hand
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nactions: [CO call]\n", 3, "CO is not in stacks"),
        # bad locale
        ("title: {en: Hi, zh-TW: 嗨}\ngame: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\n", 1, 'unknown locale "zh-TW"'),
        # negative stack
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: -5, BB: 100}\n", 2, "stacks.SB: must be a whole number of chips > 0, got -5"),
        # pot with a preflop start
        ("game: {type: no-limit, blinds: [1, 2]}\npot: 10\nstacks: {SB: 100, BB: 100}\n", 2, "pot: is only for a scenario with a later start"),
        # later start without pot
        ("game: {type: no-limit, blinds: [1, 2]}\nstart: flop\nstacks: {SB: 100, BB: 100}\n", 2, "needs pot"),
        # missing game type
        ("game: {blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\n", 1, "game.type: missing"),
        # float blinds: refused while reading, with the key
        ("game: {type: no-limit, blinds: [0.5, 1]}\nstacks: {SB: 100, BB: 100}\n", 1, "game.blinds: 0.5 is not a whole number"),
        # check facing a bet
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nactions: [SB check]\n", 3, "SB cannot check: there is 1 to call (R-INVALIDDECL)"),
        # out of turn
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100, UTG: 100}\nactions: [SB call]\n", 3, "it is UTG's turn, not SB's (R-ORDER)"),
        # actions after the street ended in the list form
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nactions: [SB call, BB check, BB check]\n", 3, "the preflop betting is already over"),
        # streets out of order
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nactions:\n  flop: [BB check]\n  preflop: [SB call]\n", 5, "streets must be listed in order"),
        # street not finished before the next street's actions
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nactions:\n  preflop: [SB call]\n  flop: [BB check]\n", 5, "the preflop betting is not finished: BB is still to act"),
        # a card dealt twice
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nboard: [Kc, 7d, Kc]\n", 3, "Kc is dealt twice"),
        # bad question kind
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nask: [card, winner]\n", 3, 'unknown question kind "winner"'),
        # three or more players need an SB (two are heads-up whatever the seats are called)
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {CO: 100, BTN: 100, BB: 100}\n", 2, "with three or more players needs an SB"),
        # not YAML
        ("game: {type: no-limit, blinds: [1, 2]\nstacks: {SB: 100, BB: 100}\n", 2, "not valid YAML"),
        # a YAML tag that would build an object is refused by the safe loader
        ("game: !!python/object:os.system {}\nstacks: {SB: 100, BB: 100}\n", 1, "not valid YAML"),
        # the document is not a mapping
        ("- just\n- a list\n", 1, "a scenario file must be a mapping"),
        # a question the spot cannot answer
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nask: [card, pots]\n", 3, "ask: pots is answered once betting is over, and SB is still to act"),
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nactions: [SB fold]\nask: [showdown]\n", 4, "showdown needs two or more players left"),
        # unknown key inside expect
        ("game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nexpect: {card: {to_call: 1}}\n", 3, 'unknown key "expect.card.to_call"'),
    ],
)
def test_mistakes_name_line_key_and_reason(text, line, fragment):
    err = error_of(text, "scenarios/x.yaml")
    assert err.file == "scenarios/x.yaml"
    assert err.line == line, str(err)
    assert fragment in str(err), str(err)
    assert str(err).startswith(f"scenarios/x.yaml:{line}: ")


def test_expect_disagreement_names_the_key_and_both_values():
    sc = load(CONTRACT_EXAMPLE.replace("min_to: 2400", "min_to: 1800"))
    [problem] = sc.check_expect()
    assert problem.line == 24
    assert "expect.options.raise: the file expects {min_to: 1800, max_to: 10000}, the engine says {min_to: 2400, max_to: 10000}" in str(problem)


def test_broken_file_does_not_stop_the_others(tmp_path):
    (tmp_path / "good.yaml").write_text(CONTRACT_EXAMPLE)
    (tmp_path / "bad.yaml").write_text("game: [\n")
    (tmp_path / "binary.yaml").write_bytes(b"\xff\xfe\x00")
    result = load_paths([tmp_path])
    assert [s.id for s in result.scenarios] == ["turn-btn-faces-short-all-in"]
    assert sorted(Path(e.file).name for e in result.errors) == ["bad.yaml", "binary.yaml"]


def test_the_repository_scenarios_all_load_and_agree():
    result = load_paths([REPO / "scenarios", REPO / "tests" / "scenarios"])
    assert result.errors == []
    assert len(result.scenarios) >= 14
    problems = [p for s in result.scenarios for p in s.check_expect()]
    assert problems == []


def test_each_bad_example_file_fails_on_the_line_its_table_names():
    """fixtures/scenarios-bad/EXPECTED.md lists, per file, the line and key the error must name."""
    folder = REPO / "fixtures" / "scenarios-bad"
    rows = [
        line.split("|")[1:4]
        for line in (folder / "EXPECTED.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| `")
    ]
    assert len(rows) >= 6
    result = load_paths([folder])
    assert result.scenarios == []
    by_name = {Path(e.file).name: e for e in result.errors}
    for file, line, key in rows:
        err = by_name[file.strip().strip("`")]
        assert err.line == int(line), str(err)
        key_name = key.split("`")[1]
        assert key_name in str(err) or key_name == err.key, str(err)


RULING = """\
game: {type: no-limit, blinds: [250, 500]}
stacks: {UTG: 20000, CO: 20000, BTN: 20000, SB: 20000, BB: 20000}
actions: [UTG raise 1100]
ask: [ruling]
ruling: {chips: [500, 1000]}
expect:
  ruling: {action: call, to: 1100, returned: 400}
"""


def test_ruling_extension_loads_solves_and_explains():
    sc = load(RULING)
    assert sc.check_expect() == []
    assert sc.solve()["ruling"] == {"action": "call", "to": 1100, "returned": 400}
    assert any(step.rule == "R-MULTICHIP" for step in sc.derivation())


def test_split_extension_loads_and_solves():
    sc = load(
        """\
        game: {type: no-limit, blinds: [100, 200]}
        start: river
        pot: 0
        stacks: {SB: 100, BB: 300, BTN: 1000}
        actions: [SB allin, BB allin, BTN call]
        ask: [pots, split]
        winners: [[SB, BTN], [BB, BTN]]
        chip: 100
        """
    )
    # main pot 300 = three 100 chips: one each, the odd chip to SB (first left of the button)
    assert sc.solve()["split"] == [{"SB": 200, "BTN": 100}, {"BB": 200, "BTN": 200}]


@pytest.mark.parametrize(
    "extra, line, fragment",
    [
        ("ask: [ruling]\n", 4, "ask includes ruling, so the file needs a ruling"),
        ("ruling: {said: maybe}\n", 4, 'ruling.said: "maybe" is not a declaration'),
        ("ruling: {}\n", 4, "give what the player said"),
        ("ruling: {said: call, by: CO, then: [UTG rase 300]}\n", 4, 'unknown verb "rase"'),
        ("winners: [[SB]]\n", 4, "betting is not over"),
        ("chip: 5\n", 4, "chip: is only used with winners"),
    ],
)
def test_extension_mistakes(extra, line, fragment):
    base = "game: {type: no-limit, blinds: [1, 2]}\nstacks: {UTG: 100, CO: 100, SB: 100, BB: 100}\nactions: [UTG call]\n"
    err = error_of(base + extra)
    assert err.line == line and fragment in str(err), str(err)


NL = "game: {type: no-limit, blinds: [1, 2]"
FL = "game: {type: fixed-limit, blinds: [1, 2]"


@pytest.mark.parametrize(
    "text, line, fragment",
    [
        # forced bets the hand would not post: with a later start they are already in pot
        (NL + ", ante: 1}\nstart: flop\npot: 10\nstacks: {SB: 100, BB: 100}\n", 1, "game.ante: antes are posted before the preflop betting; this scenario starts on the flop"),
        (NL + ", bb_ante: 2}\nstart: turn\npot: 10\nstacks: {SB: 100, BB: 100}\n", 1, "game.bb_ante: the big-blind ante is posted before the preflop betting"),
        (NL + ", straddles: [4]}\nstart: river\npot: 10\nstacks: {SB: 100, BB: 100, UTG: 100}\n", 1, "game.straddles: straddles are posted before the preflop betting"),
        # options the game type never reads
        (NL + ", rules: {limit_cap: 3}}\nstacks: {SB: 100, BB: 100}\n", 1, "game.rules.limit_cap: is only for fixed-limit games (this game is no-limit)"),
        ("game: {type: pot-limit, blinds: [1, 2], rules: {limit_cap_heads_up: false}}\nstacks: {SB: 100, BB: 100}\n", 1, "game.rules.limit_cap_heads_up: is only for fixed-limit games (this game is pot-limit)"),
        (FL + ", rules: {reopen: at-least}}\nstacks: {SB: 100, BB: 100}\n", 1, "game.rules.reopen: does not apply to fixed limit: there an all-in of at least half a bet reopens the betting (R-LIMIT"),
        # straddles with no seat to post them name game.straddles, not stacks
        (NL + ", straddles: [4]}\nstacks: {BTN: 100, BB: 100}\n", 1, "game.straddles: 1 straddle, but heads-up nobody can straddle"),
        (NL + ", straddles: [4]}\nstacks: {SB: 100, BB: 100}\n", 1, "game.straddles: 1 straddle, but heads-up nobody can straddle"),
        (NL + ", straddles: [4, 8]}\nstacks: {SB: 100, BB: 100, UTG: 100}\n", 1, "game.straddles: 2 straddles, but only 1 seat after the big blind can straddle (UTG)"),
        # R-STRADDLE: a straddle is posted in full, after the straddler's ante
        (NL + ", straddles: [4]}\nstacks: {SB: 100, BB: 100, UTG: 3}\n", 1, "game.straddles: UTG has 3 and cannot cover the straddle of 4: a straddle is posted in full"),
        (NL + ", ante: 1, straddles: [4]}\nstacks: {SB: 100, BB: 100, UTG: 4}\n", 1, "game.straddles: UTG has 4, 3 after the ante of 1, and cannot cover the straddle of 4"),
        (NL + ", straddles: [4, 8]}\nstacks: {SB: 100, BB: 100, UTG: 100, CO: 7}\n", 1, "game.straddles: CO has 7 and cannot cover the straddle of 8"),
        ("game:\n  type: no-limit\n  blinds: [1, 2]\n  straddles:\n    - 4\n    - 8\nstacks: {SB: 100, BB: 100, UTG: 100, CO: 7}\n", 6, "game.straddles: CO has 7"),
        # R-ODDCHIP: with chip N every amount at the table is a number of N-chips
        (NL.replace("[1, 2]", "[5, 10]") + ", ante: 2}\nstacks: {SB: 100, BB: 100}\nactions: [SB allin, BB call]\nask: [split]\nwinners: [[BB]]\nchip: 5\n", 1, "game.ante: 2 is not a multiple of chip (5)"),
        (NL.replace("[1, 2]", "[5, 10]") + "}\nstacks: {SB: 100, BB: 102}\nactions: [SB allin, BB call]\nask: [split]\nwinners: [[BB]]\nchip: 5\n", 2, "stacks.BB: 102 is not a multiple of chip (5): with no chip smaller than 5 in play, it cannot be on the table (R-ODDCHIP)"),
        (NL.replace("[1, 2]", "[5, 10]") + "}\nstart: river\npot: 1003\nstacks: {SB: 100, BB: 100}\nactions: [SB allin, BB call]\nask: [split]\nwinners: [[BB]]\nchip: 5\n", 3, "pot: 1003 is not a multiple of chip (5)"),
        (NL.replace("[1, 2]", "[5, 10]") + "}\nstacks: {SB: 100, BB: 100}\nactions: [SB raise 23, BB allin, SB call]\nask: [split]\nwinners: [[BB]]\nchip: 5\n", 3, '"SB raise 23": 23 is not a multiple of chip (5)'),
        (FL.replace("[1, 2]", "[2, 2]") + ", bets: [2, 5]}\nstacks: {SB: 100, BB: 100}\nactions: [SB fold]\nask: [split]\nwinners: [[BB]]\nchip: 2\n", 1, "game.bets: 5 is not a multiple of chip (2)"),
        # amounts a JSON reader would not keep exactly
        (NL + "}\nstacks: {SB: 100, BB: 9007199254740992}\n", 2, "stacks.BB: 9007199254740992 is larger than 9007199254740991 (2^53 − 1)"),
        (NL + "}\nstacks: {SB: 9007199254740991, BB: 1}\n", 2, "stacks: the chips at the table (pot and stacks) add up to 9007199254740992"),
        ("game: {type: no-limit, blinds: [1, 9007199254740992]}\nstacks: {SB: 100, BB: 100}\n", 1, "game.blinds: 9007199254740992 is larger than"),
        (NL + ", ante: 9007199254740992}\nstacks: {SB: 100, BB: 100}\n", 1, "game.ante: 9007199254740992 is larger than"),
        (NL + "}\nstart: flop\npot: 9007199254740992\nstacks: {SB: 100, BB: 100}\n", 3, "pot: 9007199254740992 is larger than"),
        (NL + "}\nstacks: {SB: 100, BB: 100}\nactions: [SB raise 9007199254740992]\n", 3, '"SB raise 9007199254740992": the amount is larger than 9007199254740991'),
        (NL + "}\nstacks: {SB: 100, BB: 100}\nactions: [SB raise " + "9" * 5000 + "]\n", 3, "the amount is larger than 9007199254740991"),
        # one pot is "1 pot"
        (NL + "}\nstacks: {SB: 100, BB: 100}\nactions: [SB fold]\nask: [split]\nwinners: [[BB], [BB]]\n", 5, "winners: there is 1 pot but winners are given for 2 pots"),
    ],
)
def test_the_loader_refuses_what_it_would_ignore_or_lose(text, line, fragment):
    err = error_of(text, "scenarios/x.yaml")
    assert err.line == line, str(err)
    assert fragment in str(err), str(err)


def test_a_straddler_who_covers_the_straddle_exactly_posts_it_all_in():
    sc = load(NL + ", ante: 1, straddles: [4]}\nstacks: {SB: 100, BB: 100, UTG: 5, BTN: 100}\n")
    assert sc.solve()["to_act"] == "BTN"
    assert sc.solve()["card"]["current_total"] == 4


def test_amounts_made_of_the_chip_load_and_split_in_it():
    sc = load(NL.replace("[1, 2]", "[5, 10]") + "}\nstart: river\npot: 1005\nstacks: {SB: 100, BB: 100}\n"
              "actions: [SB bet 25, BB allin, SB call]\nask: [split]\nwinners: [[SB, BB]]\nchip: 5\n")
    assert sc.solve()["split"] == [{"SB": 605, "BB": 600}]


HAND_READING = """\
game: {type: no-limit, blinds: [50, 100]}
start: river
pot: 600
stacks: {SB: 5000, BB: 5000}
board: [Kh, 7c, 2d, Kc, 9s]
hands: {SB: [Ac, Qd], BB: [Kd, 7s]}
actions: [SB check, BB check]
ask: [winners]
expect:
  best_hands:
    BB: {cards: CARDS, category: full-house}
"""


@pytest.mark.parametrize("cards", ["[Kd, Kh, Kc, 7s, 7c]", "[Kc, Kh, Kd, 7c, 7s]", "[Kh, Kd, Kc, 7s, 7c]"])
def test_expected_best_cards_of_one_rank_may_come_in_any_suit_order(cards):
    assert load(HAND_READING.replace("CARDS", cards)).check_expect() == []


@pytest.mark.parametrize("cards", ["[7s, 7c, Kd, Kh, Kc]", "[Kd, Kh, 7s, Kc, 7c]", "[Kd, Kh, Ks, 7s, 7c]"])
def test_expected_best_cards_out_of_reading_order_or_other_cards_disagree(cards):
    [problem] = load(HAND_READING.replace("CARDS", cards)).check_expect()
    assert problem.line == 11
    shown = ", ".join(f'"{c}"' for c in cards.strip("[]").split(", "))
    assert str(problem) == (f'x.yaml:11: expect.best_hands.BB.cards: the file expects [{shown}], '
                            'the engine says ["Kd", "Kh", "Kc", "7s", "7c"]')


def test_amounts_up_to_two_to_the_53_minus_one_load():
    """The chips at the table may add up to exactly 2^53 − 1."""
    sc = load(NL + "}\nstacks: {SB: 4503599627370495, BB: 4503599627370496}\n")
    assert sc.solve()["options"]["raise"] == {"min_to": 4, "max_to": 4503599627370495}
# ---------------------------------------------------------------- reading limits (issue #9 point 2)


def test_an_impossible_date_is_just_a_title():
    sc = load(CONTRACT_EXAMPLE.replace("title:\n  en: BTN faces a short all-in on the turn\n  zh-Hant: 轉牌圈 BTN 面對不足額全下\n  zh-Hans: 转牌圈 BTN 面对不足额全下\n", "title: 2001-13-45\n"))
    assert sc.title.text() == "2001-13-45"


@pytest.mark.parametrize(
    "value, fragment",
    [
        ("yes", 'got "yes"'),  # the format's booleans are true and false; yes/no/on/off are text
        ("!!bool maybe", '"maybe" is not a boolean'),
        ("2001-12-14", 'got "2001-12-14"'),
        ("1.5", "1.5 is not a whole number"),
        ("0x10", "0x10 is not a whole number written in decimal digits"),
        ("1:30", "1:30 is not a whole number"),
        (".inf", ".inf is not a whole number"),
        ("!!int ²", '"²" is not a whole number'),
        ("9" * 31, "a number of 31 digits is too large"),
        ("!!binary AAAA", "the tag !!binary is not allowed"),
        ("!custom x", "the tag !custom is not allowed"),
        ("!!set {a: null}", "the tag !!set is not allowed"),
    ],
)
def test_only_plain_scalars_are_read_and_each_other_one_names_its_line_and_key(value, fragment):
    text = f"game:\n  type: fixed-limit\n  blinds: [1, 2]\n  rules:\n    limit_cap_heads_up: {value}\nstacks: {{SB: 100, BB: 100}}\n"
    err = error_of(text, "scenarios/x.yaml")
    assert "game.rules.limit_cap_heads_up" in str(err)
    assert err.line == 5, str(err)
    assert fragment in str(err), str(err)


def test_true_and_false_still_read_as_booleans_and_digits_as_numbers():
    sc = load(CONTRACT_EXAMPLE.replace("acted: false", "acted: False").replace("level: 2", "level: +2"))
    assert sc.level == 2 and sc.check_expect() == []


def test_aliases_within_the_budget_still_load():
    """PyYAML's own dumper writes &id001 / *id001 for a list used twice: such files keep loading."""
    text = CONTRACT_EXAMPLE.replace("topics: [short-all-in, reopening]", "topics: &t [short-all-in, reopening]")
    text = text.replace("level: 2\n", "level: 2\nexplain:\n  en: &e Short.\n  zh-Hant: *e\n  zh-Hans: *e\n", 1)
    text = text.replace("explain:\n  en: CO's all-in adds only 400, less than SB's 1000, so it is a short all-in.\n", "")
    sc = load(text)
    assert sc.topics == ("short-all-in", "reopening") and sc.explain.text("zh-Hans") == "Short."


def test_messages_stay_short_whatever_the_file_echoes():
    long_key = "k" * 100_000
    for text in (
        f"{long_key}: 1\n",
        "game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nactions: [SB raise " + "1" * 50_000 + "]\n",
        "game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: \"" + "x" * 50_000 + "\"}\n",
        "id: " + "x" * 50_000 + "\n",
    ):
        err = error_of(text, "x.yaml")
        assert len(str(err)) < 600, str(err)[:200]


def test_a_file_over_a_mebibyte_is_refused_unread(tmp_path):
    big = tmp_path / "big.yaml"
    big.write_text(CONTRACT_EXAMPLE + "#" + "x" * (1 << 20) + "\n")
    result = load_paths([tmp_path])
    [err] = result.errors
    assert err.line == 1 and "larger than 1,048,576 bytes" in str(err)


def test_a_utf8_byte_order_mark_at_the_start_is_allowed(tmp_path):
    (tmp_path / "bom.yaml").write_bytes(b"\xef\xbb\xbf" + CONTRACT_EXAMPLE.encode())
    assert [s.id for s in load_paths([tmp_path]).scenarios] == ["turn-btn-faces-short-all-in"]


def test_a_special_file_is_not_read(tmp_path):
    import os

    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    [err] = load_paths([fifo]).errors
    assert "not a regular file" in str(err)


@pytest.mark.parametrize("loader", ["libyaml", "pure Python"])
def test_the_limits_hold_with_and_without_libyaml(monkeypatch, loader):
    from trainer.scenarios import read

    if loader == "pure Python":
        monkeypatch.setattr(read, "_Loader", read._PythonLoader)
    for depth in (33, 200, 2000):  # past 1,000 libyaml says so itself
        deep = "topics: " + "[" * depth + "]" * depth + "\n"
        assert "nest" in str(error_of(deep, "x.yaml"))
    assert "nested more than 32 deep" in str(error_of("topics: " + "[" * 200 + "]" * 200 + "\n", "x.yaml"))
    many = "topics: [" + ", ".join(["a"] * 20_000) + "]\n"
    assert "more than 10,000 values" in str(error_of(many, "x.yaml"))
    laughs = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"b{i}: &b{i} [{', '.join([f'*{prev}'] * 10)}]\n" for i, prev in enumerate(["a", "b0", "b1", "b2", "b3", "b4", "b5", "b6"])
    )
    assert "more than 10,000 values" in str(error_of(laughs, "x.yaml"))
    assert "refers to the list or mapping it is part of" in str(error_of("id: &a [*a]\n", "x.yaml"))
    # each alias repeats a tree 30 deep inside another 30 deep: nesting counts what aliases repeat
    chain = "a0: &a0 " + "[" * 30 + "x" + "]" * 30 + "\n" + "".join(
        f"a{i}: &a{i} " + "[" * 30 + f"*a{i - 1}" + "]" * 30 + "\n" for i in range(1, 25)
    )
    assert "nested more than 32 deep" in str(error_of(chain, "x.yaml"))


def test_a_loader_bug_in_one_file_is_reported_and_the_others_load(tmp_path, monkeypatch):
    """The safety net of ``trainer check`` and ``trainer serve``, in one process and in loading processes."""
    from trainer.scenarios import load

    (tmp_path / "good.yaml").write_text(CONTRACT_EXAMPLE)
    (tmp_path / "bug.yaml").write_text(CONTRACT_EXAMPLE.replace("turn-btn-faces-short-all-in", "bug"))
    real = load.load_text

    def buggy(text, file):
        if file.endswith("bug.yaml"):
            raise ZeroDivisionError("a bug")
        return real(text, file)

    monkeypatch.setattr(load, "load_text", buggy)
    for workers in (1, 2):
        result = load_paths([tmp_path], workers=workers)
        assert [s.id for s in result.scenarios] == ["turn-btn-faces-short-all-in"]
        [err] = result.errors
        assert err.file.endswith("bug.yaml") and "ZeroDivisionError" in str(err)


def test_a_file_that_takes_too_long_in_a_loading_process_is_reported(tmp_path, monkeypatch):
    from trainer.scenarios import pool

    for i in range(4):
        (tmp_path / f"s{i}.yaml").write_text(CONTRACT_EXAMPLE.replace("turn-btn-faces-short-all-in", f"s{i}"))
    monkeypatch.setattr(pool, "FILE_SECONDS", 1e-6)
    result = load_paths([tmp_path], workers=2)
    assert result.errors and all("took longer than" in str(e) for e in result.errors)
    assert len(result.errors) + len(result.scenarios) == 4


def test_an_expected_pot_listing_a_mapping_as_eligible_is_a_disagreement_not_a_crash():
    text = (
        "game: {type: no-limit, blinds: [1, 2]}\nstacks: {SB: 100, BB: 100}\nactions: [SB fold]\n"
        "expect:\n  pots: [{amount: 3, eligible: [{BB: 1}, BB]}]\n"
    )
    [problem] = load(text).check_expect()
    assert problem.line == 5 and "expect.pots" in str(problem)


def _document_error(document) -> ScenarioError:
    with pytest.raises(ScenarioError) as err:
        load_document(document, "gen-x.yaml")
    return err.value


@pytest.mark.parametrize(
    "change",
    [
        {"pot": 1.5},
        {"stacks": {"SB": 10**40, "BB": 100}},
        {"stacks": {"SB": 2**53, "BB": 100}},
        {"expct": {}},
        {"actions": ["SB raise lots"]},
        {"actions": {"flop": ["SB check"]}},
        {"topics": [[[[]]]] * 2},
        {"<<": {"id": "x"}},
        {"ask": ["pots"], "expect": {"pots": [{"amount": 3, "eligible": ["BB"]}, 7]}},
        {"actions": ["SB allin", "BB call"], "ask": ["split"], "winners": [["BB"]], "chip": 2},
        {"game": {"type": "no-limit", "blinds": [1, 2], "straddles": [4]}, "stacks": {"SB": 100, "BB": 100, "UTG": 3}},
    ],
)
def test_a_document_gets_the_message_its_file_would_get_without_a_line(change):
    document = {"game": {"type": "no-limit", "blinds": [1, 2]}, "stacks": {"SB": 100, "BB": 100}, **change}
    from_file = error_of(yaml.safe_dump(document, sort_keys=False))
    from_document = _document_error(document)
    assert (from_document.key, from_document.message) == (from_file.key, from_file.message)
    assert from_document.line is None and str(from_document) == f"gen-x.yaml: {from_file.message}"


def test_a_document_holding_what_no_file_can_is_refused_with_a_message():
    base = {"game": {"type": "no-limit", "blinds": [1, 2]}, "stacks": {"SB": 100, "BB": 100}}
    assert "a set is not a value of the scenario format" in str(_document_error({**base, "topics": {"a"}}))
    assert "a key must be a text or a whole number" in str(_document_error({**base, "names": {("SB",): "Ann"}}))
    deep: list = []
    for _ in range(40):
        deep = [deep]
    assert "nested more than 32 deep" in str(_document_error({**base, "topics": deep}))
    cycle: list = []
    cycle.append(cycle)
    assert "nested more than 32 deep" in str(_document_error({**base, "topics": cycle}))
    assert "more than 10,000 values" in str(_document_error({**base, "topics": ["a"] * 20_000}))


def test_a_document_with_tuples_loads_as_with_lists():
    document = {"game": {"type": "no-limit", "blinds": (1, 2)}, "stacks": {"SB": 100, "BB": 100}, "actions": ("SB call",)}
    scenario = load_document(document, "x.yaml")
    assert scenario.game.blinds == (1, 2) and [a.text for a in scenario.actions] == ["SB call"]
    assert scenario.solve()["to_act"] == "BB"
