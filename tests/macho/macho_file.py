"""A reader of the parts of a Mach-O file, thin or universal, that
check-macho.py checks: each slice's architecture, file type, build version,
the libraries it loads, its run paths, its code signature's place, its
segments and sections (to say where a bad page lies) and its load commands.

Layouts are Apple's, from apple-oss-distributions/xnu xnu-11417.101.15:
EXTERNAL_HEADERS/mach-o/fat.h (L48-62), EXTERNAL_HEADERS/mach-o/loader.h (the
lines cited below) and osfmk/mach/machine.h (L131-155). A universal file's
headers are big-endian; the slices this project ships (arm64, x86_64) are
64-bit little-endian, and nothing else is read.
"""
import struct
from dataclasses import dataclass, field

FAT_MAGIC = 0xCAFEBABE                  # fat.h L48, big-endian on disk
MH_MAGIC_64 = 0xFEEDFACF                # loader.h L84
MACH_HEADER_64 = struct.Struct("<IiiIIIII")   # struct mach_header_64, loader.h L72-81
CPU_ARCH_ABI64 = 0x01000000             # machine.h L131
ARCHS = {7 | CPU_ARCH_ABI64: "x86_64", 12 | CPU_ARCH_ABI64: "arm64"}   # machine.h L146-155
FILE_TYPES = {0x2: "MH_EXECUTE", 0x6: "MH_DYLIB", 0x8: "MH_BUNDLE"}     # loader.h L111-117

LC_REQ_DYLD = 0x80000000                # loader.h L261
LC_SEGMENT_64 = 0x19                    # loader.h L295
LC_ID_DYLIB = 0xD                       # loader.h L276
LC_RPATH = 0x1C | LC_REQ_DYLD           # loader.h L299
LC_CODE_SIGNATURE = 0x1D                # loader.h L300
LC_BUILD_VERSION = 0x32                 # loader.h L323
# Every command by which dyld loads a library (loader.h L275-307).
DYLIB_LOADS = {0xC: "LC_LOAD_DYLIB", 0x18 | LC_REQ_DYLD: "LC_LOAD_WEAK_DYLIB",
               0x1F | LC_REQ_DYLD: "LC_REEXPORT_DYLIB", 0x20: "LC_LAZY_LOAD_DYLIB",
               0x23 | LC_REQ_DYLD: "LC_LOAD_UPWARD_DYLIB"}


class MachOError(Exception):
    """The file is not a Mach-O this reader understands, or is cut short."""


@dataclass
class Section:
    name: str           # "__TEXT,__text"
    offset: int         # in the slice
    size: int


@dataclass
class Slice:
    arch: str
    data: bytes         # the slice alone: the offsets of its parts are relative to it
    filetype: str
    commands_end: int   # the header and load commands end here
    loads: list = field(default_factory=list)           # (command name, library name)
    rpaths: list = field(default_factory=list)
    build_versions: list = field(default_factory=list)  # (platform, minos, sdk) as encoded
    code_signature: tuple = None                        # (dataoff, datasize)
    segments: list = field(default_factory=list)        # a Section for each segment
    sections: list = field(default_factory=list)        # and for each section with file contents
    commands: list = field(default_factory=list)        # every load command: (cmd, its bytes)
    file_offset: int = 0    # where the slice starts in its file

    def parts(self, start, end):
        """What the bytes from start to end hold, for messages: the header and
        load commands, the sections, or a segment where no section is."""
        held = ["Mach-O header and load commands"] if start < self.commands_end else []
        held += [s.name for s in self.sections if s.offset < end and start < s.offset + s.size]
        if len(held) == 0:
            held = [s.name for s in self.segments if s.offset < end and start < s.offset + s.size]
        return ", ".join(held) or "no segment"


