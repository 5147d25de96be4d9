#!/usr/bin/env python3
"""Writes the seed corpus of the .npy fuzzer (fuzz/corpus/npy/): valid files laid out byte for byte
as numpy.lib.format writes them, and malformed ones, each named for what it holds. The bytes are
built here by hand from a seeded generator, not by numpy.save, so that the corpus is the same on
every machine and NumPy version.  usage: fuzz/make_npy_corpus.py [OUT_DIR]"""
import base64
import random
import shutil
import struct
import sys
from pathlib import Path

MAGIC = b"\x93NUMPY"


def npy(dict_text, data=b"", major=1, minor=0):
    """A file as NumPy lays it out: the dict padded with spaces and ended by '\\n' so that magic,
    version, length and header make a multiple of 64 bytes (numpy.lib.format._wrap_header)."""
    header = dict_text.encode("latin-1") if isinstance(dict_text, str) else dict_text
    width = 2 if major == 1 else 4
    padding = 64 - (8 + width + len(header) + 1) % 64
    header += b" " * padding + b"\n"
    length = struct.pack("<H" if width == 2 else "<I", len(header))
    return MAGIC + bytes([major, minor]) + length + header + data


def header(descr="<f8", fortran=False, shape="(2, 2, 2)"):
    return "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (descr, fortran, shape)


def values(count, fmt, rng):
    """count seeded finite values of both signs over many binades, packed little-endian."""
    return struct.pack("<%d%s" % (count, fmt),
                       *(rng.choice((-1, 1)) * rng.uniform(0.5, 1.0) * 2.0 ** rng.randint(-30, 30)
                         for _ in range(count)))


