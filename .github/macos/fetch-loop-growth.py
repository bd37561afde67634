#!/usr/bin/env python3
"""Run the agent's fetch loop against the live Mac and fail if the process's
Mach port names, or the kernel's IOKit objects, grow between a warm-up point
(1,000 rounds) and the end (20,000 rounds); optionally run leaks(1) on it at
the end.

usage: fetch-loop-growth.py [options] FETCH_LOOP MODULE PMNS_ROOT

FETCH_LOOP is tests/leak/fetch_loop (usage: fetch_loop MODULE PMNS_ROOT
ITERATIONS [STOP_AT]). It is run for ROUNDS rounds with STOP_AT
"WARM,ROUNDS": after each of those rounds it stops itself (raise(SIGSTOP)),
which this script sees through waitpid WUNTRACED, so both samples are taken
after an exact number of rounds:

1. At round WARM its port names and the IOKit class counts are read, and it
   is continued (SIGCONT).
2. At round ROUNDS they are read again; with --leaks, leaks(1) examines it,
   still stopped. Then it is continued, finishes (it frees its names and
   unloads the PMNS) and must exit with status 0.

Each stop, and the exit, must come within --timeout seconds of the start.

Port names: top -l 1 -pid PID -stats pid,ports, the #PORTS column (Apple's
top: ports.c prints libtop's mach_port_space_basic_info() iisb_table_inuse;
in logging mode the first sample has no +/- suffix). Every port right the
agent keeps, an io_object_t from IOKit included, is a port name there.

IOKit objects: ioclasscount with no class names prints every class as
"Name = count", one per line (Apple's IOKitTools ioclasscount.c,
printInstanceCount). The counts are the whole kernel's, so other processes
move them too: a class fails when it grows by more than
max(--class-tolerance, --class-fraction x its count at warm-up). A leak in
every round grows a class by the 19,000 rounds between the two points.

Exit status: 0 no growth, 1 growth or leaks, 2 the loop or a tool failed.
"""
import argparse
import os
import re
import signal
import subprocess
import sys
import time

POLL = 0.1


def parse_top_ports(text, pid):
    """The #PORTS cell of PID's row in top's logging output: PID (with a
    " ", "*" or "-" suffix, pid.c) then the count (a "+"/"-" suffix after
    the first sample, uinteger.c)."""
    for line in text.splitlines():
        cells = line.split()
        if len(cells) >= 2 and re.fullmatch(rf"{pid}[*-]?", cells[0]):
            m = re.fullmatch(r"(\d+)[+-]?", cells[1])
            if m:
                return int(m.group(1))
    return None


def port_names(pid):
    cmd = ["top", "-l", "1", "-pid", str(pid), "-stats", "pid,ports"]
    for prefix in ([], ["sudo", "-n"]):              # GitHub's Macs have passwordless sudo
        run = subprocess.run(prefix + cmd, capture_output=True, text=True)
        count = parse_top_ports(run.stdout, pid)
        if count:                                    # a live task always has port names
            return count
    raise RuntimeError(f"top showed no port count for {pid}:\n{run.stdout[-2000:]}{run.stderr[-2000:]}")


def ioclass_counts():
    run = subprocess.run(["ioclasscount"], capture_output=True, text=True)
    counts = {}
    for line in run.stdout.splitlines():
        m = re.fullmatch(r"(\S+) = (\d+)", line.strip())
        if m:
            counts[m.group(1)] = int(m.group(2))
    if run.returncode != 0 or not counts:
        raise RuntimeError(f"ioclasscount failed (status {run.returncode}): {run.stderr.strip()}")
    return counts


