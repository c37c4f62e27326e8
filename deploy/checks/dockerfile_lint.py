"""The hadolint rules that matter for Weft's images, since hadolint cannot be installed here.

Per Dockerfile: every FROM names a pinned version (a tag with a digit, or an @sha256 digest), never
`latest` and never a bare name; the final stage sets a USER that is not root; no ADD of a URL (an
unchecked download into the image); no `:latest` anywhere in an instruction. Run:
    python3 deploy/checks/dockerfile_lint.py FILE...
Prints one line per problem (file:line: rule: detail) and exits 1 if any.
"""
import re
import sys

# distroless publishes no versioned tags: `nonroot` is its release channel. Pin those by digest at
# release time (README, "what is not validated"); everything else must carry a version.
UNVERSIONED_OK = re.compile(r"^gcr\.io/distroless/[a-z0-9-]+:nonroot$")
ROOT_USERS = {"root", "0", "0:0", "root:root"}


def instructions(text):
    """(line number, keyword, arguments) per instruction, continuation lines joined."""
    out, buf, start = [], "", 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not buf and (not line or line.startswith("#")):
            continue
        if not buf:
            start = n
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        buf += line
        word, _, rest = buf.partition(" ")
        out.append((start, word.upper(), rest.strip()))
        buf = ""
    return out


def image_problem(image, stages):
    if image in stages or image == "scratch":
        return None
    if "@sha256:" in image:
        return None
    name, _, tag = image.rpartition(":") if ":" in image.split("/")[-1] else (image, "", "")
    if not tag:
        return f"base image {image} has no tag: pin a version"
    if tag == "latest":
        return f"base image {image} uses latest: pin a version"
    if UNVERSIONED_OK.match(image):
        return None
    if not re.search(r"\d", tag):
        return f"base image {image} tag '{tag}' is not a version"
    return None


def lint(path, text):
    problems, stages, user, stage_count = [], set(), None, 0
    for n, word, args in instructions(text):
        if word == "FROM":
            parts = [p for p in args.split() if not p.startswith("--")]
            if not parts:
                problems.append(f"{path}:{n}: from: FROM names no image")
                continue
            msg = image_problem(parts[0], stages)
            if msg:
                problems.append(f"{path}:{n}: pinned-base: {msg}")
            if len(parts) >= 3 and parts[1].upper() == "AS":
                stages.add(parts[2])
            user, stage_count = None, stage_count + 1
        elif word == "USER":
            user = args.split()[0] if args else ""
        elif word == "ADD" and re.search(r"\bhttps?://|\bftp://", args):
            problems.append(f"{path}:{n}: add-url: ADD of a URL; download in a build stage and verify it")
        if word != "FROM" and re.search(r":latest\b", args):
            problems.append(f"{path}:{n}: no-latest: {word} refers to a :latest image")
    if stage_count == 0:
        problems.append(f"{path}:1: from: no FROM instruction")
    elif user is None:
        problems.append(f"{path}: non-root: the final stage sets no USER (it would run as root)")
    elif user in ROOT_USERS or user.split(":")[0] in {"root", "0"}:
        problems.append(f"{path}: non-root: the final stage runs as USER {user}")
    return problems


def main(paths):
    problems = []
    for p in paths:
        with open(p) as f:
            problems += lint(p, f.read())
    for line in problems:
        print(line)
    print(f"dockerfiles: {len(paths)} checked, " + ("ok" if not problems else f"{len(problems)} problem(s)"))
    return 1 if problems or not paths else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
