"""The virtual board's host side: makes a VM's disk from a cached root, boots it under QEMU, talks
to the guest agent, feeds the GPS line at the baud rate and cuts the power.

Used by the scenario tests (test_*.py beside this file) and by `scripts/virtual-board.sh shell`.
Everything the VM needs comes from the environment scripts/virtual-board.sh sets:
VBOARD_CACHE (kernel, initramfs, roots), VBOARD_BINARY (the thunderstorm release binary).
"""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
CACHE = os.environ.get("VBOARD_CACHE", os.path.join(REPO, ".build-vboard"))
CORPUS = os.environ.get("THUNDERSTORM_CORPUS", os.path.join(REPO, "..", "shared", "corpus"))


class GuestError(AssertionError):
    pass


# The two architectures, in one table (scripts/virtual-board.sh has the build side). A root is
# named RELEASE (x86-64) or arm64-RELEASE (the Pi's architecture on QEMU's `virt` board).
#   cpu      under TCG; arm64's `max` with the cheap (implementation-defined) pointer
#            authentication: the architected QARMA algorithm costs TCG dearly, and a guest
#            cannot tell the difference
#   console  where the kernel and systemd write (to a file): a 16550 on x86-64; on arm64 the
#            virtio console, so the one PL011 is free for the GPS, as the Pi's primary UART is
#   gps      the guest's device for the GPS line: the second 16550, or the PL011 (amba-pl011,
#            the Pi's own UART driver)
ARCHES = {
    "amd64": {"qemu": "qemu-system-x86_64", "machine": "q35", "cpu": "max",
              "kernel": "kernel", "initrd": "initrd.img", "console": "ttyS0", "gps": "/dev/ttyS1",
              "boot_timeout": 240},
    "arm64": {"qemu": "qemu-system-aarch64", "machine": "virt", "cpu": "max,pauth-impdef=on",
              "kernel": "kernel-arm64", "initrd": "initrd-arm64.img", "console": "hvc0", "gps": "/dev/ttyAMA0",
              "boot_timeout": 600},
}


def arch_of(root):
    return "arm64" if root.startswith("arm64-") else "amd64"


def release_of(root):
    return root[len("arm64-"):] if root.startswith("arm64-") else root


def nmea(body):
    """One NMEA 0183 sentence with its checksum and CR LF (NMEA 0183 §5.3: XOR of the bytes
    between '$' and '*')."""
    checksum = 0
    for byte in body.encode():
        checksum ^= byte
    return "$%s*%02X\r\n" % (body, checksum)


class Disk:
    """A VM's root disk: the cached root plus the project's files under /opt/vboard, made into
    an ext4 image with mkfs.ext4 -d (no loop mount). Each scenario gets a fresh one."""

    def __init__(self, release, workdir, binary=None, size="2G"):
        self.release = release
        self.arch = arch_of(release)
        self.path = os.path.join(workdir, "root-%s.img" % release)
        root = os.path.join(CACHE, "roots", release)
        if not os.path.exists(os.path.join(root, ".vboard-done")):
            raise RuntimeError("no cached root %s: run scripts/virtual-board.sh build" % root)
        opt = os.path.join(root, "opt", "vboard")
        shutil.rmtree(opt, ignore_errors=True)
        os.makedirs(opt)
        # What the scenarios install and drive: the project's scripts and unit as a user would
        # have them (a checkout), the release binary, the guest tools, a forecast body.
        for part in ("scripts", "board"):
            shutil.copytree(os.path.join(REPO, part), os.path.join(opt, "src", part))
        shutil.copytree(os.path.join(HERE, "guest"), os.path.join(opt, "guest"),
                        ignore=shutil.ignore_patterns("__pycache__", "test_*"))
        binary = binary or os.environ.get("VBOARD_BINARY")
        if binary:
            shutil.copy2(binary, os.path.join(opt, "thunderstorm"))
        # The packages (arm64 roots): VBOARD_DEB, and VBOARD_DEB_NEXT for the upgrade, under
        # their own names, as a user downloads them.
        for variable in ("VBOARD_DEB", "VBOARD_DEB_NEXT"):
            deb = os.environ.get(variable)
            if deb:
                shutil.copy2(deb, os.path.join(opt, os.path.basename(deb)))
        for name in ("weather/open-meteo-current-hourly-daily.json", "sensors/bme280-vectors.json"):
            source = os.path.join(CORPUS, name)
            if os.path.exists(source):
                shutil.copy2(source, os.path.join(opt, os.path.basename(name)))
        unit = os.path.join(root, "etc", "systemd", "system")
        shutil.copy2(os.path.join(HERE, "guest", "vboard-agent.service"), unit)
        wants = os.path.join(unit, "sysinit.target.wants")
        os.makedirs(wants, exist_ok=True)
        link = os.path.join(wants, "vboard-agent.service")
        if not os.path.lexists(link):
            os.symlink("/etc/systemd/system/vboard-agent.service", link)
        subprocess.run(["mkfs.ext4", "-q", "-F", "-L", "vboard", "-d", root, self.path, size],
                       check=True)


    def remove(self):
        """Drops the image (a few hundred MB); the logs beside it stay for a person to read."""
        if os.environ.get("VBOARD_KEEP") != "1" and os.path.exists(self.path):
            os.unlink(self.path)


