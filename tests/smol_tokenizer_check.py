"""The firmware's byte-level BPE (llm_tokenize, host build) against PyPI
tokenizers built from the same GGUF vocabulary and merges, over
bpe_corpus.py's texts (over 4 MB: prose, code, generated Unicode, every
assigned code point up to plane 3), and each text's round trip through
encode and decode. Run with the venv's Python (gguf, tokenizers).
usage: smol_tokenizer_check.py MODEL.gguf IMAGE.ucm LLM_TOKENIZE"""
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tools", "llm"))

import bpe_corpus  # noqa: E402
import gguf_tokenizer  # noqa: E402


def main():
    gguf, image, tool = sys.argv[1:4]
    texts = bpe_corpus.corpus()
    want = [e.ids for e in gguf_tokenizer.build(gguf).encode_batch(texts)]
    with tempfile.NamedTemporaryFile(suffix=".txt") as f:
        bpe_corpus.write_texts(f.name, texts)
        out = subprocess.run([tool, image, f.name, "--round-trip"], capture_output=True, text=True)
    if out.returncode:
        sys.exit(f"llm_tokenize failed: {out.stderr}")
    lines = out.stdout.splitlines()
    got = [[int(t) for t in line.split()[1:]] if line.startswith("TOKENS") else line
           for line in lines if not line.startswith("ROUNDTRIP")]
    trips = [line for line in lines if line.startswith("ROUNDTRIP")]
    differ = [i for i in range(len(texts)) if i >= len(got) or got[i] != want[i]]
    for i in differ[:3]:
        g = got[i] if i < len(got) else None
        print(f"text {i} ({texts[i][:60]!r}): want {want[i][:20]} got {g if not isinstance(g, list) else g[:20]}")
    print(f"{len(texts)} texts, {sum(len(t.encode('utf-8')) for t in texts)} bytes, {sum(map(len, want))} tokens, "
          f"{len(differ)} differ, {sum(t != 'ROUNDTRIP ok' for t in trips) + len(texts) - len(trips)} round trips fail")


if __name__ == "__main__":
    main()
