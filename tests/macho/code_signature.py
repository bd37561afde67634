"""Verifies a Mach-O slice's embedded code signature as the kernel does when
it maps the file's pages: LC_CODE_SIGNATURE -> SuperBlob -> CodeDirectory,
every code page hashed and compared with its slot. On Apple Silicon a page
whose hash differs is refused and the process killed ("Code Signature
Invalid"), so a signature that does not verify here does not run there.

Structures and rules from apple-oss-distributions/xnu xnu-11417.101.15:
osfmk/kern/cs_blobs.h (magics L92-101, slots L110-128, hash types L133-143,
flags L37 and L55, CS_CodeDirectory L212-263, SuperBlob L270-283) and
bsd/kern/ubc_subr.c: cs_validate_codedirectory (L359-471) checks the
CodeDirectory's fields, cs_validate_csblob (L504-705) the SuperBlob and its
blobs, csblob_find_special_slot_blob (L794-846) a special slot against its
blob, cs_validate_hash (L5816-5974) hashes one page, the last one cut at
codeLimit. All fields are big-endian.
"""
import hashlib
import math
import struct

CSMAGIC_EMBEDDED_SIGNATURE = 0xFADE0CC0
CSMAGIC_CODEDIRECTORY = 0xFADE0C02
CSSLOT_CODEDIRECTORY = 0
CSSLOT_ALTERNATE_CODEDIRECTORIES = range(0x1000, 0x1005)
# Special slots whose content is a blob in the SuperBlob, with that blob's
# magic. Slots 1 (Info.plist) and 3 (the bundle's resources) hash files
# outside the binary and are not checked here.
EMBEDDED_SLOTS = {2: ("requirements", 0xFADE0C01), 5: ("entitlements", 0xFADE7171),
                  7: ("DER entitlements", 0xFADE7172),
                  **{slot: ("launch constraint", 0xFADE8181) for slot in range(8, 12)}}
# CS_HASHTYPE_* -> (name, digest, bytes kept in a slot): cs_blobs.h L133-143,
# ubc_subr.c L163-195 (cs_size is the slot, cs_digest_size the digest).
HASH_TYPES = {1: ("SHA-1", hashlib.sha1, 20), 2: ("SHA-256", hashlib.sha256, 32),
              3: ("SHA-256 truncated", hashlib.sha256, 20), 4: ("SHA-384", hashlib.sha384, 48)}
# ubc_subr.c L369: a page size of 4 KiB, or the kernel's own (16 KiB on
# Apple Silicon, osfmk/mach/arm/vm_param.h L100).
PAGE_SHIFTS = {"arm64": (12, 14), "x86_64": (12,)}
CS_CDHASH_LEN = 20
CS_ADHOC, CS_LINKER_SIGNED = 0x2, 0x20000
CS_SUPPORTSSCATTER = 0x20100
SUPERBLOB = struct.Struct(">III")
# CS_CodeDirectory up to pageSize, then spare2 and scatterOffset.
CODE_DIRECTORY = struct.Struct(">IIIIIIIIIBBBBII")


class Verdict:
    """What a signature check found: problems (empty when it verifies) and a summary."""

    def __init__(self):
        self.problems = []
        self.summary = []

    def bad(self, message):
        self.problems.append(message)


def verify(thin):
    """Checks the slice's code signature; a slice without one gets that problem."""
    verdict = Verdict()
    if thin.code_signature is None:
        verdict.bad("no code signature (no LC_CODE_SIGNATURE)")
        return verdict
    dataoff, datasize = thin.code_signature
    if dataoff + datasize > len(thin.data):
        verdict.bad(f"the signature ({dataoff:#x}+{datasize:#x}) runs past the slice's end ({len(thin.data):#x})")
        return verdict
    blob = thin.data[dataoff:dataoff + datasize]
    blobs = _superblob(blob, verdict)
    if blobs is None:
        return verdict
    directories = {slot: b for slot, b in blobs.items()
                   if slot == CSSLOT_CODEDIRECTORY or slot in CSSLOT_ALTERNATE_CODEDIRECTORIES}
    if not directories:
        verdict.bad("the SuperBlob has no CodeDirectory")
    seen_types = set()
    for slot, directory in sorted(directories.items()):
        hash_type = _code_directory(thin, dataoff, directory, blobs, verdict, f"CodeDirectory (slot {slot:#x})")
        if hash_type in seen_types:     # ubc_subr.c L590-593
            verdict.bad(f"two CodeDirectories of hash type {hash_type}")
        seen_types.add(hash_type)
    return verdict


