"""pytest's markers for the virtual board's scenarios."""


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "ci_arm64: the subset CI runs on one arm64 root (TCG is slow): install, READY=1 with the fix "
        "and the glass, bouncing presses, press to glass, reload and stop, parts appearing late, "
        "libgpiod, a power cut after a commit, and after the package's install and setup (the "
        "upgrade, remove and purge cuts and test_parts.py run by hand); VBOARD_PYTEST_ARGS='-m ci_arm64'")
