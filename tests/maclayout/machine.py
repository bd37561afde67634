"""A Mac's filesystem on this Linux machine, for the package double.

A root of its own, as a Mac lays out its top: /etc, /var and /tmp are links
to /private/etc, /private/var and /private/tmp; /usr is this machine's
(read-only, so nothing can write into the system's programs) with a
/usr/local of the root's own, where PCP's macOS package lives. Commands run
chrooted in it, with a clean environment, inside the private mount, PID
and network namespaces the test runs in (tests/maclayout/run.sh).
"""
import os
import shutil
import subprocess

# pmcd's agents read the snapshot named here; the root keeps a copy where
# pmcd's unprivileged user can read it.
SNAPSHOT_DIR = "/private/var/db/pmda-darwin-test"


class MacRoot:
    def __init__(self, path):
        self.path = path

    def __str__(self):
        return self.path

    def at(self, path):
        """PATH inside the root, as a path on this machine."""
        return self.path + path

    def build(self, snapshot, shares=()):
        """Make the root: the Mac's top, this machine's /usr and /etc (its
        users, libraries' cache, alternatives) without PCP's, and SHARES
        (directories of this machine seen at the same paths inside)."""
        r = self.path
        shutil.rmtree(r, ignore_errors=True)
        for d in ("private/etc", "private/var/db", "private/var/log", "private/var/run", "private/var/lib",
                  "private/var/tmp", "private/tmp", "usr", "dev", "proc", "Library/LaunchAgents", "root",
                  "opt/homebrew"):
            os.makedirs(os.path.join(r, d))
        os.chmod(os.path.join(r, "private/tmp"), 0o1777)
        os.chmod(os.path.join(r, "private/var/tmp"), 0o1777)
        for name, value in (("etc", "private/etc"), ("var", "private/var"), ("tmp", "private/tmp")):
            os.symlink(value, os.path.join(r, name))
        for name in os.listdir("/"):
            if os.path.islink("/" + name) and os.readlink("/" + name).startswith("usr/"):
                os.symlink(os.readlink("/" + name), os.path.join(r, name))
        self.copy_etc()
        mounts = [["--bind", "/usr", r + "/usr"], ["-o", "remount,bind,ro", r + "/usr"],
                  ["-t", "tmpfs", "tmpfs", r + "/usr/local"], ["--rbind", "/dev", r + "/dev"],
                  ["-t", "proc", "proc", r + "/proc"]]
        for share in shares:
            os.makedirs(r + share, exist_ok=True)
            mounts.append(["--bind", share, r + share])
        for args in mounts:
            subprocess.run(["mount"] + args, check=True)
        os.makedirs(self.at(SNAPSHOT_DIR))
        shutil.copy(snapshot, self.at(SNAPSHOT_DIR))
        os.chmod(self.at(SNAPSHOT_DIR), 0o755)
        self.snapshot = os.path.join(SNAPSHOT_DIR, os.path.basename(snapshot))

    def copy_etc(self):
        """This machine's /etc, without the installed PCP's own files."""
        target = self.at("/private/etc")
        for name in os.listdir("/etc"):
            if name.startswith("pcp") or name in ("init.d", "rc0.d", "rc1.d", "rc2.d", "rc3.d", "rc4.d",
                                                  "rc5.d", "rc6.d", "rcS.d"):
                continue
            src, dst = os.path.join("/etc", name), os.path.join(target, name)
            if os.path.islink(src):
                os.symlink(os.readlink(src), dst)
            elif os.path.isdir(src):
                shutil.copytree(src, dst, symlinks=True, ignore_dangling_symlinks=True)
            elif os.path.isfile(src):
                shutil.copy2(src, dst)

    def env(self, extra=None):
        env = {"PATH": "/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": "/root", "LC_ALL": "C",
               "TERM": "dumb", "PCP_DERIVED_CONFIG": "", "PMDA_DARWIN_SNAPSHOT": self.snapshot}
        env.update(extra or {})
        return env

    def args(self, command, user=None, env=None):
        chroot = ["chroot"] + (["--userspec=" + user] if user else []) + [self.path]
        return chroot + ["/usr/bin/env", "-i"] + ["%s=%s" % kv for kv in self.env(env).items()] + ["/bin/sh", "-c",
                                                                                                 command]

    def start(self, command, env=None):
        """Start the shell COMMAND chrooted in the root; its Popen."""
        return subprocess.Popen(self.args(command, env=env), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, text=True)

    def run(self, command, user=None, env=None, stdin=subprocess.DEVNULL, timeout=300):
        """Run the shell COMMAND chrooted in the root; (status, output)."""
        try:
            done = subprocess.run(self.args(command, user, env), stdin=stdin, stdout=subprocess.PIPE,
                                  stderr=subprocess.STDOUT, text=True, timeout=timeout)
        except subprocess.TimeoutExpired as e:
            return 124, (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return done.returncode, done.stdout
