"""A test double of PCP 7's macOS package, in a root of its own.

PCP's macOS .pkg installs its files the way PCP's build lays them out for
macOS (performancecopilot/pcp 918d12b68b):

- Makepkgs L316-327: configure --prefix=/usr/local --sysconfdir=/private/etc
  --localstatedir=/private/var (realpath of /etc and /var), and /etc and /var
  are links to them on a Mac;
- configure.ac L3332-3361, L3541-3556, L3603-3614: PCP_BINADM_DIR and
  PCP_PMDASADM_DIR under /usr/local/libexec/pcp, PCP_VAR_DIR
  /private/var/lib/pcp, PCP_RC_DIR $sysconfdir/init.d, PCP_RUN_DIR
  /private/var/run/pcp (a Mac has no /run);
- install-sh L94-121, L300-325 and src/pmdas/darwin/GNUmakefile L52-61,
  src/pmdas/darwin_proc/GNUmakefile L50-57: an agent's files go to
  $PCP_PMDASADM_DIR/AGENT and $PCP_PMDAS_DIR/AGENT holds symlinks to them;
  root_darwin and root_proc likewise in the PMNS directory, and each
  pmlogrewrite rule file lives in /etc/pcp/pmlogrewrite with a link from
  $PCP_VAR_DIR/config/pmlogrewrite; build/mac/GNUmakefile (idb:) turns each
  symlink into an idb entry whose value is the link's own directory followed
  by the relative path, and build/mac/install-pcp makes it with ln -s -f /SOURCE;
- src/pmns/GNUmakefile L55-72: the package installs $PCP_PMNS_DIR/.NeedRebuild,
  so src/pmcd/rc_pmcd L106-133 runs "Rebuild -u" at pmcd's next start;
- build/mac/install-pcp (_install_file): every entry is "replace": an
  existing file or link is removed and installed again, a directory kept;
  build/mac/uninstall-pcp.in L147-154: --force then removes /etc/pcp,
  /var/lib/pcp and /var/log/pcp whole.

The files are the installed PCP's own (this machine's Debian package, PCP 6
or 7), copied to where the macOS package puts them, with PCP_PLATFORM=darwin
so that PCP's own scripts (pmdaproc.sh, Rebuild, the rc script) take their
macOS branches. PCP's darwin and darwin_proc agents are not built on Linux:
their entries hold stand-ins (this build's agents with a marker appended, so
that they run and can be told apart from pmda-darwin's files; upstream's
namespace from tests/upstream/*-compat.tsv; files of our own words where
only the name matters).
"""
import hashlib
import os
import pwd
import shutil
import stat
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, os.path.join(SOURCE, "tests", "upstream"))
from pmns import upstream_pmns  # noqa: E402  (tests/upstream is not a package)

# Where PCP's macOS package puts each directory PCP's build names
# (configure.ac as cited above, with Makepkgs' prefixes).
MAC = {
    "PCP_ETC_DIR": "/private/etc",
    "PCP_SYSCONF_DIR": "/private/etc/pcp",
    "PCP_RC_DIR": "/private/etc/init.d",
    "PCP_SYSCONFIG_DIR": "/private/etc/sysconfig",
    "PCP_BIN_DIR": "/usr/local/bin",
    "PCP_BINADM_DIR": "/usr/local/libexec/pcp/bin",
    "PCP_LIBADM_DIR": "/usr/local/libexec/pcp/lib",
    "PCP_LIB_DIR": "/usr/local/lib",
    "PCP_LIB32_DIR": "/usr/local/lib",
    "PCP_SHARE_DIR": "/usr/local/share/pcp",
    "PCP_INC_DIR": "/usr/local/include/pcp",
    "PCP_MAN_DIR": "/usr/local/share/man",
    "PCP_VAR_DIR": "/private/var/lib/pcp",
    "PCP_PMDAS_DIR": "/private/var/lib/pcp/pmdas",
    "PCP_PMDASADM_DIR": "/usr/local/libexec/pcp/pmdas",
    "PCP_RUN_DIR": "/private/var/run/pcp",
    "PCP_LOG_DIR": "/private/var/log/pcp",
    "PCP_TMP_DIR": "/private/var/lib/pcp/tmp",
    "PCP_TMPFILE_DIR": "/private/var/tmp",
    "PCP_PLATFORM": "darwin",
}
PMNSADM = "/usr/local/libexec/pcp/pmns"     # configure.ac: $libexecdir/pcp/pmns

