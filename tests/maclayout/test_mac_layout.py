"""Every documented way of installing pmda-darwin, on a Mac's layout.

A root laid out as a Mac with PCP 7's macOS package installed (package.py,
machine.py) takes, in turn: the README's path (the Homebrew formula's
caveats: pmda-darwin install from the keg), a second install over the first
(as after brew upgrade pmda-darwin, with pmcd holding the old module), PCP's
package installed again over it, PCP's uninstaller with --force and a fresh
PCP (brew upgrade --cask pcp-perf), Remove, cmake --install from source, and
Install and Remove run in $PCP_PMDAS_DIR as PCP's agents are. Each must
leave every file of PCP's package as it was (its bytes and inode, a link its
value), put every file of pmda-darwin's in as a new inode, tell when PCP has
replaced the agent, come back with one command, and give PCP's agents back
on Remove.

usage: test_mac_layout.py SOURCE_DIR BUILD_DIR WORK_DIR   (run.sh runs it in its namespaces)
"""
import os
import plistlib
import re
import shutil
import subprocess
import sys
import time

from machine import MacRoot
from package import Package, describe

SOURCE, BUILD, WORK = sys.argv[1:4]
FIXTURE = os.path.join(SOURCE, "tests", "fixtures", "apple-silicon.snapshot")
VERSION = re.search(r"project\(pmda_darwin VERSION ([0-9.]+)", open(os.path.join(SOURCE, "CMakeLists.txt")).read())[1]
KEG = "/opt/homebrew/Cellar/pmda-darwin/" + VERSION
STATE = "/var/db/pmda-darwin"
CHECK_PLIST = "/Library/LaunchAgents/pmda-darwin.check.plist"
# launchd exists only on a Mac: the command places its agent where the test says
MAC_ENV = {"PMDA_DARWIN_LAUNCH_AGENTS": "/Library/LaunchAgents"}
# what PCP itself changes in its own files: pmcd.conf is the configuration
# every agent's Install edits (pmdaproc.sh), .NeedRebuild is rc_pmcd's flag
EDITED_BY_PCP = ("/pmcd/pmcd.conf", "/pmns/.NeedRebuild")

passed = failed = 0


def check(description, condition, detail=""):
    global passed, failed
    if condition:
        passed += 1
        print("ok - " + description)
    else:
        failed += 1
        print("not ok - " + description)
        for line in str(detail).strip().splitlines()[-40:]:
            print("#   " + line)
    return condition


def metric_names(agent):
    out = subprocess.run([os.environ["METRIC_NAMES"], agent], capture_output=True, text=True, check=True).stdout
    return out.split()


def upstream_names(agent):
    tsv = os.path.join(SOURCE, "tests", "upstream", "darwin-compat.tsv" if agent == "darwin" else "proc-compat.tsv")
    return {line.split("\t")[0] for line in open(tsv) if line.strip() and not line.startswith(("#", "name\t"))}


def stage():
    """What cmake --install puts under its prefix (the release archive and
    the Homebrew keg hold the same: tests/release/check-archive.sh), with
    this build's Linux agents under the names the Mach-O ones have."""
    staged = os.path.join(WORK, "stage")
    subprocess.run(["cmake", "--install", BUILD], env=dict(os.environ, DESTDIR=staged), check=True,
                   stdout=subprocess.DEVNULL)
    top = os.path.join(staged, "usr", "local")
    darwin = os.path.join(top, "libexec", "pmda-darwin", "darwin")
    os.rename(os.path.join(darwin, "pmda_darwin.so"), os.path.join(darwin, "pmda_darwin.dylib"))
    return top


