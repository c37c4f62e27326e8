"""Plants each violation the Dockerfile check exists for and asserts it is reported (and that a
clean file passes), so a check that silently stops matching fails the deploy suite.
    python3 -m unittest deploy/checks/test_dockerfile_lint.py
"""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from dockerfile_lint import lint  # noqa: E402

CLEAN = """FROM golang:1.26.0-bookworm AS build
RUN go build -o /out/x .
FROM gcr.io/distroless/static-debian12:nonroot
COPY --from=build /out/x /x
USER nonroot
"""


def rules(text):
    return [p.split(": ")[1] for p in lint("Dockerfile", text)]


class DockerfileLintTest(unittest.TestCase):
    def test_clean_file_passes(self):
        self.assertEqual(lint("Dockerfile", CLEAN), [])

    def test_latest_base_is_refused(self):
        self.assertIn("pinned-base", rules(CLEAN.replace("golang:1.26.0-bookworm", "golang:latest")))

    def test_untagged_base_is_refused(self):
        self.assertIn("pinned-base", rules(CLEAN.replace("golang:1.26.0-bookworm", "golang")))

    def test_tag_without_version_is_refused(self):
        self.assertIn("pinned-base", rules(CLEAN.replace("golang:1.26.0-bookworm", "golang:bookworm")))

    def test_digest_pins_and_stage_names_are_accepted(self):
        text = CLEAN.replace("golang:1.26.0-bookworm", "golang@sha256:" + "a" * 64) + "FROM build\nUSER 10001\n"
        self.assertEqual(rules(text), [])

    def test_final_stage_without_user_is_refused(self):
        self.assertIn("non-root", rules(CLEAN.replace("USER nonroot\n", "")))

    def test_user_in_an_earlier_stage_does_not_count(self):
        text = "FROM a:1 AS b\nUSER 10001\nFROM c:2\nRUN true\n"
        self.assertIn("non-root", rules(text))

    def test_root_user_is_refused(self):
        for user in ("root", "0", "0:0", "root:root"):
            self.assertIn("non-root", rules(CLEAN.replace("USER nonroot", "USER " + user)), user)

    def test_add_of_a_url_is_refused(self):
        text = CLEAN.replace("COPY --from=build /out/x /x", "ADD https://example.com/x.tgz /x")
        self.assertIn("add-url", rules(text))

    def test_latest_image_in_copy_from_is_refused(self):
        text = CLEAN.replace("--from=build", "--from=busybox:latest")
        self.assertIn("no-latest", rules(text))

    def test_continuation_lines_are_one_instruction(self):
        text = CLEAN.replace("COPY --from=build /out/x /x", "ADD \\\n  http://example.com/x /x")
        self.assertIn("add-url", rules(text))


if __name__ == "__main__":
    unittest.main()
