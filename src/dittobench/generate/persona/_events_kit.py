"""Grammar pieces every event list shares, so the outing and milestone lists sound alike.

``BANG`` ends an excited report, ``WHO`` opens a remark about a contact, ``OTHER_TAIL`` closes
one, and ``SINCE`` is the span that ``ask_count`` and ``ask_list`` questions cover.
"""

from __future__ import annotations

BANG = ("!", ".")
WHO = ("Oh, and ", "Meanwhile, ", "Turns out ", "Also, ")
OTHER_TAIL = (
    "",
    " Good for them.",
    " I'll hear all about it, no doubt.",
    " Anyway, back to my week.",
)
SINCE = ("since we started talking", "since we first started chatting", "so far")