class Mac:
    """The root with PCP's package, and what the test does with it."""

    def __init__(self, name, package, shares=()):
        self.root = MacRoot(os.path.join(WORK, name))
        self.root.build(FIXTURE, shares)
        self.package = package
        self.conf = package.conf

    def sh(self, command, user=None, env=None):
        return self.root.run(command, user=user, env=dict(MAC_ENV, **(env or {})))

    def start(self, command, env=None):
        return self.root.start(command, env=dict(MAC_ENV, **(env or {})))

    def pcp_install(self):
        """PCP's package installed (again), then pmcd started as launchd starts
        it after the package's postinstall: rc_pmcd, which runs Rebuild -u."""
        self.sh(self.conf["PCP_RC_DIR"] + "/pmcd stop")
        self.package.install(self.root.path)
        return self.sh(self.conf["PCP_RC_DIR"] + "/pmcd start")

    def pcp_uninstall(self):
        self.sh(self.conf["PCP_RC_DIR"] + "/pmcd stop")
        self.package.uninstall_force(self.root.path)

    def prints(self, aside=True):
        return self.package.fingerprint(self.root.path, self.root.at(STATE + "/aside") if aside else None)

    def pcp_unchanged(self, before, what):
        """Every file and link of PCP's package as BEFORE (bytes, inode, link
        value), wherever pmda-darwin set it aside."""
        now = self.prints()
        changed = [p for p in before if before[p] != now[p] and not p.endswith(EDITED_BY_PCP)]
        check("%s: 0 bytes of PCP's %d files and links changed, none moved but into the aside tree"
              % (what, len(before)), not changed, "\n".join("%s: %s -> %s" % (p, before[p], now[p]) for p in changed))

    def placed(self, agent):
        path = self.root.at("%s/%s.placed" % (STATE, agent))
        if not os.path.exists(path):
            return []
        return [line.split(" ", 1)[1].strip() for line in open(path) if re.match(r"^[0-9a-f]{64} ", line)]

    def ours_new_inodes(self, before, what):
        """Each placed file is a regular file of its own: no inode of PCP's."""
        pcp_inodes = {p[2] for p in before.values() if p[0] == "file"}
        paths = self.placed("darwin") + self.placed("proc")
        bad = [p for p in paths if describe(self.root.at(p))[0] != "file" or describe(self.root.at(p))[2] in pcp_inodes]
        check("%s: all %d of pmda-darwin's files are new inodes, none a link or one of PCP's"
              % (what, len(paths)), paths and not bad, "\n".join(bad) or "nothing placed")

    def serves_ours(self, what):
        names = metric_names("darwin")
        status, out = self.sh("pminfo " + " ".join(names))
        served = set(out.split())
        check("%s: pmcd's PMNS has all %d of the darwin agent's names" % (what, len(names)),
              status == 0 and served >= set(names), out)
        status, out = self.sh("pminfo -f hinv.ncpu kernel.cpucluster.clock.max proc.nprocs pmda.version")
        check("%s: pmcd serves the darwin and proc agents' values" % what,
              status == 0 and out.count(" value ") + out.count("value ") >= 4, out)
        status, out = self.sh("pmda-darwin status")
        check("%s: pmda-darwin status says both agents are installed and served" % what,
              status == 0 and out.count("installed; pmcd.conf runs it") == 2, out)

    def agent_lines(self):
        text = open(self.root.at(self.conf["PCP_PMCDCONF_PATH"])).read().split("[access]")[0]
        return sorted(tuple(line.split()) for line in text.splitlines() if line.strip() and not line.startswith("#"))


def old_readme_writes_through(package, staged):
    """The double sees the fault it is for: the README's old step (cp -R the
    agent's directory into $PCP_PMDAS_DIR/darwin) writes through PCP's link
    into PCP's own module. The root's cp is GNU's, which does what Apple's
    does here: an existing destination, a link included, is opened
    O_WRONLY|O_TRUNC and written, -f or not (apple-oss-distributions/file_cmds
    file_cmds-457.100.3, cp/utils.c L250-265 and L298-313: only where that
    open fails does -f unlink and create)."""
    mac = Mac("root-old-readme", package, shares=[staged])
    package.install(mac.root.path)
    before = mac.prints(aside=False)
    adm = mac.conf["PCP_PMDASADM_DIR"] + "/darwin/pmda_darwin.dylib"
    mac.sh("cp -R %s/libexec/pmda-darwin/darwin/. %s/darwin/" % (staged, mac.conf["PCP_PMDAS_DIR"]))
    now = mac.prints(aside=False)
    check("the double catches a write through PCP's link: the old README's cp -R rewrites PCP's module in place",
          now[adm][0] == "file" and now[adm][1] != before[adm][1] and now[adm][2] == before[adm][2], now[adm])