class VM:
    """One QEMU process: q35 or arm64 virt (ARCHES), TCG (or KVM with VBOARD_KVM=1), the kernel
    and initramfs booted directly, the root on virtio-blk with write-back caching (a guest
    fdatasync reaches the image file; SIGKILL loses what the guest had not flushed: a power
    cut), the console to a file (ttyS0, or hvc0 on arm64), the GPS on the arch's UART (ttyS1,
    or the PL011 ttyAMA0: a socket the host feeds), the agent on a virtio-serial port."""

    def __init__(self, disk, workdir, extra_disk=None, memory=1024):
        self.disk = disk
        self.arch = ARCHES[disk.arch]
        self.workdir = workdir
        self.console = os.path.join(workdir, "console-%s.log" % disk.release)
        self.gps_path = os.path.join(workdir, "gps.sock")
        self.agent_path = os.path.join(workdir, "agent.sock")
        self.extra_disk = extra_disk
        self.memory = memory
        self.process = None
        self.agent = None
        self.gps = None
        self._id = 0
        self._replies = {}
        self._cond = threading.Condition()
        self.boots = 0

    # --- power -------------------------------------------------------------------------------
    def boot(self, timeout=None):
        """Starts the VM and waits for its agent. A guest kernel that dies before it runs its
        init (under TCG, an `Oops: int3` while the kernel patches its own code has been seen at
        2.7 s into a boot: an emulator race, not the system under test) is booted once more,
        saying so; the failed console is kept beside the new one. Nothing was written to the
        disk by then, so the second boot is the same boot. `timeout`: the arch's by default
        (an arm64 guest under TCG boots several times slower)."""
        timeout = timeout or self.arch["boot_timeout"]
        try:
            return self._boot(timeout)
        except GuestError:
            reason = self._died_before_init()
            if reason is None:
                raise
            kept = "%s.failed-boot-%d" % (self.console, self.boots)
            shutil.copy(self.console, kept)
            sys.stderr.write("vboard: the guest kernel died before init (%s; console in %s); booting again\n"
                             % (reason, kept))
            self.power_cut()
            return self._boot(timeout)

    def _died_before_init(self):
        """The console's last line that says why, if the kernel of the last boot stopped before
        it ran /init; else None."""
        if self.process is None or self.process.poll() is None:
            return None
        try:
            with open(self.console, errors="replace") as f:
                text = f.read()
        except OSError:
            return None
        boot = text[text.rfind("Linux version"):] if "Linux version" in text else text
        if "Run /init" in boot or "Kernel panic" not in boot:
            return None
        lines = [l.strip() for l in boot.splitlines() if "Oops" in l or "Kernel panic" in l]
        return lines[0] if lines else "kernel panic"

    def _boot(self, timeout):
        for path in (self.gps_path, self.agent_path):
            if os.path.exists(path):
                os.unlink(path)
        argv = self.qemu_argv()
        started = time.monotonic()
        self.process = subprocess.Popen(argv, stdin=subprocess.DEVNULL,
                                        stdout=open(os.path.join(self.workdir, "qemu.log"), "ab"),
                                        stderr=subprocess.STDOUT)
        self.boots += 1
        self.agent = self._connect(self.agent_path, started + 20)
        threading.Thread(target=self._read_agent, args=(self.agent,), daemon=True).start()
        self.gps = self._connect(self.gps_path, started + 20)
        hello = self._wait_reply("hello", started + timeout)
        self.boot_seconds = time.monotonic() - started
        self.kernel = hello["hello"]
        return self.boot_seconds

    def qemu_argv(self):
        """QEMU's command line for this VM's architecture (ARCHES)."""
        arch = self.arch
        kernel = os.path.join(CACHE, arch["kernel"], "vmlinuz")
        initrd = os.path.join(CACHE, arch["initrd"])
        accel = ["-accel", "kvm", "-cpu", "host"] if os.environ.get("VBOARD_KVM") == "1" else \
            ["-accel", "tcg,thread=multi", "-cpu", arch["cpu"]]
        console = ["-chardev", "file,id=console,path=%s" % self.console]
        gps = ["-chardev", "socket,id=gps,path=%s,server=on,wait=off" % self.gps_path, "-serial", "chardev:gps"]
        if arch["console"] == "hvc0":  # the one UART is the GPS; the console is virtio's
            serial = gps + ["-device", "virtio-serial-pci"] + console + ["-device", "virtconsole,chardev=console"]
        else:
            serial = console + ["-serial", "chardev:console"] + gps + ["-device", "virtio-serial-pci"]
        argv = [arch["qemu"], "-M", arch["machine"], "-m", str(self.memory), "-smp", "2", *accel,
                "-nodefaults", "-display", "none", "-no-reboot",
                "-kernel", kernel, "-initrd", initrd,
                "-append", "root=/dev/vda rw console=%s panic=-1 systemd.show_status=0 "
                           "systemd.journald.forward_to_console=0 net.ifnames=0" % arch["console"],
                "-drive", "file=%s,if=virtio,format=raw,cache=writeback" % self.disk.path,
                *serial,
                "-chardev", "socket,id=agent,path=%s,server=on,wait=off" % self.agent_path,
                "-device", "virtserialport,chardev=agent,name=vboard.agent",
                "-nic", "none"]
        if self.extra_disk:
            argv += ["-drive", "file=%s,if=virtio,format=raw,cache=writeback" % self.extra_disk]
        return argv

    def _connect(self, path, deadline):
        while True:
            if self.process.poll() is not None:
                raise GuestError("QEMU exited (%s): %s" % (self.process.returncode, self._tail("qemu.log")))
            try:
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(path)
                return s
            except OSError:
                s.close()
                if time.monotonic() > deadline:
                    raise GuestError("QEMU never opened %s" % path)
                time.sleep(0.1)

    def power_cut(self):
        """SIGKILL to QEMU: the guest loses everything it had not written to the disk."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
        self._drop_links()

    def shutdown(self, timeout=120):
        if self.process and self.process.poll() is None:
            try:
                self.sh("systemctl poweroff", timeout=10, check=False)
            except GuestError:
                pass
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._drop_links()

    def _drop_links(self):
        for s in (self.agent, self.gps):
            if s:
                try:
                    s.close()
                except OSError:
                    pass
        self.agent = self.gps = None
        with self._cond:
            self._replies.clear()

    def _tail(self, name, lines=30):
        try:
            with open(os.path.join(self.workdir, name), errors="replace") as f:
                return "".join(f.readlines()[-lines:])
        except OSError:
            return ""

    # --- the agent ---------------------------------------------------------------------------
    def _read_agent(self, sock):
        buffer = b""
        while True:
            try:
                chunk = sock.recv(65536)
            except OSError:
                return
            if not chunk:
                return
            buffer += chunk
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                try:
                    reply = json.loads(line)
                except ValueError:
                    continue
                key = "hello" if "hello" in reply else reply.get("id")
                with self._cond:
                    self._replies[key] = reply
                    self._cond.notify_all()

    def _wait_reply(self, key, deadline):
        with self._cond:
            while key not in self._replies:
                if self.process.poll() is not None:
                    raise GuestError("the VM stopped: " + self._tail(os.path.basename(self.console)))
                left = deadline - time.monotonic()
                if left <= 0:
                    raise GuestError("no answer from the guest agent (%s); console:\n%s"
                                     % (key, self._tail(os.path.basename(self.console))))
                self._cond.wait(min(left, 1.0))
            return self._replies.pop(key)

    def run(self, command, timeout=120):
        """Runs `command` with /bin/sh in the guest: the agent's reply (rc, out, err, and the
        guest's CLOCK_MONOTONIC when it started and ended)."""
        with self._cond:
            self._id += 1
            key = self._id
        data = (json.dumps({"id": key, "sh": command, "timeout": timeout}) + "\n").encode()
        self.agent.sendall(data)
        return self._wait_reply(key, time.monotonic() + timeout + 30)

    def sh(self, command, timeout=120, check=True):
        reply = self.run(command, timeout)
        if check and reply["rc"] != 0:
            raise GuestError("guest: `%s` exited %s\n%s%s" % (command, reply["rc"], reply["out"], reply["err"]))
        return reply["out"]

    def read(self, path):
        return self.sh("cat %s" % path)

    def wait_for(self, command, timeout, every=1.0, what=None):
        """Runs `command` until it exits 0; returns its output."""
        deadline = time.monotonic() + timeout
        while True:
            reply = self.run(command, timeout=30)
            if reply["rc"] == 0:
                return reply["out"]
            if time.monotonic() > deadline:
                raise GuestError("%s: not within %d s (last: rc %s %s%s)" % (
                    what or command, timeout, reply["rc"], reply["out"][-500:], reply["err"][-500:]))
            time.sleep(every)


