"""The memory map (rtl/soc/regmap.toml) and the platforms (boards/boards.toml)
for the Python tools and tests, read from the descriptions themselves."""
import os
import tomllib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _load(*path):
    with open(os.path.join(ROOT, *path), "rb") as f:
        return tomllib.load(f)


def regions():
    """Each region of the memory map: name -> (base, size), the size the largest any platform has."""
    return {r["name"]: (r["base"], r["size"]) for r in _load("rtl", "soc", "regmap.toml")["region"]}


def platform(name):
    """A platform's table (clk_mhz, baud, ram_bytes, ext_bytes, array)."""
    return _load("boards", "boards.toml")[name]
