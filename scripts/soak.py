#!/usr/bin/env python3
"""A year on the wall, simulated: one `simulate --headless` process runs DAYS of
virtual time with faults at random moments — presses and holds, the GPS unplugged and back,
the network down and up, the display not answering, the card failing with EIO, ENOSPC or
read-only and recovering — and reports its resident memory and descriptors at the end of every
simulated day. Then CUTS short runs on the same state directory each end in a power cut at a
random moment (often right after a press), and after each one the store must hold every
setting it had acknowledged, and check clean.

    scripts/soak.py [--days 365] [--cuts 12] [--seed N] [--binary PATH] [--keep DIR]

Passes when: resident memory on the last day is within 1 MB (--rss-slack-kb) of day 1; the
descriptor count never changes; every power cut kept what was acknowledged; `store check`
exits 0 after each. Prints one line per figure and exits 1 on the first failed rule.
"""
import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

DAY = 86400


def events_for(days, rng, cuts_at=None):
    """One JSON Lines script: a few presses a day, faults a few times a month, each fault
    lifted again within hours (the card within minutes to hours)."""
    lines = []
    for day in range(days):
        base = day * DAY
        for _ in range(rng.randint(0, 4)):  # short presses: unit, temperature, clock notation
            lines.append({"at": base + rng.uniform(0, DAY), "press": rng.choice("abc")})
        if rng.random() < 0.15:  # next place, next screen
            lines.append({"at": base + rng.uniform(0, DAY), "hold": rng.choice("ac"), "ms": 1200})
        if rng.random() < 0.1:
            start = base + rng.uniform(0, DAY - 7200)
            lines.append({"at": start, "gps": "unplug"})
            lines.append({"at": start + rng.uniform(5, 3600), "gps": "replug"})
        if rng.random() < 0.1:
            start = base + rng.uniform(0, DAY - 14400)
            lines.append({"at": start, "network": "down"})
            lines.append({"at": start + rng.uniform(60, 4 * 3600), "network": "up"})
        if rng.random() < 0.1:
            lines.append({"at": base + rng.uniform(0, DAY), "i2c": "nack", "count": rng.randint(1, 20)})
        if rng.random() < 0.07:
            start = base + rng.uniform(0, DAY - 7200)
            lines.append({"at": start, "disk": rng.choice(["eio", "enospc", "readonly"])})
            # a press while the card fails: kept in memory, written when it recovers
            lines.append({"at": start + rng.uniform(1, 60), "press": rng.choice("abc")})
            lines.append({"at": start + rng.uniform(120, 7200), "disk": "ok"})
    if cuts_at is not None:
        lines.append({"at": cuts_at, "power": "cut"})
    lines.sort(key=lambda line: line["at"])
    return "\n".join(json.dumps(line) for line in lines) + "\n"


def simulate(binary, state, script, seconds, start, seed, workdir, name):
    script_path = os.path.join(workdir, name + ".jsonl")
    report_path = os.path.join(workdir, name + ".json")
    with open(script_path, "w") as f:
        f.write(script)
    argv = [binary, "simulate", "--headless", "--duration", "%d" % seconds, "--script", script_path,
            "--state-dir", state, "--report", report_path, "--start", start, "--seed", str(seed)]
    t0 = time.monotonic()
    run = subprocess.run(argv, capture_output=True, text=True)
    if run.returncode != 0:
        fail("%s: simulate exited %d: %s" % (name, run.returncode, run.stderr.strip()[-2000:]))
    with open(report_path) as f:
        return json.load(f), time.monotonic() - t0


def store(binary, state, *command):
    return subprocess.run([binary, "store", "--dir", state, *command], capture_output=True, text=True)


def fail(message):
    print("soak: FAILED: " + message, flush=True)
    sys.exit(1)


