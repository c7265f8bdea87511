"""The loadable bytes of an RV32 ELF as one block per memory region
(address, data) and its entry point, checked as the simulator's loader
checks them (sim/elf_image.cpp): a 32-bit little-endian RISC-V executable,
every loadable segment inside the file and inside one memory region, the
entry point inside the code's block. Shared by the upload client, the
memory-image generator and the profiler. Read with pyelftools (Debian:
python3-pyelftools)."""
import os
import sys

from elftools.common.exceptions import ELFError
from elftools.elf.elffile import ELFFile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "platform"))
import platforms  # noqa: E402

# The SoC's memory map (rtl/soc/regmap.toml): where loadable code may go, at
# the largest sizes any platform has; the bootloader refuses what its board lacks.
ROM, RAM, EXT = (platforms.regions()[name] for name in ("ROM", "RAM", "EXT"))


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
    pieces, entry = elf_pieces(path, regions, one_region=True)
    return pieces[0][0], pieces[0][1], entry


def elf_pieces(path, regions=(ROM, RAM), one_region=False):
    """([(base, image bytes)], entry): PATH's loadable segments as one block
    per region of REGIONS they lie in, the block with the entry point last
    (the entry must lie in one of them). ONE_REGION: all in one."""
    f, elf = _open(path)
    with f:
        size = f.seek(0, 2)
        try:
            segments = []
            for i, seg in enumerate(elf.iter_segments()):
                # Only the file's bytes: what follows in memory (.bss) the
                # program's start-up code zeroes.
                if seg["p_type"] != "PT_LOAD" or not seg["p_filesz"]:
                    continue
                off, filesz, memsz, addr = seg["p_offset"], seg["p_filesz"], seg["p_memsz"], seg["p_paddr"]
                if filesz > memsz:
                    raise ElfError(f"{path}: segment {i} has more file bytes ({filesz}) than memory ({memsz})")
                if off + filesz > size:
                    raise ElfError(f"{path} is truncated (segment {i} needs bytes {off}..{off + filesz} of {size})")
                f.seek(off)
                segments.append((i, addr, f.read(filesz)))
        except ELFError as e:
            raise ElfError(f"{path}: bad program headers ({e})")
    if not segments:
        raise ElfError(f"{path} has nothing to load")
    where = ", ".join(f"{i} at {a:#010x}..{a + len(d):#010x}" for i, a, d in segments)
    allowed = " or ".join(f"{b:#010x}..{b + s:#010x}" for b, s in regions)
    groups = {}
    for i, a, d in segments:
        region = next((r for r in regions if r[0] <= a and a + len(d) <= r[0] + r[1]), None)
        if region is None or (one_region and groups and region not in groups):
            raise ElfError(f"{path}: its segments ({where}) do not fit "
                           f"{'one memory region' if one_region else 'the memory regions'} ({allowed})")
        groups.setdefault(region, []).append((a, d))
    entry = elf["e_entry"]
    pieces = []
    for region, segs in groups.items():
        base = min(a for a, _ in segs)
        image = bytearray(max(a + len(d) for a, d in segs) - base)
        for a, d in segs:
            image[a - base:a - base + len(d)] = d
        pieces.append((base, bytes(image)))
    code = [p for p in pieces if p[0] <= entry < p[0] + len(p[1])]
    if not code:
        spans = ", ".join(f"{b:#010x}..{b + len(d):#010x}" for b, d in pieces)
        raise ElfError(f"{path}: entry point {entry:#010x} is outside its image ({spans})")
    pieces.remove(code[0])
    return pieces + code, entry


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
