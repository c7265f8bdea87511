"""The llama2 architecture the firmware runs, in PyTorch, and its export to the
llama2.c legacy (v0) checkpoint format.

Same arithmetic as llama2.c's run.c and our tools/llm/ref_fp32.c: RMSNorm
(eps 1e-5), RoPE rotating the pairs (2i, 2i+1) of each head by
pos / 10000^(2i / head_size), grouped-query attention (query head h reads kv
head h / (n_heads / n_kv_heads)), SiLU-gated FFN w2(silu(w1 x) * w3 x), and a
classifier shared with the token embedding.
"""
import math
import struct

import numpy as np

import torch
import torch.nn.functional as F
from torch import nn


class RMSNorm(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-5) * self.weight


def rope_tables(head_size, seq_len):
    freqs = 1.0 / (10000.0 ** (torch.arange(0, head_size, 2).float() / head_size))
    angles = torch.outer(torch.arange(seq_len).float(), freqs)
    return torch.cos(angles), torch.sin(angles)


def apply_rope(x, cos, sin):
    """x: (batch, heads, seq, head_size); rotates (x[2i], x[2i+1])."""
    even, odd = x[..., 0::2], x[..., 1::2]
    return torch.stack((even * cos - odd * sin, even * sin + odd * cos), dim=-1).flatten(-2)


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        dim, self.n_heads, self.n_kv_heads = cfg["dim"], cfg["n_heads"], cfg["n_kv_heads"]
        self.head_size = dim // self.n_heads
        kv_dim = self.head_size * self.n_kv_heads
        self.attention_norm = RMSNorm(dim)
        self.wq = nn.Linear(dim, dim, bias=False)
        self.wk = nn.Linear(dim, kv_dim, bias=False)
        self.wv = nn.Linear(dim, kv_dim, bias=False)
        self.wo = nn.Linear(dim, dim, bias=False)
        self.ffn_norm = RMSNorm(dim)
        self.w1 = nn.Linear(dim, cfg["hidden_dim"], bias=False)
        self.w2 = nn.Linear(cfg["hidden_dim"], dim, bias=False)
        self.w3 = nn.Linear(dim, cfg["hidden_dim"], bias=False)

    def forward(self, x, cos, sin, mask, attention=None):
        b, t, _ = x.shape
        h = self.attention_norm(x)
        q = self.wq(h).view(b, t, self.n_heads, self.head_size).transpose(1, 2)
        k = self.wk(h).view(b, t, self.n_kv_heads, self.head_size).transpose(1, 2)
        v = self.wv(h).view(b, t, self.n_kv_heads, self.head_size).transpose(1, 2)
        q, k = apply_rope(q, cos, sin), apply_rope(k, cos, sin)
        group = self.n_heads // self.n_kv_heads
        if group > 1:
            k, v = k.repeat_interleave(group, dim=1), v.repeat_interleave(group, dim=1)
        att = F.softmax((q @ k.transpose(-2, -1)) / math.sqrt(self.head_size) + mask, dim=-1)
        if attention is not None:
            attention.append(att)
        out = (att @ v).transpose(1, 2).reshape(b, t, -1)
        x = x + self.wo(out)
        h = self.ffn_norm(x)
        return x + self.w2(F.silu(self.w1(h)) * self.w3(h))


class Transformer(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.cfg = cfg
        self.tok_embeddings = nn.Embedding(cfg["vocab_size"], cfg["dim"])
        self.layers = nn.ModuleList(Block(cfg) for _ in range(cfg["n_layers"]))
        self.norm = RMSNorm(cfg["dim"])
        cos, sin = rope_tables(cfg["dim"] // cfg["n_heads"], cfg["seq_len"])
        self.register_buffer("cos", cos, persistent=False)
        self.register_buffer("sin", sin, persistent=False)
        for name, p in self.named_parameters():
            if p.dim() == 2:
                std = 0.02 / math.sqrt(2 * cfg["n_layers"]) if name.endswith(("wo.weight", "w2.weight")) else 0.02
                nn.init.normal_(p, 0.0, std)

    def forward(self, tokens, attention=None):
        """Logits; with a list ATTENTION, each layer's attention weights
        (batch, head, query, key) are appended to it."""
        t = tokens.shape[1]
        x = self.tok_embeddings(tokens)
        mask = torch.full((t, t), float("-inf"), device=tokens.device).triu(1)
        for layer in self.layers:
            x = layer(x, self.cos[:t], self.sin[:t], mask, attention)
        return self.norm(x) @ self.tok_embeddings.weight.t()


def export_v0(model, path):
    """llama2.c legacy format: 7 int32 header, fp32 tensors layer-major by kind."""
    cfg, layers = model.cfg, model.layers
    out = bytearray(struct.pack("<7i", cfg["dim"], cfg["hidden_dim"], cfg["n_layers"], cfg["n_heads"],
                                cfg["n_kv_heads"], cfg["vocab_size"], cfg["seq_len"]))

    def put(t):
        out.extend(t.detach().float().contiguous().numpy().astype("<f4").tobytes())

    put(model.tok_embeddings.weight)
    for kind in ("attention_norm", "wq", "wk", "wv", "wo", "ffn_norm", "w1", "w2", "w3"):
        for layer in layers:
            put(getattr(layer, kind).weight)
    put(model.norm.weight)
    put(model.cos)  # freq_cis_real / imag: unused by run.c, kept for the layout
    put(model.sin)
    with open(path, "wb") as f:
        f.write(out)


def load_v0(path):
    """A Transformer with the weights of a llama2.c v0 checkpoint (export_v0's inverse)."""
    with open(path, "rb") as f:
        data = f.read()
    dim, hidden, n_layers, n_heads, n_kv_heads, vocab, seq_len = struct.unpack_from("<7i", data, 0)
    cfg = dict(dim=dim, hidden_dim=hidden, n_layers=n_layers, n_heads=n_heads, n_kv_heads=n_kv_heads,
               vocab_size=abs(vocab), seq_len=seq_len)
    model = Transformer(cfg)
    floats = np.frombuffer(data, dtype="<f4", offset=28)
    at = 0

    def take(param):
        nonlocal at
        n = param.numel()
        param.data.copy_(torch.from_numpy(floats[at:at + n].copy()).view_as(param))
        at += n

    take(model.tok_embeddings.weight)
    for kind in ("attention_norm", "wq", "wk", "wv", "wo", "ffn_norm", "w1", "w2", "w3"):
        for layer in model.layers:
            take(getattr(layer, kind).weight)
    take(model.norm.weight)
    return model
