"""The drill topics: names, titles in three languages, and the rules they are about.

One list for the scenario library, the generator and the web app's home page, in teaching
order: the path a learner follows, each topic building on the ones before it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Topic:
    name: str
    rules: tuple[str, ...]
    title: dict[str, str]


TOPICS: tuple[Topic, ...] = (
    Topic(name="action-order", rules=("R-ORDER",),
          title={"en": "Who acts first", "zh-Hant": "誰先行動", "zh-Hans": "谁先行动"}),
    Topic(name="heads-up", rules=("R-ORDER",),
          title={"en": "Heads-up order", "zh-Hant": "單挑的行動順序", "zh-Hans": "单挑的行动顺序"}),
    Topic(name="round-end", rules=("R-ROUNDEND",),
          title={"en": "When a round ends; the big blind's option", "zh-Hant": "一輪何時結束；大盲的選擇權",
                 "zh-Hans": "一轮何时结束；大盲的选择权"}),
    Topic(name="min-bet", rules=("R-MINBET",),
          title={"en": "Minimum bet", "zh-Hant": "最小下注", "zh-Hans": "最小下注"}),
    Topic(name="min-raise", rules=("R-MINRAISE",),
          title={"en": "Minimum raise", "zh-Hant": "最小加注", "zh-Hans": "最小加注"}),
    Topic(name="short-all-in", rules=("R-SHORTALLIN",),
          title={"en": "Short all-ins", "zh-Hant": "不足額全下", "zh-Hans": "不足额全下"}),
    Topic(name="reopening", rules=("R-REOPEN",),
          title={"en": "Reopening the betting", "zh-Hant": "重新開放加注權", "zh-Hans": "重新开放加注权"}),
    Topic(name="no-opponent", rules=("R-NOOPPONENT",),
          title={"en": "Nobody left to call a raise", "zh-Hant": "沒有人能跟加注", "zh-Hans": "没有人能跟加注"}),
    Topic(name="short-blind", rules=("R-SHORTBLIND",),
          title={"en": "A short all-in blind", "zh-Hant": "盲注不足額全下", "zh-Hans": "盲注不足额全下"}),
    Topic(name="straddle", rules=("R-STRADDLE",),
          title={"en": "Straddles", "zh-Hant": "抓盲（Straddle）", "zh-Hans": "抓盲（Straddle）"}),
    Topic(name="ante", rules=("R-ANTE",),
          title={"en": "Antes and the big-blind ante", "zh-Hant": "前注與大盲前注", "zh-Hans": "前注与大盲前注"}),
    Topic(name="pot-limit", rules=("R-POTLIMIT",),
          title={"en": "Pot-limit maximum", "zh-Hant": "底池限注的上限", "zh-Hans": "底池限注的上限"}),
    Topic(name="fixed-limit", rules=("R-LIMIT",),
          title={"en": "Fixed limit", "zh-Hant": "固定限注", "zh-Hans": "固定限注"}),
    Topic(name="limit-cap", rules=("R-LIMIT",),
          title={"en": "The limit cap", "zh-Hant": "限注的封頂", "zh-Hans": "限注的封顶"}),
    Topic(name="uncalled", rules=("R-UNCALLED",),
          title={"en": "Uncalled bets", "zh-Hant": "無人跟注的退還", "zh-Hans": "无人跟注的退还"}),
    Topic(name="side-pots", rules=("R-SIDEPOTS",),
          title={"en": "Main and side pots", "zh-Hant": "主池與邊池", "zh-Hans": "主池与边池"}),
    Topic(name="showdown", rules=("R-SHOWDOWN",),
          title={"en": "Who shows first", "zh-Hant": "誰先亮牌", "zh-Hans": "谁先亮牌"}),
    Topic(name="odd-chip", rules=("R-ODDCHIP",),
          title={"en": "Splitting a pot and the odd chip", "zh-Hant": "平分底池與零頭籌碼", "zh-Hans": "平分底池与零头筹码"}),
    Topic(name="hand-reading", rules=("R-SIDEPOTS",),
          title={"en": "Reading the hands: who wins each pot", "zh-Hant": "讀牌：每個底池誰贏",
                 "zh-Hans": "读牌：每个底池谁赢"}),
    Topic(name="chips-and-words", rules=("R-CHIPS", "R-VERBAL", "R-INVALIDDECL", "R-OVERCHIP", "R-MULTICHIP", "R-HALF", "R-STRING"),
          title={"en": "Chips and words: what counts", "zh-Hant": "籌碼與口頭宣告的判定", "zh-Hans": "筹码与口头宣告的判定"}),
)

BY_NAME: dict[str, Topic] = {topic.name: topic for topic in TOPICS}
PATH: dict[str, int] = {topic.name: i for i, topic in enumerate(TOPICS)}
"""A topic's place on the path; topics not listed come after all of these."""
