"""Varied texts for the byte-level BPE tokenizer's test against PyPI
tokenizers: prose and legal English (Debian's license texts), Python source
(the standard library's: indentation, runs of spaces and newlines),
generated text mixing scripts, digits of many systems, Unicode spaces,
contractions, emoji and the chat template's control tokens, and a sweep of
code points in the contexts the pre-tokenizer's pattern distinguishes."""
import glob
import random
import sys
import unicodedata

CONTROL = ["<|im_start|>", "<|im_end|>", "<|endoftext|>", "<repo_name>", "<reponame>", "<file_sep>",
           "<jupyter_code>", "<empty_output>"]
NEAR_CONTROL = ["<|im_start", "im_end|>", "<|", "|>", "<repo_name", "<|im_start|", "< |im_end|>"]
PIECES = ["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'RE", "''", " '", "n't", "I'm", "y'all",
          " ", "  ", "   ", "\t", "\n", "\n\n", "\r\n", " \n ", "\u00a0", "\u2003", "\u3000", "\u2028", "\u200b",
          "\u0085", "\u180e", "\ufeff", "12", "3.14", "1,000", "٣٤", "०१२", "１２３", "Ⅻ", "½", "²", "①",
          "the", " the", "The", " Hello", "world", "naïve", "façade", "Ελληνικά", "русский", "中文字符", "日本語",
          "한국어", "עברית", "العربية", "हिन्दी", "ไทย", "😀", "👍🏽", "🇫🇷", "e\u0301", "ﬁ", "...", "!!", "?!",
          "#", "$", "%", "&&", "->", "=>", "{}", "[]", "()", "`code`", "__init__", "x_1", "a-b", "http://x.org/a?b=c",
          "user@example.com", "C++", "#include <stdio.h>", "\\n", "\"quoted\"", "«guillemets»", "—", "–", "…",
          "\u0600", "\u202e", "\x01", "\x04", "\x1b[0m", "\x7f"]


def license_texts():
    out = []
    for path in sorted(glob.glob("/usr/share/common-licenses/*")):
        try:
            with open(path, encoding="utf-8") as f:
                out.append(f.read())
        except (OSError, UnicodeDecodeError):
            pass
    return out


def python_sources(limit):
    out, total = [], 0
    for path in sorted(glob.glob(f"/usr/lib/python3.{sys.version_info[1]}/*.py")):
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        out.append(text)
        total += len(text.encode("utf-8"))
        if total >= limit:
            break
    return out


def random_char(rng):
    blocks = [(0x20, 0x7E), (0xA0, 0x24F), (0x370, 0x3FF), (0x400, 0x4FF), (0x590, 0x6FF), (0x900, 0x97F),
              (0xE00, 0xE7F), (0x1100, 0x11FF), (0x2000, 0x206F), (0x2100, 0x22FF), (0x3000, 0x30FF),
              (0x4E00, 0x9FFF), (0xAC00, 0xD7A3), (0xFF00, 0xFFEF), (0x1F300, 0x1FAFF), (0x10000, 0x1007F),
              (0x20000, 0x2A6DF), (0x1D400, 0x1D7FF), (0xE0000, 0xE007F)]
    lo, hi = blocks[rng.randrange(len(blocks))]
    return chr(rng.randint(lo, hi))


def generated(rng, count, size):
    out = []
    for _ in range(count):
        parts = []
        while sum(len(p) for p in parts) < size:
            r = rng.random()
            if r < 0.45:
                parts.append(rng.choice(PIECES))
            elif r < 0.75:
                parts.append("".join(random_char(rng) for _ in range(rng.randint(1, 6))))
            elif r < 0.85:
                parts.append(rng.choice(CONTROL))
            elif r < 0.9:
                parts.append(rng.choice(NEAR_CONTROL))
            else:
                parts.append(" " * rng.randint(1, 12) + rng.choice(["", "\n", "x", "1", "!"]))
        out.append("".join(parts))
    return out


def code_point_sweep(step=1, per_text=4096):
    """Every assigned code point (but NUL and the surrogates) up to plane 3
    (every STEP-th), each as " c", "c1", "ac", "!c" and "c " beside its
    neighbours: the classes the pattern tells apart."""
    texts, cur = [], []
    for cp in range(1, 0x32000, step):
        if 0xD800 <= cp < 0xE000 or unicodedata.category(chr(cp)) == "Cn":
            continue
        c = chr(cp)
        cur.append(f" {c}{c}1a{c}!{c} \n")
        if len(cur) == per_text // 8:
            texts.append("".join(cur))
            cur = []
    return texts + (["".join(cur)] if cur else [])


def pieces(text, limit=16000):
    """TEXT cut at line ends into texts of at most LIMIT bytes (the
    firmware's encoder takes 65000)."""
    out, cur, size = [], [], 0
    for line in text.splitlines(keepends=True):
        n = len(line.encode("utf-8"))
        if cur and size + n > limit:
            out.append("".join(cur))
            cur, size = [], 0
        cur.append(line)
        size += n
    return out + (["".join(cur)] if cur else [])


def corpus(seed=1, generated_texts=200, generated_size=2000, sources_bytes=400000, sweep_step=1):
    rng = random.Random(seed)
    whole = license_texts() + python_sources(sources_bytes)
    return ([p for t in whole for p in pieces(t)] + generated(rng, generated_texts, generated_size)
            + code_point_sweep(sweep_step))


def write_texts(path, texts):
    """llm_tokenize's input: each text as "LEN" then its UTF-8 bytes."""
    with open(path, "wb") as f:
        for t in texts:
            b = t.encode("utf-8")
            f.write(b"%d\n" % len(b) + b)