def homebrew(mac, staged):
    """The README's path: the formula's keg, then its caveats' commands."""
    keg = mac.root.at(KEG)
    shutil.copytree(staged, keg, symlinks=True)
    for d in ("opt", "bin"):
        os.makedirs(mac.root.at("/opt/homebrew/" + d))
    os.symlink("../Cellar/pmda-darwin/" + VERSION, mac.root.at("/opt/homebrew/opt/pmda-darwin"))
    os.symlink("../Cellar/pmda-darwin/%s/bin/pmda-darwin" % VERSION, mac.root.at("/opt/homebrew/bin/pmda-darwin"))
    formula = open(os.path.join(SOURCE, "packaging", "homebrew", "pmda-darwin.rb")).read()
    caveats = formula[formula.index("def caveats"):]
    caveats = caveats[:caveats.index("EOS\n", caveats.index("<<~EOS") + 6)]
    commands = [line.strip()[len("sudo "):].replace("#{opt_bin}", "/opt/homebrew/opt/pmda-darwin/bin")
                for line in caveats.splitlines() if line.strip().startswith("sudo ")]
    check("the formula's caveats give the commands that put the agents in pmcd", commands, caveats)
    return [mac.sh(command) for command in commands]


def main():
    staged = stage()
    package = Package(os.path.join(WORK, "package"), os.path.join(BUILD, "pmda_darwin.so"),
                      os.path.join(BUILD, "pmdaproc"))
    old_readme_writes_through(package, staged)

    mac = Mac("root", package, shares=[SOURCE, BUILD, staged])
    status, out = mac.pcp_install()
    check("PCP's package double runs: pmcd starts, rc_pmcd rebuilds the PMNS, PCP's darwin agent serves",
          mac.sh("pminfo -f hinv.ncpu")[1].count("value") == 1 and not os.path.exists(
              mac.root.at(mac.conf["PCP_VAR_DIR"] + "/pmns/.NeedRebuild")), out)
    pcp = mac.prints(aside=False)
    pcp_lines = mac.agent_lines()

    # 1. The README's one path: Homebrew's keg and the caveats' sudo commands.
    results = homebrew(mac, staged)
    log = "\n".join(o for _, o in results)
    check("the caveats' commands succeed", all(s == 0 for s, _ in results), log)
    install_says(log)
    mac.pcp_unchanged(pcp, "Homebrew's install")
    mac.ours_new_inodes(pcp, "Homebrew's install")
    mac.serves_ours("Homebrew's install")
    plist = mac.root.at(CHECK_PLIST)
    check("install puts the launchd agent that watches pmcd.conf and the PMNS", os.path.exists(plist))
    tools_work(mac)
    proc_access(mac)

    # 2. Installed again over itself (brew upgrade pmda-darwin): the module
    # pmcd has mapped is never rewritten; a new inode takes its path.
    module = mac.conf["PCP_PMDAS_DIR"] + "/darwin/pmda_darwin.dylib"
    held = os.path.join(WORK, "held-module")
    os.link(mac.root.at(module), held)
    old = describe(held)
    status, out = mac.sh("pmda-darwin install")
    check("a second install succeeds", status == 0, out)
    check("a second install puts a new inode at the module's path and leaves the old one's bytes alone",
          describe(mac.root.at(module))[2] != old[2] and describe(held) == old, (old, describe(mac.root.at(module))))
    mac.pcp_unchanged(pcp, "a second install")

    # 3. PCP's package installed again over it (a .pkg reinstall or upgrade).
    mac.pcp_install()
    pcp = mac.prints(aside=False)
    status, out = mac.sh("pmda-darwin status")
    check("after PCP's package is installed again, pmda-darwin status says the agents were replaced (exit 1)",
          status == 1 and out.count("replaced:") == 2, out)
    beyond = sorted(set(metric_names("darwin")) - upstream_names("darwin"))
    status, out = mac.sh("pminfo %s" % beyond[0])
    check("... and it is so: PCP's Rebuild -u took the names beyond upstream's (%s)" % beyond[0],
          "Unknown metric name" in out, out)
    watcher = plistlib.load(open(plist, "rb"))
    watched = set(watcher["WatchPaths"])
    check("the launchd agent watches what PCP's package replaces (pmcd.conf, the PMNS root)",
          watched == {mac.conf["PCP_PMCDCONF_PATH"], mac.conf["PCP_VAR_DIR"] + "/pmns/root"}, watched)
    notified = notify(mac, watcher["ProgramArguments"])
    check("the launchd agent's command shows the user a notification naming the one command to run",
          "sudo pmda-darwin install" in notified and "display notification" in notified, notified)
    # launchd runs the agent again as pmcd.conf and the PMNS change under the
    # restore: while it works, it must stay quiet
    restore = mac.start("pmda-darwin install", env=MAC_ENV)
    while restore.poll() is None and not os.path.exists(mac.root.at(STATE + "/busy")):
        time.sleep(0.01)      # from here on the restore has begun
    during = []
    while restore.poll() is None:
        during.append(notify(mac, watcher["ProgramArguments"]))
    out = restore.stdout.read()
    check("one command (pmda-darwin install) restores the agents", restore.returncode == 0, out)
    check("the launchd agent's command, run %d times during the restore, shows nothing" % len(during),
          during and all(n == "(no notification)" for n in during), "\n".join(during))
    mac.pcp_unchanged(pcp, "the restore after PCP's reinstall")
    mac.ours_new_inodes(pcp, "the restore after PCP's reinstall")
    mac.serves_ours("the restore after PCP's reinstall")

    # 4. brew upgrade --cask pcp-perf: PCP's uninstaller --force, then PCP again.
    mac.pcp_uninstall()
    mac.pcp_install()
    pcp = mac.prints(aside=False)
    status, out = mac.sh("pmda-darwin status")
    check("after PCP's uninstaller --force and a new PCP, status says the agents were replaced",
          status == 1 and out.count("replaced:") == 2, out)
    status, out = mac.sh("pmda-darwin install")
    check("... and pmda-darwin install restores them", status == 0, out)
    mac.pcp_unchanged(pcp, "the restore after a PCP upgrade")
    mac.serves_ours("the restore after a PCP upgrade")

    # 5. Remove: PCP's files, agents and names come back.
    status, out = mac.sh("pmda-darwin remove")
    check("pmda-darwin remove succeeds", status == 0, out)
    check("Remove puts every file and link of PCP's package back where it was, as it was",
          only_edited(pcp, mac.prints(aside=False)), diff(pcp, mac.prints(aside=False)))
    check("Remove gives pmcd.conf PCP's own agents back", mac.agent_lines() == pcp_lines,
          (mac.agent_lines(), pcp_lines))
    status, out = mac.sh("pminfo -f hinv.ncpu proc.nprocs; pminfo %s" % beyond[0])
    check("Remove gives the PMNS PCP's names back, and PCP's agents serve them",
          out.count("value") == 2 and "Unknown metric name" in out, out)
    leftovers = [os.path.join(d, f) for d, _, fs in os.walk(mac.root.at(STATE)) for f in fs]
    check("Remove leaves no state and no launchd agent behind", not leftovers and not os.path.exists(plist),
          leftovers)

    # 6. From source: cmake --install into PCP's own prefix, then the command.
    pcp = mac.prints(aside=False)
    status, out = mac.sh("cmake --install %s && mv /usr/local/libexec/pmda-darwin/darwin/pmda_darwin.so "
                         "/usr/local/libexec/pmda-darwin/darwin/pmda_darwin.dylib" % BUILD)
    check("cmake --install into /usr/local, PCP's prefix, succeeds", status == 0, out)
    mac.pcp_unchanged(pcp, "cmake --install")
    status, out = mac.sh("/usr/local/bin/pmda-darwin install")
    check("/usr/local/bin/pmda-darwin install succeeds", status == 0, out)
    mac.pcp_unchanged(pcp, "the from-source install")
    mac.ours_new_inodes(pcp, "the from-source install")
    mac.serves_ours("the from-source install")

    # 7. Install and Remove where PCP's agents keep theirs.
    pmdas = mac.conf["PCP_PMDAS_DIR"]
    status, out = mac.sh("cd %s/darwin && ./Install && cd %s/proc && ./Install" % (pmdas, pmdas))
    check("Install run in $PCP_PMDAS_DIR registers the placed agents again", status == 0, out)
    mac.pcp_unchanged(pcp, "Install in $PCP_PMDAS_DIR")
    mac.serves_ours("Install in $PCP_PMDAS_DIR")
    status, out = mac.sh("cd %s/proc && ./Remove && cd %s/darwin && ./Remove" % (pmdas, pmdas))
    check("Remove run in $PCP_PMDAS_DIR succeeds", status == 0, out)
    check("... and puts PCP's files and agents back", only_edited(pcp, mac.prints(aside=False))
          and mac.agent_lines() == pcp_lines, diff(pcp, mac.prints(aside=False)))

    unreadable_snapshot(mac)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def install_says(log):
    """Install's messages: it replaces PCP's agents and says so, and
    pmdaproc.sh finds every metric of the table."""
    check("Install says it replaces PCP's darwin and proc agents, and that Remove puts them back",
          all("Replacing the agent that pmcd.conf has for domain %s" % d in log for d in ("78 / darwin", "3 / proc"))
          and log.count("Remove puts it back.") == 2, log)
    # pmdaproc.sh warns once for each metric that reports an error: here the
    # 19 network metrics macOS withholds or lacks (TCP statistics, TIME_WAIT,
    # RTO bounds), mem.compressor.major_compactions and the 3 Linux memory
    # names pcp free reads, the 10 Linux CPU names (I/O wait, interrupt and
    # steal time, interrupt counts, for all CPUs and each) that macOS does not
    # count, the 9 NFS server metrics (no server has run), the CPU
    # proximity and ambient temperatures (Apple Silicon has no such sensor),
    # the Neural Engine's 3 (the fixture's Mac has none) and the CPU's power
    # from SMC rails (known on the M3 Max only; the fixture is an M2).
    darwin = log[log.index("installing the darwin agent"):log.index("installing the proc agent")]
    metrics = sum(int(m) for m in re.findall(r"(\d+) metrics and \d+ values", darwin))
    warnings = sum(int(w) for w in re.findall(r"(\d+) warnings,", darwin))
    names = len(metric_names("darwin"))
    without_source = 48
    check("Install finds all %d metrics of the table, every one with a value but the %d without a source here"
          % (names, without_source), metrics == names and warnings == without_source,
          "%d metrics, %d warnings" % (metrics, warnings))


