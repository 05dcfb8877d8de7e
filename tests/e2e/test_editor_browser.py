"""The scenario editor in a real browser: an instructor builds a straddled spot with a short all-in,
step by step with htmx (no page load), tries a raise below the minimum and reads the engine's
message, previews the spot, saves it in My spots, downloads the YAML, which `trainer check`
passes, and asks the spot in a quick live session that a student answers on a phone. Then the same page at 360×740 and 1280×800 in the three languages (screenshots), and
one step without JavaScript."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tests.e2e.conftest import LANGUAGES, Page, sign_up
from tests.e2e.test_table_browser import axe_violations
from trainer.cli import main

pytestmark = pytest.mark.e2e

STACKS = {"SB": "5000", "BB": "5000", "UTG": "5000", "HJ": "", "CO": "5000", "BTN": "350"}


def act(page, verb: str, amount: str = "") -> None:
    page.check(f'#action input[name="verb"][value="{verb}"]')
    if amount:
        page.fill("#e-amount", amount)
    page.click("#action button:has-text('Add this action')")


def test_an_instructor_builds_previews_saves_and_downloads_a_straddled_short_all_in(page, open_page, base_url, artifacts,
                                                                                      tmp_path):
    sign_up(page, base_url, "Ms Tsai", "editor-teacher@example.com", instructor=True)
    page.goto(base_url + "/editor/")
    page.fill("#e-straddles", "200")
    for seat, stack in STACKS.items():
        page.fill(f"#e-stack-{seat}", stack)
    page.click("text=Deal this table")
    page.wait_for_selector("#card caption:has-text('Card for CO')")
    page.evaluate("window.notReloaded = true")  # gone if any step loads a whole page

    act(page, "raise", "300")  # below the minimum raise to 400
    refusal = page.locator("#refusal")
    refusal.wait_for()
    assert "The minimum raise is to 400 (the last full raise added 200) (R-MINRAISE)" in refusal.inner_text()
    assert page.input_value("#e-amount") == "300"

    act(page, "call")
    page.wait_for_selector("#card caption:has-text('Card for BTN')")
    act(page, "allin")
    page.wait_for_selector("#card caption:has-text('Card for SB')")
    act(page, "fold")
    page.wait_for_selector("#card caption:has-text('Card for BB')")
    act(page, "fold")
    page.wait_for_selector("#card caption:has-text('Card for UTG')")
    act(page, "call")
    page.wait_for_selector("#card caption:has-text('Card for CO')")
    # BTN's all-in added 150, short of a full 200: CO, who has acted, may only call or fold.
    assert page.locator('#action input[name="verb"]').evaluate_all("els => els.map(e => e.value)") == ["fold", "call"]

    page.click("#details summary")
    page.check('#details input[name="ask"][value="options"]')
    page.fill("#e-id", "co-faces-short-all-in-after-straddle")
    page.fill("#e-title-en", "CO faces a short all-in after calling a straddle")
    page.fill("#e-explain-en", "BTN's all-in adds 150, less than the full 200: CO may not re-raise.")
    page.click("#details button:has-text('Use these')")
    page.wait_for_selector("#preview .editor-title:has-text('CO faces a short all-in')")
    preview = page.locator("#preview").inner_text()
    assert "How it is worked out" in preview and "R-REOPEN" in preview
    page.screenshot(path=str(artifacts / "editor-built-1280.png"), full_page=True)

    page.click("text=Save in My spots")
    page.wait_for_selector("#saved")
    assert "version 1" in page.inner_text("#saved")
    assert page.evaluate("window.notReloaded") is True

    with page.expect_download() as download:
        page.click("#yaml button:has-text('Download YAML')")
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    assert path.name == "co-faces-short-all-in-after-straddle.yaml"
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 0, result.output

    # The saved spot asked in a quick live session, and a student on a phone answers it.
    page.click("#saved a")
    page.wait_for_url("**/my-spots/*")
    page.goto(base_url + "/my-spots/")
    page.check("input[name=ids]")
    page.check('input[name="style"][value="quick"]')
    with page.expect_navigation():
        page.click("text=Start the live session")
    control_url = page.url.split("?")[0]
    join_url = page.locator(".join-text a").first.get_attribute("href")
    phone = open_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True)
    phone.goto(join_url)
    phone.fill("#f-name", "Ann")
    with phone.expect_navigation():
        phone.click("main form button[type=submit]")
    phone.wait_for_selector("#stage", timeout=8000)
    page.goto(control_url)
    with page.expect_navigation():
        page.click(".control-actions--main button:has-text('Start')")
    phone.wait_for_selector(".quick-choice", timeout=8000)
    phone.locator(".quick-choice").first.click()
    phone.wait_for_selector("#received", timeout=8000)
    page.wait_for_selector("text=1 of 1 answered", timeout=8000)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_editor_reads_on_a_phone_and_a_laptop_and_works_without_javascript(open_page, base_url, artifacts, lang,
                                                                                axe_source):
    phone = open_page(viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, java_script_enabled=False)
    sign_up(phone, base_url, "Mr Lin", f"editor-{lang}@example.com", instructor=True)
    phone.goto(f"{base_url}/editor/?lang={lang}")
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the editor scrolls sideways on a phone: {width}px"
    phone.screenshot(path=str(artifacts / f"editor-360-{lang}.png"), full_page=True)
    # Without JavaScript an illegal amount is refused by the engine too, in the page's language.
    phone.check('#action input[name="verb"][value="raise"]')
    phone.fill("#e-amount", "150")
    with phone.expect_navigation():
        phone.click("#action button[type=submit]")
    assert "R-MINRAISE" in phone.inner_text("#refusal")
    phone.screenshot(path=str(artifacts / f"editor-360-{lang}-refused.png"), full_page=True)

    laptop = Page(phone.context.browser.new_context(viewport={"width": 1280, "height": 800}).new_page())
    sign_up(laptop, base_url, "Mr Lin", f"editor-{lang}-laptop@example.com", instructor=True)
    laptop.goto(f"{base_url}/editor/?lang={lang}")
    laptop.screenshot(path=str(artifacts / f"editor-1280-{lang}.png"), full_page=True)
    assert axe_violations(laptop, axe_source) == []
    assert laptop.csp_violations() == []
    laptop.context.close()
