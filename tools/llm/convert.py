#!/usr/bin/python3
"""Convert a model into the firmware's integer model image (.ucm).

usage: convert.py MODEL.bin TOKENIZER.bin -o OUT.ucm [--max-bytes N]   (llama2.c)
       convert.py MODEL.gguf -o OUT.ucm [--context N] [--max-bytes N]  (GGUF llama)

llama2.c checkpoints (llama2c_reader.py) come with a tokenizer.bin; a GGUF
file (gguf_reader.py; needs PyPI gguf) carries its tokenizer and chat
template. The image format is image_format.py's. Nothing is written unless
the whole image is built: a refused model leaves no file behind.
"""
import argparse
import os
import sys
import unicodedata

import gguf_reader
import llama2c_reader
from image_format import ConvertError, build_image


def load(args):
    if gguf_reader.is_gguf(args.model):
        if args.tokenizer:
            raise ConvertError("a GGUF model carries its own tokenizer; give no TOKENIZER")
        return gguf_reader.read_gguf(args.model, args.context)
    if not args.tokenizer:
        raise ConvertError("a llama2.c checkpoint needs its TOKENIZER.bin")
    if args.context:
        raise ConvertError("--context applies to GGUF models")
    cfg, w = llama2c_reader.read_checkpoint(args.model)
    max_len, tokens = llama2c_reader.read_tokenizer(args.tokenizer, cfg["vocab_size"])
    return llama2c_reader.to_model(cfg, w, max_len, tokens)


def write_whole(path, data):
    """Writes beside PATH and renames, so that PATH is the whole image or absent."""
    tmp = path + ".tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError as e:
        if os.path.exists(tmp):
            os.remove(tmp)
        raise ConvertError(f"cannot write '{path}': {e.strerror}")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("model", nargs="?")
    ap.add_argument("tokenizer", nargs="?")
    ap.add_argument("-o", "--output")
    ap.add_argument("--max-bytes", type=int, default=0,
                    help="refuse an image larger than this (the memory it must fit)")
    ap.add_argument("--context", type=int, default=0,
                    help="GGUF: positions the image holds (default: the model's context_length)")
    ap.add_argument("--unicode-version", action="store_true",
                    help="print the Unicode version the BPE pre-tokenizer's classes come from")
    args = ap.parse_args()
    if args.unicode_version:
        print(unicodedata.unidata_version)
        return
    if not args.model or not args.output:
        ap.error("MODEL and -o OUT.ucm are required")
    try:
        model = load(args)
        image = build_image(model)
        if args.max_bytes and len(image) > args.max_bytes:
            raise ConvertError(f"the model image is {len(image)} bytes; the target RAM allows {args.max_bytes}")
        write_whole(args.output, image)
    except ConvertError as e:
        sys.exit(f"convert.py: {e}")
    cfg = model.cfg
    print(f"{args.output}: {len(image)} bytes, dim {cfg['dim']}, hidden {cfg['hidden_dim']}, "
          f"{cfg['n_layers']} layers, {cfg['n_heads']}/{cfg['n_kv_heads']} heads, vocab {cfg['vocab_size']}, "
          f"seq {cfg['seq_len']}")


if __name__ == "__main__":
    main()
