"""Tables of byte-level BPE for the converter: GPT-2's byte -> character map
(vocabularies spell every byte as a printable character) and the Unicode
classes the pre-tokenizer's pattern uses, as sorted inclusive code point
ranges, from Python's unicodedata (its Unicode version is printed by
`convert.py --unicode-version`)."""
import sys
import unicodedata


def _byte_to_char():
    """Printable Latin-1 bytes stand for themselves; the others (controls,
    space, soft hyphen...) take the characters from U+0100 on, in byte order."""
    keep = list(range(ord("!"), ord("~") + 1)) + list(range(0xA1, 0xAC + 1)) + list(range(0xAE, 0xFF + 1))
    table, extra = {}, 0
    for b in range(256):
        if b in keep:
            table[b] = chr(b)
        else:
            table[b] = chr(256 + extra)
            extra += 1
    return table


BYTE_TO_CHAR = _byte_to_char()
NO_TOKEN = 0xFFFF  # a byte the vocabulary has no token for
CHAR_TO_BYTE = {c: b for b, c in BYTE_TO_CHAR.items()}

# Unicode's White_Space property (PropList.txt), what the pattern's \s is.
WHITE_SPACE = [(0x09, 0x0D), (0x20, 0x20), (0x85, 0x85), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A),
               (0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000)]


def unmap_bytes(name):
    """A vocabulary entry's bytes."""
    try:
        return bytes(CHAR_TO_BYTE[c] for c in name)
    except KeyError as e:
        raise ValueError(f"character {e.args[0]!r} is not one of byte-level BPE's 256") from None


def ranges_where(test):
    out, start = [], None
    for cp in range(sys.maxunicode + 2):
        inside = cp <= sys.maxunicode and test(chr(cp))
        if inside and start is None:
            start = cp
        elif not inside and start is not None:
            out.append((start, cp - 1))
            start = None
    return out


def unicode_classes():
    """(letters \\p{L}, numbers \\p{N}, white space \\s) as range lists."""
    letters = ranges_where(lambda c: unicodedata.category(c)[0] == "L")
    numbers = ranges_where(lambda c: unicodedata.category(c)[0] == "N")
    return letters, numbers, WHITE_SPACE
