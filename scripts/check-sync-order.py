#!/usr/bin/env python3
"""Checks, in an strace log, that files were made durable in the order a power cut needs.

    strace -f -y -o TRACE -e trace=fsync,fdatasync,rename,renameat,renameat2,unlink,unlinkat,rmdir COMMAND
    scripts/check-sync-order.py TRACE [--renamed PATH]... [--removed PATH]... [--synced PATH]...

--renamed PATH: a file was renamed over PATH after that file itself was fsync'd, and PATH's
    directory was fsync'd after the rename (without the first, ext4's delayed allocation can leave
    PATH empty after a cut; without the second, the rename itself can be lost: rename(2), fsync(2)).
--removed PATH: PATH was unlinked or removed, and its directory fsync'd afterwards.
--synced PATH: PATH (a directory, say) was fsync'd.
Exit status 0 when all hold; 1 with one line per failure otherwise. Used by check-deploy.sh.
"""
import os
import re
import sys

FD = r"(?:AT_FDCWD|-?\d+)(?:<([^>]*)>)?"
SYNC = re.compile(r"\b(?:fsync|fdatasync)\(\d+<([^>]*)>\)\s+= 0")
RENAME = re.compile(r"\brename(?:at2?)?\((?:" + FD + r", )?\"([^\"]*)\", (?:" + FD + r", )?\"([^\"]*)\".*\)\s+= 0")
REMOVE = re.compile(r"\b(?:unlink|unlinkat|rmdir)\((?:" + FD + r", )?\"([^\"]*)\".*\)\s+= 0")


def absolute(directory, path):
    return os.path.normpath(path if path.startswith("/") or not directory else os.path.join(directory, path))


def main(argv):
    if len(argv) < 2 or len(argv) % 2 != 0:
        print("usage: check-sync-order.py TRACE [--renamed|--removed|--synced PATH]...", file=sys.stderr)
        return 64
    lines = open(argv[1], encoding="utf-8", errors="replace").read().splitlines()
    synced, renamed, removed = [], [], []  # (line index, path[, source])
    for index, line in enumerate(lines):
        if m := SYNC.search(line):
            synced.append((index, os.path.normpath(m.group(1))))
        elif m := RENAME.search(line):
            renamed.append((index, absolute(m.group(3), m.group(4)), absolute(m.group(1), m.group(2))))
        elif m := REMOVE.search(line):
            removed.append((index, absolute(m.group(1), m.group(2))))
    problems = []
    for option, path in zip(argv[2::2], argv[3::2]):
        path = os.path.normpath(path)
        parent = os.path.dirname(path)
        if option == "--renamed":
            found = [(i, source) for i, target, source in renamed if target == path]
            if not found:
                problems.append(f"nothing was renamed over {path}")
                continue
            at, source = found[-1]
            if not any(i < at and p == source for i, p in synced):
                problems.append(f"{source} was renamed over {path} without an fsync of its own first")
            if not any(i > at and p == parent for i, p in synced):
                problems.append(f"{parent} was not fsync'd after {path} was renamed into it")
        elif option == "--removed":
            found = [i for i, target in removed if target == path]
            if not found:
                problems.append(f"{path} was not removed")
            elif not any(i > found[-1] and p == parent for i, p in synced):
                problems.append(f"{parent} was not fsync'd after {path} was removed")
        elif option == "--synced":
            if not any(p == path for _, p in synced):
                problems.append(f"{path} was never fsync'd")
        else:
            print(f"check-sync-order: unknown option {option}", file=sys.stderr)
            return 64
    for problem in problems:
        print(f"check-sync-order: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
