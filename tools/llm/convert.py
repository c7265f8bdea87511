#!/usr/bin/python3
"""Convert a llama2.c checkpoint and tokenizer into the firmware's integer
model image (.ucm), the format firmware/lib/llm/model.h reads.

usage: convert.py MODEL.bin TOKENIZER.bin -o OUT.ucm [--max-bytes N]

Checkpoints: legacy v0 fp32 (7-int header, as stories260K.bin), v1 fp32 and
v2 int8 ("ak42" magic, 256-byte header). The image holds:
  * int8 weight matrices, one Q24 scale per row (max |w| / 127), so any
    hidden_dim works (172 for stories260K); stored in tiles of 4 rows x 4
    columns, each row's 4 weights one word (rows and columns padded with
    zeros to multiples of 4), so that the firmware's matrix-vector product
    loads each pair of activations once for four rows and feeds a word of
    weights to one packed dot-product instruction;
  * RMSNorm gains in Q16;
  * RoPE cos/sin tables in Q14 for every position;
  * the tokenizer: scores as order-preserving int32 keys, strings, and the
    token ids sorted by string for the encoder's binary search;
  * a CRC-32 over the whole image (computed with the field zeroed).
"""
import argparse
import math
import struct
import sys
import zlib

import numpy as np

MAGIC = b"UCLM"
VERSION = 2
HEADER_WORDS = 32
Q_NORM = 16
Q_SCALE = 24
Q_ROPE = 14


class ConvertError(Exception):
    pass


def read_bytes(path, what):
    try:
        with open(path, "rb") as f:
            return f.read()
    except OSError as e:
        raise ConvertError(f"cannot read {what} '{path}': {e.strerror}")


def read_checkpoint(path):
    """Return (config dict, weights dict of float32 arrays)."""
    return parse_checkpoint(read_bytes(path, "checkpoint"), path)


