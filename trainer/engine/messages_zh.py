"""Chinese templates for every message ID in ``messages.EN``.

``ZH_HANT`` is Taiwan usage (繁體中文), ``ZH_HANS`` is mainland usage (简体中文).
They are not a character conversion of each other: the betting terms follow
docs/glossary.md (過牌 / 让牌, 蓋牌 / 弃牌, 全下 / 全押, 加到 / 加注到,
增額 / 增量, 需再補 / 需再补). Position names and rule IDs stay in Latin
letters; amounts are always placeholders. Each template uses exactly the
placeholders of its English original.

Error templates (``err.*``) are clauses without a closing full stop, like the
English ones: ``IllegalActionError`` adds the rule and the legal choices after
them.

>>> from trainer.engine.messages import Message
>>> Message("inc.raise", {"pos": "HJ", "to": 1000, "amount": 400}).render(ZH_HANT)
'HJ 加到 1000，增額 400：最後有效完整增額是 400。'
>>> Message("cur.none", {"street": Message("term.turn")}).render(ZH_HANS)
'转牌圈还没有人下注：本轮目前总额是 0。'
"""

from __future__ import annotations

ZH_HANT: dict[str, str] = {
    # ① 本輪目前總額
    "cur.none": "{street}還沒有人下注：本輪目前總額是 0。",
    "cur.blind": "翻牌前，大盲 {amount} 就是要跟的注：本輪目前總額是 {amount}。",
    "cur.short_blind": (
        "{pos} 以 {posted} 全下，不足一個大盲：要跟的金額仍按完整大盲計算，"
        "所以本輪目前總額是 {amount}。"
    ),
    "cur.straddle": "{pos} 抓盲到 {amount}：活盲抓等於一次盲加注，所以本輪目前總額是 {amount}。",
    "cur.bet": "{pos} 下注 {amount}：本輪目前總額是 {amount}。",
    "cur.raise": "{pos} 加到 {amount}：本輪目前總額是 {amount}。",
    "cur.allin": "{pos} 全下到 {amount}：本輪目前總額是 {amount}。",
    # ② 最後有效完整增額
    "inc.street": "{street}開始時，最後有效完整增額就是最小下注，也就是一個大盲：{amount}。",
    "inc.blind": "翻牌前，大盲算作開這一輪的下注：最後有效完整增額是 {amount}。",
    "inc.straddle": "{pos} 抓盲到 {to}，是最後一次完整加注：最後有效完整增額是 {amount}。",
    "inc.bet": "{pos} 下注 {to}：最後有效完整增額是 {amount}。",
    "inc.raise": "{pos} 加到 {to}，增額 {amount}：最後有效完整增額是 {amount}。",
    "inc.short": (
        "{pos} 全下到 {to}，增額只有 {added}，不到完整的 {full}："
        "不足額全下不會改變最後有效完整增額。"
    ),
    "inc.limit": "限注遊戲裡，{street}的每次下注和加注都是固定一注 {amount}。",
    "inc.limit_half": (
        "{pos} 全下到 {to}，比 {level} 多出至少半注，所以算一次完整下注或加注："
        "下一次加注是加到 {to} + {size}。"
    ),
    "inc.limit_short": (
        "{pos} 全下到 {to}，比 {level} 多出不到半注：不算完整加注，"
        "下一次加注是補足到 {level} + {size}。"
    ),
    # ③ 本人本輪已投入／是否已行動
    "com.none": "{pos} 在{street}還沒有投入任何籌碼。",
    "com.blind": "{pos} 本輪已投入 {amount}（{blind}）；放盲注不算行動。",
    "com.in": "{pos} 在{street}已投入 {amount}。",
    "com.acted": "{pos} 在{street}已經行動過（最近一次：{last}）。",
    "com.not_acted": "{pos} 在{street}尚未行動。",
    # ④ 需再補
    "add.formula": "需再補 = 本輪目前總額 − 本輪已投入 = {current} − {committed} = {amount}。",
    "add.short_stack": "{pos} 手上只剩 {stack}，所以跟注就是以 {stack} 全下。",
    # 選項
    "opt.check": "沒有需要跟的注：{pos} 可以過牌。",
    "opt.fold_free": "可以免費過牌時蓋牌雖然合法，但不合常規，錦標賽中可能受罰（TDA24 58、WSOP-T 84）。",
    "opt.call": "{pos} 可以跟注 {amount}。",
    "opt.no_chips": "{pos} 跟注後就沒有籌碼了，所以不能加注。",
    "opt.not_acted": "{pos} 在{street}尚未行動，所以可以加注。",
    "opt.reopened": (
        "{pos} 已經行動過，現在多面對 {amount}，至少是一個完整加注 {full}："
        "{pos} 的加注權重新開放。"
    ),
    "opt.reopened_exceed": (
        "{pos} 已經行動過，現在多面對 {amount}，超過一個完整加注 {full}："
        "{pos} 的加注權重新開放。"
    ),
    "opt.reopened_full": "{pos} 已經行動過，但之後有人完整加注：{pos} 的加注權重新開放。",
    "opt.not_reopened": (
        "{pos} 已經行動過，現在只多面對 {amount}，不到一個完整加注 {full}："
        "不足額全下不會重新開放加注，所以 {pos} 只能跟注或蓋牌。"
    ),
    "opt.not_reopened_exceed": (
        "{pos} 已經行動過，現在多面對 {amount}，沒有超過一個完整加注 {full}："
        "加注權沒有重新開放，所以 {pos} 只能跟注或蓋牌。"
    ),
    "opt.limit_not_reopened": (
        "{pos} 已經行動過，現在只多面對 {amount}，不到一注 {size} 的一半："
        "加注權沒有重新開放，所以 {pos} 只能跟注或蓋牌。"
    ),
    "opt.limit_reopened": (
        "{pos} 已經行動過，現在多面對 {amount}，至少是一注 {size} 的一半："
        "{pos} 的加注權重新開放。"
    ),
    "opt.no_opponent": (
        "其他還在牌局裡的玩家，籌碼總額都沒有超過 {current}，沒有人能跟任何加注："
        "{pos} 只能跟注或蓋牌。"
    ),
    "opt.no_opponent_bet": "其他還在牌局裡的玩家都已全下，沒有可以下注的對象。",
    "opt.min_bet": "最小下注是一個大盲：{amount}。",
    "opt.min_raise": "最小加注：加到 ① + ② = {current} + {increment} = {amount}。",
    "opt.max_nl": "無限注：{pos} 最多可以全下到 {amount}。",
    "opt.max_pl_bet": "底池限注：最大下注就是底池大小，{amount}。",
    "opt.max_pl": (
        "底池限注最大可加到 = ① +（本輪之前的底池 {before} + 本輪所有人已投入的籌碼 "
        "{street_chips} + ④ {to_add}）= {current} + {pot} = {amount}。"
    ),
    "opt.pl_full_blinds": "翻牌前計算底池時，即使有盲注不足額或是死盲，也一律按完整盲注計算（TDA24 54-B）。",
    "opt.max_stack": "{pos} 總共只有 {amount}，比這還少：最多就是全下到 {amount}。",
    "opt.allin_only": (
        "{pos} 總共只有 {amount}，不到最低的 {min}：唯一能下注或加注的方式是全下到 {amount}。"
    ),
    "opt.limit_bet": "限注：下注固定是一注 {amount}。",
    "opt.limit_raise": "限注：加注是加到最後一個完整注額 {level} 再加一注 {size} = {amount}。",
    "opt.limit_capped": "已經封頂：{street}已有一次下注加 {raises} 次加注。",
    "opt.limit_uncapped": "只剩兩名玩家，而這個牌局單挑時不封頂。",
    "opt.over": "下注已經結束：沒有人需要行動。",
    # 誰行動（R-ORDER）與一輪何時結束（R-ROUNDEND）
    "ord.preflop": "翻牌前從{last}左邊第一位開始行動：{pos} 先行動。",
    "ord.heads_up": "單挑時，不是大盲的那一位 {pos} 就是按鈕位：放小盲，翻牌前先行動，翻牌後最後行動。",
    "ord.heads_up_postflop": "單挑時 {button} 是按鈕位，翻牌後最後行動：由大盲 {pos} 先行動。",
    "ord.postflop": "翻牌後，從按鈕位順時針數起第一位還在牌局裡的玩家先行動：{pos}。",
    "ord.round_ended": "{street}的下注已經結束：仍在牌局中的每一位都已行動、也跟平了本輪目前總額，所以進入{next}。",
    "ord.next": "輪到 {pos}：順時針下一位還需要行動的玩家（已蓋牌和已全下的玩家跳過）。",
    "opt.option": "大家都只跟注，但 {pos} 還沒行動：要等 {pos} 過牌或加注，這一輪才結束。",
    # 底池、分池與攤牌
    "pot.antes": "前注 {amount} 是死錢：算在底池裡，但不計入任何人的本輪已投入。",
    "pot.total": "底池共有 {amount}：這手牌到目前為止投入的全部籌碼。",
    "res.returned": "{pos} 最後投入的 {amount} 沒人跟上：在分池之前退回給 {pos}。",
    "res.main": "主池 {amount}，{players} 有資格爭。",
    "res.side": "邊池 {number}：{amount}，{players} 有資格爭。",
    "res.layers": "依每位全下玩家的總投入分層切出各個底池，每個人自己的前注也算在內；大盲前注和先前的死錢都留在主池。",
    "res.nobody_left": "其他還在牌局裡的玩家都已全下，而 {pos} 投入的已經不少於他們每一位：沒有人可以再對抗，下注結束。",
    "res.short_ante": "{pos} 全下時只付了前注 {ante} 中的 {amount}：前注算是玩家自己投入的籌碼，所以 {pos} 從每位玩家身上最多只能贏 {amount}。",
    "res.won": "其他人都蓋牌了：{pos} 不必攤牌，直接贏得底池。",
    "res.all_tabled": "有玩家全下且下注已經結束：所有人一起亮牌。",
    "res.last_aggressor": "{pos} 是最後一條街最後一個下注或加注的人，所以 {pos} 先亮牌。",
    "res.first_clockwise": "最後一條街沒有人下注，所以由按鈕位順時針第一位還在牌局裡的玩家 {pos} 先亮牌。",
    "res.split": "底池 {number}（{amount}）由 {players} 平分，以 {chip} 的籌碼為單位：{shares}。",
    "res.odd_chip": "零頭籌碼給 {pos}，也就是從按鈕位順時針第一位贏家。",
    "res.share": "{pos} {amount}",
    "read.best": "{pos} 最好的五張牌：{cards}，{category}。",
    "read.wins": "{pot}：{players} 之中 {pos} 的牌最大，贏得這個底池。",
    "read.tie": "{pot}：{players} 的牌點數完全一樣（花色不分大小），平分這個底池。",
    "read.alone": "{pot}：只有 {pos} 能贏這個底池。",
    "pot.main": "主池",
    "pot.side": "邊池 {number}",
    "hand.high-card": "高牌",
    "hand.one-pair": "一對",
    "hand.two-pair": "兩對",
    "hand.three-of-a-kind": "三條",
    "hand.straight": "順子",
    "hand.flush": "同花",
    "hand.full-house": "葫蘆",
    "hand.four-of-a-kind": "四條",
    "hand.straight-flush": "同花順",
    "list.and": "{head} 與 {last}",
    # 籌碼與口頭宣告的判定（R-CHIPS）
    "rule.string": "第二個動作再加進去的籌碼（{amount}）不算：下注或加注必須一次動作完成，除非事先口頭宣告，所以這些籌碼退回給玩家。",
    "rule.amount_alone": "只喊出金額（{amount}），等同於把這個金額的籌碼推出去。",
    "rule.declared": "{pos} 口頭宣告「{said}」：輪到自己時的口頭宣告有約束力。",
    "rule.check_facing_bet": "{pos} 在需再補 {amount} 時說了「過牌」：只能跟注或蓋牌，不能加注。",
    "rule.call_is_check": "沒有人下注時說「跟注」，就是過牌。",
    "rule.call_binds": "{pos} 說了「跟注」：宣告有約束力，所以是跟到 {amount}，多推的籌碼退回。",
    "rule.raise_one_chip": (
        "{pos} 說了「加注」，放入一顆 {chip} 的籌碼，沒有說金額："
        "按這顆籌碼允許的最大額加注，加到 {amount}。"
    ),
    "rule.declared_min": "{pos} 宣告「{said}」：宣告有約束力，至少要到最小額 {amount}。",
    "rule.declared_to": "{pos} 宣告「{said}」到 {amount}。",
    "rule.last_chips": "{pos} 推出的是最後的籌碼：無論如何都算全下。",
    "rule.all_in": "{pos} 全下到 {amount}。",
    "rule.chip_is_bet": "沒有人下注時，默默推出一顆籌碼，就是以它的全額下注：{amount}。",
    "rule.chips_are_bet": "沒有人下注時，默默推出籌碼就算下注：{amount}。",
    "rule.bb_chip": "大盲行使過牌權（選擇權）時，默默推出一顆籌碼算過牌。",
    "rule.overchip_call": "需再補 {amount} 時，默默推出一顆 {chip} 的超額籌碼算跟注；多出的部分找零退回。",
    "rule.short_of_call": "推出的籌碼不夠需再補的 {amount}：算跟注。",
    "rule.exact_call": "推出的籌碼剛好是需再補的 {amount}：算跟注。",
    "rule.every_chip_needed": (
        "拿掉一顆最小的籌碼（{chip}）就不夠需再補的 {amount}，所以每一顆都是跟注必需的：算跟注。"
    ),
    "rule.full_raise": "總額 {amount} 的增額是 {increment}，至少達到最後有效完整增額 {full}：算加到 {amount}。",
    "rule.half_raise": (
        "增額 {increment} 達到最後有效完整增額 {full} 的一半，但不夠一個完整加注："
        "必須補成最小的完整加注，加到 {amount}。"
    ),
    "rule.under_half": (
        "增額只有 {increment}，不到最後有效完整增額 {full} 的一半：算跟到 {amount}；多出的籌碼退回。"
    ),
    "rule.oot": "{pos} 搶先行動（應該輪到 {to_act}）：行動退回給 {to_act}。",
    "rule.oot_fold": "搶先蓋牌有約束力：{pos} 已經蓋牌。",
    "rule.oot_changed": (
        "輪到 {pos} 時面對的行動已經改變（從 {before} 變成 {after}），"
        "所以 {pos} 不再受約束，可以重新選擇。"
    ),
    "rule.oot_binds": "輪到 {pos} 時面對的行動沒有改變，所以搶先做出的行動在輪到時仍然有效。",
    "rule.no_raise": "{pos} 此時不能加注，所以只算跟注（或過牌）。",
    "rule.nothing_owed": "{pos} 已經投入 {amount}，不需再補：沒有可跟的注，就不是跟注而是過牌，推出的籌碼退回。",
    "rule.over_max": "{said}到 {amount} 超過 {pos} 此時能做的上限：算作{said}到 {max}，也就是允許的最大額。",
    "rule.under_min": "{said}到 {amount} 不到 {pos} 此時能做的下限：算作{said}到 {min}，也就是允許的最小額。",
    "rule.returned": "推出的 {forward} 之中，{kept} 留在 {pos} 面前算數，{amount} 退回。",
    # 選項（用在 "legal" 裡）
    "choice.fold": "蓋牌",
    "choice.check": "過牌",
    "choice.call": "跟注 {amount}",
    "choice.call_allin": "全下跟注 {amount}",
    "choice.bet": "下注 {min}–{max}",
    "choice.bet_one": "下注 {amount}",
    "choice.raise": "加到 {min}–{max}",
    "choice.raise_one": "加到 {amount}",
    "choice.bet_allin": "全下 {amount}",
    "choice.raise_allin": "全下加到 {amount}",
    "legal": "{pos} 可以{choices}",
    "list.or": "{head}，或{last}",
    "list.or2": "{head}或{last}",
    "list.sep": "、",
    "with_rule": "{text}（{rule}）",
    "err.clause": "{reason}；{legal}",
    "err.sentence": "{text}。",
    "term.allin": "全下",
    # 當作參數的術語
    "term.preflop": "翻牌前",
    "term.flop": "翻牌圈",
    "term.turn": "轉牌圈",
    "term.river": "河牌圈",
    "term.small-blind": "小盲",
    "term.big-blind": "大盲",
    "term.straddle": "抓盲",
    "term.fold": "蓋牌",
    "term.check": "過牌",
    "term.call": "跟注",
    "term.bet": "下注",
    "term.raise": "加注",
    # 錯誤（子句，不加句號）
    "err.over": "下注已經結束：沒有人需要行動",
    "err.unknown_seat": "{pos} 不在這手牌中",
    "err.turn": "現在輪到 {to_act}，不是 {pos}",
    "err.check": "{pos} 不能過牌：需再補 {amount}",
    "err.call": "{pos} 沒有可以跟的注；沒有人下注時應該過牌",
    "err.bet_facing": "{pos} 不能下注：{street}已經有 {current} 的下注，所以這是加注",
    "err.raise_no_bet": "{pos} 不能加注：{street}還沒有人下注，所以這是下注",
    "err.amount": "金額必須是大於 0 的整數籌碼",
    "err.not_above": "加注必須高於本輪目前總額 {current}",
    "err.min_bet": "最小下注是 {min}",
    "err.min_raise": "最小加注是加到 {min}（最後一次完整加注的增額是 {increment}）",
    "err.max_pl": "底池限注的上限是 {max}",
    "err.stack": "{pos} 總共只有 {amount}",
    "err.limit": "限注時這次下注或加注必須剛好到 {amount}",
    "err.no_raise": "{pos} 此時不能加注",
}

