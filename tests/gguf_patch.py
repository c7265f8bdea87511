"""A GGUF file with one thing changed, for the converter's refusal tests
(run with the venv's Python, which has PyPI gguf):
  gguf_patch.py IN OUT field KEY VALUE     a metadata value (same type; a string of the same length)
  gguf_patch.py IN OUT tensor-type NAME T  a tensor's quantization type number
  gguf_patch.py IN OUT nan-scale NAME      the first block scale of a tensor (fp16) to NaN
  gguf_patch.py IN OUT truncate BYTES      the first BYTES only
"""
import shutil
import struct
import sys

import gguf
import numpy as np


def offset_of(reader, array):
    return array.ctypes.data - reader.data.ctypes.data


def main():
    src, dst, what = sys.argv[1:4]
    if what == "truncate":
        with open(src, "rb") as f, open(dst, "wb") as g:
            g.write(f.read(int(sys.argv[4])))
        return
    reader = gguf.GGUFReader(src)
    patches = []
    if what == "field":
        field = reader.fields[sys.argv[4]]
        value = field.parts[-1]
        if value.dtype == np.uint8:  # a string's bytes
            new = sys.argv[5].encode()
            assert len(new) == value.size, "a string of the same length"
            patches.append((offset_of(reader, value), new))
        else:
            patches.append((offset_of(reader, value), np.array([int(sys.argv[5])], dtype=value.dtype).tobytes()))
    elif what == "tensor-type":
        t = next(t for t in reader.tensors if t.name == sys.argv[4])
        patches.append((offset_of(reader, t.field.parts[4]), struct.pack("<I", int(sys.argv[5]))))
    elif what == "nan-scale":
        t = next(t for t in reader.tensors if t.name == sys.argv[4])
        patches.append((t.data_offset, struct.pack("<H", 0x7E00)))
    shutil.copyfile(src, dst)
    with open(dst, "r+b") as f:
        for at, data in patches:
            f.seek(at)
            f.write(data)


if __name__ == "__main__":
    main()