def read(data):
    """The slices of a thin or universal Mach-O file's bytes."""
    if len(data) >= 8 and struct.unpack_from(">I", data)[0] == FAT_MAGIC:
        (count,) = struct.unpack_from(">I", data, 4)
        slices = []
        for i in range(count):
            # struct fat_arch, fat.h L56-62: cputype, cpusubtype, offset, size, align
            cputype, _, offset, size, _ = _unpack(">iiIII", data, 8 + 20 * i, "fat_arch")
            if offset + size > len(data):
                raise MachOError(f"fat_arch {i} runs past the end of the file")
            thin = _read_thin(data[offset:offset + size])
            thin.file_offset = offset
            if ARCHS.get(cputype) != thin.arch:
                raise MachOError(f"fat_arch {i} says cputype {cputype:#x}, its slice is {thin.arch}")
            slices.append(thin)
        return slices
    return [_read_thin(data)]


def version(encoded):
    """X.Y.Z from loader.h's nibble encoding xxxx.yy.zz (L1265-1266)."""
    major, minor, patch = encoded >> 16, (encoded >> 8) & 0xFF, encoded & 0xFF
    return f"{major}.{minor}" + (f".{patch}" if patch else "")


def _unpack(fmt, data, offset, what):
    if offset < 0 or offset + struct.calcsize(fmt) > len(data):
        raise MachOError(f"{what} at {offset:#x} runs past the end of its data")
    return struct.unpack_from(fmt, data, offset)


def command_name(command, what="load command"):
    """The name a dylib, rpath or similar command holds: its first field after
    cmd and cmdsize is a union lc_str (loader.h L336-341), the offset in the
    command of a NUL-ended string."""
    (offset,) = _unpack("<I", command, 8, what)
    end = command.find(b"\0", offset)
    if offset < 12 or end < 0:
        raise MachOError(f"{what}: its name lies outside the command")
    return command[offset:end].decode("utf-8", "replace")


def _read_thin(data):
    magic, cputype, _, filetype, ncmds, sizeofcmds, _, _ = _unpack(
        MACH_HEADER_64.format, data, 0, "mach_header_64")
    if magic != MH_MAGIC_64:
        raise MachOError(f"magic {magic:#x}: not a 64-bit little-endian Mach-O")
    arch = ARCHS.get(cputype, f"cputype {cputype:#x}")
    thin = Slice(arch, data, FILE_TYPES.get(filetype, f"filetype {filetype:#x}"),
                 MACH_HEADER_64.size + sizeofcmds)
    if thin.commands_end > len(data):
        raise MachOError(f"{arch}: load commands run past the end of the slice")
    at = MACH_HEADER_64.size
    for i in range(ncmds):
        cmd, cmdsize = _unpack("<II", data, at, f"{arch} load command {i}")
        if cmdsize < 8 or at + cmdsize > thin.commands_end:
            raise MachOError(f"{arch}: load command {i} ({cmd:#x}) has size {cmdsize}")
        command = data[at:at + cmdsize]
        thin.commands.append((cmd, command))
        what = f"{arch} load command {i}"
        if cmd in DYLIB_LOADS:      # struct dylib_command, loader.h L684-689
            thin.loads.append((DYLIB_LOADS[cmd], command_name(command, what)))
        elif cmd == LC_RPATH:       # struct rpath_command, loader.h L1182-1186
            thin.rpaths.append(command_name(command, what))
        elif cmd == LC_CODE_SIGNATURE:   # struct linkedit_data_command, loader.h L1192-1202
            thin.code_signature = _unpack("<II", command, 8, what)
        elif cmd == LC_BUILD_VERSION:    # struct build_version_command, loader.h L1260-1267
            thin.build_versions.append(_unpack("<III", command, 8, what))
        elif cmd == LC_SEGMENT_64:       # struct segment_command_64, loader.h L375-386
            segname, _, _, fileoff, filesize, _, _, nsects, _ = _unpack("<16sQQQQiiII", command, 8, what)
            thin.segments.append(Section(_name(segname), fileoff, filesize))
            for s in range(nsects):      # struct section_64, loader.h L449-462: 80 bytes each
                sectname, segname, _, size, offset = _unpack("<16s16sQQI", command, 72 + 80 * s, what)
                if offset:      # zero-fill sections (__bss) have no bytes in the file
                    thin.sections.append(Section(f"{_name(segname)},{_name(sectname)}", offset, size))
        at += cmdsize
    return thin


def _name(raw):
    return raw.rstrip(b"\0").decode("ascii", "replace")
