"""GGUF llama models (llama.cpp's format, read with PyPI gguf) for convert.py.

Every metadata field the firmware depends on is checked, and a refusal names
the field and its value. Matrices must be GGUF blocks of 32 (Q4_0, Q4_1,
Q8_0), which the image holds exactly: int8 codes with a Q24 scale and offset
per block (image_format.Grouped). The tokenizer must be byte-level BPE with
the pre-tokenizer firmware/lib/llm/bpe_pretok.c implements.
"""
import re

import numpy as np

import bpe_tables
from image_format import (GROUP, INPUT16_ALL, LIMITS, Q_SCALE, BpeTokenizer, ConvertError, Grouped, Model,
                          check_config)

GGUF_MAGIC = b"GGUF"
# The residual stream's fixed point is Q(16 - RESIDUAL_SHIFT): SmolLM2's
# reaches 25.8k (its massive activations at the first position), beyond
# Q16's 32k headroom in the sums; Q13 holds 262k (docs/llm.md).
RESIDUAL_SHIFT = 3
# The pre-tokenizers bpe_pretok.c implements, by tokenizer.ggml.pre.
PRE_TOKENIZERS = ("smollm",)
TOKEN_NORMAL, TOKEN_CONTROL = 1, 3

LAYER_TENSORS = {"attn_norm": "rms_att", "attn_q": "wq", "attn_k": "wk", "attn_v": "wv", "attn_output": "wo",
                 "ffn_norm": "rms_ffn", "ffn_gate": "w1", "ffn_down": "w2", "ffn_up": "w3"}


def is_gguf(path):
    try:
        with open(path, "rb") as f:
            return f.read(4) == GGUF_MAGIC
    except OSError:
        return False


def open_reader(path):
    try:
        import gguf  # PyPI gguf, in the venv the make target installs (mk/smollm2.mk)
    except ImportError:
        raise ConvertError("reading GGUF needs PyPI gguf: run convert.py with build/smollm2/venv/bin/python "
                           "(make smollm2 installs it)")
    try:
        return gguf, gguf.GGUFReader(path)
    except OSError as e:
        raise ConvertError(f"cannot read GGUF '{path}': {e.strerror}")
    except Exception as e:  # the reader's own checks: ValueError, struct errors, short memory maps
        raise ConvertError(f"'{path}' is not a readable GGUF file (truncated or corrupt?): {e}")


class Fields:
    """Metadata lookups that name the field when it is missing or wrong."""

    def __init__(self, reader, path):
        self.f, self.path = reader.fields, path

    def get(self, key, kind, default=None):
        if key not in self.f:
            if default is not None:
                return default
            raise ConvertError(f"'{self.path}': metadata field {key} is missing")
        try:
            v = self.f[key].contents()
        except Exception as e:
            raise ConvertError(f"'{self.path}': metadata field {key} is unreadable: {e}")
        ok = {"int": lambda x: isinstance(x, int) and not isinstance(x, bool),
              "float": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool) and np.isfinite(x),
              "str": lambda x: isinstance(x, str), "bool": lambda x: isinstance(x, bool),
              "list": lambda x: isinstance(x, list)}[kind]
        if not ok(v):
            raise ConvertError(f"'{self.path}': metadata field {key} = {str(v)[:60]!r} is not a {kind}")
        return v

    def refuse(self, key, value, why):
        raise ConvertError(f"'{self.path}': metadata field {key} = {value!r}: {why}")


def read_config(m, context):
    arch = m.get("general.architecture", "str")
    if arch != "llama":
        m.refuse("general.architecture", arch, "only llama models are supported")
    a = "llama."
    keys = dict(dim=a + "embedding_length", hidden_dim=a + "feed_forward_length", n_layers=a + "block_count",
                n_heads=a + "attention.head_count", n_kv_heads=a + "attention.head_count_kv",
                seq_len=a + "context_length")
    cfg = {name: m.get(key, "int") for name, key in keys.items()}
    cfg["vocab_size"] = len(m.get("tokenizer.ggml.tokens", "list"))
    for name, key in keys.items():
        if not 0 < cfg[name] <= LIMITS[name]:
            m.refuse(key, cfg[name], f"the firmware takes 1..{LIMITS[name]}")
    if cfg["vocab_size"] > LIMITS["vocab_size"]:
        m.refuse("tokenizer.ggml.tokens", f"{cfg['vocab_size']} tokens", f"ids are 16-bit ({LIMITS['vocab_size']})")
    if context:
        if context > cfg["seq_len"]:
            raise ConvertError(f"--context {context} is above the model's {a}context_length {cfg['seq_len']}")
        cfg["seq_len"] = context
    check_config(cfg, m.path)
    head = cfg["dim"] // cfg["n_heads"]
    rope_dims = m.get(a + "rope.dimension_count", "int", head)
    if rope_dims != head:
        m.refuse(a + "rope.dimension_count", rope_dims, f"the firmware rotates whole heads ({head})")
    theta = m.get(a + "rope.freq_base", "float", 10000.0)
    if not 1.0 < theta < 1e9:
        m.refuse(a + "rope.freq_base", theta, "outside 1..1e9")
    eps = m.get(a + "attention.layer_norm_rms_epsilon", "float")
    if not 2.0 ** -31 <= eps < 0.5:
        m.refuse(a + "attention.layer_norm_rms_epsilon", eps, "outside the firmware's Q32 range")
    declared = m.get(a + "vocab_size", "int", cfg["vocab_size"])
    if declared != cfg["vocab_size"]:
        m.refuse(a + "vocab_size", declared, f"the tokenizer has {cfg['vocab_size']} tokens")
    cfg.update(rope_theta=float(theta), norm_eps=float(eps), residual_shift=RESIDUAL_SHIFT, input16=INPUT16_ALL)
    return cfg


