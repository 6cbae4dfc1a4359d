"""The chat page in a real headless Chromium (Debian's, driven by Playwright) against a real `medpath serve`.

Each test saves a screenshot to ``traces/ui/``. Without a chromium binary the module is skipped (`make test`
installs it with apt-get).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jwt
import pytest
from conftest import serve_process

from core.settings import child_env
from medpath.auth import issue_token

ROOT = Path(__file__).resolve().parent.parent
SHOTS = ROOT / "traces" / "ui"
SECRET = "test-secret-for-the-web-page-0123456789"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (make test installs it with apt-get)")


@pytest.fixture(scope="module")
def server(settings: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("web")
    home = tmp / "home"
    home.mkdir()
    (home / "index").symlink_to(settings.index_dir)
    env = child_env(MEDPATH_HOME=str(home), MEDPATH_TRACES_DIR=str(tmp / "traces"), MEDPATH_JWT_SECRET=SECRET,
                    MEDPATH_RATE_LIMIT="100000/minute")
    with serve_process(env, tmp / "serve.log") as (base, _proc):
        yield base


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        yield b
        b.close()


@pytest.fixture()
def page(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = ctx.new_page()
    pg.set_default_timeout(60_000)
    yield pg
    SHOTS.mkdir(parents=True, exist_ok=True)
    pg.screenshot(path=str(SHOTS / f"{request.node.name}.png"), full_page=True)
    ctx.close()


def _token(sub: str, **kw: Any) -> str:
    return issue_token(SECRET, sub, "clinician", ["PAT_001"], **kw)


def _sign_in(page: Any, base: str, token: str) -> None:
    page.goto(base + "/")
    page.fill("#token", token)
    page.click("#signin")
    page.wait_for_selector("#app:not([hidden])")


def _ask(page: Any, question: str, answers: int = 1) -> Any:
    page.fill("#question", question)
    page.press("#question", "Enter")  # keyboard: Enter sends
    page.wait_for_function(f"document.querySelectorAll('.answer, .clarify').length >= {answers}")
    return page.locator(".answer, .clarify").nth(answers - 1)


def test_a_question_gets_a_streamed_answer_with_its_path_drawn(server: str, page: Any) -> None:
    _sign_in(page, server, _token("ana"))
    card = _ask(page, "How does imatinib treat CML?")
    ids = card.locator("svg g.entity").evaluate_all("gs => gs.map(g => g.dataset.id)")
    assert ids[0] == "MESH:D000068877" and ids[-1] == "MESH:D015464", ids  # imatinib ... chronic myeloid leukemia
    assert card.locator("svg text.relation").count() == len(ids) - 1
    assert card.locator(".citations li").count() >= 1 and "rule" in card.locator(".route").inner_text()
    done = page.locator("#progress li.done").evaluate_all("ls => ls.map(l => l.dataset.node)")
    assert done == ["planner", "retriever", "reviewer", "memory", "explainer"], done
    with page.expect_popup() as popup:  # the ask's trace waterfall, fetched with the token
        card.locator("button.trace").click()
    trace = popup.value
    trace.wait_for_load_state()
    assert "medpath.question" in trace.content()
    trace.close()
    if os.environ.get("MEDPATH_DOCS_SHOTS"):  # the README's picture: MEDPATH_DOCS_SHOTS=1 pytest tests/test_web.py
        page.screenshot(path=str(ROOT / "docs" / "chat-answer.png"))


LAYOUT = """svgs => svgs.map(svg => {
  const vb = svg.viewBox.baseVal, box = (n) => n.getBBox();
  const rects = [...svg.querySelectorAll("rect")].map(box), labels = [...svg.querySelectorAll("text.relation")].map(box);
  const names = [...svg.querySelectorAll("g.entity")].map(g => [box(g.querySelector("rect")),
                                                               [...g.querySelectorAll("text")].slice(1).map(box)]);
  const meet = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const out = (b) => b.x < -1 || b.y < -1 || b.x + b.width > vb.width + 1 || b.y + b.height > vb.height + 1;
  return { scale: svg.getBoundingClientRect().width / vb.width, boxes: rects.length,
           clash: labels.some(l => rects.some(r => meet(l, r))) || labels.some((l, i) => labels.some((m, j) => i < j && meet(l, m))),
           outside: [...labels, ...rects].some(out),
           overflow: names.some(([r, ts]) => ts.some(t => t.x < r.x || t.x + t.width > r.x + r.width)) };
})"""


def _drawn_at_full_size(card: Any) -> None:
    """Every path is drawn at its own size (never shrunk to fit), no relation label runs into a box or another label,
    every name stays inside its box, and nothing lies outside the drawing."""
    for d in card.locator(".path svg").evaluate_all(LAYOUT):
        assert d["scale"] > 0.99 and not (d["clash"] or d["outside"] or d["overflow"]), d


def test_which_drug_shows_the_ranked_drugs_each_with_its_path(server: str, page: Any) -> None:
    _sign_in(page, server, _token("hal"))
    card = _ask(page, "Which drug treats gout?")
    ranked = card.locator(".ranked > li")
    assert ranked.count() >= 2
    for i in range(ranked.count()):
        ids = ranked.nth(i).locator("svg g.entity").evaluate_all("gs => gs.map(g => g.dataset.id)")
        assert ids and ids[-1] == "MESH:D006073", ids  # every path ends at gout
    assert card.locator(".path svg").count() == ranked.count()  # the best evidence is the first drug's path, drawn once
    assert max(len(ids) for ids in card.locator(".path svg").evaluate_all(
        "ss => ss.map(s => [...s.querySelectorAll('g.entity')])")) >= 5  # a long mechanism is among them
    _drawn_at_full_size(card)


def test_the_drawings_follow_the_window(server: str, page: Any) -> None:
    """A drawing made in a wide window is drawn again when the window narrows (it was shrunk with its text)."""
    _sign_in(page, server, _token("quin"))
    card = _ask(page, "Which drug treats gout?")
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_function("[...document.querySelectorAll('.path svg')].every(s => s.viewBox.baseVal.width"
                           " <= document.querySelector('#messages').clientWidth)")
    _drawn_at_full_size(card)
    page.set_viewport_size({"width": 1280, "height": 900})
    page.wait_for_function("[...document.querySelectorAll('.path svg')].some(s => s.viewBox.baseVal.width > 400)")
    _drawn_at_full_size(card)


def test_long_paths_stay_readable_on_a_phone(server: str, browser: Any) -> None:
    """On a phone-sized screen a mechanism is a column of boxes, each relation beside its arrow, at full size."""
    ctx = browser.new_context(viewport={"width": 390, "height": 844})
    pg = ctx.new_page()
    pg.set_default_timeout(60_000)
    try:
        _sign_in(pg, server, _token("pia"))
        card = _ask(pg, "Which drug treats gout?")
        assert card.locator(".ranked > li").count() >= 2
        _drawn_at_full_size(card)
        widths = card.locator(".path svg").evaluate_all("ss => ss.map(s => s.viewBox.baseVal.width)")
        assert max(widths) <= pg.evaluate("document.querySelector('#messages').clientWidth"), widths
    finally:
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SHOTS / "phone_paths.png"), full_page=True)
        ctx.close()


def test_a_clarification_is_answered_by_a_click(server: str, page: Any) -> None:
    _sign_in(page, server, _token("ben"))
    clar = _ask(page, "How does metformin treat diabetes?")
    assert clar.locator("button").count() >= 2
    clar.locator('button[data-id="MESH:D003922"]').click()  # diabetes mellitus type 1
    page.wait_for_selector(".answer svg g.entity")
    ids = page.locator(".answer svg g.entity").evaluate_all("gs => gs.map(g => g.dataset.id)")
    assert ids[-1] == "MESH:D003922", ids


def test_a_clarification_is_answered_by_typing_and_its_buttons_are_spent(server: str, page: Any) -> None:
    """Typed instead of clicked, "type 2" was read as a question of its own, and the options stayed clickable, though
    the thread no longer waited for them ("no pending clarification")."""
    _sign_in(page, server, _token("bea"))
    clar = _ask(page, "How does metformin treat diabetes?")
    answer = _ask(page, "type 2", answers=2)
    assert "diabetes mellitus type 2" in answer.locator(".understood").inner_text().lower()
    assert clar.locator("button").count() >= 2 and clar.locator("button:enabled").count() == 0


def test_a_follow_up_that_fits_two_drugs_is_answered_by_a_click(server: str, page: Any) -> None:
    """"What does it target?" after a comparison asks which drug "it" is, with the same buttons as any clarification."""
    _sign_in(page, server, _token("dora"))
    _ask(page, "compare imatinib and dasatinib")
    clar = _ask(page, "what does it target?", answers=2)
    assert 'Which drug does "it" mean' in clar.inner_text() and clar.locator("button").count() == 2
    clar.locator('button[data-id="MESH:D000069439"]').click()  # dasatinib
    page.wait_for_function("document.querySelectorAll('.answer').length >= 2")
    assert "dasatinib" in page.locator(".answer").nth(1).locator(".understood").inner_text().lower()


def test_a_question_sent_while_an_answer_streams_waits_for_it(server: str, page: Any) -> None:
    """Enter pressed before the last answer has finished is not lost: the question is asked after it, in its thread."""
    _sign_in(page, server, _token("eve"))
    for question in ("compare imatinib and dasatinib", "what does it target?"):  # the second without waiting
        page.fill("#question", question)
        page.press("#question", "Enter")
    page.wait_for_function("document.querySelectorAll('.answer, .clarify').length >= 2")
    assert 'Which drug does "it" mean' in page.locator(".answer, .clarify").nth(1).inner_text()
    assert page.locator(".msg.user").count() == 2


def test_a_follow_up_uses_the_earlier_turn_and_a_reload_keeps_the_thread(server: str, page: Any) -> None:
    _sign_in(page, server, _token("cleo"))
    _ask(page, "How does imatinib treat CML?")
    second = _ask(page, "and what does it target?", answers=2)
    assert "imatinib" in second.locator(".understood").inner_text().lower()
    page.reload()
    page.wait_for_function("document.querySelectorAll('#messages .msg.user').length >= 2")
    texts = page.locator("#messages .msg.user").all_inner_texts()
    assert texts[:2] == ["How does imatinib treat CML?", "and what does it target?"], texts
    # the list of conversations loads beside the open one's messages: wait for it, then exactly one is current
    page.wait_for_selector('#threads button[aria-current="true"]')
    assert page.locator('#threads button[aria-current="true"]').count() == 1


def test_one_conversation_is_deleted_after_a_confirmation(server: str, page: Any) -> None:
    """The page listed conversations but could delete none of them ("Forget me" deletes them all, with the memory)."""
    _sign_in(page, server, _token("lou"))
    _ask(page, "How does imatinib treat CML?")
    page.click("#new-thread")
    _ask(page, "What does aspirin target?")
    page.wait_for_function("document.querySelectorAll('#threads li').length === 2")
    page.once("dialog", lambda d: d.dismiss())  # cancelled: kept
    page.locator("#threads li").nth(0).locator("button.delete").click()
    page.wait_for_timeout(300)
    assert page.locator("#threads li").count() == 2
    page.once("dialog", lambda d: d.accept())
    page.locator("#threads li").nth(0).locator("button.delete").click()  # the newest, the open one
    page.wait_for_function("document.querySelectorAll('#threads li').length === 1")
    assert "Conversation deleted" in page.inner_text("#status") and page.locator("#messages .msg").count() == 0
    assert page.locator("#threads li button[data-thread]").inner_text() == "How does imatinib treat CML?"
    assert page.locator("#memory-list li[data-subject]").count() > 0  # what memory learnt stays
    page.reload()
    page.wait_for_selector("#threads li button[data-thread]")
    assert page.locator("#threads li").count() == 1


def test_forget_empties_the_memory_panel_after_a_confirmation(server: str, page: Any) -> None:
    _sign_in(page, server, _token("dan"))
    _ask(page, "How does imatinib treat CML?")
    page.wait_for_selector("#memory-list li[data-subject]")
    page.once("dialog", lambda d: d.accept())
    page.click("#forget")
    page.wait_for_selector("#memory-list li.empty")
    assert "Forgotten" in page.inner_text("#status")
    # the list of conversations reloads beside the memory panel: wait for it rather than count before it arrives
    page.wait_for_function("document.querySelectorAll('#threads li').length === 0")


def test_an_expired_token_gets_a_readable_message(server: str, page: Any) -> None:
    now = int(time.time())
    expired = jwt.encode({"sub": "eve", "role": "clinician", "patients": [], "iat": now - 7200, "exp": now - 3600},
                         SECRET, algorithm="HS256")
    page.goto(server + "/")
    page.fill("#token", expired)
    page.click("#signin")
    page.wait_for_selector("#signin-panel:not([hidden])")
    page.wait_for_function("document.querySelector('#status').textContent.includes('expired')")
    assert page.locator("#app").is_hidden()


def test_two_users_never_see_each_others_memory(server: str, browser: Any) -> None:
    for who in ("fay", "gus"):
        ctx = browser.new_context(viewport={"width": 400, "height": 900})  # also: the page works at 400 px
        pg = ctx.new_page()
        pg.set_default_timeout(60_000)
        _sign_in(pg, server, _token(who))
        if who == "fay":
            _ask(pg, "How does imatinib treat CML?")
            pg.wait_for_selector("#memory-list li[data-subject]")
        else:
            pg.wait_for_selector("#memory-list li")
            assert pg.locator("#memory-list li[data-subject]").count() == 0
            assert pg.locator("#memory-list li.empty").count() == 1
            assert pg.locator("#threads li").count() == 0
        assert pg.evaluate("document.documentElement.scrollWidth") <= 400
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SHOTS / f"two_users_{who}.png"), full_page=True)
        ctx.close()


def test_the_keyboard_reaches_every_control(server: str, page: Any) -> None:
    _sign_in(page, server, _token("ivy"))
    page.wait_for_selector("#memory-list li")
    page.focus("body")
    reached = set()
    for _ in range(30):
        page.keyboard.press("Tab")
        reached.add(page.evaluate("document.activeElement.id || document.activeElement.tagName"))
    assert {"signout", "new-thread", "question", "send", "refresh-memory", "forget"} <= reached, reached
    page.focus("#question")
    page.keyboard.type("How does imatinib treat CML?")
    page.keyboard.press("Enter")
    page.wait_for_selector(".answer svg g.entity")


def test_a_patient_outside_the_scope_is_a_readable_403(server: str, page: Any) -> None:
    _sign_in(page, server, _token("jo"))  # scope: PAT_001
    page.fill("#question", "What is PAT_002 taking?")
    page.press("#question", "Enter")
    page.wait_for_function("document.querySelector('#status').textContent.includes('outside what your token may see')")
    assert page.locator("#app").is_visible()  # still signed in, nothing blank


def test_over_the_rate_limit_is_a_readable_429(settings: Any, browser: Any, tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    (home / "index").symlink_to(settings.index_dir)
    env = child_env(MEDPATH_HOME=str(home), MEDPATH_TRACES_DIR=str(tmp_path / "traces"), MEDPATH_JWT_SECRET=SECRET)
    with serve_process(env, tmp_path / "serve.log", "--rate-limit", "4/minute") as (base, _proc):
        ctx = browser.new_context()
        pg = ctx.new_page()
        pg.set_default_timeout(60_000)
        _sign_in(pg, base, _token("kim"))  # two requests: the threads and the memory panel
        for _ in range(3):
            pg.click("#refresh-memory")
        pg.wait_for_function("document.querySelector('#status').textContent.includes('Too many requests')")
        assert "Retry after" in pg.inner_text("#status") and pg.locator("#app").is_visible()
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SHOTS / "rate_limited.png"))
        ctx.close()
