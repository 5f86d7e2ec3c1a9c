"""Print how each grading policy treats the honest-answer corpus (tests/corpus/honest): the share
of answers adjudicated right that pass and of answers adjudicated wrong that fail, per run, style
and run size.

Figures only, never assertions. Run from the repository root:
    python benchmarks/honest_corpus.py [--policy ID ...] [--list]
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # for tests.helpers

from tests.helpers.honest import runs, tally

from dittobench.spec.versions import GRADINGS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--policy", action="append", choices=list(GRADINGS))
    parser.add_argument("--list", action="store_true", help="Name the cases graded against it.")
    args = parser.parse_args()
    for policy_id in args.policy or [
        "dittobench-grading-3",
        "dittobench-grading-4",
        "dittobench-grading-5",
        "dittobench-grading-6",
        "dittobench-grading-7",
    ]:
        print(f"== {policy_id}")
        groups: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
        for folder in runs():
            t = tally(folder, GRADINGS[policy_id])
            print(
                f"  {t.run:22s} right passed {t.right_passed:3d}/{t.right:<3d} "
                f"({t.right_passed / t.right:.3f})  wrong failed {t.wrong_failed}/{t.wrong}"
            )
            if args.list and (t.right_but_failed or t.wrong_but_passed):
                print(f"    right but failed: {' '.join(t.right_but_failed)}")
                print(f"    wrong but passed: {' '.join(t.wrong_but_passed)}")
            for key in (t.style, t.run_size):
                g = groups[key]
                g[0] += t.right_passed
                g[1] += t.right
                g[2] += t.wrong_failed
                g[3] += t.wrong
        for key, (rp, r, wf, w) in sorted(groups.items()):
            wrong = f"{wf}/{w}" if w else "none"
            print(f"  {key:22s} right passed {rp / r:.3f} ({rp}/{r})  wrong failed {wrong}")


if __name__ == "__main__":
    main()
