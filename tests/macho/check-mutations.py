#!/usr/bin/env python3
"""The Mach-O checker refuses what a Mac would refuse. It runs
check-macho.py on copies of the release's module (a universal MH_DYLIB,
arm64 signed by the linker), each edited after linking as a careless step
would edit it, and expects each refused with the slice and the page or
command named; the untouched copy, and one edited by a tool that signs it
again, must pass.

usage: check-mutations.py MODULE WORK_DIR
"""
import os
import re
import shutil
import struct
import subprocess
import sys

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
import macho_file  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CHECKER = os.path.join(HERE, "check-macho.py")
UNSIGNED_TOOL = os.path.join(HERE, "install-name-tool-unsigned.py")
INSTALL_NAME_TOOL = subprocess.run([os.path.join(HERE, "../../scripts/find-llvm.sh"), "llvm-install-name-tool"],
                                   check=True, capture_output=True, text=True).stdout.strip()
# Where Homebrew would rewrite the module's own name to (its keg).
KEG_ID = "/opt/homebrew/opt/pmda-darwin/libexec/pmda-darwin/darwin/pmda_darwin.dylib"


def arm64(path):
    with open(path, "rb") as f:
        return next(s for s in macho_file.read(f.read()) if s.arch == "arm64")


def patch(path, offset, new):
    with open(path, "r+b") as f:
        f.seek(offset)
        f.write(new)


def flip_text_byte(path):
    """One byte in the middle of arm64's __TEXT,__text; returns its offset in the slice."""
    thin = arm64(path)
    text = next(s for s in thin.sections if s.name == "__TEXT,__text")
    at = text.offset + text.size // 2
    patch(path, thin.file_offset + at, bytes([thin.data[at] ^ 0xFF]))
    return at


def shorten_code_limit(path):
    """arm64's CodeDirectory covers one page less than the file up to its signature."""
    thin = arm64(path)
    dataoff = thin.code_signature[0]
    # CS_SuperBlob's BlobIndex for the CodeDirectory's slot (0), and
    # CS_CodeDirectory's codeLimit and pageSize (osfmk/kern/cs_blobs.h
    # L110, L212-225, L270-280)
    (count,) = struct.unpack_from(">I", thin.data, dataoff + 8)
    index = [struct.unpack_from(">II", thin.data, dataoff + 12 + 8 * i) for i in range(count)]
    cd = dataoff + next(offset for slot, offset in index if slot == 0)
    (code_limit,) = struct.unpack_from(">I", thin.data, cd + 32)
    page = 1 << thin.data[cd + 39]
    patch(path, thin.file_offset + cd + 32, struct.pack(">I", code_limit - page))


def drop_signature_command(path):
    """arm64's LC_CODE_SIGNATURE made a command dyld ignores (no LC_REQ_DYLD bit): unsigned."""
    thin = arm64(path)
    command = struct.pack("<IIII", macho_file.LC_CODE_SIGNATURE, 16, *thin.code_signature)
    at = thin.data.index(command, 0, thin.commands_end)
    patch(path, thin.file_offset + at, struct.pack("<I", 0x7F))


def main():
    module, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    bare = os.path.basename(arm64(module).loads[0][1])      # e.g. libpcp_pmda.3.dylib
    results = []

    def case(name, edit, refused):
        """Copy the module, edit it, run the checker; refused(output, edit's result) says what must fail."""
        # The copy keeps the module's name: LLVM's tools sign with the file's
        # name as the identifier, and a longer one would move the signature.
        os.makedirs(os.path.join(work, re.sub(r"\W+", "-", name)), exist_ok=True)
        copy = os.path.join(work, re.sub(r"\W+", "-", name), os.path.basename(module))
        shutil.copyfile(module, copy)
        edited = edit(copy)
        run = subprocess.run([sys.executable, CHECKER, "--filetype", "MH_DYLIB", "--arch", "arm64",
                              "--arch", "x86_64", copy], capture_output=True, text=True)
        out = run.stdout + run.stderr
        good = run.returncode == 0 if refused is None else bool(run.returncode == 1 and refused(out, edited))
        print(("ok - " if good else "not ok - ") + name)
        if not good:
            print(out)
        results.append(good)

    def page_named(out, offset, part):
        """A refused arm64 page whose range holds offset and whose contents include part."""
        for start, end, parts in re.findall(r" arm64: page \d+ \((0x[0-9a-f]+)-(0x[0-9a-f]+): ([^)]*)\)", out):
            if int(start, 16) <= offset < int(end, 16) and part in parts:
                return True
        return False

    case("the untouched module passes", lambda p: None, None)
    case("llvm-install-name-tool -id, which signs again, passes",
         lambda p: subprocess.run([INSTALL_NAME_TOOL, "-id", KEG_ID, p], check=True), None)
    case("-id with the old signature left: arm64 page 0 (the load commands) refused",
         lambda p: subprocess.run([sys.executable, UNSIGNED_TOOL, "-id", KEG_ID, p], check=True),
         lambda out, _: page_named(out, 0, "Mach-O header and load commands"))
    case("one byte flipped in __TEXT,__text: the arm64 page holding it refused",
         flip_text_byte, lambda out, at: page_named(out, at, "__TEXT,__text"))
    case(f"-change to the bare name {bare}: refused in both slices",
         lambda p: subprocess.run([INSTALL_NAME_TOOL, "-change", arm64(p).loads[0][1], bare, p], check=True),
         lambda out, _: all(f"{arch}: LC_LOAD_DYLIB {bare}: not an absolute path" in out
                            for arch in ("arm64", "x86_64")))
    rpath_name = "@rpath/" + bare

    def to_rpath(path, *rpath):
        loaded = arm64(path).loads[0][1]
        subprocess.run([INSTALL_NAME_TOOL, "-change", loaded, rpath_name, *rpath, path], check=True)

    case(f"-change to {rpath_name} with no LC_RPATH: refused", to_rpath,
         lambda out, _: f"arm64: LC_LOAD_DYLIB {rpath_name}: @rpath with no absolute LC_RPATH" in out)
    case(f"-change to {rpath_name} and an absolute LC_RPATH: passes",
         lambda p: to_rpath(p, "-add_rpath", os.path.dirname(arm64(p).loads[0][1])), None)
    case("a codeLimit one page short of the signature: refused", shorten_code_limit,
         lambda out, _: re.search(r" arm64: CodeDirectory \(slot 0x0\): codeLimit 0x[0-9a-f]+ is not where", out))
    case("no LC_CODE_SIGNATURE in arm64: refused", drop_signature_command,
         lambda out, _: " arm64: no code signature" in out)
    print(f"{results.count(True)} passed, {results.count(False)} failed")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