def read_tokenizer(m, cfg):
    kind = m.get("tokenizer.ggml.model", "str")
    if kind != "gpt2":
        m.refuse("tokenizer.ggml.model", kind, "only byte-level BPE (gpt2) is supported")
    pre = m.get("tokenizer.ggml.pre", "str", "default")
    if pre not in PRE_TOKENIZERS:
        m.refuse("tokenizer.ggml.pre", pre, f"the firmware's pre-tokenizer is {', '.join(PRE_TOKENIZERS)}")
    names = m.get("tokenizer.ggml.tokens", "list")
    types = m.get("tokenizer.ggml.token_type", "list")
    if len(types) != len(names):
        m.refuse("tokenizer.ggml.token_type", f"{len(types)} entries", f"not one per token ({len(names)})")
    bad = [i for i, t in enumerate(types) if t not in (TOKEN_NORMAL, TOKEN_CONTROL)]
    if bad:
        m.refuse("tokenizer.ggml.token_type", f"{types[bad[0]]} at token {bad[0]}",
                 "only normal (1) and control (3) tokens are supported")
    pieces = []
    for i, (name, t) in enumerate(zip(names, types)):
        if t == TOKEN_CONTROL:
            pieces.append(name.encode("utf-8"))
            continue
        try:
            pieces.append(bpe_tables.unmap_bytes(name))
        except ValueError as e:
            m.refuse("tokenizer.ggml.tokens", f"{name} (token {i})", str(e))
    for i, p in enumerate(pieces):
        if not p or len(p) > 255:
            m.refuse("tokenizer.ggml.tokens", f"token {i}", f"{len(p)} bytes (1..255 are supported)")
    ids = {name: i for i, name in enumerate(names)}
    merges = []
    for rank, text in enumerate(m.get("tokenizer.ggml.merges", "list")):
        parts = text.split(" ")
        if len(parts) != 2 or parts[0] not in ids or parts[1] not in ids or parts[0] + parts[1] not in ids:
            m.refuse("tokenizer.ggml.merges", f"{text!r} (rank {rank})", "not two tokens whose join is a token")
        merges.append((ids[parts[0]], ids[parts[1]], ids[parts[0] + parts[1]]))
    if len(merges) >= 1 << 16:
        m.refuse("tokenizer.ggml.merges", f"{len(merges)} merges", "ranks are 16-bit in the image")
    # A byte without a token (SmolLM2 has none for 21 bytes: controls and
    # bytes UTF-8 never or hardly uses) is dropped from the text, as PyPI
    # tokenizers' BPE does without an unknown token.
    byte_token = [ids.get(bpe_tables.BYTE_TO_CHAR[b], bpe_tables.NO_TOKEN) for b in range(256)]
    special = [i for i, t in enumerate(types) if t == TOKEN_CONTROL]
    n = cfg["vocab_size"]
    bos = m.get("tokenizer.ggml.bos_token_id", "int")
    eos = m.get("tokenizer.ggml.eos_token_id", "int")
    for key, v in (("tokenizer.ggml.bos_token_id", bos), ("tokenizer.ggml.eos_token_id", eos)):
        if not 0 <= v < n:
            m.refuse(key, v, f"not a token id (vocab {n})")
    # Generation ends at the model's EOS or at <|endoftext|> when it has one.
    end_of_text = ids.get("<|endoftext|>", eos)
    cfg.update(bos=bos, eos=eos, stop0=eos, stop1=end_of_text, add_bos=int(m.get("tokenizer.ggml.add_bos_token", "bool", False)))
    letters, numbers, spaces = bpe_tables.unicode_classes()
    return BpeTokenizer(pieces, merges, byte_token, special, letters, numbers, spaces)


def chat_system(m):
    """ChatML's default system message from tokenizer.chat_template, or b"" when
    the model has no template. Another template is refused: the firmware
    formats ChatML only."""
    if "tokenizer.chat_template" not in m.f:
        return b""
    t = m.get("tokenizer.chat_template", "str")
    if "<|im_start|>" not in t or "<|im_end|>" not in t:
        m.refuse("tokenizer.chat_template", t[:40] + "...", "only ChatML (<|im_start|>role ... <|im_end|>) is supported")
    found = re.search(r"<\|im_start\|>system\n(.*?)<\|im_end\|>", t, re.S)
    return (found.group(1) if found else "").encode("utf-8")


