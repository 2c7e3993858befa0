#!/usr/bin/env python3
"""Checks the documentation a clone of this repository carries, with nothing beside it.

    scripts/check-docs.py [--root DIR] [--verbose]

Links. In README.md, board/README.md and every docs/**/*.md, each relative link and image
(`[text](path)`, `![alt](path)`, `[name]: path`) must name a file or directory inside the
repository, and a `#anchor` must name a heading of the target (GitHub's rule: lower case,
punctuation dropped, spaces to hyphens, `-1`, `-2` for repeats). A link that leaves the
repository (`../shared/…`, an absolute path) is an error, because a clone does not have it.
http(s) and mailto links are not fetched.

Commands. In README.md and docs/guide/**/*.md every fenced block whose language is `sh`
(or `bash`, `shell`) follows one convention:

- Its first line is a comment that starts with `# needs a Pi`: the block needs a Raspberry Pi
  (run on it, or from a PC talking to it). It is not checked further. Write where it runs
  after a colon: `# needs a Pi: run on it, in the repository's folder`.
- Otherwise every command in it is one that CI runs. A command (comments dropped, lines
  joined at a trailing backslash; `swift run thunderstorm`, `.build/release/thunderstorm` and
  CI's "$bin" all read as `thunderstorm`) must be a command of .ci/run, apart from CI's own
  `--scratch-path DIR` and what it does with the output (`swift test` matches
  `swift test 2>&1 | tee …`), or one of ALLOWED below: a command `swift test` runs in another
  form, with the test file and text that show it (checked to be there).

Transcripts, with a `$ ` prompt and what was printed, are fenced `console`; output alone is
fenced `text`. Neither is run or checked.

Exit status: 0 when all is well (one summary line), 1 with one `FILE:LINE: problem` line per
problem, 2 for bad arguments (argparse). Standard library only.
"""
import argparse
import os
import re
import sys

# Commands a reader runs that CI runs in another form: the command, then the file under the
# repository and the text in it that shows it, then why the form differs.
ALLOWED = {
    "thunderstorm simulate": (
        "Tests/ThunderstormTests/SimulateTerminalEndToEndTests.swift",
        '"simulate", "--speed"',
        "it needs a terminal: `swift test` runs the built binary on a pseudo-terminal, presses a key and quits with q",
    ),
}

