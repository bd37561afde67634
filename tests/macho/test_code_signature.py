"""code_signature.py on signatures made here, for what no linker on this
machine writes: special slots (codesign puts the requirements blob's hash
in slot 2, osfmk/kern/cs_blobs.h L112) and the SHA-1 and SHA-384 hash
types. The linkers' own signatures are checked by release.archive and
cross.macos, edited ones by release.macho.
"""
import hashlib
import struct
import sys
import unittest

sys.dont_write_bytecode = True      # no __pycache__ in the source tree
import code_signature  # noqa: E402
import macho_file  # noqa: E402

# An empty requirement set, the requirements blob codesign -s - writes
# (CSMAGIC_REQUIREMENTS, its length, a count of 0).
REQUIREMENTS = struct.pack(">III", 0xFADE0C01, 12, 0)
CODE = bytes(range(256)) * 20       # a page of 4 KiB and a part of one
DIGESTS = {1: hashlib.sha1, 2: hashlib.sha256, 4: hashlib.sha384}


def signed(hash_type=2, special_slots=2, blobs=None, slot_hashes=None):
    """A slice of CODE then its signature: a SuperBlob of a CodeDirectory
    (CS_CodeDirectory up to scatterOffset, the identifier, the special
    slots' hashes, the pages' hashes) and the blobs given by slot."""
    blobs = {2: REQUIREMENTS} if blobs is None else blobs
    digest = DIGESTS[hash_type]
    size = digest().digest_size
    hashes = {slot: digest(blob).digest() for slot, blob in blobs.items()}
    hashes.update(slot_hashes or {})
    special = b"".join(hashes.get(slot, bytes(size)) for slot in range(special_slots, 0, -1))
    pages = b"".join(digest(CODE[i:i + 4096]).digest() for i in range(0, len(CODE), 4096))
    ident = b"test\0"
    header = code_signature.CODE_DIRECTORY.size
    hash_offset = header + len(ident) + len(special)
    cd = code_signature.CODE_DIRECTORY.pack(
        code_signature.CSMAGIC_CODEDIRECTORY, hash_offset + len(pages), code_signature.CS_SUPPORTSSCATTER,
        code_signature.CS_ADHOC, hash_offset, header, special_slots, len(pages) // size, len(CODE),
        size, hash_type, 0, 12, 0, 0) + ident + special + pages
    parts = [(0, cd)] + sorted(blobs.items())
    offset = code_signature.SUPERBLOB.size + 8 * len(parts)
    index, body = b"", b""
    for slot, blob in parts:
        index += struct.pack(">II", slot, offset + len(body))
        body += blob
    superblob = code_signature.SUPERBLOB.pack(code_signature.CSMAGIC_EMBEDDED_SIGNATURE,
                                              offset + len(body), len(parts)) + index + body
    return macho_file.Slice("arm64", CODE + superblob, "MH_EXECUTE", 0, code_signature=(len(CODE), len(superblob)))


class SpecialSlots(unittest.TestCase):
    def problems(self, **kwargs):
        return code_signature.verify(signed(**kwargs)).problems

    def test_a_requirements_blob_that_hashes_to_its_slot_verifies(self):
        self.assertEqual(self.problems(), [])

    def test_a_changed_requirements_blob_is_refused(self):
        self.assertIn("the requirements blob does not hash to special slot 2",
                      " ".join(self.problems(slot_hashes={2: hashlib.sha256(b"other").digest()})))

    def test_a_slot_hash_with_no_blob_is_refused(self):
        self.assertIn("special slot 2 (requirements) holds a hash but there is no requirements blob",
                      " ".join(self.problems(blobs={}, slot_hashes={2: hashlib.sha256(REQUIREMENTS).digest()})))

    def test_a_blob_with_no_slot_is_refused(self):
        self.assertIn("a requirements blob, but no special slot 2", " ".join(self.problems(special_slots=1)))

    def test_a_blob_of_the_wrong_kind_is_refused(self):
        self.assertIn("the requirements blob's magic is 0xfade7171",
                      " ".join(self.problems(blobs={2: struct.pack(">II", 0xFADE7171, 8)})))

    def test_a_slot_for_a_file_outside_the_binary_is_not_checked(self):
        # slot 3: a bundle's _CodeSignature/CodeResources, which the kernel never reads
        self.assertEqual(self.problems(special_slots=3, slot_hashes={3: hashlib.sha256(b"CodeResources").digest()}), [])


class HashTypes(unittest.TestCase):
    def test_each_hash_type_verifies_and_names_a_bad_page(self):
        for hash_type, name in ((1, "SHA-1"), (2, "SHA-256"), (4, "SHA-384")):
            with self.subTest(name):
                thin = signed(hash_type=hash_type)
                self.assertEqual(code_signature.verify(thin).problems, [])
                thin.data = thin.data[:4096] + b"\xff" + thin.data[4097:]
                self.assertRegex(" ".join(code_signature.verify(thin).problems),
                                 rf"page 1 \(0x1000-0x1400: no segment\) hashes to .*\({name}\)")


if __name__ == "__main__":
    unittest.main()