def tools_work(mac):
    """What PCP's tools read for the agent is where they look by default."""
    config = os.path.join(SOURCE, "config")
    count = {d: len(os.listdir(os.path.join(config, d))) for d in ("pmchart", "pmieconf/darwin", "pmlogconf/darwin")}
    var = mac.conf["PCP_VAR_DIR"]
    status, out = mac.sh("ls %s/config/pmchart/macOS.* | wc -l; pminfo -t kernel.all.cpu.user" % var)
    check("the %d pmchart views are where pmchart finds them, and the help text reaches clients" % count["pmchart"],
          out.split()[0] == str(count["pmchart"]) and "user mode" in out, out)
    status, out = mac.sh("pmieconf list darwin | grep -c '^  rule: darwin\\.'")
    check("pmieconf lists the %d darwin rules" % count["pmieconf/darwin"], out.strip() == str(count["pmieconf/darwin"]),
          out)
    status, out = mac.sh("%s/pmlogconf -c -q /tmp/pmlogger.config >/dev/null; grep -c '^#+ darwin/' /tmp/pmlogger.config"
                         % mac.conf["PCP_BINADM_DIR"])
    check("pmlogconf offers the %d darwin groups" % count["pmlogconf/darwin"],
          out.strip() == str(count["pmlogconf/darwin"]), out)
    status, out = mac.sh("env -u PCP_DERIVED_CONFIG pminfo -d kernel.cpucluster.mhz")
    check("the derived metrics are where PCP's clients find them when nothing else is named",
          "Units: count / microsec" in out, out)
    status, out = mac.sh("pmrep -t 1 -s 2 :darwin-macstat")
    check("pmrep :darwin-macstat works without -c", " Normal " in out.strip().splitlines()[-1], out)
    status, out = mac.sh("pcp dstat --nocolor 1 2")
    check("pcp dstat's default report works with the macOS plugins, PCP's Linux ones set aside",
          "usr sys idl" in out and not re.search("invalid|traceback", out, re.I)
          and os.path.exists(mac.root.at(STATE + "/aside" + mac.conf["PCP_SYSCONF_DIR"] + "/dstat/sys")), out)
    htop = mac.root.at(mac.conf["PCP_SYSCONF_DIR"] + "/htop/")
    check("the pcp-htop columns and meters are where pcp-htop looks: %s{columns,meters}/darwin" % htop,
          all(same(os.path.join(config, "htop", d, "darwin"), htop + d + "/darwin") for d in ("columns", "meters")))
    rules = mac.root.at(var + "/config/pmlogrewrite/")
    check("the pmlogrewrite rules are in place: darwin.conf (PCP's set aside) and darwin_proc.conf",
          same(os.path.join(SOURCE, "pmlogrewrite", "darwin.conf"), rules + "darwin.conf")
          and same(os.path.join(SOURCE, "pmlogrewrite", "proc.conf"), rules + "darwin_proc.conf"))


