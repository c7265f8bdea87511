"""The firmware's integer model image (.ucm), as firmware/lib/llm/llm_model.c
reads it: a header of 32 words, the sections below, a CRC-32.

A model reaches build_image as a Model: its configuration, its matrices and
norms, and its tokenizer. A matrix is either float32 (quantised here to int8
with one Q24 scale per row) or Grouped: int8 codes with a Q24 scale and
offset per group of GROUP columns of a row (real weight = code * scale +
offset), which holds GGUF's Q4_0, Q4_1 and Q8_0 blocks exactly. Either way
the codes lie in tiles of 4 rows x 4 columns, each row's 4 codes one word
(rows and columns padded with zeros to multiples of 4), so that the
firmware's matrix-vector product loads each word of activations once for
four rows and hands each word of weights to one packed dot product.

Sections: embedding, layers (per layer: attention norm, wq, wk, wv, wo, FFN
norm, w1, w2, w3), final norm, classifier (absent when tied to the
embedding), RoPE cos/sin in Q14 for every position, tokenizer, chat
template. Norm gains are Q16. A Grouped matrix starts at a multiple of
GROUPED_ALIGN bytes from the image's start (zeros before it), and so do its
scales after the codes: the SoC's matrix-vector unit reads both in 64-byte
bursts (docs/soc/mvu.md).
"""
import dataclasses
import struct
import zlib

import numpy as np

MAGIC = b"UCLM"
VERSION = 4
HEADER_WORDS = 32
Q_NORM = 16
Q_SCALE = 24
Q_ROPE = 14
GROUP = 32  # columns per scale of a Grouped matrix (GGUF's block)
GROUPED_ALIGN = 64

# Header words after the magic, in order (llm_model.c's enum).
HEADER_FIELDS = ["version", "header_bytes", "total_bytes", "crc", "dim", "hidden_dim", "n_layers", "n_heads",
                 "n_kv_heads", "vocab_size", "seq_len", "shared_classifier", "off_embed", "off_layers",
                 "off_final", "off_classifier", "off_rope", "off_tokenizer", "weight_group", "input16",
                 "residual_shift", "norm_eps_q32", "tokenizer_kind", "bos", "eos", "stop0", "stop1",
                 "add_bos", "off_chat"]

# Matrices whose input the firmware quantises to int16 instead of int8
# (bits of the input16 word).
INPUT16_QKV, INPUT16_WO, INPUT16_W13, INPUT16_W2, INPUT16_CLASSIFIER = 1, 2, 4, 8, 16
INPUT16_ALL = 31

TOKENIZER_SCORES = 0  # llama2.c's tokenizer.bin: pieces with merge scores
TOKENIZER_BPE = 1     # byte-level BPE (GPT-2 style): merge ranks, byte pieces

# What the firmware's loader takes (llm_model.c, llm_model.h): refused here
# rather than written into an image it refuses.
LIMITS = dict(dim=4096, hidden_dim=16384, n_layers=32, n_heads=4096, n_kv_heads=4096, vocab_size=65535,
              seq_len=65535)
MAX_HEAD_SIZE, MAX_TOKEN_LENGTH, MAX_BPE_PIECE = 128, 1024, 255


class ConvertError(Exception):
    pass


@dataclasses.dataclass
class Grouped:
    """codes int8 [rows, cols]; scale and offset int64 [rows, cols / GROUP], Q24."""
    codes: np.ndarray
    scale: np.ndarray
    offset: np.ndarray


@dataclasses.dataclass
class ScoresTokenizer:
    """llama2.c's: (score, piece bytes) per token."""
    max_len: int
    tokens: list


@dataclasses.dataclass
class BpeTokenizer:
    """Byte-level BPE: each token's bytes, merges as (left id, right id,
    result id) in rank order, the byte -> token map, the control tokens
    matched in text, and the Unicode classes the pre-tokenizer uses
    (sorted inclusive code point ranges)."""
    pieces: list
    merges: list
    byte_token: list
    special: list
    letters: list
    numbers: list
    spaces: list