class Loop:
    """The fetch loop, started here with its stops, and waited for."""

    def __init__(self, argv, log, timeout):
        self.proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT)
        self.pid = self.proc.pid
        self.timeout = timeout
        self.deadline = time.monotonic() + timeout
        self.ended = None                            # how it ended, once reaped here

    def wait(self, what):
        """Until the loop stops (True) or exits (False), by the deadline."""
        while True:
            pid, status = os.waitpid(self.pid, os.WUNTRACED | os.WNOHANG)
            if pid == self.pid:
                if os.WIFSTOPPED(status):
                    return True
                # reaped here, so Popen cannot: record it there
                self.proc.returncode = os.waitstatus_to_exitcode(status)
                self.ended = f"exited with status {self.proc.returncode}"
                return False
            if time.monotonic() > self.deadline:
                raise RuntimeError(f"the loop did not reach {what} in {self.timeout:.0f} s: it is stuck or starved")
            time.sleep(POLL)

    def stop_at(self, rounds):
        """Wait for the loop's stop after round ROUNDS (STOP_AT)."""
        if not self.wait(f"round {rounds}"):
            raise RuntimeError(f"the loop {self.ended} before stopping at round {rounds}")

    def sample(self):
        """Port names and IOKit class counts, the loop being stopped."""
        return port_names(self.pid), ioclass_counts()

    def resume(self):
        os.kill(self.pid, signal.SIGCONT)

    def finish(self):
        """Continue the loop from its last stop; its exit status."""
        self.resume()
        if self.wait("its end"):
            raise RuntimeError("the loop stopped again after its last stop")
        return self.proc.returncode

    def end(self):
        """Kill the loop if it has not been reaped (after an error)."""
        if self.ended is None and self.proc.poll() is None:
            os.kill(self.pid, signal.SIGCONT)
            os.kill(self.pid, signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.kill(self.pid, signal.SIGKILL)
                self.proc.wait()


def tail(path, lines=20):
    with open(path, errors="replace") as f:
        return "".join(f.readlines()[-lines:])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fetch_loop")
    ap.add_argument("module")
    ap.add_argument("pmns_root")
    ap.add_argument("--warm", type=int, default=1000, help="rounds before the first sample (1000)")
    ap.add_argument("--rounds", type=int, default=20000, help="rounds at the last sample (20000)")
    ap.add_argument("--port-tolerance", type=int, default=8, help="port names the loop may gain (8)")
    ap.add_argument("--class-tolerance", type=int, default=32, help="objects an IOKit class may gain (32)")
    ap.add_argument("--class-fraction", type=float, default=0.01,
                    help="or this fraction of the class's count, if more (0.01)")
    ap.add_argument("--leaks", action="store_true", help="run leaks(1) on the loop at the end")
    ap.add_argument("--log", default="fetch-loop.log", help="the loop's output (fetch-loop.log)")
    ap.add_argument("--timeout", type=float, default=2400,
                    help="seconds from the start for the loop to reach each stop and its end (2400)")
    a = ap.parse_args()
    if not 0 < a.warm < a.rounds:
        ap.error("need 0 < --warm < --rounds")
    argv = [a.fetch_loop, a.module, a.pmns_root, str(a.rounds), f"{a.warm},{a.rounds}"]

    status = 0
    with open(a.log, "w") as log:
        print(" ".join(argv))
        loop = Loop(argv, log, a.timeout)
        try:
            loop.stop_at(a.warm)
            ports0, classes0 = loop.sample()
            print(f"warm-up, after round {a.warm}: {ports0} port names, {len(classes0)} IOKit classes")
            loop.resume()
            loop.stop_at(a.rounds)
            ports1, classes1 = loop.sample()
            print(f"end, after round {a.rounds}: {ports1} port names")
            if a.leaks:
                leaks = subprocess.run(["leaks", str(loop.pid)], capture_output=True, text=True)
                print(leaks.stdout[-6000:] + leaks.stderr[-2000:])
                # leaks(1): 0 no leaks, 1 leaks found, more an error
                if leaks.returncode != 0:
                    print(f"leaks: status {leaks.returncode}: "
                          + ("leaked memory" if leaks.returncode == 1 else "could not examine the loop"))
                    status = 1 if leaks.returncode == 1 else 2
            code = loop.finish()
            if code != 0:
                raise RuntimeError(f"the loop exited with status {code} after its last stop")
        except (RuntimeError, OSError) as e:             # OSError: a tool missing
            print(f"fetch-loop-growth: {e}")
            loop.end()
            print(f"the loop's log ({a.log}), last lines:\n{tail(a.log)}")
            return 2

    growth = ports1 - ports0
    print(f"Mach port names: {ports0} -> {ports1} ({growth:+d}; tolerance {a.port_tolerance})")
    if growth > a.port_tolerance:
        print(f"FAILED: the loop gained {growth} port names in {a.rounds - a.warm} rounds")
        status = 1

    grew = []
    for name, n in classes1.items():
        was = classes0.get(name, 0)
        allowed = max(a.class_tolerance, int(a.class_fraction * was))
        grew.append((n - was, name, was, n, allowed))
    grew.sort(reverse=True)
    print("IOKit classes that grew most (system-wide counts):")
    for delta, name, was, n, allowed in grew[:10]:
        if delta > 0:
            print(f"  {name}: {was} -> {n} ({delta:+d}; tolerance {allowed})")
    bad = [g for g in grew if g[0] > g[4]]
    for delta, name, was, n, allowed in bad:
        print(f"FAILED: IOKit class {name} grew by {delta} ({was} -> {n}), more than {allowed}")
    if bad:
        status = 1
    if status == 0:
        print(f"no growth of port names or IOKit objects from round {a.warm} to {a.rounds}")
    return status


if __name__ == "__main__":
    sys.exit(main())
