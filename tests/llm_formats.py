"""Writers of the llama2.c v1 (fp32) and v2 (Q8_0) checkpoint layouts, used
to test the converter's readers (they re-export a legacy v0 checkpoint), and
llama2.c's tokenizer, the reference for the firmware's encoder."""
import struct

import numpy as np


def read_v0(path):
    data = open(path, "rb").read()
    dim, hidden, layers, heads, kv_heads, vocab, seq = struct.unpack_from("<7i", data, 0)
    head = dim // heads
    kv = kv_heads * head
    shapes = [("token_embedding", (abs(vocab), dim)), ("rms_att", (layers, dim)), ("wq", (layers, dim, dim)),
              ("wk", (layers, kv, dim)), ("wv", (layers, kv, dim)), ("wo", (layers, dim, dim)),
              ("rms_ffn", (layers, dim)), ("w1", (layers, hidden, dim)), ("w2", (layers, dim, hidden)),
              ("w3", (layers, hidden, dim)), ("rms_final", (dim,))]
    pos, w = 28, {}
    for name, shape in shapes:
        n = int(np.prod(shape))
        w[name] = np.frombuffer(data, dtype="<f4", count=n, offset=pos).reshape(shape)
        pos += 4 * n
    return (dim, hidden, layers, heads, kv_heads, abs(vocab), seq), w


def header(version, params, extra=b""):
    h = struct.pack("<Ii7i", 0x616B3432, version, *params) + b"\x01" + extra
    return h + b"\0" * (256 - len(h))


def write_v1(path, params, w):
    order = ["rms_att", "rms_ffn", "rms_final", "token_embedding", "wq", "wk", "wv", "wo", "w1", "w2", "w3"]
    with open(path, "wb") as f:
        f.write(header(1, params))
        for name in order:
            f.write(np.ascontiguousarray(w[name], dtype="<f4").tobytes())


def write_v2(path, params, w, group=64):
    with open(path, "wb") as f:
        f.write(header(2, params, struct.pack("<i", group)))
        for name in ("rms_att", "rms_ffn", "rms_final"):
            f.write(np.ascontiguousarray(w[name], dtype="<f4").tobytes())
        scales = []
        for name in ("token_embedding", "wq", "wk", "wv", "wo", "w1", "w2", "w3"):
            g = w[name].astype(np.float32).reshape(-1, group)
            s = np.abs(g).max(axis=1) / 127.0
            q = np.rint(g / np.where(s > 0, s, 1)[:, None]).astype(np.int8)
            f.write(q.tobytes())
            scales.append(s.astype("<f4"))
        for s in scales:
            f.write(s.tobytes())


def read_tokenizer(path):
    """llama2.c tokenizer.bin: (pieces, float scores)."""
    with open(path, "rb") as f:
        data = f.read()
    at, pieces, scores = 4, [], []
    while at < len(data):
        score, length = struct.unpack_from("<fi", data, at)
        pieces.append(data[at + 8:at + 8 + length].decode("utf-8", "replace"))
        scores.append(score)
        at += 8 + length
    return pieces, scores


def llama2c_encode(pieces, scores, text):
    """llama2.c's encode() (BOS, dummy space, code points or bytes + 3, then
    the best-scoring pair, leftmost of equals, until none merges): the
    reference the firmware's heap encoder must match token for token."""
    ids = {p: i for i, p in enumerate(pieces)}
    tokens = [1] + ([ids[" "]] if text and " " in ids else [])
    for ch in text:
        if ch in ids:
            tokens.append(ids[ch])
        else:
            tokens.extend(b + 3 for b in ch.encode("utf-8"))
    while True:
        best, at = None, -1
        for i in range(len(tokens) - 1):
            merged = ids.get(pieces[tokens[i]] + pieces[tokens[i + 1]])
            if merged is not None and (best is None or scores[merged] > scores[best]):
                best, at = merged, i
        if best is None:
            return tokens
        tokens[at:at + 2] = [best]
