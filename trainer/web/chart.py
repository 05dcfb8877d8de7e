"""Accuracy over time as an SVG line chart, drawn on the server (no script, no inline style)."""

from __future__ import annotations

from flask_babel import format_date
from flask_babel import gettext as _
from markupsafe import escape

WIDTH, HEIGHT = 640, 240
LEFT, RIGHT, TOP, BOTTOM = 64, 16, 12, 52
DATE_TICKS = 5  # dates along the x axis, the first and the last included


def accuracy_chart(days: list) -> str:
    """``days``: oldest first, each with ``.day``, ``.percent`` (None: nothing answered), ``.right``, ``.total``.

    Both axes are drawn and named: the share of answers all right (0–100 %) up, the dates across."""
    plot_w = WIDTH - LEFT - RIGHT
    plot_h = HEIGHT - TOP - BOTTOM
    n = max(len(days) - 1, 1)

    def x(i: int) -> float:
        return round(LEFT + plot_w * i / n, 1)

    def y(percent: float) -> float:
        return round(TOP + plot_h * (1 - percent / 100), 1)

    answered = [(i, d) for i, d in enumerate(days) if d.percent is not None]
    title = _("Answers all right per day, last %(n)s days", n=len(days))
    parts = [
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-labelledby="chart-title chart-desc">',
        f'<title id="chart-title">{escape(title)}</title>',
        f'<desc id="chart-desc">{escape(_describe(answered))}</desc>',
    ]
    for pct in (0, 25, 50, 75, 100):
        parts.append(
            f'<line class="chart-grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(pct)}" y2="{y(pct)}"/>'
            f'<text class="chart-label" x="{LEFT - 6}" y="{y(pct) + 4}" text-anchor="end">{pct}%</text>'
        )
    parts.append(
        f'<line class="chart-axis" x1="{LEFT}" x2="{LEFT}" y1="{TOP}" y2="{TOP + plot_h}"/>'
        f'<line class="chart-axis" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{TOP + plot_h}" y2="{TOP + plot_h}"/>'
        f'<text class="chart-axis-title" x="14" y="{TOP + plot_h / 2}" text-anchor="middle"'
        f' transform="rotate(-90 14 {TOP + plot_h / 2})">{escape(_("all right"))}</text>'
        f'<text class="chart-axis-title" x="{LEFT + plot_w / 2}" y="{HEIGHT - 4}" text-anchor="middle">'
        f'{escape(_("date"))}</text>'
    )
    if days:
        last = len(days) - 1
        ticks = sorted({round(last * k / (DATE_TICKS - 1)) for k in range(DATE_TICKS)}) if last else [0]
        for i in ticks:
            anchor = "start" if i == 0 and last else "end" if i == last and last else "middle"
            parts.append(
                f'<line class="chart-tick" x1="{x(i)}" x2="{x(i)}" y1="{TOP + plot_h}" y2="{TOP + plot_h + 5}"/>'
                f'<text class="chart-label" x="{x(i)}" y="{TOP + plot_h + 20}" text-anchor="{anchor}">'
                f"{escape(format_date(days[i].day, 'MMM d'))}</text>"
            )
    # A line through the days with answers, with a dot on each (hover shows the day's figures).
    if len(answered) > 1:
        points = " ".join(f"{x(i)},{y(d.percent)}" for i, d in answered)
        parts.append(f'<polyline class="chart-line" points="{points}"/>')
    for i, d in answered:
        tip = _("%(day)s: %(right)s of %(total)s right", day=d.day.isoformat(), right=d.right, total=d.total)
        parts.append(
            f'<circle class="chart-dot" cx="{x(i)}" cy="{y(d.percent)}" r="4"><title>{escape(tip)}</title></circle>'
        )
    parts.append("</svg>")
    return "".join(parts)


def _describe(answered: list) -> str:
    if not answered:
        return _("No answers in this period.")
    return "; ".join(_("%(day)s: %(percent)s%%", day=d.day.isoformat(), percent=round(d.percent)) for _i, d in answered)
