"""Attributes of kind ``changing``: values a person replaces several times a year, of which only
the latest is current (home city, employer, car, phone...).

The attributes live in modules by subject (``_changing_work``, ``_changing_gear``,
``_changing_places``, ``_changing_media``, sharing ``_changing_kit``); this module fixes their
order and is the one list to register.
"""

from __future__ import annotations

from dittobench.generate.persona import _changing_gear as gear
from dittobench.generate.persona import _changing_media as media
from dittobench.generate.persona import _changing_places as places
from dittobench.generate.persona import _changing_work as work
from dittobench.generate.persona.attribute import Attribute

ATTRIBUTES: tuple[Attribute, ...] = (
    places.HOME_CITY,
    work.EMPLOYER,
    work.JOB_TITLE,
    work.MANAGER,
    work.COMMUTE,
    gear.CAR,
    gear.PHONE,
    gear.LAPTOP,
    gear.WEARABLE,
    gear.MOBILE_CARRIER,
    places.GYM,
    places.COFFEE_SHOP,
    places.HAIR_SALON,
    places.GROCERY_STORE,
    media.STREAMING_SERVICE,
    media.PODCAST,
)
