"""Running the larm binary from the Python end-to-end tests."""
import os
import subprocess
import sys


def run(larm, *args, env=None, timeout=600):
    full_env = dict(os.environ)
    full_env.update(env or {})
    return subprocess.run([larm, *args], capture_output=True, text=True, env=full_env,
                          timeout=timeout)


class Checker:
    """Collects failures so one run reports all of them, and exits non-zero if any."""

    def __init__(self):
        self.failures = 0
        self.checks = 0

    def check(self, condition, message):
        self.checks += 1
        if not condition:
            self.failures += 1
            print(f"FAIL: {message}", file=sys.stderr)

    def check_schema(self, document, schema, what):
        """A document against a JSON Schema, the first break named."""
        import jsonschema  # only the tests that check schemas need it
        try:
            jsonschema.validate(document, schema)
            self.check(True, what)
        except jsonschema.ValidationError as e:
            self.check(False, f"{what}: {e.message} at {list(e.path)}")

    def check_equal(self, actual, expected, message):
        self.check(actual == expected, f"{message} (got {actual!r}, expected {expected!r})")

    def finish(self):
        print(f"{self.checks - self.failures} passed, {self.failures} failed")
        sys.exit(1 if self.failures else 0)