def proc_access(mac):
    """The proc agent sees every process; owner-only data reaches root over
    pmcd's unix socket, and no TCP client without credentials."""
    status, out = mac.sh("pminfo -f proc.nprocs proc.psinfo.cwd")
    check("the proc agent serves processes, and root sees every cwd",
          re.search(r"proc.nprocs\s+value [89]\b", out) and '"000731 python3.12"] value' in out and "/Users/bob" in out,
          out)
    status, out = mac.sh("pminfo -h 127.0.0.1 -f proc.psinfo.cwd")
    check("a TCP client without credentials sees no cwd", "permission" in out.lower() and "/Users" not in out, out)
    access = mac.conf["PCP_SYSCONF_DIR"] + "/proc/access.conf"
    check("PCP's access policy (the same syntax) is kept", same(mac.package.entries[access].payload, mac.root.at(access)))


def unreadable_snapshot(mac):
    """A snapshot pmcd's user cannot read: the agent loads, its metrics have
    no values, and pmcd's log says why, once."""
    hidden = "/private/var/db/pmda-darwin-private"
    os.makedirs(mac.root.at(hidden), mode=0o700)
    shutil.copy(FIXTURE, mac.root.at(hidden))
    env = {"PMDA_DARWIN_SNAPSHOT": hidden + "/" + os.path.basename(FIXTURE)}
    mac.sh(mac.conf["PCP_RC_DIR"] + "/pmcd restart", env=env)
    status, out = mac.sh("pmda-darwin install darwin", env=env)
    log = open(mac.root.at(mac.conf["PCP_LOG_DIR"] + "/pmcd/pmcd.log")).read()
    check("an unreadable snapshot: pmcd's log names the file, the reason and the agent's user, once",
          log.count("%s: cannot open snapshot: Permission denied (the agent runs as user %s, uid"
                    % (env["PMDA_DARWIN_SNAPSHOT"], mac.conf["PCP_USER"])) == 1, log)
    values = mac.sh("pminfo -f hinv.ncpu")[1]
    healthy = mac.sh("pminfo -f pmcd.version")[1]
    check("an unreadable snapshot: no values, and pmcd stays healthy",
          "hinv.ncpu" in values and " value " not in values and "value" in healthy, values + healthy)
    status, out = mac.sh("pmda-darwin remove")
    check("and Remove after it gives PCP's agent back", status == 0, out)


