"""The ``trainer`` command: check and solve scenario files, serve the web app."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from .scenarios import NoScenarioFiles, Scenario, ScenarioError, load_paths


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.pass_context
def main(ctx: click.Context) -> None:
    """Holdem Rules Trainer: the betting rules of Texas Hold'em, drilled and graded."""
    from flask.cli import ScriptInfo

    # The app's own commands (``db``) run in the app, built only when one of them is called.
    built = []

    def create_app():
        from .store import DatabaseUnusable
        from .web import create_app
        from .web.core.config import SettingError

        try:
            built.append(create_app({"DATABASE_UPGRADE": False}))  # `db upgrade` says how it went
        except (SettingError, DatabaseUnusable) as exc:
            raise click.ClickException(str(exc)) from None
        return built[-1]

    ctx.obj = ScriptInfo(create_app=create_app, set_debug_flag=False)
    ctx.call_on_close(lambda: [app.extensions["trainer.store"].dispose() for app in built])


@main.command()
@click.argument("paths", nargs=-1, required=True)
def check(paths: tuple[str, ...]) -> None:
    """Load scenario files (directories: every *.yaml below), report every error and run each `expect`.

    A folder with no scenario file in it is an error too: a mistyped or emptied path must not pass.
    """
    result = load_paths(paths, workers=None)
    problems: list[ScenarioError] = list(result.errors)
    for scenario in result.scenarios:
        problems.extend(scenario.check_expect())
    for problem in sorted(problems, key=lambda p: (p.file, p.line or 0)):
        click.echo(str(problem), err=True)
    checked = sum(1 for s in result.scenarios if s.expect)
    empty = sum(1 for e in result.errors if isinstance(e, NoScenarioFiles))
    failed = len(result.errors) - empty
    files = len(result.scenarios) + failed
    disagreements = len(problems) - len(result.errors)
    summary = (
        f"{_count(files, 'file')}, {failed} failed to load, "
        f"{_count(checked, 'expect block')} checked, {_count(disagreements, 'disagreement')}"
    )
    if empty:
        summary += f", {_count(empty, 'folder')} with no scenario files"
    click.echo(summary)
    sys.exit(1 if problems else 0)


@main.command()
@click.argument("paths", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="One JSON object per scenario per line.")
def solve(paths: tuple[str, ...], as_json: bool) -> None:
    """Print the engine's answers for each scenario: the card, the options, pots and showdown."""
    result = load_paths(paths, workers=None)
    out = sys.stdout
    for item in result.in_order:
        if isinstance(item, ScenarioError):
            if as_json:
                out.write(json.dumps({"file": item.file, "error": str(item)}, ensure_ascii=False) + "\n")
            else:
                click.echo(f"error: {item}", err=True)
            continue
        if as_json:
            out.write(json.dumps(item.solve(), ensure_ascii=False) + "\n")
        else:
            click.echo(_human(item))
    sys.exit(1 if result.errors else 0)


def _human(scenario: Scenario) -> str:
    answer = scenario.solution
    lines = [f"== {scenario.id} ({scenario.file})", f"   {scenario.title.text('en')}", f"street: {answer['street']}"]
    if answer["to_act"]:
        card = answer["card"]
        lines.append(f"to act: {answer['to_act']}")
        lines.append(
            f"card:   ① current total {card['current_total']}   ② last full increment {card['last_full_increment']}   "
            f"③ committed {card['committed']} ({'acted' if card['acted'] else 'not acted'})   ④ to add {card['to_add']}"
        )
        lines.append("options: " + _options_text(answer["options"]))
    else:
        lines.append("betting is over")
    lines.append(f"pot: {answer['pot']}")
    if "pots" in answer:
        for i, pot in enumerate(answer["pots"]):
            name = "main pot" if i == 0 else f"side pot {i}"
            lines.append(f"{name}: {pot['amount']} ({', '.join(pot['eligible'])})")
        for pos, amount in answer["returned"].items():
            lines.append(f"returned: {amount} to {pos}")
        showdown = answer.get("showdown")
        if showdown:
            lines.append("showdown: all hands tabled" if showdown["all_tabled"] else f"showdown: {showdown['first']} shows first")
    if "ruling" in answer:
        ruling = answer["ruling"]
        to = f" to {ruling['to']}" if ruling["to"] is not None else ""
        lines.append(f"ruling: {ruling['action']}{to}, {ruling['returned']} returned")
    for pos, best in answer.get("best_hands", {}).items():
        lines.append(f"best hand of {pos}: {' '.join(best['cards'])} ({best['category']})")
    for number, won in enumerate(answer.get("winners", [])):
        name = "main pot" if number == 0 else f"side pot {number}"
        lines.append(f"{name} won by: {', '.join(won)}")
    for number, share in enumerate(answer.get("split", [])):
        lines.append(f"split of pot {number}: " + ", ".join(f"{pos} {amount}" for pos, amount in share.items()))
    lines.append("why:")
    lines.extend(f"  - {step}" for step in scenario.derivation())
    return "\n".join(lines) + "\n"


