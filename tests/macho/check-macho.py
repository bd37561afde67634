#!/usr/bin/env python3
"""Checks Mach-O files as a Mac would need them to load and run, each slice
on its own:

- the slices are exactly the architectures named (--arch, repeated) and
  each is of the file type named (--filetype MH_DYLIB or MH_EXECUTE);
- one LC_BUILD_VERSION: platform macOS, minimum MACOS_MINIMUM (the SDK it
  records is printed);
- every library it loads (LC_LOAD_DYLIB, _WEAK_, REEXPORT_, LAZY_LOAD_,
  _UPWARD_) is named by an absolute path, or by @rpath/ when the slice has
  an absolute LC_RPATH to resolve it from. Anything else fails: dyld looks
  for a bare leaf name such as libpcp.4.dylib in the working directory
  only (its search is quoted in performancecopilot/pcp pull request 2300),
  and a relative or @loader_path name depends on where the file is put;
- its code signature verifies (code_signature.py): required in an arm64
  slice, where the kernel kills unsigned code; checked in any other slice
  that has one.

usage: check-macho.py --filetype TYPE --arch ARCH [--arch ARCH] FILE...
Prints "ok -" or "not ok -" per slice and exits 1 if any is not ok.
"""
import argparse
import sys

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
import code_signature  # noqa: E402
import macho_file  # noqa: E402

MACOS_MINIMUM = "13.0"      # README: the release's binaries need macOS 13 or later
PLATFORM_MACOS = 1          # EXTERNAL_HEADERS/mach-o/loader.h L1276
SIGNATURE_REQUIRED = {"arm64"}


def load_problem(name, rpaths):
    """Why dyld could not find a library by this load name, or None."""
    if name.startswith("/"):
        return None
    if name.startswith("@rpath/"):
        if any(path.startswith("/") for path in rpaths):
            return None
        return f"{name}: @rpath with no absolute LC_RPATH to resolve it"
    return f"{name}: not an absolute path"


def check_slice(thin, filetype):
    """The slice's problems and a summary of what it is."""
    problems, summary = [], [thin.filetype]
    if thin.filetype != filetype:
        problems.append(f"file type {thin.filetype}, not {filetype}")
    if len(thin.build_versions) != 1:
        problems.append(f"{len(thin.build_versions)} LC_BUILD_VERSION commands, not one")
    for platform, minos, sdk in thin.build_versions:
        summary.append(f"minimum macOS {macho_file.version(minos)}, SDK {macho_file.version(sdk)}")
        if platform != PLATFORM_MACOS:
            problems.append(f"LC_BUILD_VERSION platform {platform}, not macOS ({PLATFORM_MACOS})")
        if macho_file.version(minos) != MACOS_MINIMUM:
            problems.append(f"minimum macOS {macho_file.version(minos)}, not {MACOS_MINIMUM}")
    for command, name in thin.loads:
        problem = load_problem(name, thin.rpaths)
        if problem:
            problems.append(f"{command} {problem}")
    summary.append("loads " + ", ".join(name for _, name in thin.loads))
    if thin.code_signature is not None or thin.arch in SIGNATURE_REQUIRED:
        verdict = code_signature.verify(thin)
        problems += verdict.problems
        summary += verdict.summary
    else:
        summary.append("unsigned")
    return problems, summary


def check_file(path, archs, filetype):
    """Prints each slice's verdict; returns the number of slices not ok."""
    try:
        with open(path, "rb") as f:
            slices = macho_file.read(f.read())
    except (OSError, macho_file.MachOError) as e:
        print(f"not ok - {path}: {e}")
        return 1
    failed = 0
    found = [s.arch for s in slices]
    if sorted(found) != sorted(archs):
        print(f"not ok - {path}: slices {' '.join(found)}, not {' '.join(archs)}")
        failed += 1
    for thin in slices:
        problems, summary = check_slice(thin, filetype)
        if problems:
            failed += 1
            for problem in problems:
                print(f"not ok - {path} {thin.arch}: {problem}")
        else:
            print(f"ok - {path} {thin.arch}: " + "; ".join(summary))
    return failed


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--filetype", required=True, choices=["MH_DYLIB", "MH_EXECUTE"])
    parser.add_argument("--arch", action="append", required=True, choices=sorted(code_signature.PAGE_SHIFTS))
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    failed = sum(check_file(path, args.arch, args.filetype) for path in args.files)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
