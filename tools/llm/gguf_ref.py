"""fp32 reference of a GGUF llama model in numpy, sharing no code with the
firmware's integer engine or the converter: PyPI gguf dequantizes the
weights, and the forward pass is llama's, written from the architecture
(RMSNorm, RoPE on adjacent pairs, grouped-query attention, SiLU-gated FFN,
tied or separate classifier).

    ref = GgufRef(path)
    logits = ref.forward(tokens)          # [len(tokens), vocab], causal
    ids = ref.generate(prompt, n, stops)  # greedy, with a key/value cache
"""
import numpy as np


class GgufRef:
    def __init__(self, path):
        import gguf
        from gguf.quants import dequantize
        reader = gguf.GGUFReader(path)

        def field(key, default=None):
            return reader.fields[key].contents() if key in reader.fields else default

        self.dim = field("llama.embedding_length")
        self.n_layers = field("llama.block_count")
        self.n_heads = field("llama.attention.head_count")
        self.n_kv_heads = field("llama.attention.head_count_kv")
        self.eps = field("llama.attention.layer_norm_rms_epsilon")
        self.head = self.dim // self.n_heads
        theta = field("llama.rope.freq_base", 10000.0)
        self.inv_freq = theta ** (-np.arange(0, self.head, 2) / self.head)
        self.w = {}
        for t in reader.tensors:
            a = dequantize(t.data, t.tensor_type).astype(np.float32)
            self.w[t.name] = a.reshape([int(x) for x in reversed(t.shape)])
        self.classifier = self.w.get("output.weight", self.w["token_embd.weight"])
        names = field("tokenizer.ggml.tokens", [])
        # The end of an answer: EOS, and <|endoftext|> where the vocabulary has it.
        self.stops = {field("tokenizer.ggml.eos_token_id")} | ({names.index("<|endoftext|>")}
                                                                if "<|endoftext|>" in names else set())

    def rms(self, x, gain):
        return x / np.sqrt((x * x).mean(-1, keepdims=True) + self.eps) * gain

    def rope(self, x, pos):
        """x [T, heads, head]; pairs (2i, 2i+1) rotate by pos * inv_freq[i]."""
        angle = pos[:, None] * self.inv_freq[None, :]
        c, s = np.cos(angle)[:, None, :], np.sin(angle)[:, None, :]
        a, b = x[..., 0::2], x[..., 1::2]
        out = np.empty_like(x)
        out[..., 0::2] = a * c - b * s
        out[..., 1::2] = a * s + b * c
        return out

    def forward(self, tokens, cache=None, start=0, keep=None, observe=None):
        """Logits for TOKENS at positions START..; CACHE (a list of (K, V) per
        layer, grown here) holds the earlier positions' keys and values.
        KEEP[layer][kv head] (boolean over the cached positions, the new ones
        kept beyond its length): the positions attention may read, for a
        pruned cache. OBSERVE(layer, head, probabilities [T, n]) sees every
        head's attention."""
        tokens = np.asarray(tokens)
        T = len(tokens)
        pos = np.arange(start, start + T, dtype=np.float64)
        x = self.w["token_embd.weight"][tokens].astype(np.float32)
        group = self.n_heads // self.n_kv_heads
        for l in range(self.n_layers):
            p = f"blk.{l}."
            xb = self.rms(x, self.w[p + "attn_norm.weight"])
            q = (xb @ self.w[p + "attn_q.weight"].T).reshape(T, self.n_heads, self.head)
            k = (xb @ self.w[p + "attn_k.weight"].T).reshape(T, self.n_kv_heads, self.head)
            v = (xb @ self.w[p + "attn_v.weight"].T).reshape(T, self.n_kv_heads, self.head)
            q = self.rope(q, pos).astype(np.float32)
            k = self.rope(k, pos).astype(np.float32)
            if cache is not None:
                if len(cache) <= l:
                    cache.append((k, v))
                else:
                    cache[l] = (np.concatenate([cache[l][0], k]), np.concatenate([cache[l][1], v]))
                k, v = cache[l]
            n = len(k)
            # Query t (position start + t) sees keys 0 .. start + t.
            mask = np.where(np.arange(n)[None, :] > (start + np.arange(T))[:, None], -np.inf, 0.0)
            out = np.empty((T, self.n_heads, self.head), np.float32)
            for h in range(self.n_heads):
                s = q[:, h] @ k[:, h // group].T / np.sqrt(self.head) + mask
                if keep is not None:
                    kept = keep[l][h // group]
                    s[:, :len(kept)] = np.where(kept[None, :], s[:, :len(kept)], -np.inf)
                s = np.exp(s - s.max(-1, keepdims=True))
                s = s / s.sum(-1, keepdims=True)
                if observe:
                    observe(l, h, s)
                out[:, h] = s @ v[:, h // group]
            x = x + out.reshape(T, self.dim) @ self.w[p + "attn_output.weight"].T
            xb = self.rms(x, self.w[p + "ffn_norm.weight"])
            gate = xb @ self.w[p + "ffn_gate.weight"].T
            up = xb @ self.w[p + "ffn_up.weight"].T
            x = x + (gate / (1 + np.exp(-gate)) * up) @ self.w[p + "ffn_down.weight"].T
        return self.rms(x, self.w["output_norm.weight"]) @ self.classifier.T

    def generate(self, prompt, steps, stops, cache=None, logits=None, keep=None):
        """Greedy continuation of PROMPT: up to STEPS new tokens, ending
        before a token in STOPS. CACHE and LOGITS: the prompt already read
        (its cache and its last position's logits); KEEP: as forward's."""
        if cache is None:
            cache = []
            logits = self.forward(prompt, cache, 0)[-1]
        out = []
        while len(out) < steps:
            nxt = int(np.argmax(logits))
            if nxt in stops:
                break
            out.append(nxt)
            logits = self.forward([nxt], cache, len(prompt) + len(out) - 1, keep)[-1]
        return out
