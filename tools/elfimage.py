"""The loadable bytes of an RV32 ELF as one block (address, data, entry):
shared by the upload client and the memory-image generator."""
import struct


class ElfError(Exception):
    pass


def read_elf32(path):
    data = open(path, "rb").read()
    if data[:4] != b"\x7fELF" or data[4] != 1 or data[5] != 1:
        raise ElfError(f"{path} is not a 32-bit little-endian ELF")
    return data


def elf_image(path):
    data = read_elf32(path)
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


def elf_functions(path):
    """The function symbols of an RV32 ELF as (address, size, name), sorted."""
    data = read_elf32(path)
    shoff = struct.unpack_from("<I", data, 32)[0]
    shentsize, shnum = struct.unpack_from("<HH", data, 46)
    sections = [struct.unpack_from("<IIIIIIIIII", data, shoff + i * shentsize) for i in range(shnum)]
    funcs = []
    for _name, stype, _flags, _addr, off, size, link, _info, _align, entsize in sections:
        if stype != 2 or not entsize:  # SHT_SYMTAB
            continue
        strtab = sections[link]
        for at in range(off, off + size, entsize):
            name_off, value, sym_size, info = struct.unpack_from("<IIIB", data, at)
            if info & 0xF != 2:  # STT_FUNC
                continue
            start = strtab[4] + name_off
            name = data[start:data.index(b"\0", start)].decode()
            funcs.append((value, sym_size, name))
    if not funcs:
        raise ElfError(f"{path} has no function symbols")
    return sorted(funcs)