def same(a, b):
    return os.path.exists(b) and open(a, "rb").read() == open(b, "rb").read()


def only_edited(before, now):
    return all(before[p] == now[p] or p.endswith(EDITED_BY_PCP) for p in before)


def diff(before, now):
    return "\n".join("%s: %s -> %s" % (p, before[p], now[p]) for p in before
                     if before[p] != now[p] and not p.endswith(EDITED_BY_PCP))


def notify(mac, arguments):
    """Run the launchd agent's command as a user in its login session would,
    with osascript's double: Apple's osascript runs the AppleScript given with
    -e, and "display notification TEXT with title T" shows TEXT in
    Notification Center (Apple's Mac Automation Scripting Guide, "Displaying
    Notifications"); the double writes the script it was given to a file."""
    bin_dir = mac.root.at("/private/tmp/osascript-double")
    os.makedirs(bin_dir, exist_ok=True)
    os.chmod(bin_dir, 0o777)
    with open(os.path.join(bin_dir, "osascript"), "w") as f:
        f.write('#!/bin/sh\n[ "$1" = -e ] && printf "%s\\n" "$2" >> /private/tmp/osascript-double/shown\n')
    os.chmod(os.path.join(bin_dir, "osascript"), 0o755)
    command = " ".join("'%s'" % a for a in arguments)
    mac.sh(command, user="nobody:nogroup",
           env={"PATH": "/private/tmp/osascript-double:/usr/local/bin:/usr/bin:/bin", "HOME": "/private/tmp"})
    shown = os.path.join(bin_dir, "shown")
    if not os.path.exists(shown):
        return "(no notification)"
    text = open(shown).read()
    os.unlink(shown)
    return text


if __name__ == "__main__":
    sys.exit(main())
