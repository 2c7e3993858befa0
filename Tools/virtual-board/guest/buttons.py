"""Buttons on the virtual board: a gpio-sim chip that looks like the Pi's header, pressed by
moving the simulated pull (Documentation/admin-guide/gpio/gpio-sim.rst).

  buttons.py setup [--label pinctrl-bcm2711] [--lines 58]
      makes the chip (lines named GPIO0…GPIO57) and prints {"chip": "gpiochipN", "sysfs": …}
  buttons.py press LINE [--hold-ms 80] [--bounce 4] [--bounce-us 600]
      a button to ground: the line is pulled down (pressed) and back up (released). With bounce,
      the contact chatters first: K short down/up toggles within the first few ms, as a real
      switch does; likewise on release. Prints {"down": T, "up": T, …} in CLOCK_MONOTONIC
      seconds: "down" is the first edge of the press, "settled" the last edge of the press bounce.
  buttons.py noise LINE [--rate 100] [--seconds 4] [--random SEED]
      a line that toggles on its own (a floating input, a broken wire): the pull flips RATE
      times a second for SECONDS, evenly, or with --random at exponentially distributed gaps of
      mean 1/RATE (a Poisson process, as a floating input's crossings are modelled), and ends
      pulled up (at rest). Prints what was achieved, from the guest's CLOCK_MONOTONIC read after
      each write: the edges, their rate, and how many levels lasted 20 ms or more (the board's
      default debounce period: only those can pass the kernel's debounce).

The daemon requests the lines with bias=pull-up, which gpio-sim takes as the line's pull: the
line rests high, and a press is a pull-down, like a switch to GND against the Pi's pull-up.
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import time

CONFIGFS = "/sys/kernel/config/gpio-sim"
NAME = "vboard"


def write(path, value):
    with open(path, "w") as f:
        f.write(value)


def setup(label, lines):
    subprocess.run(["modprobe", "gpio-sim"], check=True)
    if not os.path.isdir(CONFIGFS):
        subprocess.run(["mount", "-t", "configfs", "none", "/sys/kernel/config"], check=False)
    chip_dir = os.path.join(CONFIGFS, NAME)
    if os.path.isdir(chip_dir):
        with open(os.path.join(chip_dir, "live")) as f:
            live = f.read().strip() == "1"
        if live:  # (a chip taken away by `echo 0 > live` is not live: writing 0 again fails)
            write(os.path.join(chip_dir, "live"), "0")
        for line in glob.glob(os.path.join(chip_dir, "bank0", "line*")):
            os.rmdir(line)
        os.rmdir(os.path.join(chip_dir, "bank0"))
        os.rmdir(chip_dir)
    os.mkdir(chip_dir)
    bank = os.path.join(chip_dir, "bank0")
    os.mkdir(bank)
    write(os.path.join(bank, "num_lines"), str(lines))
    write(os.path.join(bank, "label"), label)
    for offset in range(lines):
        line = os.path.join(bank, "line%d" % offset)
        os.mkdir(line)
        write(os.path.join(line, "name"), "GPIO%d" % offset)
    write(os.path.join(chip_dir, "live"), "1")
    device = open(os.path.join(chip_dir, "dev_name")).read().strip()
    chip = open(os.path.join(bank, "chip_name")).read().strip()
    made = json.dumps({"chip": chip, "device": device, "label": label,
                       "sysfs": "/sys/devices/platform/%s/%s" % (device, chip)})
    with open("/run/vboard-buttons.json", "w") as f:  # for the host, when systemd ran this
        f.write(made + "\n")
    print(made)


def pull_path(offset):
    device = open(os.path.join(CONFIGFS, NAME, "dev_name")).read().strip()
    chip = open(os.path.join(CONFIGFS, NAME, "bank0", "chip_name")).read().strip()
    return "/sys/devices/platform/%s/%s/sim_gpio%d/pull" % (device, chip, offset)


def press(offset, hold_ms, bounce, bounce_us):
    fd = os.open(pull_path(offset), os.O_WRONLY)

    def set_pull(value):
        os.pwrite(fd, value, 0)
        return time.monotonic()

    def chatter(final):
        other = b"pull-up" if final == b"pull-down" else b"pull-down"
        first = set_pull(final)
        for _ in range(bounce):
            time.sleep(bounce_us / 1e6)
            set_pull(other)
            time.sleep(bounce_us / 1e6)
            set_pull(final)
        return first, time.monotonic()

    down, settled = chatter(b"pull-down")
    time.sleep(max(0.0, hold_ms / 1000 - (settled - down)))
    up, released = chatter(b"pull-up")
    os.close(fd)
    print(json.dumps({"line": offset, "down": down, "settled": settled, "up": up,
                      "released": released, "bounce": bounce}))


def noise(offset, rate, seconds, seed):
    import random
    fd = os.open(pull_path(offset), os.O_WRONLY)
    rng = random.Random(seed) if seed is not None else None
    stamps = []
    down = False
    start = time.monotonic()
    due = start
    while True:
        due += rng.expovariate(rate) if rng else 1.0 / rate
        if due - start >= seconds:
            break
        wait = due - time.monotonic()
        if wait > 0:
            time.sleep(wait)
        down = not down
        os.pwrite(fd, b"pull-down" if down else b"pull-up", 0)
        stamps.append(time.monotonic())
    if down:
        os.pwrite(fd, b"pull-up", 0)
        stamps.append(time.monotonic())
    os.close(fd)
    holds = [b - a for a, b in zip(stamps, stamps[1:])]
    span = stamps[-1] - stamps[0] if len(stamps) > 1 else 0.0
    print(json.dumps({"line": offset, "edges": len(stamps), "started": stamps[0] if stamps else start,
                      "ended": stamps[-1] if stamps else start, "rate": (len(stamps) - 1) / span if span else 0.0,
                      "holds_20ms_or_more": sum(1 for h in holds if h >= 0.020),
                      "longest_hold_ms": max(holds) * 1000 if holds else 0.0,
                      "pattern": "random" if rng else "even"}))


def main():
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command", required=True)
    s = sub.add_parser("setup")
    s.add_argument("--label", default="pinctrl-bcm2711")
    s.add_argument("--lines", type=int, default=58)
    p = sub.add_parser("press")
    p.add_argument("line", type=int)
    p.add_argument("--hold-ms", type=int, default=80)
    p.add_argument("--bounce", type=int, default=4)
    p.add_argument("--bounce-us", type=int, default=600)
    n = sub.add_parser("noise")
    n.add_argument("line", type=int)
    n.add_argument("--rate", type=float, default=100)
    n.add_argument("--seconds", type=float, default=4)
    n.add_argument("--random", type=int, default=None, metavar="SEED")
    args = parser.parse_args()
    if args.command == "setup":
        setup(args.label, args.lines)
    elif args.command == "noise":
        noise(args.line, args.rate, args.seconds, args.random)
    else:
        press(args.line, args.hold_ms, args.bounce, args.bounce_us)


if __name__ == "__main__":
    sys.exit(main())
