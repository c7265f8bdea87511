"""The loadable bytes of an RV32 ELF as one block (address, data, entry):
shared by the upload client and the memory-image generator."""
import struct


class ElfError(Exception):
    pass


def elf_image(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise ElfError(f"{path} is not a 32-bit little-endian ELF")
    entry, phoff = struct.unpack_from("<II", data, 24)
    phentsize, phnum = struct.unpack_from("<HH", data, 42)
    segments = []
    for i in range(phnum):
        ptype, off, _vaddr, paddr, filesz = struct.unpack_from("<IIIII", data, phoff + i * phentsize)
        if ptype == 1 and filesz:
            segments.append((paddr, data[off:off + filesz]))
    if not segments:
        raise ElfError(f"{path} has nothing to load")
    base = min(a for a, _ in segments)
    end = max(a + len(d) for a, d in segments)
    image = bytearray(end - base)
    for a, d in segments:
        image[a - base:a - base + len(d)] = d
    return base, bytes(image), entry