class GPSFeeder:
    """Writes NMEA into the guest's GPS UART (/dev/ttyS1; /dev/ttyAMA0 on arm64) at the line's
    byte rate: QEMU's 16550 and PL011 do not pace to the baud rate by themselves, so a UART's 10 bits per byte (8N1) are kept here. Each
    epoch's sentences leave at the top of the second (or 1/rate), like a receiver's burst."""

    def __init__(self, vm, baud=9600, rate_hz=1, sentences=None):
        self.vm, self.baud, self.rate = vm, baud, rate_hz
        self.sentences = sentences or self.neo6m_berlin
        self.running = False
        self.silent = False
        self.bytes_sent = 0
        self.epochs = 0

    @staticmethod
    def neo6m_berlin(epoch_utc):
        """What a u-blox NEO-6M says once a second with a 3D fix near Berlin's Alexanderplatz."""
        t = time.gmtime(epoch_utc)
        hms = "%02d%02d%02d.00" % (t.tm_hour, t.tm_min, t.tm_sec)
        dmy = "%02d%02d%02d" % (t.tm_mday, t.tm_mon, t.tm_year % 100)
        return [
            nmea("GPRMC,%s,A,5231.27000,N,01324.64000,E,0.012,,%s,,,A" % (hms, dmy)),
            nmea("GPVTG,,T,,M,0.012,N,0.022,K,A"),
            nmea("GPGGA,%s,5231.27000,N,01324.64000,E,1,08,1.01,34.0,M,44.6,M,," % hms),
            nmea("GPGSA,A,3,05,13,15,18,20,24,29,30,,,,,1.90,1.01,1.61"),
            nmea("GPGSV,3,1,10,05,37,066,34,13,39,109,41,15,57,155,44,18,27,273,32"),
            nmea("GPGSV,3,2,10,20,63,224,45,24,22,307,29,29,47,292,38,30,11,055,22"),
            nmea("GPGSV,3,3,10,40,14,126,,49,30,185,"),
            nmea("GPGLL,5231.27000,N,01324.64000,E,%s,A,A" % hms),
        ]

    @staticmethod
    def ublox_m8_berlin(epoch_utc):
        """Every sentence a u-blox M8 sends per epoch by default (GNSS talker GN, GPS and
        GLONASS satellites in view) with a 3D fix near Berlin, for 10 Hz output."""
        t = time.gmtime(epoch_utc)
        cs = int(round((epoch_utc % 1) * 100)) % 100
        hms = "%02d%02d%02d.%02d" % (t.tm_hour, t.tm_min, t.tm_sec, cs)
        dmy = "%02d%02d%02d" % (t.tm_mday, t.tm_mon, t.tm_year % 100)
        return [
            nmea("GNRMC,%s,A,5231.27012,N,01324.64023,E,0.011,,%s,,,A" % (hms, dmy)),
            nmea("GNVTG,,T,,M,0.011,N,0.020,K,A"),
            nmea("GNGGA,%s,5231.27012,N,01324.64023,E,1,12,0.78,34.2,M,44.6,M,," % hms),
            nmea("GNGSA,A,3,05,13,15,18,20,24,29,30,,,,,1.32,0.78,1.06"),
            nmea("GNGSA,A,3,65,66,72,81,,,,,,,,,1.32,0.78,1.06"),
            nmea("GPGSV,3,1,11,05,37,066,34,13,39,109,41,15,57,155,44,18,27,273,32"),
            nmea("GPGSV,3,2,11,20,63,224,45,24,22,307,29,29,47,292,38,30,11,055,22"),
            nmea("GPGSV,3,3,11,40,14,126,,49,30,185,,50,30,183,"),
            nmea("GLGSV,2,1,06,65,44,071,33,66,72,306,36,72,21,031,27,81,49,214,38"),
            nmea("GLGSV,2,2,06,82,13,281,,88,17,151,"),
            nmea("GNGLL,5231.27012,N,01324.64023,E,%s,A,A" % hms),
            nmea("GNZDA,%s,%02d,%02d,%04d,00,00" % (hms, t.tm_mday, t.tm_mon, t.tm_year)),
        ]

    def start(self):
        self.running = True
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def stop(self):
        self.running = False

    def _run(self):
        period = 1.0 / self.rate
        byte_time = 10.0 / self.baud
        next_epoch = (int(time.time() / period) + 1) * period
        while self.running:
            time.sleep(max(0.0, next_epoch - time.time()))
            sock = self.vm.gps
            if not self.silent and sock:
                data = "".join(self.sentences(next_epoch)).encode()
                started = time.monotonic()
                # Pace in small slices so the tty sees bytes arrive as over a wire.
                for i in range(0, len(data), 16):
                    piece = data[i:i + 16]
                    try:
                        sock.sendall(piece)
                    except OSError:
                        break
                    self.bytes_sent += len(piece)
                    wait = started + (i + len(piece)) * byte_time - time.monotonic()
                    if wait > 0:
                        time.sleep(wait)
                self.epochs += 1
            next_epoch += period


def shell(release):
    workdir = tempfile.mkdtemp(prefix="vboard-")
    disk = Disk(release, workdir)
    vm = VM(disk, workdir)
    print("booting %s (%s)…" % (release, workdir), flush=True)
    print("booted in %.1f s, kernel %s" % (vm.boot(), vm.kernel))
    try:
        while True:
            try:
                line = input("%s# " % release)
            except EOFError:
                break
            reply = vm.run(line, timeout=600)
            sys.stdout.write(reply["out"] + reply["err"])
            if reply["rc"]:
                print("(exit %s)" % reply["rc"])
    finally:
        vm.shutdown()


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "shell":
        shell(sys.argv[2])
    else:
        sys.exit("usage: vboard.py shell ROOT")