def _options_text(options: dict) -> str:
    parts = ["fold"]
    if options["check"]:
        parts.append("check")
    if options["call"] is not None:
        parts.append(f"call {options['call']}")
    if options["bet"]:
        parts.append(f"bet {options['bet']['min']}–{options['bet']['max']}")
    if options["raise"]:
        parts.append(f"raise to {options['raise']['min_to']}–{options['raise']['max_to']}")
    return ", ".join(parts)


@main.command()
@click.option("--topic", required=True, help="One of the topics (see `trainer generate --list`).", default=None)
@click.option("--level", default=2, show_default=True, type=click.IntRange(1, 5))
@click.option("--seed", default=0, show_default=True, type=int)
@click.option("-n", "count", default=1, show_default=True, type=click.IntRange(1, 100000))
@click.option("--stakes", default=None, help='Real stakes: "100-200" or "1000-2000" (default: blinds drawn from 1/2 to 100/200).')
@click.option("--edition", default=1, show_default=True, type=click.IntRange(1, 2),
              help="2: more kinds of spot where a topic has them (chips and words: ten kinds of ruling, as the dealer exams ask).")
@click.option("--out", default=None, type=click.Path(file_okay=False), help="Write <out>/<topic>/<id>.yaml instead of printing.")
def generate(topic: str, level: int, seed: int, count: int, stakes: str | None, edition: int, out: str | None) -> None:
    """Write generated scenario files for a topic, reproducible from the seed."""
    import yaml

    from .generate import GenerateError
    from .generate import generate as make

    try:
        spots = make(topic, level=level, seed=seed, count=count, stakes=stakes, edition=edition)
    except GenerateError as exc:
        raise click.UsageError(str(exc)) from None
    for spot in spots:
        text = yaml.safe_dump(spot.document, sort_keys=False, allow_unicode=True, width=100)
        if out is None:
            click.echo("---\n" + text, nl=False)
        else:
            _write(Path(out) / topic / f"{spot.id}.yaml", text)
    if out is not None:
        click.echo(f"wrote {len(spots)} {topic} scenarios to {Path(out) / topic}")


def _write(target: Path, text: str) -> None:
    """One generated file; a folder that cannot be made or a file that cannot be written is one line."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    except FileExistsError as exc:  # mkdir: a file stands where the folder should be
        raise click.ClickException(f"cannot write into {exc.filename}: it is a file, not a folder") from None
    except OSError as exc:
        raise click.ClickException(f"cannot write {exc.filename or target}: {exc.strerror or exc}") from None


@main.command("import")
@click.argument("paths", nargs=-1, required=True, type=click.Path(exists=True))
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Write <out>/<file>/<id>.yaml.")
@click.option("--every-decision", "mode", flag_value="every-decision", default=True, help="A spot for every decision (default).")
@click.option("--teaching", "mode", flag_value="teaching", help="Only decisions that teach a rule (short all-ins, side pots, ...).")
def import_hands(paths: tuple[str, ...], out: str, mode: str) -> None:
    """Make spots from hand histories (PHH and poker clients' text: docs/import.md); report each hand refused and where."""
    from .importer.command import run

    try:
        spots, report = run(list(paths), Path(out), mode)
    except OSError as exc:
        raise click.ClickException(f"cannot import: {exc.filename or ''} {exc.strerror or exc}".strip()) from None
    for refusal in report.refusals:
        click.echo(str(refusal), err=True)
    for line in report.lines()[len(report.refusals):]:
        click.echo(line)
    imported = sum(f.imported for f in report.files)
    hands = sum(f.hands for f in report.files)
    click.echo(f"{_count(len(report.files), 'file')}, {_count(hands, 'hand')}, {imported} imported, "
               f"{hands - imported} refused; {_count(len(spots), 'spot')} written to {out}")
    sys.exit(0 if imported else 1)


@main.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--scenarios", "scenarios_dir", default=None, help="Scenario directory (default: the sample library).")
def serve(host: str, port: int, scenarios_dir: str | None) -> None:
    """Run the web app: gunicorn workers on Linux and macOS, waitress on Windows or for one process."""
    from .store import DatabaseUnusable
    from .web.core.config import SettingError
    from .web.serving import run

    try:
        run(host=host, port=port, scenarios=scenarios_dir)
    except (SettingError, DatabaseUnusable) as exc:  # before the address: the settings are read first
        raise click.ClickException(str(exc)) from None
    except OSError as exc:  # the address taken or not this machine's (gunicorn says so in its own log)
        raise click.ClickException(f"cannot serve on {host}:{port}: {exc.strerror or exc}") from None


class _AppCommands(click.Group):
    """The commands the app registers on ``app.cli`` (``trainer/store/cli.py``), imported when asked for."""

    def _group(self) -> click.Group:
        from .store.cli import db

        return db

    def list_commands(self, ctx: click.Context) -> list[str]:
        return self._group().list_commands(ctx)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        return self._group().get_command(ctx, name)


main.add_command(_AppCommands("db", help="The database: learners' progress, exams and classroom sessions."))


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


if __name__ == "__main__":
    main()
