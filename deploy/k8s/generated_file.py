"""Write a file generated from contracts/, or (--check) say whether the committed one is current."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def write_or_check(out, text, script, args):
    rel = os.path.relpath(out, ROOT)
    if "--check" in args:
        current = open(out).read() if os.path.exists(out) else ""
        if current != text:
            print(f"{rel}: stale; run python3 {script}")
            return 1
        print(f"{rel}: matches contracts/topics.json")
        return 0
    with open(out, "w") as f:
        f.write(text)
    return 0
