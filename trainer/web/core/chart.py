"""Accuracy over time as an SVG line chart, drawn on the server (no script, no inline style).

Two drawings of the same figures, as for the table (spot.py): ``wide`` for a desktop column and
``narrow`` for a phone, drawn at about one SVG unit per CSS pixel of a 320 px screen, so that its
labels (sized in the CSS) read at 11 px or more there. The CSS shows one of them by the screen's
width; the other is ``display: none``, so a screen reader meets the chart once.
"""

from __future__ import annotations

from dataclasses import dataclass

from flask_babel import format_date, format_decimal, get_locale
from flask_babel import gettext as _
from markupsafe import escape


def _day(day) -> str:
    """A day without its year as the page's language writes it: "Nov 5", "11月5日" (the locale's
    own pattern: a fixed "MMM d" gives "11月 5" in Chinese)."""
    return format_date(day, get_locale().datetime_skeletons["MMMd"].pattern)


@dataclass(frozen=True, kw_only=True)
class Layout:
    name: str
    width: int
    height: int
    left: int
    right: int
    top: int
    bottom: int
    date_ticks: int  # dates along the x axis, the first and the last included
    label_dy: int  # below the x axis, the baseline of a date
    dot: int  # a day's dot, radius


WIDE = Layout(name="wide", width=640, height=240, left=64, right=16, top=12, bottom=52, date_ticks=5,
              label_dy=20, dot=4)
# A 320 px screen leaves the chart about 288 px: at 300 units wide a 13-unit label shows at 12.5 px.
NARROW = Layout(name="narrow", width=300, height=200, left=46, right=12, top=10, bottom=46, date_ticks=3,
                label_dy=18, dot=4)
# Kept for callers that size things by the wide drawing.
WIDTH, HEIGHT = WIDE.width, WIDE.height


def accuracy_chart(days: list) -> str:
    """``days``: oldest first, each with ``.day``, ``.percent`` (None: nothing answered), ``.right``, ``.total``.

    Both axes are drawn and named: the share of answers all right (0–100 %) up, the dates across."""
    return "".join(_draw(days, layout) for layout in (WIDE, NARROW))