SH_LANGUAGES = {"sh", "bash", "shell"}
PI_MARKER = "# needs a Pi"
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([^\s`]*)")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*(<[^>]*>|[^)\s]+)(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE_LINK = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(\S+)")
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)*?\1")


def markdown_lines(text):
    """(line number, line, fence language or None, fence opening line number) for every line."""
    fence = None
    for number, line in enumerate(text.split("\n"), 1):
        match = FENCE.match(line)
        if fence is None and match:
            fence = (match.group(2)[0], len(match.group(2)), match.group(3).lower(), number)
            yield number, line, "open", fence
            continue
        if fence is not None and match and match.group(2)[0] == fence[0] and len(match.group(2)) >= fence[1] \
                and not match.group(3):
            yield number, line, "close", fence
            fence = None
            continue
        yield number, line, "code" if fence else "prose", fence


def slug(heading):
    heading = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link in a heading counts as its text
    heading = heading.strip().lower()
    heading = re.sub(r"[^\w\- ]", "", heading)
    return heading.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen = {}
        names = set()
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for _, line, kind, _ in markdown_lines(text):
            match = re.match(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$", line) if kind == "prose" else None
            if match:
                base = slug(match.group(2))
                count = seen.get(base, 0)
                seen[base] = count + 1
                names.add(base if count == 0 else f"{base}-{count}")
        for match in re.finditer(r"<a\s+(?:name|id)=\"([^\"]+)\"", text):
            names.add(match.group(1))
        cache[path] = names
    return cache[path]


def check_links(root, relative, problems):
    path = os.path.join(root, relative)
    with open(path, encoding="utf-8") as f:
        text = f.read()
    count = 0
    for number, line, kind, _ in markdown_lines(text):
        if kind != "prose":
            continue
        prose = CODE_SPAN.sub("", line)
        targets = [m.group(1) for m in INLINE_LINK.finditer(prose)]
        reference = REFERENCE_LINK.match(prose)
        if reference:
            targets.append(reference.group(1))
        for target in targets:
            target = target.strip("<>")
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto:
                continue
            count += 1
            where = f"{relative}:{number}"
            file_part, _, anchor = target.partition("#")
            if file_part.startswith("/"):
                resolved = os.path.normpath(os.path.join(root, file_part.lstrip("/")))
            elif file_part:
                resolved = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
            else:
                resolved = path
            if os.path.commonpath([resolved, root]) != root:
                problems.append(f"{where}: link {target} leaves the repository (a clone has nothing at {resolved})")
                continue
            if not os.path.exists(resolved):
                problems.append(f"{where}: link {target}: no such file {os.path.relpath(resolved, root)}")
                continue
            if anchor and resolved.endswith(".md") and os.path.isfile(resolved):
                if anchor not in anchors(resolved):
                    problems.append(f"{where}: link {target}: no heading #{anchor} in {os.path.relpath(resolved, root)}")
    return count


def shell_commands(lines):
    """(line number, command) for each command of a shell text: comments dropped, continuations
    joined, split at `&&` and `;` outside quotes."""
    pending, start = "", None
    for number, line in lines:
        code, quote = [], None
        for i, ch in enumerate(line):
            if quote:
                quote = None if ch == quote else quote
            elif ch in "'\"":
                quote = ch
            elif ch == "#" and (i == 0 or line[i - 1].isspace()):
                break
            code.append(ch)
        code = "".join(code).rstrip()
        if start is None:
            start = number
        if code.endswith("\\"):
            pending += code[:-1] + " "
            continue
        pending += code
        for part in re.split(r"\s*(?:&&|;)\s*(?=(?:[^'\"]*['\"][^'\"]*['\"])*[^'\"]*$)", pending):
            if part.strip():
                yield start, part.strip()
        pending, start = "", None


def normal(command):
    command = " ".join(command.split())
    command = re.sub(r"^(?:[A-Z_][A-Z0-9_]*=\S*\s+)+", "", command)  # VAR=value prefixes
    command = re.sub(r"^sudo\s+", "", command)  # CI runs as root
    command = re.sub(r"(?:swift run thunderstorm|\"?\$\{?(?:bin|release_bin)\}?\"?|(?:\./)?\.build[\w-]*/(?:release|debug)/thunderstorm|\./thunderstorm)(?=\s|$)",
                     "thunderstorm", command)
    command = re.sub(r"^(?:python3|bash|sh) (scripts/)", r"\1", command)
    return command


def ci_commands(root):
    with open(os.path.join(root, ".ci/run"), encoding="utf-8") as f:
        lines = list(enumerate(f.read().split("\n"), 1))
    return [normal(command) for _, command in shell_commands(lines)]


def run_in_ci(command, ci):
    """The command of .ci/run that runs `command`: the same words once CI's own scratch path
    (`--scratch-path DIR`) and what it does with the output (`2>&1 | tee …`, `> FILE`,
    `|| status=$?`) are set aside. Any other difference (`--headless`, another file) is another
    command."""
    for candidate in ci:
        core = re.split(r"\s+(?:\d?>|\|)", candidate, maxsplit=1)[0]
        core = re.sub(r"\s+--scratch-path\s+\S+", "", core)
        if core == command:
            return candidate
    return None


def check_commands(root, relative, ci, problems, verbose):
    with open(os.path.join(root, relative), encoding="utf-8") as f:
        text = f.read()
    blocks = {}
    for number, line, kind, fence in markdown_lines(text):
        if kind == "code" and fence[2] in SH_LANGUAGES:
            blocks.setdefault(fence[3], []).append((number, line))
        elif kind == "close" and fence[2] in SH_LANGUAGES:
            blocks.setdefault(fence[3], [])
    pi = checked = commands = 0
    for opening, lines in sorted(blocks.items()):
        body = [(n, l) for n, l in lines if l.strip()]
        if body and body[0][1].strip().startswith(PI_MARKER):
            pi += 1
            continue
        checked += 1
        for number, command in shell_commands(lines):
            commands += 1
            wanted = normal(command)
            found = run_in_ci(wanted, ci)
            if found:
                if verbose:
                    print(f"{relative}:{number}: {command}  — .ci/run: {found}")
                continue
            if wanted in ALLOWED:
                evidence, needle, why = ALLOWED[wanted]
                try:
                    with open(os.path.join(root, evidence), encoding="utf-8") as f:
                        shown = needle in f.read()
                except OSError:
                    shown = False
                if shown:
                    if verbose:
                        print(f"{relative}:{number}: {command}  — {evidence}: {why}")
                    continue
                problems.append(f"{relative}:{number}: `{command}` is allowed because {evidence} runs it, but {evidence} "
                                f"no longer has {needle}")
                continue
            problems.append(f"{relative}:{number}: `{command}` is not run by CI (.ci/run) and its block "
                            f"(line {opening}) does not start with `{PI_MARKER}`")
    return pi, checked, commands


def main():
    parser = argparse.ArgumentParser(description="Checks the links and the shell blocks of the documentation.")
    parser.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    parser.add_argument("--verbose", action="store_true", help="print where CI runs each command")
    options = parser.parse_args()
    root = os.path.realpath(options.root)

    linked = ["README.md", "board/README.md"]
    guide = ["README.md"]
    for directory, _, files in sorted(os.walk(os.path.join(root, "docs"))):
        for name in sorted(files):
            if name.endswith(".md"):
                relative = os.path.relpath(os.path.join(directory, name), root)
                linked.append(relative)
                if relative.startswith("docs/guide/"):
                    guide.append(relative)

    problems = []
    links = sum(check_links(root, relative, problems) for relative in linked if os.path.isfile(os.path.join(root, relative)))
    ci = ci_commands(root)
    pi = checked = commands = 0
    for relative in guide:
        p, c, n = check_commands(root, relative, ci, problems, options.verbose)
        pi, checked, commands = pi + p, checked + c, commands + n

    for problem in problems:
        print(problem, file=sys.stderr)
    if problems:
        print(f"check-docs: {len(problems)} problem(s)", file=sys.stderr)
        return 1
    print(f"check-docs: {len(linked)} files, {links} relative links resolve; "
          f"{pi + checked} sh blocks in README.md and docs/guide: {pi} need a Pi, "
          f"{checked} run in CI ({commands} commands)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