def _superblob(blob, verdict):
    """The SuperBlob's blobs by slot, each cut to its own length; None if it is malformed."""
    if len(blob) < SUPERBLOB.size:
        verdict.bad("the signature is shorter than a SuperBlob")
        return None
    magic, length, count = SUPERBLOB.unpack_from(blob)
    if magic != CSMAGIC_EMBEDDED_SIGNATURE:
        verdict.bad(f"the signature's magic is {magic:#x}, not CSMAGIC_EMBEDDED_SIGNATURE")
        return None
    if length > len(blob) or SUPERBLOB.size + 8 * count > length:
        verdict.bad(f"the SuperBlob's length {length} or count {count} exceed its {len(blob)} bytes")
        return None
    blobs = {}
    for i in range(count):
        slot, offset = struct.unpack_from(">II", blob, SUPERBLOB.size + 8 * i)
        if offset + 8 > length or offset + struct.unpack_from(">I", blob, offset + 4)[0] > length:
            verdict.bad(f"the SuperBlob's blob {i} (slot {slot:#x}) runs past its end")
            return None
        if slot in blobs:
            verdict.bad(f"the SuperBlob has two blobs in slot {slot:#x}")
        blobs[slot] = blob[offset:offset + struct.unpack_from(">I", blob, offset + 4)[0]]
    return blobs


def _code_directory(thin, dataoff, cd, blobs, verdict, name):
    """Checks one CodeDirectory and every hash it holds; returns its hash type."""
    if len(cd) < CODE_DIRECTORY.size:
        verdict.bad(f"{name} is too short ({len(cd)} bytes)")
        return None
    (magic, length, version, flags, hash_offset, ident_offset, n_special, n_code, code_limit,
     hash_size, hash_type, _, page_shift, _, scatter_offset) = CODE_DIRECTORY.unpack_from(cd)
    if magic != CSMAGIC_CODEDIRECTORY:
        verdict.bad(f"{name}'s magic is {magic:#x}, not CSMAGIC_CODEDIRECTORY")
        return None
    if hash_type not in HASH_TYPES or HASH_TYPES[hash_type][2] != hash_size:
        verdict.bad(f"{name}: hash type {hash_type} with {hash_size}-byte slots is not one the kernel takes")
        return hash_type
    hash_name, digest, _ = HASH_TYPES[hash_type]
    if page_shift not in PAGE_SHIFTS[thin.arch]:
        verdict.bad(f"{name}: page size 2^{page_shift} is not one the {thin.arch} kernel takes")
        return hash_type
    if version >= CS_SUPPORTSSCATTER and scatter_offset:
        verdict.bad(f"{name} has a scatter vector, which no linked binary has and this check does not read")
        return hash_type
    if (hash_offset < n_special * hash_size or hash_offset + n_code * hash_size > length
            or ident_offset >= length or cd.find(b"\0", ident_offset) < 0):
        verdict.bad(f"{name}: its slots or identifier lie outside its {length} bytes")
        return hash_type
    page = 1 << page_shift
    # Every byte before the signature is covered, and only those: the kernel
    # refuses to map a page past codeLimit with this signature.
    if code_limit != dataoff:
        verdict.bad(f"{name}: codeLimit {code_limit:#x} is not where the signature starts ({dataoff:#x})")
    if n_code != math.ceil(code_limit / page):
        verdict.bad(f"{name}: {n_code} code slots for a codeLimit of {code_limit:#x} in {page}-byte pages")

    def slot(i):        # i < 0: special slot -i, ubc_subr.c L781-790
        at = hash_offset + i * hash_size
        return cd[at:at + hash_size]

    for i in range(min(n_code, math.ceil(code_limit / page))):
        start, end = i * page, min((i + 1) * page, code_limit)
        actual = digest(thin.data[start:end]).digest()[:hash_size]
        if actual != slot(i):
            verdict.bad(f"page {i} ({start:#x}-{end:#x}: {thin.parts(start, end)}) hashes to {actual.hex()[:16]}..., "
                        f"{name} says {slot(i).hex()[:16]}... ({hash_name})")
    for special in range(1, n_special + 1):
        if special not in EMBEDDED_SLOTS:
            continue
        what, magic = EMBEDDED_SLOTS[special]
        held = blobs.get(special)
        if held is None:
            if slot(-special) != bytes(hash_size):      # ubc_subr.c L824-829
                verdict.bad(f"{name}: special slot {special} ({what}) holds a hash but there is no {what} blob")
        elif struct.unpack_from(">I", held)[0] != magic:
            verdict.bad(f"{name}: the {what} blob's magic is {struct.unpack_from('>I', held)[0]:#x}")
        elif digest(held).digest()[:hash_size] != slot(-special):
            verdict.bad(f"{name}: the {what} blob does not hash to special slot {special}")
    for special, (what, _) in EMBEDDED_SLOTS.items():
        if special in blobs and special > n_special:    # ubc_subr.c L819-823
            verdict.bad(f"{name}: a {what} blob, but no special slot {special} to hash it")

    kind = ("linker-signed ad hoc" if flags & CS_LINKER_SIGNED else
            "ad hoc" if flags & CS_ADHOC else "signed with an identity")
    identifier = cd[ident_offset:cd.find(b"\0", ident_offset)].decode("utf-8", "replace")
    cdhash = digest(cd[:length]).digest()[:CS_CDHASH_LEN].hex()
    verdict.summary.append(f"{kind} '{identifier}', {hash_name}, {n_code} pages of {page} bytes "
                           f"to {code_limit:#x}, special slots {n_special}, cdhash {cdhash}")
    return hash_type