def _draw(days: list, layout: Layout) -> str:
    left, top = layout.left, layout.top
    plot_w = layout.width - left - layout.right
    plot_h = layout.height - top - layout.bottom
    n = max(len(days) - 1, 1)
    suffix = "" if layout is WIDE else "-" + layout.name

    def x(i: int) -> float:
        return round(left + plot_w * i / n, 1)

    def y(percent: float) -> float:
        return round(top + plot_h * (1 - percent / 100), 1)

    answered = [(i, d) for i, d in enumerate(days) if d.percent is not None]
    title = _("Answers all right per day, last %(n)s days", n=len(days))
    parts = [
        f'<svg class="chart chart--{layout.name}" viewBox="0 0 {layout.width} {layout.height}" role="img"'
        f' aria-labelledby="chart-title{suffix} chart-desc{suffix}">',
        f'<title id="chart-title{suffix}">{escape(title)}</title>',
        f'<desc id="chart-desc{suffix}">{escape(_describe(answered))}</desc>',
    ]
    for pct in (0, 25, 50, 75, 100):
        parts.append(
            f'<line class="chart-grid" x1="{left}" x2="{layout.width - layout.right}" y1="{y(pct)}" y2="{y(pct)}"/>'
            f'<text class="chart-label" x="{left - 6}" y="{y(pct) + 4}" text-anchor="end">{pct}%</text>'
        )
    axis_x = 12 if layout is WIDE else 10
    # Outside the f-string: pybabel does not read calls inside one, and "date" stayed English.
    y_title, x_title = _("all right"), _("date")
    parts.append(
        f'<line class="chart-axis" x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}"/>'
        f'<line class="chart-axis" x1="{left}" x2="{layout.width - layout.right}" y1="{top + plot_h}" y2="{top + plot_h}"/>'
        f'<text class="chart-axis-title" x="{axis_x}" y="{top + plot_h / 2}" text-anchor="middle"'
        f' transform="rotate(-90 {axis_x} {top + plot_h / 2})">{escape(y_title)}</text>'
        f'<text class="chart-axis-title" x="{left + plot_w / 2}" y="{layout.height - 4}" text-anchor="middle">'
        f'{escape(x_title)}</text>'
    )
    if days:
        last = len(days) - 1
        k_max = layout.date_ticks - 1
        ticks = sorted({round(last * k / k_max) for k in range(layout.date_ticks)}) if last else [0]
        for i in ticks:
            anchor = "start" if i == 0 and last else "end" if i == last and last else "middle"
            parts.append(
                f'<line class="chart-tick" x1="{x(i)}" x2="{x(i)}" y1="{top + plot_h}" y2="{top + plot_h + 5}"/>'
                f'<text class="chart-label" x="{x(i)}" y="{top + plot_h + layout.label_dy}" text-anchor="{anchor}">'
                f"{escape(_day(days[i].day))}</text>"
            )
    # A line through the days with answers, with a dot on each (hover shows the day's figures).
    if len(answered) > 1:
        points = " ".join(f"{x(i)},{y(d.percent)}" for i, d in answered)
        parts.append(f'<polyline class="chart-line" points="{points}"/>')
    for i, d in answered:
        tip = _("%(day)s: %(right)s of %(total)s right", day=d.day.isoformat(), right=d.right, total=d.total)
        parts.append(
            f'<circle class="chart-dot" cx="{x(i)}" cy="{y(d.percent)}" r="{layout.dot}"><title>{escape(tip)}</title></circle>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _describe(answered: list) -> str:
    if not answered:
        return _("No answers in this period.")
    return "; ".join(_("%(day)s: %(percent)s%%", day=d.day.isoformat(), percent=round(d.percent)) for _i, d in answered)


def rating_chart(points: list) -> str:
    """``points``: a learner's rated games, oldest first, each with ``.at``, ``.rating`` and ``.score``
    (the share of the spot's fields right, None for a game from before scores were kept).

    The rating up (its range, in steps of 100), the games across, their dates under the first and
    the last; the same two drawings as ``accuracy_chart``."""
    return "".join(_draw_ratings(points, layout) for layout in (WIDE, NARROW))


RATING_STEP = 100  # the rating axis's grid, in rating points


def _draw_ratings(points: list, layout: Layout) -> str:
    left, top = layout.left, layout.top
    plot_w = layout.width - left - layout.right
    plot_h = layout.height - top - layout.bottom
    n = max(len(points) - 1, 1)
    suffix = "" if layout is WIDE else "-" + layout.name
    figures = [p.rating for p in points] or [1500]
    low = (int(min(figures)) // RATING_STEP) * RATING_STEP
    high = max(low + RATING_STEP, -(-int(max(figures)) // RATING_STEP) * RATING_STEP)

    def x(i: int) -> float:
        return round(left + plot_w * i / n, 1) if len(points) > 1 else round(left + plot_w / 2, 1)

    def y(rating: float) -> float:
        return round(top + plot_h * (high - rating) / (high - low), 1)

    title = _("Your rating after each rated first try, the last %(n)s", n=len(points))
    describe = "; ".join(
        _("%(day)s: %(rating)s", day=p.at.date().isoformat(), rating=format_decimal(round(p.rating))) for p in points
    )
    parts = [
        f'<svg class="chart chart--{layout.name}" viewBox="0 0 {layout.width} {layout.height}" role="img"'
        f' aria-labelledby="rating-chart-title{suffix} rating-chart-desc{suffix}">',
        f'<title id="rating-chart-title{suffix}">{escape(title)}</title>',
        f'<desc id="rating-chart-desc{suffix}">{escape(describe)}</desc>',
    ]
    step = RATING_STEP * max(1, (high - low) // (RATING_STEP * 5) + 1)  # five grid lines at most
    for level in range(low, high + 1, step):
        parts.append(
            f'<line class="chart-grid" x1="{left}" x2="{layout.width - layout.right}" y1="{y(level)}" y2="{y(level)}"/>'
            f'<text class="chart-label" x="{left - 6}" y="{y(level) + 4}" text-anchor="end">{format_decimal(level)}</text>'
        )
    axis_x = 12 if layout is WIDE else 10
    y_title, x_title = _("rating"), _("rated first tries")
    parts.append(
        f'<line class="chart-axis" x1="{left}" x2="{left}" y1="{top}" y2="{top + plot_h}"/>'
        f'<line class="chart-axis" x1="{left}" x2="{layout.width - layout.right}" y1="{top + plot_h}" y2="{top + plot_h}"/>'
        f'<text class="chart-axis-title" x="{axis_x}" y="{top + plot_h / 2}" text-anchor="middle"'
        f' transform="rotate(-90 {axis_x} {top + plot_h / 2})">{escape(y_title)}</text>'
        f'<text class="chart-axis-title" x="{left + plot_w / 2}" y="{layout.height - 4}" text-anchor="middle">'
        f'{escape(x_title)}</text>'
    )
    ends = [0, len(points) - 1] if len(points) > 1 else [0] if points else []
    for i in ends:
        anchor = "middle" if len(ends) == 1 else "start" if i == 0 else "end"
        parts.append(
            f'<text class="chart-label" x="{x(i)}" y="{top + plot_h + layout.label_dy}" text-anchor="{anchor}">'
            f"{escape(_day(points[i].at))}</text>"
        )
    if len(points) > 1:
        line = " ".join(f"{x(i)},{y(p.rating)}" for i, p in enumerate(points))
        parts.append(f'<polyline class="chart-line" points="{line}"/>')
    for i, p in enumerate(points):
        if p.score is None:
            tip = _("%(day)s: %(rating)s", day=p.at.date().isoformat(), rating=format_decimal(round(p.rating)))
        else:
            tip = _("%(day)s: %(rating)s after a first try with %(percent)s%% of its fields right",
                    day=p.at.date().isoformat(), rating=format_decimal(round(p.rating)), percent=round(100 * p.score))
        parts.append(
            f'<circle class="chart-dot" cx="{x(i)}" cy="{y(p.rating)}" r="{layout.dot}"><title>{escape(tip)}</title></circle>'
        )
    parts.append("</svg>")
    return "".join(parts)
