"""gatesite.clock.site_today: the site's date at every instant, remembered per day."""

from __future__ import annotations

import datetime
import zoneinfo

import pytest
import time_machine
from django.test import override_settings

from gatesite import clock

UTC = datetime.UTC


def _instants() -> list[datetime.datetime]:
    """Instants around midnights, and around São Paulo's clock changes at midnight (2018-11-04 forward,
    2019-02-17 back: the hour before midnight comes twice)."""
    around = [
        datetime.datetime(2026, 11, 24, 23, 59, 59, tzinfo=UTC),
        datetime.datetime(2018, 11, 4, 2, 59, 59, tzinfo=UTC),
        datetime.datetime(2019, 2, 17, 1, 59, 59, tzinfo=UTC),
        datetime.datetime(2019, 2, 17, 2, 59, 59, tzinfo=UTC),
    ]
    steps = [datetime.timedelta(seconds=s) for s in (-3600, -1, 0, 1, 2, 3599, 3600, 3601, 86400)]
    return sorted({moment + step for moment in around for step in steps})


@pytest.mark.parametrize("zone", ["UTC", "America/Sao_Paulo", "Pacific/Kiritimati", "Asia/Tokyo"])
def test_it_is_the_site_date_at_every_instant_forwards_and_backwards(monkeypatch, zone):
    monkeypatch.setattr(clock, "_day", None)
    tz = zoneinfo.ZoneInfo(zone)
    instants = _instants()
    with override_settings(TIME_ZONE=zone):
        for moment in [*instants, *reversed(instants)]:
            with time_machine.travel(moment, tick=False):
                assert clock.site_today() == moment.astimezone(tz).date(), moment


def test_a_new_time_zone_setting_is_read_at_once(monkeypatch):
    monkeypatch.setattr(clock, "_day", None)
    moment = datetime.datetime(2026, 11, 24, 20, 0, tzinfo=UTC)  # already the 25th in Tokyo
    with time_machine.travel(moment, tick=False):
        with override_settings(TIME_ZONE="UTC"):
            assert clock.site_today() == datetime.date(2026, 11, 24)
        with override_settings(TIME_ZONE="Asia/Tokyo"):
            assert clock.site_today() == datetime.date(2026, 11, 25)