@dataclasses.dataclass
class Model:
    cfg: dict          # dim, hidden_dim, n_layers, n_heads, n_kv_heads, vocab_size, seq_len, rope_theta,
                       # norm_eps, residual_shift, input16, bos, eos, stop0, stop1, add_bos
    weights: dict      # token_embedding, classifier (None: tied), rms_final; per layer lists of the rest
    tokenizer: object  # ScoresTokenizer or BpeTokenizer
    chat_system: bytes = b""  # ChatML's default system message, or empty: no chat template


def check_config(cfg, where):
    """Refuses a configuration the firmware cannot run, naming the field."""
    for key, limit in LIMITS.items():
        if not 0 < cfg[key] <= 1 << 20:
            raise ConvertError(f"'{where}': implausible {key} = {cfg[key]} (wrong format?)")
        if cfg[key] > limit:
            what = " (16-bit token ids)" if key == "vocab_size" else ""
            raise ConvertError(f"'{where}': {key} {cfg[key]} is above the firmware's limit of {limit}{what}")
    if cfg["vocab_size"] <= 3:
        raise ConvertError(f"'{where}': vocab_size {cfg['vocab_size']} leaves no room beside <unk>, BOS and EOS")
    if cfg["dim"] % cfg["n_heads"] or cfg["n_heads"] % cfg["n_kv_heads"]:
        raise ConvertError(f"'{where}': inconsistent dimensions: dim {cfg['dim']}, heads {cfg['n_heads']}, "
                           f"kv heads {cfg['n_kv_heads']}")
    if (cfg["dim"] // cfg["n_heads"]) % 8 or cfg["dim"] // cfg["n_heads"] > MAX_HEAD_SIZE:
        raise ConvertError(f"'{where}': head size {cfg['dim'] // cfg['n_heads']} is not a multiple of 8 "
                           f"up to {MAX_HEAD_SIZE} (the firmware's attention works in groups of 8)")


def tiles(q):
    """int8 codes [rows, cols] -> the tile layout's bytes."""
    rows, cols = q.shape
    padded = np.zeros(((rows + 3) // 4 * 4, (cols + 3) // 4 * 4), dtype=np.int8)
    padded[:rows, :cols] = q
    # [row group][column block][row within group][column within block]
    t = padded.reshape(padded.shape[0] // 4, 4, padded.shape[1] // 4, 4).transpose(0, 2, 1, 3)
    return np.ascontiguousarray(t).tobytes()


def quantize_rows(name, m):
    """A float matrix as int8 with one Q24 scale per row (max |w| / 127)."""
    m = m.reshape(-1, m.shape[-1]).astype(np.float64)
    maxabs = np.abs(m).max(axis=1)
    scale = np.where(maxabs > 0, maxabs / 127.0, 1.0)
    if (scale * (1 << Q_SCALE)).max() >= 1 << 31:  # checked in floating point, before any integer cast
        raise ConvertError(f"{name}: a weight of {maxabs.max():g} is too large for a Q24 row scale "
                           f"(|w| < {127 * 2.0 ** (31 - Q_SCALE):g})")
    q = np.clip(np.rint(m / scale[:, None]), -127, 127).astype(np.int8)
    s = np.rint(scale * (1 << Q_SCALE)).astype(np.int64)
    return s.astype("<i4").tobytes() + tiles(q)


def grouped_bytes(name, g):
    """Codes in tiles, then scale and offset per (row, group) in the order the
    matrix-vector product walks them: [row tile][group][row in tile][scale, offset]."""
    rows, cols = g.codes.shape
    if cols % GROUP:
        raise ConvertError(f"{name}: {cols} columns are not whole groups of {GROUP}")
    for what, a in (("scale", g.scale), ("offset", g.offset)):
        if np.abs(a).max(initial=0) >= 1 << 31:
            raise ConvertError(f"{name}: a group {what} of {np.abs(a).max() / 2.0 ** Q_SCALE:g} is beyond "
                               f"the image's Q24 range")
    pairs = np.zeros(((rows + 3) // 4 * 4, cols // GROUP, 2), dtype=np.int64)
    pairs[:rows, :, 0] = g.scale
    pairs[:rows, :, 1] = g.offset
    pairs = pairs.reshape(-1, 4, cols // GROUP, 2).transpose(0, 2, 1, 3)
    return tiles(g.codes) + np.ascontiguousarray(pairs).astype("<i4").tobytes()


def matrix_bytes(name, m):
    return grouped_bytes(name, m) if isinstance(m, Grouped) else quantize_rows(name, m)


def fixed(name, a, q):
    v = np.rint(np.asarray(a, dtype=np.float64) * (1 << q))
    if np.abs(v).max() >= 1 << 31:
        raise ConvertError(f"{name}: a norm gain is out of the Q16 range")
    return v.astype("<i4").tobytes()


def pad4(b):
    return b + b"\0" * (-len(b) % 4)


def score_key(score):
    """An int32 with the same order as the float (for integer-only merging)."""
    bits = struct.unpack("<i", struct.pack("<f", score))[0]
    return bits if bits >= 0 else -(bits & 0x7FFFFFFF) - 1


def scores_section(tok):
    strings = b""
    offsets = []
    for _, s in tok.tokens:
        offsets.append(len(strings))
        strings += s + b"\0"
    n = len(tok.tokens)
    order = sorted(range(n), key=lambda i: tok.tokens[i][1])
    out = struct.pack("<I", tok.max_len)
    out += struct.pack(f"<{n}i", *[score_key(s) for s, _ in tok.tokens])
    out += struct.pack(f"<{n}I", *offsets)
    out += struct.pack(f"<{n}H", *order) + (b"\0\0" if n % 2 else b"")
    return out + pad4(strings)


def bpe_section(tok):
    """Counts, piece offsets (vocab + 1), byte map, merge keys sorted by
    (left << 16 | right) with (rank << 16 | result) beside them, control
    tokens, class ranges, piece bytes (llm_model.h, llm_bpe_t)."""
    n = len(tok.pieces)
    offsets = np.cumsum([0] + [len(p) for p in tok.pieces]).astype("<u4")
    keys = np.array([(a << 16) | b for a, b, _ in tok.merges], dtype=np.int64)
    vals = np.array([(rank << 16) | r for rank, (_, _, r) in enumerate(tok.merges)], dtype=np.int64)
    order = np.argsort(keys, kind="stable")
    if len(keys) and (np.diff(keys[order]) == 0).any():
        raise ConvertError("tokenizer: a pair of tokens has two merges")
    max_len = max(len(p) for p in tok.pieces)
    counts = [max_len, len(tok.merges), len(tok.special), len(tok.letters), len(tok.numbers), len(tok.spaces)]
    out = struct.pack("<6I", *counts) + offsets.tobytes()
    out += struct.pack("<256H", *tok.byte_token)
    out += keys[order].astype("<u4").tobytes() + vals[order].astype("<u4").tobytes()
    out += pad4(struct.pack(f"<{len(tok.special)}H", *tok.special))
    for ranges in (tok.letters, tok.numbers, tok.spaces):
        out += np.array(ranges, dtype="<u4").reshape(-1).tobytes()
    assert n == len(offsets) - 1
    return out + pad4(b"".join(tok.pieces))


def rope_tables(cfg):
    head = cfg["dim"] // cfg["n_heads"]
    pos = np.arange(cfg["seq_len"])[:, None]
    freq = 1.0 / (cfg["rope_theta"] ** (np.arange(0, head, 2) / head))
    angle = pos * freq[None, :]
    # cos[seq][head/2] then sin[seq][head/2]
    return np.rint(np.stack([np.cos(angle), np.sin(angle)]) * (1 << Q_ROPE)).astype("<i2").tobytes()


class _Body:
    """The image after its header, laid out in order: each part padded to a
    word, a Grouped matrix aligned to GROUPED_ALIGN bytes of the image."""

    def __init__(self, start):
        self.parts, self.offset = [], start

    def put(self, b):
        b = pad4(b)
        self.parts.append(b)
        self.offset += len(b)

    def matrix(self, name, m):
        if isinstance(m, Grouped):
            self.put(b"\0" * (-self.offset % GROUPED_ALIGN))
        self.put(matrix_bytes(name, m))


def build_image(model):
    cfg, w = model.cfg, model.weights
    header_bytes = 4 * HEADER_WORDS
    body, offs = _Body(header_bytes), {}
    offs["embed"] = body.offset
    body.matrix("token_embedding", w["token_embedding"])
    offs["layers"] = body.offset
    for l in range(cfg["n_layers"]):
        body.put(fixed(f"rms_att[{l}]", w["rms_att"][l], Q_NORM))
        for name in ("wq", "wk", "wv", "wo"):
            body.matrix(f"{name}[{l}]", w[name][l])
        body.put(fixed(f"rms_ffn[{l}]", w["rms_ffn"][l], Q_NORM))
        for name in ("w1", "w2", "w3"):
            body.matrix(f"{name}[{l}]", w[name][l])
    offs["final_norm"] = body.offset
    body.put(fixed("rms_final", w["rms_final"], Q_NORM))
    if w["classifier"] is not None:
        offs["classifier"] = body.offset
        body.matrix("classifier", w["classifier"])
    offs["rope"] = body.offset
    body.put(rope_tables(cfg))
    bpe = isinstance(model.tokenizer, BpeTokenizer)
    offs["tokenizer"] = body.offset
    body.put(bpe_section(model.tokenizer) if bpe else scores_section(model.tokenizer))
    if model.chat_system:
        offs["chat"] = body.offset
        body.put(struct.pack("<I", len(model.chat_system)) + model.chat_system + b"\0")

    grouped = [isinstance(m, Grouped) for m in [w["token_embedding"], *w["wq"], *w["w2"]]]
    if any(grouped) and not all(grouped):
        raise ConvertError("matrices mix one scale per row with scales per group")
    eps = round(cfg["norm_eps"] * 2.0 ** 32)
    if not 0 < eps < 1 << 31:
        raise ConvertError(f"RMSNorm epsilon {cfg['norm_eps']:g} is outside the firmware's Q32 range")

    fields = dict(version=VERSION, header_bytes=header_bytes, total_bytes=body.offset, crc=0,
                  shared_classifier=int(w["classifier"] is None), off_embed=offs["embed"],
                  off_layers=offs["layers"], off_final=offs["final_norm"],
                  off_classifier=offs.get("classifier", offs["embed"]), off_rope=offs["rope"],
                  off_tokenizer=offs["tokenizer"], weight_group=GROUP if grouped[0] else 0,
                  norm_eps_q32=eps, tokenizer_kind=TOKENIZER_BPE if bpe else TOKENIZER_SCORES,
                  off_chat=offs.get("chat", 0))
    for key in ("dim", "hidden_dim", "n_layers", "n_heads", "n_kv_heads", "vocab_size", "seq_len", "input16",
                "residual_shift", "bos", "eos", "stop0", "stop1", "add_bos"):
        fields[key] = cfg[key]
    header = MAGIC + struct.pack(f"<{len(HEADER_FIELDS)}I", *[fields[k] for k in HEADER_FIELDS])
    header += b"\0" * (header_bytes - len(header))
    image = bytearray(header + b"".join(body.parts))
    crc = zlib.crc32(bytes(image)) & 0xFFFFFFFF
    struct.pack_into("<I", image, 16, crc)  # word 4 (after magic, version, header_bytes, total)
    return bytes(image)
