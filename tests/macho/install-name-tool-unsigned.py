#!/usr/bin/env python3
"""A careless post-link step: an install_name_tool that rewrites a Mach-O's
library names in its load commands, in every slice, and leaves every other
byte as it was, the code signature too, which then no longer matches the
page that holds the load commands. cctools-port's install_name_tool does
this (tpoechtrager/osxcross issue 410: the result fails codesign --verify),
and Xcode's warns that its "changes being made to the file will invalidate
the code signature". LLVM's llvm-install-name-tool cannot stand in: it
writes a new signature, and lays out __LINKEDIT anew doing so.

A longer name grows its command into the free space between the load
commands and the first section (the header pad), as install_name_tool does.

usage: install-name-tool-unsigned.py [-id NAME] [-change OLD NEW]... FILE
"""
import struct
import sys

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
import macho_file  # noqa: E402


def renamed(command, name):
    """A dylib_command (loader.h L684-689) with another name, padded to 8 bytes."""
    (offset,) = struct.unpack_from("<I", command, 8)
    text = name.encode() + b"\0"
    text += bytes(-(offset + len(text)) % 8)
    return struct.pack("<II", struct.unpack_from("<I", command)[0], offset + len(text)) + command[8:offset] + text


def edit(thin, new_id, changes):
    """The slice's bytes with its names changed; the rest where it was."""
    commands = []
    for cmd, command in thin.commands:
        if cmd == macho_file.LC_ID_DYLIB and new_id:
            command = renamed(command, new_id)
        elif cmd in macho_file.DYLIB_LOADS and macho_file.command_name(command) in changes:
            command = renamed(command, changes[macho_file.command_name(command)])
        commands.append(command)
    area = b"".join(commands)
    start = macho_file.MACH_HEADER_64.size
    room = min(s.offset for s in thin.sections) - start
    if len(area) > room:
        sys.exit(f"{thin.arch}: {len(area)} bytes of load commands do not fit in {room}")
    data = bytearray(thin.data)
    # mach_header_64's sizeofcmds (loader.h L78), then the commands, zeros after
    struct.pack_into("<I", data, 20, len(area))
    data[start:start + room] = area + bytes(room - len(area))
    return data


def main():
    args, new_id, changes = sys.argv[1:-1], None, {}
    while args:
        if args[0] == "-id":
            new_id, args = args[1], args[2:]
        elif args[0] == "-change":
            changes[args[1]], args = args[2], args[3:]
        else:
            sys.exit(__doc__.split("usage: ")[1])
    path = sys.argv[-1]
    with open(path, "rb") as f:
        data = bytearray(f.read())
    for thin in macho_file.read(bytes(data)):
        data[thin.file_offset:thin.file_offset + len(thin.data)] = edit(thin, new_id, changes)
    with open(path, "wb") as f:
        f.write(data)


if __name__ == "__main__":
    main()