def block_codes(gguf, t, name):
    """(codes int8 [rows, cols], scale, offset int64 Q24 [rows, cols / 32]) of a
    Q4_0, Q4_1 or Q8_0 tensor, exactly: real weight = code * scale + offset."""
    Q = gguf.GGMLQuantizationType
    kind = t.tensor_type
    if kind not in (Q.Q4_0, Q.Q4_1, Q.Q8_0):
        raise ConvertError(f"{name}: quantization {kind.name} is not supported (Q4_0, Q4_1 and Q8_0 are)")
    rows, cols = int(t.shape[1]), int(t.shape[0])
    blocks = np.asarray(t.data, dtype=np.uint8).reshape(rows, cols // GROUP, -1)
    d = blocks[:, :, 0:2].copy().view("<f2")[..., 0].astype(np.float64)
    if kind == Q.Q8_0:
        codes = blocks[:, :, 2:34].view(np.int8)
        m = np.zeros_like(d)
    else:
        start = 4 if kind == Q.Q4_1 else 2
        nib = blocks[:, :, start:start + 16]
        # Low nibbles are a block's elements 0..15, high nibbles 16..31;
        # centred on 0 (code - 8) so that the sums stay small.
        codes = (np.concatenate([nib & 15, nib >> 4], axis=2).astype(np.int16) - 8).astype(np.int8)
        if kind == Q.Q4_1:
            m = blocks[:, :, 2:4].copy().view("<f2")[..., 0].astype(np.float64) + 8 * d
        else:
            m = np.zeros_like(d)
    for what, a in (("scale", d), ("offset", m)):
        if not np.isfinite(a).all():
            bad = int(np.size(a) - np.isfinite(a).sum())
            raise ConvertError(f"{name} has {bad} non-finite block {what}s (NaN or Inf)")
    # Every float16 is a whole number of 2^-24: Q24 holds them exactly.
    scale, offset = np.rint(d * 2 ** Q_SCALE).astype(np.int64), np.rint(m * 2 ** Q_SCALE).astype(np.int64)
    return Grouped(codes.reshape(rows, cols).copy(), scale, offset)


def read_tensors(gguf, reader, cfg, path):
    by_name = {t.name: t for t in reader.tensors}
    size = reader.data.size
    for t in reader.tensors:
        if t.data_offset + t.n_bytes > size:
            raise ConvertError(f"'{path}' is truncated: {t.name} ends at byte {t.data_offset + t.n_bytes} of {size}")
    head = cfg["dim"] // cfg["n_heads"]
    kv_dim, dim, hidden, vocab = head * cfg["n_kv_heads"], cfg["dim"], cfg["hidden_dim"], cfg["vocab_size"]
    shapes = {"wq": (dim, dim), "wk": (kv_dim, dim), "wv": (kv_dim, dim), "wo": (dim, dim), "w1": (hidden, dim),
              "w2": (dim, hidden), "w3": (hidden, dim)}

    def tensor(name, shape):
        if name not in by_name:
            raise ConvertError(f"'{path}': tensor {name} is missing")
        t = by_name[name]
        got = tuple(int(x) for x in reversed(t.shape))
        if got != shape:
            raise ConvertError(f"'{path}': tensor {name} has shape {got}, the metadata gives {shape}")
        return t

    def norm(name):
        t = tensor(name, (dim,))
        if t.tensor_type != gguf.GGMLQuantizationType.F32:
            raise ConvertError(f"{name}: norm weights must be F32, not {t.tensor_type.name}")
        a = np.asarray(t.data, dtype=np.float32)
        if not np.isfinite(a).all():
            raise ConvertError(f"{name} has {int(np.size(a) - np.isfinite(a).sum())} non-finite values (NaN or Inf)")
        return a

    w = {key: [] for key in LAYER_TENSORS.values()}
    for l in range(cfg["n_layers"]):
        for suffix, key in LAYER_TENSORS.items():
            name = f"blk.{l}.{suffix}.weight"
            w[key].append(norm(name) if key.startswith("rms") else block_codes(gguf, tensor(name, shapes[key]), name))
    w["token_embedding"] = block_codes(gguf, tensor("token_embd.weight", (vocab, dim)), "token_embd.weight")
    w["classifier"] = (block_codes(gguf, tensor("output.weight", (vocab, dim)), "output.weight")
                       if "output.weight" in by_name else None)
    w["rms_final"] = norm("output_norm.weight")
    return w


def read_gguf(path, context=0):
    """A GGUF llama model as image_format's Model. CONTEXT (0: the model's)
    cuts the context the image's tables and the firmware's cache hold."""
    gguf, reader = open_reader(path)
    m = Fields(reader, path)
    cfg = read_config(m, context)
    tok = read_tokenizer(m, cfg)
    weights = read_tensors(gguf, reader, cfg, path)
    return Model(cfg, weights, tok, chat_system(m))
