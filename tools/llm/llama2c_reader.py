"""llama2.c checkpoints and tokenizer.bin files, read for convert.py.

Checkpoints: legacy v0 fp32 (7-int header, as stories260K.bin), v1 fp32 and
v2 int8 ("ak42" magic, 256-byte header). Their matrices go into the image
with one int8 scale per row (image_format.py); the tokenizer keeps its
pieces and merge scores.
"""
import math
import struct

import numpy as np

from image_format import (INPUT16_CLASSIFIER, INPUT16_W2, MAX_TOKEN_LENGTH, ConvertError, Model, ScoresTokenizer,
                          check_config)

# llama2.c's fixed choices: RoPE base, RMSNorm epsilon, BOS (which also ends
# a story when generated), EOS.
ROPE_THETA, NORM_EPS, BOS, EOS = 10000.0, 1e-5, 1, 2


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




def to_model(cfg, w, tok_max_len, tokens):
    """The checkpoint and tokenizer as image_format's Model: int8 with one
    scale per row; the matrix inputs the firmware takes as int16 are w2's
    (the gated feed-forward product, whose outliers int8 clips) and the
    classifier's, which decide the agreement with fp32 most (docs/llm.md)."""
    weights = dict(w)
    if cfg["shared_classifier"]:
        weights["classifier"] = None
    full = dict(cfg, rope_theta=ROPE_THETA, norm_eps=NORM_EPS, residual_shift=0,
                input16=INPUT16_W2 | INPUT16_CLASSIFIER, bos=BOS, eos=EOS, stop0=BOS, stop1=BOS, add_bos=1)
    return Model(full, weights, ScoresTokenizer(tok_max_len, tokens))
