"""The loadable bytes of an RV32 ELF as one block (address, data, entry),
checked as the simulator's loader checks them (sim/elf_image.cpp): a
32-bit little-endian RISC-V executable, every loadable segment inside the
file and inside one memory region, the entry point inside it too. Shared by
the upload client, the memory-image generator and the profiler. Read with
pyelftools (Debian: python3-pyelftools)."""
from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

# The SoC's memory map (rtl/soc/regmap.toml): where loadable code may go.
ROM = (0x0100_0000, 16 * 1024)
RAM = (0x8000_0000, 256 * 1024 * 1024)  # the largest board RAM (Arty A7: 256 MB DDR3L)


class ElfError(Exception):
    pass


def _open(path):
    try:
        f = open(path, "rb")
    except IsADirectoryError:
        raise ElfError(f"{path} is a directory, not an ELF file")
    except OSError as e:
        raise ElfError(f"cannot read {path}: {e.strerror}")
    try:
        elf = ELFFile(f)
    except ELFError as e:
        f.close()
        raise ElfError(f"{path} is not an ELF file ({e})")
    if elf.elfclass != 32 or not elf.little_endian or elf["e_machine"] != "EM_RISCV":
        f.close()
        raise ElfError(f"{path} is not a 32-bit little-endian RISC-V ELF "
                       f"({elf.elfclass}-bit, {'little' if elf.little_endian else 'big'}-endian, {elf['e_machine']})")
    return f, elf


def elf_image(path, regions=(ROM, RAM)):
    """(base, image bytes, entry) of PATH's loadable segments, which must all
    lie in one of REGIONS ((base, size) pairs), as must the entry point."""
    f, elf = _open(path)
    with f:
        size = f.seek(0, 2)
        try:
            segments = []
            for i, seg in enumerate(elf.iter_segments()):
                if seg["p_type"] != "PT_LOAD" or not seg["p_memsz"]:
                    continue
                off, filesz, memsz, addr = seg["p_offset"], seg["p_filesz"], seg["p_memsz"], seg["p_paddr"]
                if filesz > memsz:
                    raise ElfError(f"{path}: segment {i} has more file bytes ({filesz}) than memory ({memsz})")
                if off + filesz > size:
                    raise ElfError(f"{path} is truncated (segment {i} needs bytes {off}..{off + filesz} of {size})")
                f.seek(off)
                segments.append((i, addr, f.read(filesz).ljust(memsz, b"\0")))
        except ELFError as e:
            raise ElfError(f"{path}: bad program headers ({e})")
    if not segments:
        raise ElfError(f"{path} has nothing to load")
    base = min(a for _, a, _ in segments)
    end = max(a + len(d) for _, a, d in segments)
    region = next((r for r in regions if r[0] <= base and end <= r[0] + r[1]), None)
    if region is None:
        where = ", ".join(f"{i} at {a:#010x}..{a + len(d):#010x}" for i, a, d in segments)
        allowed = " or ".join(f"{b:#010x}..{b + s:#010x}" for b, s in regions)
        raise ElfError(f"{path}: its segments ({where}) do not fit one memory region ({allowed})")
    entry = elf["e_entry"]
    if not base <= entry < end:
        raise ElfError(f"{path}: entry point {entry:#010x} is outside its image ({base:#010x}..{end:#010x})")
    image = bytearray(end - base)
    for _, a, d in segments:
        image[a - base:a - base + len(d)] = d
    return base, bytes(image), entry


def elf_functions(path):
    """The function symbols of an RV32 ELF as (address, size, name), sorted."""
    f, elf = _open(path)
    with f:
        symtab = elf.get_section_by_name(".symtab")
        funcs = [(s["st_value"], s["st_size"], s.name) for s in symtab.iter_symbols()
                 if s["st_info"]["type"] == "STT_FUNC"] if symtab else []
    if not funcs:
        raise ElfError(f"{path} has no function symbols")
    return sorted(funcs)