def say(message):
    print("soak: " + message, flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--cuts", type=int, default=12)
    parser.add_argument("--seed", type=int, default=int(time.time()))
    parser.add_argument("--binary", default=".build-release/release/thunderstorm")
    parser.add_argument("--rss-slack-kb", type=int, default=1024)
    parser.add_argument("--keep", help="keep the scripts, reports and state here")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    workdir = args.keep or tempfile.mkdtemp(prefix="soak-")
    os.makedirs(workdir, exist_ok=True)
    state = os.path.join(workdir, "state")
    shutil.rmtree(state, ignore_errors=True)
    os.makedirs(state)
    say("seed %d, %d days, %d power cuts, in %s" % (args.seed, args.days, args.cuts, workdir))

    # The year: one process, every fault but the power cut.
    report, wall = simulate(args.binary, state, events_for(args.days, rng), args.days * DAY,
                            "2026-01-01T00:00:00Z", args.seed, workdir, "year")
    daily = report["daily"]
    if len(daily) != args.days:
        fail("%d daily samples for %d days" % (len(daily), args.days))
    first, last = daily[0], daily[-1]
    peak = max(daily, key=lambda s: s["rss_kb"])
    say("%d simulated days in %.0f s: RSS day 1 %d KB, day %d %d KB, highest %d KB on day %d; %d gestures, %d commits, %d fetches"
        % (args.days, wall, first["rss_kb"], last["day"], last["rss_kb"], peak["rss_kb"], peak["day"],
           report["gestures"], report["commits"], report["weather"]["fetches"]))
    for mark in (30, 365):
        if mark <= len(daily):
            say("RSS day %d: %d KB" % (mark, daily[mark - 1]["rss_kb"]))
    if "heap_kb" in first:  # mallinfo2: RSS that grows over a flat heap is the allocator, not a leak
        say("heap in use day 1 %d KB, day %d %d KB; free in the arenas %d KB, %d KB"
            % (first["heap_kb"], last["day"], last["heap_kb"], first["heap_free_kb"], last["heap_free_kb"]))
    if last["rss_kb"] - first["rss_kb"] > args.rss_slack_kb:
        fail("RSS grew %d KB from day 1 to day %d (limit %d KB)" % (last["rss_kb"] - first["rss_kb"], last["day"], args.rss_slack_kb))
    descriptors = sorted({s["descriptors"] for s in daily})
    if len(descriptors) != 1:
        fail("the descriptor count changed over the run: %s" % descriptors)
    say("descriptors constant: %d" % descriptors[0])
    if report["display"]["model_errors"]:
        fail("the panel model saw %d protocol errors" % report["display"]["model_errors"])

    # Power cuts: each run ends at a random moment, a third of them within a second of a press.
    for cut in range(args.cuts):
        seconds = rng.randint(600, 3 * DAY)
        if rng.random() < 1 / 3:
            script = events_for(seconds // DAY + 1, rng)
            presses = [json.loads(l)["at"] for l in script.splitlines() if '"press"' in l and json.loads(l)["at"] < seconds]
            at = (rng.choice(presses) + rng.uniform(0.05, 1.0)) if presses else rng.uniform(1, seconds)
            script += json.dumps({"at": at, "power": "cut"}) + "\n"
        else:
            at = rng.uniform(1, seconds)
            script = events_for(seconds // DAY + 1, rng, cuts_at=at)
        name = "cut-%02d" % (cut + 1)
        report, _ = simulate(args.binary, state, script, seconds, "2027-01-01T00:00:00Z", args.seed + cut + 1, workdir, name)
        if not report["ended_by_power_cut"]:
            fail("%s did not end at its power cut" % name)
        shown = store(args.binary, state, "show")
        if shown.returncode != 0:
            fail("%s: store show exited %d: %s" % (name, shown.returncode, shown.stderr.strip()))
        after = json.loads(shown.stdout)
        acknowledged = report["store"]["sequence"]
        if after["sequence"] < acknowledged:
            fail("%s: the store holds sequence %d after the cut, %d was acknowledged" % (name, after["sequence"], acknowledged))
        if report["store"]["health"] == "store ok":
            for key in ("temperature", "units", "time", "brightness"):
                if after["settings"][key] != report["settings"][key]:
                    fail("%s: %s is %r after the cut, %r was acknowledged" % (name, key, after["settings"][key], report["settings"][key]))
        check = store(args.binary, state, "check")
        if check.returncode != 0:
            fail("%s: store check exited %d: %s" % (name, check.returncode, (check.stdout + check.stderr).strip()))
        say("%s at %.1f s: acknowledged sequence %d (%s), the store holds %d and checks clean"
            % (name, at, acknowledged, report["store"]["health"], after["sequence"]))
    say("passed")
    if not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
