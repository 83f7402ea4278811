"""The interface language: Accept-Language, the header's switch (cookie; a player's profile), the API."""

from __future__ import annotations

import json

import pytest
from django.conf import settings

from gatesite.accounts.models import PlayerProfile
from tests.cards.factories import CardFactory, FactionFactory, PrintingFactory

pytestmark = pytest.mark.django_db

COOKIE = settings.LANGUAGE_COOKIE_NAME


def test_the_language_follows_accept_language(client, rules) -> None:
    japanese = client.get("/", HTTP_ACCEPT_LANGUAGE="ja,en;q=0.5").content.decode()
    assert '<html lang="ja">' in japanese
    assert "ゲートルーラー デッキビルダー" in japanese
    assert ">新しいデッキ</a>" in japanese

    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en-US,en;q=0.9").content.decode()
    assert '<html lang="en">' in english
    assert "<title>Gatesite · Gate Ruler deckbuilder</title>" in english
    assert ">New deck</a>" in english


def test_a_language_the_site_lacks_falls_back_to_english(client, rules) -> None:
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="en">' in page


def test_the_header_switch_sets_the_cookie_and_keeps_the_url(client, rules) -> None:
    page = client.get("/decks/new/").content.decode()
    assert 'action="/i18n/setlang/"' in page
    assert 'name="language" value="ja"' in page

    response = client.post("/i18n/setlang/", {"language": "ja", "next": "/decks/new/"})
    assert response.status_code == 302
    assert response["Location"] == "/decks/new/"
    assert response.cookies[COOKIE].value == "ja"

    # The same URL, now in Japanese (the cookie outranks Accept-Language).
    page = client.get("/decks/new/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="ja">' in page
    assert "カードを検索" in page


def test_a_signed_in_players_choice_is_kept_in_their_profile_and_applied_on_sign_in(client, user, rules) -> None:
    client.force_login(user)
    client.post("/i18n/setlang/", {"language": "ja", "next": "/"})
    assert PlayerProfile.objects.get(user=user).language == "ja"

    # Another browser, in English: signing in brings the player's language back.
    other = type(client)()
    user.set_password("pw-long-enough-123")
    user.save()
    response = other.post("/accounts/login/", {"username": user.get_username(), "password": "pw-long-enough-123"})
    assert response.status_code == 302
    assert response.cookies[COOKIE].value == "ja"
    assert '<html lang="ja">' in other.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()


def test_an_anonymous_switch_stores_no_profile(client, rules) -> None:
    client.post("/i18n/setlang/", {"language": "ja", "next": "/"})
    assert not PlayerProfile.objects.exists()


def test_an_unknown_language_changes_nothing(client, user, rules) -> None:
    client.force_login(user)
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert response.status_code == 302
    assert COOKIE not in response.cookies
    assert not PlayerProfile.objects.exists()


@pytest.fixture
def catalog(rules) -> None:
    volnar = FactionFactory(name="Volnar", name_ja="ウォルナー")
    for i in range(1, 15):
        PrintingFactory(
            card=CardFactory(name=f"Ember Squire {i}", faction=volnar, level=1), collector_number=f"TS-{i:03d}"
        )


def _validate(client, language: str) -> dict:
    body = {
        "ruler": "apprentice",
        "geas": None,
        "as_of": "2024-01-01",
        "attribute": None,
        # 14 names x 4: 56 cards, 56 levels (Apprentice: exactly 50 cards, levels up to 50).
        "main": [{"number": f"TS-{i:03d}", "count": 4} for i in range(1, 15)],
        "resources": [],
    }
    response = client.post(
        "/api/v1/decks/validate/", json.dumps(body), content_type="application/json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    return response.json()


def test_the_validate_api_answers_in_the_requests_language(client, catalog) -> None:
    english = {v["rule"]: v for v in _validate(client, "en")["violations"]}
    japanese = {v["rule"]: v for v in _validate(client, "ja")["violations"]}

    # The same codes in both languages; only the words change.
    assert set(japanese) == set(english) == {"deck_size", "level_cap"}
    assert english["level_cap"]["message"] == "Deck level 56 is over Apprentice's cap of 50."
    assert japanese["level_cap"]["message"] == "デッキのレベル合計 56 は アプレンティス の上限 50 を超えています。"
    assert (
        japanese["deck_size"]["message"]
        == "デッキは 56 枚です。アプレンティス のデッキはちょうど 50 枚でなければなりません。"
    )
    assert japanese["level_cap"]["source"] == "アプレンティス のルール"
    assert english["level_cap"]["source"] == "Apprentice's rule"
    assert japanese["level_cap"]["cards"] == english["level_cap"]["cards"]


@pytest.mark.parametrize(
    ("line", "english", "japanese"),
    [
        (
            {"number": "TS-001", "count": 0},
            "main[0].count: Count must be a positive integer, got 0.",
            "main[0].count: 枚数は正の整数にしてください(0 が指定されました)。",
        ),
        (
            {"count": 1},
            "main[0]: Give exactly one of 'number' or 'name'.",
            "main[0]: 'number' と 'name' のどちらか一方だけを指定してください。",
        ),
        ({"number": "TS-001"}, "main[0].count: This field is required.", "main[0].count: この項目は必須です。"),
    ],
)
def test_a_bad_body_is_refused_in_the_requests_language(client, rules, line, english, japanese) -> None:
    body = json.dumps({"ruler": "apprentice", "main": [line]})
    answers = {
        language: client.post(
            "/api/v1/decks/validate/", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language
        )
        for language in ("en", "ja")
    }

    assert {a.status_code for a in answers.values()} == {400}
    assert answers["en"].json()["error"] == english
    assert answers["ja"].json()["error"] == japanese


def test_the_editor_speaks_japanese(client, catalog) -> None:
    client.cookies[COOKIE] = "ja"
    page = client.get("/decks/new/").content.decode()
    assert "カードを検索" in page
    assert "デッキの枚数" in page  # a meter's label
    assert "検索の書き方" in page  # the search syntax help
    assert "日本語の項目名も使える" in page


def test_a_pasted_list_s_errors_read_in_japanese(client, catalog) -> None:
    client.cookies[COOKIE] = "ja"
    text = "Ruler: Apprentice\n4 Ember Squire 1\n4 No Such Card\n4\n"
    page = client.post("/decks/new/import/", {"text": text}).content.decode()
    assert "3 行目" in page
    assert "「No Such Card」はカード名ではありません。" in page
    assert (
        "<strong>4 行目</strong>: <code>4</code> カードの行は「4 燃えさしの砦の試験魔術師」のように、枚数とカード名です。"
        in page
    )


def test_a_broken_share_link_says_why_in_japanese(client, rules) -> None:
    client.cookies[COOKIE] = "ja"
    response = client.get("/decks/link/1!!!/")
    assert response.status_code == 400
    assert "リンクが壊れています。デッキのリンクにはない文字が含まれています。" in response.content.decode()


@pytest.mark.parametrize(
    ("url", "japanese"),
    [
        ("/accounts/signup/", ["<title>新規登録 · ゲートルーラー デッキビルダー</title>", "ユーザー名"]),
        ("/accounts/login/", ["<title>ログイン · ゲートルーラー デッキビルダー</title>", "パスワード"]),
        ("/decks/browse/", ["<title>公開デッキを見る · ゲートルーラー デッキビルダー</title>", "すべてのルーラー"]),
        ("/stats/", ["<title>統計 · ゲートルーラー デッキビルダー</title>", "統計はまだ計算されていません。"]),
    ],
)
def test_pages_their_titles_and_forms_read_in_japanese(client, rules, url: str, japanese: list[str]) -> None:
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    for text in japanese:
        assert text in page
    assert 'href="/static/fonts.css"' in page
