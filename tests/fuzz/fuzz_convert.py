"""Atheris target: tools/llm/convert.py's llama2.c readers on arbitrary bytes.

The first byte picks the input: a llama2.c checkpoint (legacy v0, or v1/v2
behind the magic) or a tokenizer.bin. Every input either parses or is
refused with ConvertError; anything else (an IndexError, a numpy error, a
MemoryError from a header that asks for the moon) is a finding. A checkpoint
that parses is also turned into an image, with a tokenizer of single
letters, which must succeed or be refused the same way.
"""
import os
import struct
import sys

import atheris

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools", "llm"))
with atheris.instrument_imports():
    import image_format
    import llama2c_reader


def one_input(data):
    if not data:
        return
    kind, body = data[0] % 3, data[1:]
    try:
        if kind == 2:
            llama2c_reader.parse_tokenizer(body, 16, "fuzz")
            return
        if kind == 1:  # the versioned layout: magic, then the fuzzer's bytes
            body = struct.pack("<I", 0x616B3432) + body
        cfg, w = llama2c_reader.parse_checkpoint(body, "fuzz")
        tokens = [(float(-i), bytes([97 + i % 26])) for i in range(cfg["vocab_size"])]
        image_format.build_image(llama2c_reader.to_model(cfg, w, 1, tokens))
    except image_format.ConvertError:
        pass


def seeds(corpus):
    """A small valid v0 and v1 checkpoint and a tokenizer, so the fuzzer
    starts past the header checks."""
    os.makedirs(corpus, exist_ok=True)
    dim, hidden, layers, heads, kv, vocab, seq = 8, 16, 1, 1, 1, 4, 4
    n = vocab * dim + layers * (2 * dim + 4 * dim * dim + 3 * hidden * dim) + dim + seq * dim
    v0 = struct.pack("<7i", dim, hidden, layers, heads, kv, vocab, seq) + struct.pack(f"<{n}f", *([0.01] * n))
    header = struct.pack("<i7iB", 1, dim, hidden, layers, heads, kv, vocab, seq, 1)
    v1 = header + b"\0" * (252 - len(header)) + struct.pack(f"<{n}f", *([0.01] * n))
    tok = struct.pack("<I", 4) + b"".join(struct.pack("<fi", 0.0, 1) + bytes([97 + i]) for i in range(16))
    for name, blob in (("v0", b"\0" + v0), ("v1", b"\1" + v1), ("tok", b"\2" + tok)):
        with open(os.path.join(corpus, name), "wb") as f:
            f.write(blob)


if __name__ == "__main__":
    seeds(sys.argv[-1])
    atheris.Setup(sys.argv, one_input)
    atheris.Fuzz()
