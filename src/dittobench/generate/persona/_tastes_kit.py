"""The voice every ``preference`` attribute shares, so food and leisure tastes sound alike.

``LEAD`` opens the user's own statement, ``OTHER_LEAD`` a remark about a contact's taste;
``preference`` declares an attribute whose grammar carries both.
"""

from __future__ import annotations

from dittobench.generate.persona.attribute import AttributeKit

LEAD = ("", "", "By the way, ", "Just so you know, ", "Oh, and ", "For what it's worth, ")
OTHER_LEAD = ("Apparently ", "Funny thing: ", "Side note: ", "Turns out ", "Random, but ")

preference = AttributeKit("preference", {"lead": LEAD, "other_lead": OTHER_LEAD})