# The installed PCP's directories whose files the package double carries,
# and the agents (besides PCP's own pmcd agent) it leaves out: Linux's.
CARRIED = ["PCP_BINADM_DIR", "PCP_LIBADM_DIR", "PCP_SHARE_DIR", "PCP_SYSCONF_DIR"]
MARKER = b"\n\0PCP's own %s, a stand-in in pmda-darwin's test double of PCP's macOS package\n"


def host_conf(path="/etc/pcp.conf"):
    """The installed PCP's pcp.conf as a dict."""
    conf = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line.startswith("PCP_") and "=" in line:
                key, value = line.split("=", 1)
                conf[key] = value.strip('"')
    return conf


class Entry:
    """An idb line: d(irectory), f(ile) or s(ymlink) at PATH (absolute here),
    with the file's payload or the link's value."""

    def __init__(self, kind, path, mode=0o644, payload=None, value=None, owner=None):
        self.kind, self.path, self.mode, self.payload, self.value = kind, path, mode, payload, value
        self.owner = owner      # PCP's user where the package gives it the entry


class Package:
    """PCP's macOS package: its entries, built once from the installed PCP,
    and the three things a Mac does with it (install, reinstall over an
    existing install, uninstall --force)."""

    def __init__(self, work, module, pmdaproc):
        self.work = work
        self.payload = os.path.join(work, "payload")
        self.host = host_conf()
        self.conf = self.mac_conf()
        self.entries = {}
        shutil.rmtree(self.payload, ignore_errors=True)
        os.makedirs(self.payload)
        self.carry_installed_pcp()
        self.add_darwin_agents(module, pmdaproc)
        self.add_configuration()
        self.add_directories()

    # ---- what the package holds -------------------------------------------------

    def mac_path(self, path):
        """The installed PCP's PATH where the macOS package has it, or None."""
        best, target = "", None
        for host, mac in self.dirs_map.items():
            if (path == host or path.startswith(host + "/")) and len(host) > len(best):
                best, target = host, mac
        if target is None:
            for host, mac in (("/usr/", "/usr/local/"), ("/etc/", "/private/etc/"), ("/var/", "/private/var/")):
                if path.startswith(host):
                    return mac + path[len(host):]
            return None
        mac = target + path[len(best):]
        # a macOS agent DSO is a .dylib (pmcd.conf and pmdaproc.sh name it so)
        name = os.path.basename(mac)
        if name.startswith("pmda_") and name.endswith(".so"):
            mac = mac[:-len(".so")] + ".dylib"
        return mac

    def mac_conf(self):
        """pcp.conf as the macOS package writes it: its directories and files
        where the package puts them, the system's programs as they are."""
        self.dirs_map = {self.host[k]: v for k, v in MAC.items() if self.host.get(k, "").startswith("/")}
        self.dirs_map[self.host_pmnsadm()] = PMNSADM
        conf = {}
        for key, value in self.host.items():
            mapped = key.endswith("_DIR") or key.endswith("_PATH")
            conf[key] = MAC.get(key) or (self.mac_path(value) if mapped and value.startswith("/") else value)
        conf["PCP_PLATFORM"] = MAC["PCP_PLATFORM"]
        conf["PCP_PLATFORM_PATHS"] = "/usr/local/bin"
        return conf

    def host_pmnsadm(self):
        """The installed PCP's private PMNS directory: configure.ac puts it
        beside PCP_BINADM_DIR."""
        return os.path.join(os.path.dirname(self.host["PCP_BINADM_DIR"]), "pmns")

    def file(self, path, mode, data):
        """A package file at PATH with DATA (bytes)."""
        payload = os.path.join(self.payload, path.lstrip("/"))
        os.makedirs(os.path.dirname(payload), exist_ok=True)
        with open(payload, "wb") as f:
            f.write(data)
        self.entries[path] = Entry("f", path, mode, payload=payload)
        self.dirs(os.path.dirname(path))

    def link(self, path, value):
        self.entries[path] = Entry("s", path, value=value)
        self.dirs(os.path.dirname(path))

    def dirs(self, path):
        """PATH and the directories above it (a mode only where the package
        gives one: add_directories)."""
        while path not in ("/", "") and path not in self.entries:
            self.entries[path] = Entry("d", path, None)
            path = os.path.dirname(path)

    def admin_file(self, adm_dir, tmp_dir, name, mode, data):
        """install -t: the file in ADM_DIR, a link to it from TMP_DIR, its value
        as build/mac/GNUmakefile's idb rule and install-pcp make it."""
        target = os.path.join(adm_dir, name)
        self.file(target, mode, data)
        link = os.path.join(tmp_dir, name)
        up = "../" * len(os.path.dirname(link).strip("/").split("/"))
        self.link(link, os.path.dirname(link) + "/" + up + target.lstrip("/"))

    def carry(self, path):
        mac = self.mac_path(path)
        if mac is None:
            return
        if os.path.islink(path):
            value = os.path.normpath(os.path.join(os.path.dirname(path), os.readlink(path)))
            self.link(mac, self.mac_path(value) or value)
        elif os.path.isfile(path):
            with open(path, "rb") as f:
                self.file(mac, stat.S_IMODE(os.stat(path).st_mode), f.read())

    def carry_installed_pcp(self):
        """The installed PCP's own files and links, Linux's agents left out."""
        roots = [self.host[k] for k in CARRIED if self.host.get(k)] + [self.host_pmnsadm()]
        var = self.host["PCP_VAR_DIR"]
        roots += [os.path.join(var, "config"), os.path.join(var, "pmns"),
                  os.path.join(self.host["PCP_PMDAS_DIR"], "pmcd"), os.path.join(self.host["PCP_PMDASADM_DIR"], "pmcd")]
        for root in roots:
            for top, dirs, files in os.walk(root):
                dirs.sort()
                for name in sorted(files) + [d for d in dirs if os.path.islink(os.path.join(top, d))]:
                    path = os.path.join(top, name)
                    if os.path.basename(top) == "pmns" and name.startswith("root") and name != "root_pmcd":
                        continue        # Linux's agents' namespaces, and the PMNS itself (Rebuild makes it)
                    if name == ".NeedRebuild":
                        continue        # the package's own is added below
                    self.carry(path)
        self.carry(os.path.join(self.host["PCP_RC_DIR"], "pmcd"))
        owner = subprocess.run(["dpkg", "-S", os.path.join(self.host["PCP_BINADM_DIR"], "pmcd")],
                               capture_output=True, text=True).stdout.split(":")[0]
        listed = subprocess.run(["dpkg", "-L", owner], capture_output=True, text=True).stdout.split()
        for path in listed:
            if any(path.startswith(self.host[k] + "/") for k in ("PCP_BIN_DIR", "PCP_MAN_DIR", "PCP_SYSCONFIG_DIR")):
                self.carry(path)

    def add_darwin_agents(self, module, pmdaproc):
        """PCP's darwin and darwin_proc agents, as their GNUmakefiles install them."""
        c = self.conf
        pmdas, adm, pmns = c["PCP_PMDAS_DIR"], c["PCP_PMDASADM_DIR"], c["PCP_VAR_DIR"] + "/pmns"
        rewrite, rewrite_var = c["PCP_SYSCONF_DIR"] + "/pmlogrewrite", c["PCP_VAR_DIR"] + "/config/pmlogrewrite"

        def stand_in(what):
            return (b"PCP's own %s: a stand-in in pmda-darwin's test double of PCP's macOS package\n"
                    % what.encode())

        def binary(path, what):
            with open(path, "rb") as f:
                return f.read() + MARKER % what.encode()

        for agent, domain, symbol, compat in (("darwin", 78, "DARWIN", "darwin-compat.tsv"),
                                              ("proc", 3, "PROC", "proc-compat.tsv")):
            pdir, tdir = adm + "/" + agent, pmdas + "/" + agent
            self.admin_file(pdir, tdir, "domain.h", 0o644, b"#define %s %d\n" % (symbol.encode(), domain))
            for help_file in ("help.dir", "help.pag"):
                self.admin_file(pdir, tdir, help_file, 0o644, stand_in(agent + " agent's " + help_file))
            names = upstream_pmns(os.path.join(SOURCE, "tests", "upstream", compat))
            self.admin_file(PMNSADM, pmns, "root_" + agent, 0o644, names)
            rule = agent + ".conf"
            self.admin_file(rewrite, rewrite_var, rule, 0o644, b"# " + stand_in(agent + " agent's pmlogrewrite rules"))
            if agent == "darwin":
                self.admin_file(pdir, tdir, "pmda_darwin.dylib", 0o755, binary(module, "darwin agent"))
                self.admin_file(pdir, tdir, "pmdadarwin", 0o755, stand_in("darwin agent as a daemon"))
                self.file(c["PCP_MAN_DIR"] + "/man1/pmdadarwin.1", 0o644, stand_in("pmdadarwin(1) page"))
            else:
                self.admin_file(pdir, tdir, "pmdaproc", 0o755, binary(pmdaproc, "darwin_proc agent"))
                self.admin_file(pdir, tdir, "pmda_proc.dylib", 0o755, stand_in("darwin_proc agent as a DSO"))
                for name in ("help", "root", "root_proc"):
                    self.admin_file(pdir, tdir, name, 0o644, names if name.startswith("root") else stand_in(name))
                for script in ("Install", "Remove"):
                    self.admin_file(pdir, tdir, script, 0o755, darwin_proc_script(script))
                self.file(c["PCP_SYSCONF_DIR"] + "/proc/access.conf", 0o644,
                          b"# " + stand_in("access policy (comments only, as PCP ships it)"))

    def add_configuration(self):
        """pcp.conf, pcp.env, pmcd.conf and .NeedRebuild as the package has them."""
        c = self.conf
        text = "".join("%s=%s\n" % (k, v) for k, v in sorted(c.items()))
        self.file(c["PCP_ETC_DIR"] + "/pcp.conf", 0o644, text.encode())
        with open(os.path.join(self.host.get("PCP_ETC_DIR", "/etc"), "pcp.env"), "rb") as f:
            self.file(c["PCP_ETC_DIR"] + "/pcp.env", 0o644, f.read())
        pmdas = c["PCP_PMDAS_DIR"]
        # the lines PMCDCONF_MAKERULE adds for the agents a macOS build makes
        pmcd_conf = ("pmcd\t2\tdso\tpmcd_init\t%s/pmcd/pmda_pmcd.dylib\n"
                     "darwin\t78\tdso\tdarwin_init\t%s/darwin/pmda_darwin.dylib\n"
                     "proc\t3\tpipe\tbinary\t\t%s/proc/pmdaproc -d 3\n"
                     "\n[access]\ndisallow \".*\" : store;\ndisallow \":*\" : store;\nallow \"local:*\" : all;\n"
                     % (pmdas, pmdas, pmdas))
        self.file(c["PCP_PMCDCONF_PATH"], 0o644, pmcd_conf.encode())
        self.file(c["PCP_VAR_DIR"] + "/pmns/.NeedRebuild", 0o644, b"the package's mark: rebuild the PMNS\n")

    def add_directories(self):
        """The directories PCP's makefiles install empty, with their modes
        and owners: GNUmakefile L83, L106; src/pmcd/GNUmakefile L37;
        src/pmlogger/GNUmakefile L89-90; src/pmie/GNUmakefile L75-76;
        src/pmproxy/GNUmakefile L59 (PCP 7 checks them before it starts
        pmcd)."""
        log, tmp = self.conf["PCP_LOG_DIR"], self.conf["PCP_TMP_DIR"]
        for path, mode, owned in ((log, 0o775, True), (log + "/pmcd", 0o755, False),
                                  (log + "/pmlogger", 0o775, True), (log + "/pmie", 0o775, True),
                                  (log + "/pmproxy", 0o775, True), (tmp, 0o775, True),
                                  (tmp + "/pmlogger", 0o775, True), (tmp + "/pmie", 0o775, True)):
            self.dirs(path)
            self.entries[path].mode = mode
            self.entries[path].owner = self.conf["PCP_USER"] if owned else None

    # ---- what a Mac does with it ----------------------------------------------

    def install(self, root):
        """install-pcp -i over ROOT: directories made, every file and link
        removed and installed again (the "replace" option of every entry)."""
        for kind in ("d", "f", "s"):
            for path in sorted(p for p, e in self.entries.items() if e.kind == kind):
                e, target = self.entries[path], root + path
                if kind == "d":
                    os.makedirs(target, exist_ok=True)
                    if e.mode is not None:
                        os.chmod(target, e.mode)
                    if e.owner:
                        user = pwd.getpwnam(e.owner)
                        os.chown(target, user.pw_uid, user.pw_gid)
                    continue
                if os.path.lexists(target):
                    if os.path.isdir(target) and not os.path.islink(target):
                        raise RuntimeError("install-pcp: %s exists but is a directory" % path)
                    os.unlink(target)
                if kind == "f":
                    shutil.copyfile(e.payload, target)
                    os.chmod(target, e.mode)
                else:
                    os.symlink(e.value, target)

    def uninstall_force(self, root):
        """uninstall-pcp --force: install-pcp -r (every file and link whose
        path names an existing file, then empty directories), then rm -rf
        of /etc/pcp, /var/lib/pcp and /var/log/pcp."""
        for kind in ("s", "f", "d"):
            for path in sorted((p for p, e in self.entries.items() if e.kind == kind), reverse=True):
                target = root + path
                if kind == "d":
                    try:
                        os.rmdir(target)
                    except OSError:
                        pass
                elif os.path.isfile(target):
                    os.unlink(target)
        for top in (self.conf["PCP_SYSCONF_DIR"], self.conf["PCP_VAR_DIR"], self.conf["PCP_LOG_DIR"]):
            shutil.rmtree(root + top, ignore_errors=True)

    def fingerprint(self, root, aside=None):
        """Each file and link entry as it is under ROOT: (type, link value or
        sha256, inode). With ASIDE (pmda-darwin's aside tree), an entry set
        aside there counts where it is."""
        prints = {}
        for path, e in self.entries.items():
            if e.kind != "d":
                held = aside and os.path.lexists(aside + path)
                prints[path] = describe((aside if held else root) + path)
        return prints


def describe(path):
    if not os.path.lexists(path):
        return ("absent",)
    st = os.lstat(path)
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path), st.st_ino)
    with open(path, "rb") as f:
        return ("file", hashlib.sha256(f.read()).hexdigest(), st.st_ino)


def darwin_proc_script(name):
    """PCP's darwin_proc Install and Remove, in our words: pmdaproc.sh with
    the agent's root_proc as its namespace."""
    return ("#! /bin/sh\n# PCP's darwin_proc %s: a stand-in in pmda-darwin's test double\n"
            ". $PCP_DIR/etc/pcp.env\n. $PCP_SHARE_DIR/lib/pmdaproc.sh\n"
            "iam=proc\ndaemon_opt=true\npipe_opt=true\npmns_source=root_proc\npmns_dupok=true\n"
            "pmdaSetup\npmda%s\nexit\n" % (name, name)).encode()