def seeds():
    rng = random.Random(13)
    f8 = lambda count: values(count, "d", rng)
    f4 = lambda count: values(count, "f", rng)
    yield "valid_v1_f8_c_3x3x3", npy(header("<f8", False, "(3, 3, 3)"), f8(27))
    yield "valid_v1_f4_c_2x2x2x2", npy(header("<f4", False, "(2, 2, 2, 2)"), f4(16))
    yield "valid_v1_f8_fortran_3x3x3", npy(header("<f8", True, "(3, 3, 3)"), f8(27))
    yield "valid_v1_f4_fortran_2x2x2", npy(header("<f4", True, "(2, 2, 2)"), f4(8))
    yield "valid_v2_f4_c_2x2x2", npy(header("<f4"), f4(8), major=2)
    yield "valid_v3_f8_c_2x2x2", npy(header("<f8"), f8(8), major=3)
    yield "valid_v1_native_order_f8", npy(header("=f8"), f8(8))
    yield "valid_v1_0d_scalar", npy(header("<f8", False, "()"), f8(1))
    yield "valid_v1_empty_1d", npy(header("<f4", False, "(0,)"))
    yield "valid_v1_1d_5", npy(header("<f8", False, "(5,)"), f8(5))
    yield "valid_v1_matrix_3x3", npy(header("<f8", False, "(3, 3)"), f8(9))
    yield "valid_v1_odd_shape_1x7x0", npy(header("<f4", False, "(1, 7, 0)"))
    yield "valid_v1_batch_c_3x2x2x2", npy(header("<f8", False, "(3, 2, 2, 2)"), f8(24))
    yield "valid_v1_batch_fortran_2x3x3x3", npy(header("<f4", True, "(2, 3, 3, 3)"), f4(54))
    yield "valid_v1_keys_reordered_double_quotes", npy(
        '{"shape": (2, 2, 2), "fortran_order": False, "descr": "<f8"}', f8(8))
    yield "valid_v1_whitespace_tabs_newlines", npy(
        "{\t'descr' :\n'<f8' ,'fortran_order':False,\r'shape':( 2 ,2,2 ) }", f8(8))
    yield "valid_v1_trailing_bytes_after_data", npy(header(), f8(8) + b"trailing garbage")
    yield "valid_v2_long_padded_header", npy(header("<f4") + " " * 2000, f4(8), major=2)

    good = npy(header(), f8(8))
    yield "bad_empty_file", b""
    yield "bad_magic_prefix_only", MAGIC[:3]
    yield "bad_magic", b"\x93NUMPZ\x01\x00" + good[8:]
    yield "bad_npz_zip_magic", b"PK\x03\x04" + good[4:]
    yield "bad_version_4_0", good[:6] + b"\x04\x00" + good[8:]
    yield "bad_version_1_1", good[:6] + b"\x01\x01" + good[8:]
    yield "bad_truncated_in_length", good[:9]
    yield "bad_truncated_in_header", good[:40]
    yield "bad_header_length_past_end", good[:8] + b"\xff\xff" + good[10:80]
    yield "bad_v2_header_length_4gib", MAGIC + b"\x02\x00\xff\xff\xff\xff" + good[10:]
    yield "bad_truncated_data", good[:-1]
    yield "bad_header_not_a_dict", npy("['descr', '<f8']", f8(8))
    yield "bad_header_unterminated_string", npy("{'descr: '<f8', 'fortran_order': False}", f8(8))
    yield "bad_header_missing_shape", npy("{'descr': '<f8', 'fortran_order': False}", f8(8))
    yield "bad_header_extra_key", npy(header()[:-1] + "'extra': 1}", f8(8))
    yield "bad_header_duplicate_key", npy(header()[:-1] + "'shape': (2,)}", f8(8))
    yield "bad_header_text_after_dict", npy(header() + " {}", f8(8))
    yield "bad_fortran_order_int", npy(header().replace("False", "1"), f8(8))
    yield "bad_shape_list", npy(header(shape="[2, 2, 2]"), f8(8))
    yield "bad_shape_negative", npy(header(shape="(-1, 2, 2)"), f8(8))
    yield "bad_shape_string", npy(header(shape="('2', 2, 2)"), f8(8))
    yield "bad_shape_nested_tuple", npy(header(shape="((2, 2), 2)"), f8(8))
    yield "bad_shape_deeply_nested", npy(header(shape="(" * 3000 + ")" * 3000), major=2)
    yield "bad_shape_entry_overflows_integer", npy(header(shape="(99999999999999999999999, 2)"))
    yield "bad_shape_byte_count_overflows", npy(header(shape="(4294967296, 4294967296, 2)"))
    yield "bad_shape_huge_no_data", npy(header(shape="(65536, 65536, 65536)"), f8(8))
    yield "bad_descr_big_endian", npy(header(">f8"), f8(8))
    yield "bad_descr_int32", npy(header("<i4"), f4(8))
    yield "bad_descr_bool", npy(header("|b1"), b"\x01" * 8)
    yield "bad_descr_structured", npy(header().replace("'<f8'", "[('a', '<f8')]"), f8(8))
    yield "bad_descr_not_a_string", npy(header().replace("'<f8'", "8"), f8(8))
    yield "bad_header_latin1_key", npy(b"{'d\xe9scr': '<f8', 'fortran_order': False, 'shape': (2, 2, 2), }", f8(8))
    yield "bad_header_utf8_descr_v3", npy("{'descr': '<f8\u00e9', 'fortran_order': False, 'shape': (2, 2, 2), }".encode("utf-8"),
                                          f8(8), major=3)
    yield "bad_header_nul_bytes", npy(header().replace(" ", "\0"), f8(8))
    yield "bad_tensor_nan", npy(header(), struct.pack("<8d", 1, 2, 3, float("nan"), 5, 6, 7, 8))
    yield "bad_tensor_inf_f4", npy(header("<f4"), struct.pack("<8f", 1, 2, 3, 4, 5, 6, 7, float("-inf")))
    yield "bad_tensor_not_cubical", npy(header(shape="(2, 3, 2)"), f8(12))
    yield "bad_tensor_order_2", npy(header(shape="(3, 3)"), f8(9))

    # What the fuzzer and its review found, kept as seeds (tests/test_npy.cpp has a test for each).
    # libFuzzer's first crash, byte for byte: a key holding newlines was quoted raw in the message,
    # which then had several lines.
    yield "crash_newline_in_key", base64.b64decode(
        "k05VTVBZAQB2AHsnZGVzY3IKCgoKCgoKCgoKCgoKCgoKCgoKCgoKJzogJzxmNCcsICdmb3J0cmFuX29yZGVyJzog"
        "RmFsc2UsICdzaGFwZSc6ICgwLCksIH0gICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAKZjgn"
        "LCAnZm9ydHJhbl9vcmRlcic6IEZhbHNlLCAnc2hhcGUnOiAoMiwgMiwgMiksIH0gICAgICAgIA==")
    # 100000 '(': one stack frame each overflowed the stack under AddressSanitizer. Longer than the
    # fuzzer's -max_len, so scripts/fuzz-npy.sh replays the seeds whole before fuzzing.
    yield "crash_nesting_100000_deep", npy(header(shape="(" * 100000), major=2)


def main():
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent / "corpus" / "npy"
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    count = 0
    for name, data in seeds():
        (out / (name + ".npy")).write_bytes(data)
        count += 1
    print("wrote %d seeds to %s" % (count, out))


if __name__ == "__main__":
    main()
