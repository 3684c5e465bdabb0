#!/usr/bin/env python3
"""Writes ecdsa_p256_sha256_p1363.json: ECDSA P-256 / SHA-256 test vectors with raw (IEEE P1363, r || s) signatures,
in the shape of Wycheproof's ecdsa_secp256r1_sha256_p1363_test.json.

Group 1 holds the published RFC 6979 appendix A.2.5 signatures (SHA-256, messages "sample" and "test").
Group 2 is generated here with Python `cryptography` (independent of the OpenSSL the Swift code links): valid
signatures plus invalid edits (modified r or s, wrong message, r = 0, s = 0, s = n, r = n, oversize values, swapped
r and s, another key's signature, wrong lengths). Every expected result is checked with `cryptography` before the file
is written. Run: python3 generate_p256_vectors.py (needs `pip install cryptography`).
"""
import json
import os

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import decode_dss_signature, encode_dss_signature

N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF


def raw(r, s):
    return r.to_bytes(32, "big") + s.to_bytes(32, "big")


def sign_raw(key, message):
    r, s = decode_dss_signature(key.sign(message, ec.ECDSA(hashes.SHA256())))
    return r, s


def verifies(public_key, message, signature):
    if len(signature) != 64:
        return False
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    try:
        public_key.verify(encode_dss_signature(r, s), message, ec.ECDSA(hashes.SHA256()))
        return True
    except (InvalidSignature, ValueError):
        return False


def group(public_key, cases, source):
    numbers = public_key.public_numbers()
    der = public_key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    tests = []
    for comment, message, signature, result in cases:
        actual = verifies(public_key, message, signature)
        assert actual == (result == "valid"), f"{comment}: cryptography says {actual}, expected {result}"
        tests.append({"comment": comment, "msg": message.hex(), "sig": signature.hex(), "result": result})
    return {
        "source": source,
        "publicKey": {
            "curve": "secp256r1",
            "uncompressed": (b"\x04" + numbers.x.to_bytes(32, "big") + numbers.y.to_bytes(32, "big")).hex(),
        },
        "publicKeyDer": der.hex(),
        "sha": "SHA-256",
        "tests": tests,
    }


def rfc6979_group():
    key = ec.derive_private_key(0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721, ec.SECP256R1())
    numbers = key.public_key().public_numbers()
    assert numbers.x == 0x60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6
    assert numbers.y == 0x7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299
    sample = raw(0xEFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716,
                 0xF7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8)
    test = raw(0xF1ABB023518351CD71D881567B1EA663ED3EFCF6C5132B354F28D3B0B7D38367,
               0x019F4113742A2B14BD25926B49C649155F267E60D3814B4C0CC84250E46F0083)
    cases = [
        ("RFC 6979 A.2.5 SHA-256 message 'sample'", b"sample", sample, "valid"),
        ("RFC 6979 A.2.5 SHA-256 message 'test'", b"test", test, "valid"),
        ("RFC 6979 'sample' signature on message 'test'", b"test", sample, "invalid"),
        ("RFC 6979 'sample' signature with the last byte of s changed", b"sample", sample[:-1] + bytes([sample[-1] ^ 1]),
         "invalid"),
    ]
    return group(key.public_key(), cases, "RFC 6979 appendix A.2.5 (published)")


def generated_group():
    key = ec.generate_private_key(ec.SECP256R1())
    other = ec.generate_private_key(ec.SECP256R1())
    message = b"VoiceDebrief ledger head"
    r, s = sign_raw(key, message)
    r_empty, s_empty = sign_raw(key, b"")
    long_message = bytes(range(256)) * 4
    r_long, s_long = sign_raw(key, long_message)
    r_other, s_other = sign_raw(other, message)
    der = encode_dss_signature(r, s)
    cases = [
        ("valid signature", message, raw(r, s), "valid"),
        ("valid signature of the empty message", b"", raw(r_empty, s_empty), "valid"),
        ("valid signature of a 1024-byte message", long_message, raw(r_long, s_long), "valid"),
        ("s replaced by n - s (ECDSA accepts both; not a high-S check)", message, raw(r, N - s), "valid"),
        ("r + 1", message, raw((r + 1) % N, s), "invalid"),
        ("s + 1", message, raw(r, (s + 1) % N), "invalid"),
        ("r with one bit flipped", message, raw(r ^ (1 << 100), s), "invalid"),
        ("s with one bit flipped", message, raw(r, s ^ (1 << 7)), "invalid"),
        ("wrong message (last byte changed)", message[:-1] + b"X", raw(r, s), "invalid"),
        ("wrong message (empty)", b"", raw(r, s), "invalid"),
        ("r = 0", message, raw(0, s), "invalid"),
        ("s = 0", message, raw(r, 0), "invalid"),
        ("r = 0 and s = 0", message, raw(0, 0), "invalid"),
        ("s = n", message, raw(r, N), "invalid"),
        ("s = n + 1", message, raw(r, N + 1), "invalid"),
        ("s = 2^256 - 1", message, raw(r, 2**256 - 1), "invalid"),
        ("r = n", message, raw(N, s), "invalid"),
        ("r = p (field prime, above n)", message, raw(P, s), "invalid"),
        ("r and s swapped", message, raw(s, r), "invalid"),
        ("signature by another key", message, raw(r_other, s_other), "invalid"),
        ("63 bytes (last byte dropped)", message, raw(r, s)[:-1], "invalid"),
        ("65 bytes (zero byte appended)", message, raw(r, s) + b"\x00", "invalid"),
        ("DER encoding instead of r || s", message, der, "invalid"),
        ("empty signature", message, b"", "invalid"),
    ]
    return group(key.public_key(), cases, "generated with Python cryptography by generate_p256_vectors.py")


def main():
    groups = [rfc6979_group(), generated_group()]
    number = 1
    for test_group in groups:
        for test in test_group["tests"]:
            test["tcId"] = number
            number += 1
    document = {
        "algorithm": "ECDSA",
        "schema": "ecdsa_p1363_verify_schema (Wycheproof-style)",
        "numberOfTests": number - 1,
        "testGroups": groups,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "ecdsa_p256_sha256_p1363.json")
    with open(path, "w") as file:
        json.dump(document, file, indent=1)
        file.write("\n")
    print(f"wrote {number - 1} tests to {path}")


if __name__ == "__main__":
    main()