def parse_checkpoint(data, path):
    """read_checkpoint's work on the file's bytes (PATH names it in errors)."""
    if len(data) < 28:
        raise ConvertError(f"'{path}' is too short for a llama2.c header ({len(data)} bytes)")
    magic = struct.unpack_from("<I", data, 0)[0]
    if magic == 0x616B3432:
        version = struct.unpack_from("<i", data, 4)[0]
        if version not in (1, 2):
            raise ConvertError(f"'{path}': unsupported llama2.c version {version} (1 and 2 are)")
        if len(data) < 256:
            raise ConvertError(f"'{path}' is truncated (header)")
        dim, hidden, layers, heads, kv_heads, vocab, seq = struct.unpack_from("<7i", data, 8)
        shared = data[36] != 0
        group = struct.unpack_from("<i", data, 37)[0] if version == 2 else 0
        offset = 256
    else:
        version = 0
        dim, hidden, layers, heads, kv_heads, vocab, seq = struct.unpack_from("<7i", data, 0)
        shared = vocab > 0
        vocab = abs(vocab)
        offset = 28
    cfg = dict(dim=dim, hidden_dim=hidden, n_layers=layers, n_heads=heads, n_kv_heads=kv_heads,
               vocab_size=vocab, seq_len=seq, shared_classifier=shared, version=version)
    check_config(cfg, path)
    head = dim // heads
    kv_dim = kv_heads * head
    shapes = {
        "token_embedding": (vocab, dim), "rms_att": (layers, dim), "wq": (layers, dim, dim),
        "wk": (layers, kv_dim, dim), "wv": (layers, kv_dim, dim), "wo": (layers, dim, dim),
        "rms_ffn": (layers, dim), "w1": (layers, hidden, dim), "w2": (layers, dim, hidden),
        "w3": (layers, hidden, dim), "rms_final": (dim,), "classifier": (vocab, dim),
    }
    pos = [offset]

    def f32(name, shape=None):
        shape = shape or shapes[name]
        n = int(np.prod(shape))
        if pos[0] + 4 * n > len(data):
            raise ConvertError(f"'{path}' is truncated: {name} needs {4 * n} bytes at offset {pos[0]}, "
                               f"file has {len(data)}")
        a = np.frombuffer(data, dtype="<f4", count=n, offset=pos[0]).reshape(shape)
        pos[0] += 4 * n
        return finite(name, a.astype(np.float32))

    def q80(names):
        """v2: every tensor's int8 values, then every tensor's fp32 group scales."""
        sizes = [int(np.prod(shapes[n])) for n in names]
        for name, n in zip(names, sizes):
            if group <= 0 or n % group:
                raise ConvertError(f"'{path}': {name} size {n} is not a multiple of group size {group}")
        if pos[0] + sum(sizes) + 4 * sum(sizes) // group > len(data):
            raise ConvertError(f"'{path}' is truncated: quantized weights")
        qs = []
        for n in sizes:
            qs.append(np.frombuffer(data, dtype=np.int8, count=n, offset=pos[0]).astype(np.float32))
            pos[0] += n
        out = {}
        for name, n, q in zip(names, sizes, qs):
            s = finite(name + " scales", np.frombuffer(data, dtype="<f4", count=n // group, offset=pos[0]))
            pos[0] += 4 * (n // group)
            out[name] = (q.reshape(-1, group) * s[:, None]).reshape(shapes[name])
        return out

    def finite(name, a):
        if not np.isfinite(a).all():
            bad = int(np.size(a) - np.isfinite(a).sum())
            raise ConvertError(f"'{path}': {name} has {bad} non-finite values (NaN or Inf)")
        return a

    w = {}
    if version == 0:
        for name in ("token_embedding", "rms_att", "wq", "wk", "wv", "wo", "rms_ffn", "w1", "w2", "w3",
                     "rms_final"):
            w[name] = f32(name)
        pos[0] += 4 * seq * head  # legacy freq_cis_real/imag, unused
        w["classifier"] = w["token_embedding"] if shared else f32("classifier")
    else:
        for name in ("rms_att", "rms_ffn", "rms_final"):
            w[name] = f32(name)
        names = ["token_embedding", "wq", "wk", "wv", "wo", "w1", "w2", "w3"] + ([] if shared else ["classifier"])
        if version == 1:
            for name in names:
                w[name] = f32(name)
        else:
            w.update(q80(names))
        if shared:
            w["classifier"] = w["token_embedding"]
    if pos[0] > len(data):
        raise ConvertError(f"'{path}' is truncated")
    return cfg, w


# What the firmware's model loader takes (firmware/lib/llm/llm_model.c,
# llm_model.h): refused here rather than written into an image it refuses.
LIMITS = dict(dim=4096, hidden_dim=16384, n_layers=32, n_heads=4096, n_kv_heads=4096, vocab_size=65535,
              seq_len=65536)
MAX_HEAD_SIZE, MAX_TOKEN_LENGTH = 128, 1024


def check_config(cfg, path):
    for key, limit in LIMITS.items():
        if not 0 < cfg[key] <= 1 << 20:
            raise ConvertError(f"'{path}': implausible {key} = {cfg[key]} (wrong format?)")
        if cfg[key] > limit:
            what = " (16-bit token ids)" if key == "vocab_size" else ""
            raise ConvertError(f"'{path}': {key} {cfg[key]} is above the firmware's limit of {limit}{what}")
    if cfg["vocab_size"] <= 3:
        raise ConvertError(f"'{path}': vocab_size {cfg['vocab_size']} leaves no room beside <unk>, BOS and EOS")
    if cfg["dim"] % cfg["n_heads"] or cfg["n_heads"] % cfg["n_kv_heads"]:
        raise ConvertError(f"'{path}': inconsistent dimensions: dim {cfg['dim']}, heads {cfg['n_heads']}, "
                           f"kv heads {cfg['n_kv_heads']}")
    if (cfg["dim"] // cfg["n_heads"]) % 8 or cfg["dim"] // cfg["n_heads"] > MAX_HEAD_SIZE:
        raise ConvertError(f"'{path}': head size {cfg['dim'] // cfg['n_heads']} is not a multiple of 8 "
                           f"up to {MAX_HEAD_SIZE} (the firmware's attention works in groups of 8)")


def read_tokenizer(path, vocab):
    return parse_tokenizer(read_bytes(path, "tokenizer"), vocab, path)


def parse_tokenizer(data, vocab, path):
    """(max piece length, [(score, piece bytes)]) from a tokenizer.bin's bytes."""
    if len(data) < 4:
        raise ConvertError(f"tokenizer '{path}' is truncated")
    max_len = struct.unpack_from("<I", data, 0)[0]
    if not 0 < max_len <= MAX_TOKEN_LENGTH:
        raise ConvertError(f"tokenizer '{path}': max token length {max_len} is outside 1..{MAX_TOKEN_LENGTH}")
    pos, tokens = 4, []
    for i in range(vocab):
        if pos + 8 > len(data):
            raise ConvertError(f"tokenizer '{path}' is truncated at token {i} of {vocab}")
        score, n = struct.unpack_from("<fi", data, pos)
        pos += 8
        if n < 0 or n > max_len or pos + n > len(data):
            raise ConvertError(f"tokenizer '{path}': bad length {n} for token {i}")
        if not math.isfinite(score):
            raise ConvertError(f"tokenizer '{path}': token {i} has a non-finite score")
        tokens.append((score, data[pos:pos + n]))
        pos += n
    return max_len, tokens


def score_key(score):
    """An int32 with the same order as the float (for integer-only merging)."""
    bits = struct.unpack("<i", struct.pack("<f", score))[0]
    return bits if bits >= 0 else -(bits & 0x7FFFFFFF) - 1


def quantize_rows(name, m):
    m = m.reshape(-1, m.shape[-1]).astype(np.float64)
    maxabs = np.abs(m).max(axis=1)
    scale = np.where(maxabs > 0, maxabs / 127.0, 1.0)
    if (scale * (1 << Q_SCALE)).max() >= 1 << 31:  # checked in floating point, before any integer cast
        raise ConvertError(f"{name}: a weight of {maxabs.max():g} is too large for a Q24 row scale "
                           f"(|w| < {127 * 2.0 ** (31 - Q_SCALE):g})")
    q = np.clip(np.rint(m / scale[:, None]), -127, 127).astype(np.int8)
    s = np.rint(scale * (1 << Q_SCALE)).astype(np.int64)
    rows, cols = q.shape
    padded = np.zeros(((rows + 3) // 4 * 4, (cols + 3) // 4 * 4), dtype=np.int8)
    padded[:rows, :cols] = q
    # [row group][column block][row within group][column within block]
    tiles = padded.reshape(padded.shape[0] // 4, 4, padded.shape[1] // 4, 4).transpose(0, 2, 1, 3)
    return s.astype("<i4").tobytes() + np.ascontiguousarray(tiles).tobytes()


def fixed(name, a, q):
    v = np.rint(np.asarray(a, dtype=np.float64) * (1 << q))
    if np.abs(v).max() >= 1 << 31:
        raise ConvertError(f"{name}: a norm gain is out of the Q16 range")
    return v.astype("<i4").tobytes()


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


def build_image(cfg, w, tok_max_len, tokens):
    head = cfg["dim"] // cfg["n_heads"]
    sections = {}
    sections["embed"] = quantize_rows("token_embedding", w["token_embedding"])
    layers = []
    for l in range(cfg["n_layers"]):
        layers.append(fixed(f"rms_att[{l}]", w["rms_att"][l], Q_NORM))
        for name in ("wq", "wk", "wv", "wo"):
            layers.append(quantize_rows(f"{name}[{l}]", w[name][l]))
        layers.append(fixed(f"rms_ffn[{l}]", w["rms_ffn"][l], Q_NORM))
        for name in ("w1", "w2", "w3"):
            layers.append(quantize_rows(f"{name}[{l}]", w[name][l]))
    sections["layers"] = b"".join(pad4(x) for x in layers)
    sections["final_norm"] = fixed("rms_final", w["rms_final"], Q_NORM)
    if not cfg["shared_classifier"]:
        sections["classifier"] = quantize_rows("classifier", w["classifier"])
    pos = np.arange(cfg["seq_len"])[:, None]
    freq = 1.0 / (10000.0 ** (np.arange(0, head, 2) / head))
    angle = pos * freq[None, :]
    rope = np.rint(np.stack([np.cos(angle), np.sin(angle)]) * (1 << Q_ROPE)).astype("<i2")
    sections["rope"] = rope.tobytes()  # cos[seq][head/2] then sin[seq][head/2]
    strings = b""
    offsets = []
    for _, s in tokens:
        offsets.append(len(strings))
        strings += s + b"\0"
    order = sorted(range(len(tokens)), key=lambda i: tokens[i][1])
    tok = struct.pack("<I", tok_max_len)
    tok += struct.pack(f"<{len(tokens)}i", *[score_key(s) for s, _ in tokens])
    tok += struct.pack(f"<{len(tokens)}I", *offsets)
    tok += struct.pack(f"<{len(tokens)}H", *order) + (b"\0\0" if len(tokens) % 2 else b"")
    tok += pad4(strings)
    sections["tokenizer"] = tok

    header_bytes = 4 * HEADER_WORDS
    offset = header_bytes
    offs = {}
    body = b""
    for name in ("embed", "layers", "final_norm", "classifier", "rope", "tokenizer"):
        if name not in sections:
            continue
        offs[name] = offset
        blob = pad4(sections[name])
        body += blob
        offset += len(blob)
    offs.setdefault("classifier", offs["embed"])
    words = [VERSION, header_bytes, offset, 0,
             cfg["dim"], cfg["hidden_dim"], cfg["n_layers"], cfg["n_heads"], cfg["n_kv_heads"],
             cfg["vocab_size"], cfg["seq_len"], int(cfg["shared_classifier"]),
             offs["embed"], offs["layers"], offs["final_norm"], offs["classifier"], offs["rope"],
             offs["tokenizer"]]
    header = MAGIC + struct.pack(f"<{len(words)}I", *words)
    header += b"\0" * (header_bytes - len(header))
    image = bytearray(header + body)
    crc = zlib.crc32(bytes(image)) & 0xFFFFFFFF
    struct.pack_into("<I", image, 16, crc)  # word 4 (after magic, version, header_bytes, total)
    return bytes(image)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model")
    ap.add_argument("tokenizer")
    ap.add_argument("-o", "--output", required=True)
    ap.add_argument("--max-bytes", type=int, default=0,
                    help="refuse an image larger than this (the RAM it must fit)")
    args = ap.parse_args()
    try:
        cfg, w = read_checkpoint(args.model)
        max_len, tokens = read_tokenizer(args.tokenizer, cfg["vocab_size"])
        image = build_image(cfg, w, max_len, tokens)
        if args.max_bytes and len(image) > args.max_bytes:
            raise ConvertError(f"the model image is {len(image)} bytes; the target RAM allows "
                               f"{args.max_bytes}")
        with open(args.output, "wb") as f:
            f.write(image)
    except OSError as e:
        sys.exit(f"convert.py: cannot write '{args.output}': {e.strerror}")
    except ConvertError as e:
        sys.exit(f"convert.py: {e}")
    print(f"{args.output}: {len(image)} bytes, dim {cfg['dim']}, hidden {cfg['hidden_dim']}, "
          f"{cfg['n_layers']} layers, {cfg['n_heads']}/{cfg['n_kv_heads']} heads, vocab {cfg['vocab_size']}, "
          f"seq {cfg['seq_len']} (llama2.c v{cfg['version']})")


if __name__ == "__main__":
    main()
