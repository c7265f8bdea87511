"""Writers of the llama2.c v1 (fp32) and v2 (Q8_0) checkpoint layouts, used
to test the converter's readers: they re-export a legacy v0 checkpoint."""
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