ZH_HANS: dict[str, str] = {
    # ① 本轮目前总额
    "cur.none": "{street}还没有人下注：本轮目前总额是 0。",
    "cur.blind": "翻牌前，大盲 {amount} 就是要跟的注：本轮目前总额是 {amount}。",
    "cur.short_blind": (
        "{pos} 以 {posted} 全押，不足一个大盲：要跟的金额仍按完整大盲计算，"
        "所以本轮目前总额是 {amount}。"
    ),
    "cur.straddle": "{pos} 抓盲到 {amount}：活抓盲相当于一次盲加注，所以本轮目前总额是 {amount}。",
    "cur.bet": "{pos} 下注 {amount}：本轮目前总额是 {amount}。",
    "cur.raise": "{pos} 加注到 {amount}：本轮目前总额是 {amount}。",
    "cur.allin": "{pos} 全押到 {amount}：本轮目前总额是 {amount}。",
    # ② 最后有效完整增量
    "inc.street": "{street}开始时，最后有效完整增量就是最小下注，也就是一个大盲：{amount}。",
    "inc.blind": "翻牌前，大盲算作本轮的第一个下注：最后有效完整增量是 {amount}。",
    "inc.straddle": "{pos} 抓盲到 {to}，是最后一次完整加注：最后有效完整增量是 {amount}。",
    "inc.bet": "{pos} 下注 {to}：最后有效完整增量是 {amount}。",
    "inc.raise": "{pos} 加注到 {to}，增量 {amount}：最后有效完整增量是 {amount}。",
    "inc.short": (
        "{pos} 全押到 {to}，增量只有 {added}，不到完整的 {full}："
        "不足额全押不会改变最后有效完整增量。"
    ),
    "inc.limit": "限注玩法中，{street}的每次下注和加注都是固定一注 {amount}。",
    "inc.limit_half": (
        "{pos} 全押到 {to}，比 {level} 多出至少半注，所以算作一次完整下注或加注："
        "下一次加注是加注到 {to} + {size}。"
    ),
    "inc.limit_short": (
        "{pos} 全押到 {to}，比 {level} 多出不到半注：不算完整加注，"
        "下一次加注是补足到 {level} + {size}。"
    ),
    # ③ 本人本轮已投入／是否已行动
    "com.none": "{pos} 在{street}还没有投入任何筹码。",
    "com.blind": "{pos} 本轮已投入 {amount}（{blind}）；下盲注不算行动。",
    "com.in": "{pos} 在{street}已投入 {amount}。",
    "com.acted": "{pos} 在{street}已经行动过（最近一次：{last}）。",
    "com.not_acted": "{pos} 在{street}尚未行动。",
    # ④ 需再补
    "add.formula": "需再补 = 本轮目前总额 − 本轮已投入 = {current} − {committed} = {amount}。",
    "add.short_stack": "{pos} 面前只剩 {stack}，所以跟注就是以 {stack} 全押。",
    # 选项
    "opt.check": "没有需要跟的注：{pos} 可以让牌。",
    "opt.fold_free": "可以免费让牌时弃牌虽然合法，但不合常规，锦标赛中可能受罚（TDA24 58、WSOP-T 84）。",
    "opt.call": "{pos} 可以跟注 {amount}。",
    "opt.no_chips": "{pos} 跟注后就没有筹码了，所以不能加注。",
    "opt.not_acted": "{pos} 在{street}尚未行动，所以可以加注。",
    "opt.reopened": (
        "{pos} 已经行动过，现在多面对 {amount}，至少是一个完整加注 {full}："
        "对 {pos} 重新开放加注。"
    ),
    "opt.reopened_exceed": (
        "{pos} 已经行动过，现在多面对 {amount}，超过一个完整加注 {full}："
        "对 {pos} 重新开放加注。"
    ),
    "opt.reopened_full": "{pos} 已经行动过，但此后有人完整加注：对 {pos} 重新开放加注。",
    "opt.not_reopened": (
        "{pos} 已经行动过，现在只多面对 {amount}，不到一个完整加注 {full}："
        "不足额全押不会重新开放加注，所以 {pos} 只能跟注或弃牌。"
    ),
    "opt.not_reopened_exceed": (
        "{pos} 已经行动过，现在多面对 {amount}，没有超过一个完整加注 {full}："
        "不重新开放加注，所以 {pos} 只能跟注或弃牌。"
    ),
    "opt.limit_not_reopened": (
        "{pos} 已经行动过，现在只多面对 {amount}，不到一注 {size} 的一半："
        "不重新开放加注，所以 {pos} 只能跟注或弃牌。"
    ),
    "opt.limit_reopened": (
        "{pos} 已经行动过，现在多面对 {amount}，至少是一注 {size} 的一半："
        "对 {pos} 重新开放加注。"
    ),
    "opt.no_opponent": (
        "其他还在牌局中的玩家，筹码总额都没有超过 {current}，没有人能跟任何加注："
        "{pos} 只能跟注或弃牌。"
    ),
    "opt.no_opponent_bet": "其他还在牌局中的玩家都已全押，没有可以下注的对象。",
    "opt.min_bet": "最小下注是一个大盲：{amount}。",
    "opt.min_raise": "最小加注：加注到 ① + ② = {current} + {increment} = {amount}。",
    "opt.max_nl": "无限注：{pos} 最多可以全押到 {amount}。",
    "opt.max_pl_bet": "底池限注：最大下注就是底池大小，{amount}。",
    "opt.max_pl": (
        "底池限注最大可加注到 = ① +（本轮之前的底池 {before} + 本轮所有人已投入的筹码 "
        "{street_chips} + ④ {to_add}）= {current} + {pot} = {amount}。"
    ),
    "opt.pl_full_blinds": "翻牌前计算底池时，即使有盲注不足额或是死盲，也一律按完整盲注计算（TDA24 54-B）。",
    "opt.max_stack": "{pos} 总共只有 {amount}，比这还少：最多就是全押到 {amount}。",
    "opt.allin_only": (
        "{pos} 总共只有 {amount}，不到最低的 {min}：唯一能下注或加注的方式是全押到 {amount}。"
    ),
    "opt.limit_bet": "限注：下注固定是一注 {amount}。",
    "opt.limit_raise": "限注：加注是加注到最后一个完整注额 {level} 再加一注 {size} = {amount}。",
    "opt.limit_capped": "已经封顶：{street}已有一次下注加 {raises} 次加注。",
    "opt.limit_uncapped": "只剩两名玩家，而本牌局单挑时不封顶。",
    "opt.over": "下注已经结束：没有人需要行动。",
    # 谁行动（R-ORDER）和一轮何时结束（R-ROUNDEND）
    "ord.preflop": "翻牌前从{last}左边第一位开始行动：{pos} 先行动。",
    "ord.heads_up": "单挑时，不是大盲的那一位 {pos} 就是庄位：下小盲，翻牌前先行动，翻牌后最后行动。",
    "ord.heads_up_postflop": "单挑时 {button} 是庄位，翻牌后最后行动：由大盲 {pos} 先行动。",
    "ord.postflop": "翻牌后，从庄位顺时针数起第一位还在牌局中的玩家先行动：{pos}。",
    "ord.round_ended": "{street}的下注已经结束：仍在牌局中的每一位都已行动、也跟平了本轮目前总额，所以进入{next}。",
    "ord.next": "轮到 {pos}：顺时针下一位还需要行动的玩家（已弃牌和已全押的玩家跳过）。",
    "opt.option": "大家都只跟注，但 {pos} 还没行动：要等 {pos} 让牌或加注，这一轮才结束。",
    # 底池、分池和摊牌
    "pot.antes": "前注 {amount} 是死钱：算在底池里，但不计入任何人的本轮已投入。",
    "pot.total": "底池共有 {amount}：这手牌到目前为止投入的全部筹码。",
    "res.returned": "{pos} 最后投入的 {amount} 无人跟注：在分池之前退还给 {pos}。",
    "res.main": "主池 {amount}，{players} 有资格争。",
    "res.side": "边池 {number}：{amount}，{players} 有资格争。",
    "res.layers": "按每位全押玩家的总投入分层切出各个底池，每个人自己的前注也算在内；大盲前注和之前的死钱都留在主池。",
    "res.nobody_left": "其他还在牌局中的玩家都已全押，而 {pos} 投入的已经不少于他们每一位：没有人可以再对抗，下注结束。",
    "res.short_ante": "{pos} 全押时只付了前注 {ante} 中的 {amount}：前注算作玩家自己投入的筹码，所以 {pos} 从每位玩家身上最多只能赢 {amount}。",
    "res.won": "其他人都弃牌了：{pos} 不用摊牌，直接赢得底池。",
    "res.all_tabled": "有玩家全押且下注已经结束：所有人一起亮牌。",
    "res.last_aggressor": "{pos} 是最后一条街最后一个下注或加注的人，所以 {pos} 先亮牌。",
    "res.first_clockwise": "最后一条街没有人下注，所以由庄位顺时针第一位还在牌局中的玩家 {pos} 先亮牌。",
    "res.split": "底池 {number}（{amount}）由 {players} 平分，以 {chip} 的筹码为单位：{shares}。",
    "res.odd_chip": "零头筹码给 {pos}，也就是从庄位顺时针第一位赢家。",
    "res.share": "{pos} {amount}",
    "read.best": "{pos} 最好的五张牌：{cards}，{category}。",
    "read.wins": "{pot}：{players} 之中 {pos} 的牌最大，赢得这个底池。",
    "read.tie": "{pot}：{players} 的牌点数完全一样（花色不分大小），平分这个底池。",
    "read.alone": "{pot}：只有 {pos} 能赢这个底池。",
    "pot.main": "主池",
    "pot.side": "边池 {number}",
    "hand.high-card": "高牌",
    "hand.one-pair": "一对",
    "hand.two-pair": "两对",
    "hand.three-of-a-kind": "三条",
    "hand.straight": "顺子",
    "hand.flush": "同花",
    "hand.full-house": "葫芦",
    "hand.four-of-a-kind": "四条",
    "hand.straight-flush": "同花顺",
    "list.and": "{head} 和 {last}",
    # 筹码和口头宣告的判定（R-CHIPS）
    "rule.string": "第二个动作再加进去的筹码（{amount}）不算：下注或加注必须一次动作完成，除非事先口头宣告，所以这些筹码退还给玩家。",
    "rule.amount_alone": "只报出金额（{amount}），等同于把这个金额的筹码推出去。",
    "rule.declared": "{pos} 口头宣告「{said}」：轮到自己时的口头宣告有约束力。",
    "rule.check_facing_bet": "{pos} 在需再补 {amount} 时说了「让牌」：只能跟注或弃牌，不能加注。",
    "rule.call_is_check": "没有人下注时说「跟注」，就是让牌。",
    "rule.call_binds": "{pos} 说了「跟注」：宣告有约束力，所以是跟到 {amount}，多推的筹码退还。",
    "rule.raise_one_chip": (
        "{pos} 说了「加注」，放入一枚 {chip} 的筹码，没有说金额："
        "按这枚筹码允许的最大额加注，加注到 {amount}。"
    ),
    "rule.declared_min": "{pos} 宣告「{said}」：宣告有约束力，至少要到最小额 {amount}。",
    "rule.declared_to": "{pos} 宣告「{said}」到 {amount}。",
    "rule.last_chips": "{pos} 推出的是最后的筹码：无论如何都算全押。",
    "rule.all_in": "{pos} 全押到 {amount}。",
    "rule.chip_is_bet": "没有人下注时，不出声推出一枚筹码，就是按它的全额下注：{amount}。",
    "rule.chips_are_bet": "没有人下注时，不出声推出筹码就算下注：{amount}。",
    "rule.bb_chip": "大盲行使选择权时，不出声推出一枚筹码算让牌。",
    "rule.overchip_call": "需再补 {amount} 时，不出声推出一枚 {chip} 的超额筹码算跟注；多出的部分找零退还。",
    "rule.short_of_call": "推出的筹码不够需再补的 {amount}：算跟注。",
    "rule.exact_call": "推出的筹码刚好是需再补的 {amount}：算跟注。",
    "rule.every_chip_needed": (
        "拿掉一枚最小的筹码（{chip}）就不够需再补的 {amount}，所以每一枚都是跟注所必需的：算跟注。"
    ),
    "rule.full_raise": "总额 {amount} 的增量是 {increment}，至少达到最后有效完整增量 {full}：算加注到 {amount}。",
    "rule.half_raise": (
        "增量 {increment} 达到最后有效完整增量 {full} 的一半，但不够一个完整加注："
        "必须补成最小的完整加注，加注到 {amount}。"
    ),
    "rule.under_half": (
        "增量只有 {increment}，不到最后有效完整增量 {full} 的一半：算跟到 {amount}；多出的筹码退还。"
    ),
    "rule.oot": "{pos} 抢先行动（本该轮到 {to_act}）：行动退回给 {to_act}。",
    "rule.oot_fold": "抢先弃牌有约束力：{pos} 已经弃牌。",
    "rule.oot_changed": (
        "轮到 {pos} 时面对的行动已经改变（从 {before} 变成 {after}），"
        "所以 {pos} 不再受约束，可以重新选择。"
    ),
    "rule.oot_binds": "轮到 {pos} 时面对的行动没有改变，所以抢先做出的行动在轮到时依然有效。",
    "rule.no_raise": "{pos} 此时不能加注，所以只算跟注（或让牌）。",
    "rule.nothing_owed": "{pos} 已经投入 {amount}，不需再补：没有可跟的注，就不是跟注而是让牌，推出的筹码退还。",
    "rule.over_max": "{said}到 {amount} 超过 {pos} 此时能做的上限：算作{said}到 {max}，也就是允许的最大额。",
    "rule.under_min": "{said}到 {amount} 不到 {pos} 此时能做的下限：算作{said}到 {min}，也就是允许的最小额。",
    "rule.returned": "推出的 {forward} 之中，{kept} 留在 {pos} 面前算数，{amount} 退还。",
    # 选项（用在 "legal" 里）
    "choice.fold": "弃牌",
    "choice.check": "让牌",
    "choice.call": "跟注 {amount}",
    "choice.call_allin": "全押跟注 {amount}",
    "choice.bet": "下注 {min}–{max}",
    "choice.bet_one": "下注 {amount}",
    "choice.raise": "加注到 {min}–{max}",
    "choice.raise_one": "加注到 {amount}",
    "choice.bet_allin": "全押 {amount}",
    "choice.raise_allin": "全押加注到 {amount}",
    "legal": "{pos} 可以{choices}",
    "list.or": "{head}，或{last}",
    "list.or2": "{head}或{last}",
    "list.sep": "、",
    "with_rule": "{text}（{rule}）",
    "err.clause": "{reason}；{legal}",
    "err.sentence": "{text}。",
    "term.allin": "全押",
    # 作为参数的术语
    "term.preflop": "翻牌前",
    "term.flop": "翻牌圈",
    "term.turn": "转牌圈",
    "term.river": "河牌圈",
    "term.small-blind": "小盲",
    "term.big-blind": "大盲",
    "term.straddle": "抓盲",
    "term.fold": "弃牌",
    "term.check": "让牌",
    "term.call": "跟注",
    "term.bet": "下注",
    "term.raise": "加注",
    # 错误（子句，不加句号）
    "err.over": "下注已经结束：没有人需要行动",
    "err.unknown_seat": "{pos} 不在这手牌中",
    "err.turn": "现在轮到 {to_act}，不是 {pos}",
    "err.check": "{pos} 不能让牌：需再补 {amount}",
    "err.call": "{pos} 没有可以跟的注；没有人下注时应该让牌",
    "err.bet_facing": "{pos} 不能下注：{street}已经有 {current} 的下注，所以这是加注",
    "err.raise_no_bet": "{pos} 不能加注：{street}还没有人下注，所以这是下注",
    "err.amount": "金额必须是大于 0 的整数筹码",
    "err.not_above": "加注必须高于本轮目前总额 {current}",
    "err.min_bet": "最小下注是 {min}",
    "err.min_raise": "最小加注是加注到 {min}（最后一次完整加注的增量是 {increment}）",
    "err.max_pl": "底池限注的上限是 {max}",
    "err.stack": "{pos} 总共只有 {amount}",
    "err.limit": "限注时这次下注或加注必须刚好到 {amount}",
    "err.no_raise": "{pos} 此时不能加注",
}
