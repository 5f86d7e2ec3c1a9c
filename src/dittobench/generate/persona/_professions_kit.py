"""Grammar pieces every profession attribute shares, so all four professions sound alike.

``LEAD`` opens a statement about the user's work, ``SOON`` closes news of a change, ``WHO``
opens a remark about a contact and ``THEIRS`` closes it.
"""

from __future__ import annotations

LEAD = ("", "For context, ", "Work-wise, ", "So you know, ", "Background: ")
WHO = ("Oh, and ", "Meanwhile, ", "Turns out ", "Also, ")
SOON = ("", " Fingers crossed it sticks.", " Big change, but a good one.", " Wish me luck.")
THEIRS = ("", " Not me, though.", " Very different from my world.", " Each to their own.")
