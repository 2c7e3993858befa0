#!/usr/bin/env python3
"""Writes the generated Swift tables of Thunderstorm's graphics: fonts, icons, cell glyphs and
the HD44780 character ROM of the simulated LCD.

    Tools/graphics/generate.py --fonts DIR --terminus "xfonts-terminus 4.48-3.1" \
        --misc-fixed "xfonts-base 1:1.0.5+nmu1" --out ROOT

DIR holds the PCF files of both Debian packages (usr/share/fonts/X11/misc of the extracted
.debs); ROOT is the package root, the files go to ROOT/Sources/.... Normally run through
scripts/generate-graphics.sh, which fetches the packages and checks the result. The output
depends on nothing but the inputs (no dates, no paths, sorted tables), so a regeneration that
changes no input changes no byte, and CI can compare.
"""

import argparse
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import art  # noqa: E402
import fonts  # noqa: E402
import hd44780  # noqa: E402
import pcf  # noqa: E402

TOOLS = os.path.dirname(os.path.abspath(__file__))
GRAPHICS = "Sources/Graphics/Generated"
ROM_PATH = "Sources/HALSim/Display/HD44780CharacterROM.swift"


def header(sources):
    lines = [
        "// GENERATED FILE - DO NOT EDIT.",
        "// Written by scripts/generate-graphics.sh (Tools/graphics/generate.py) from:",
    ]
    lines += [f"//   {line}" for line in sources]
    lines += [
        "// To change it, edit Tools/graphics/ and run scripts/generate-graphics.sh;",
        "// CI runs scripts/generate-graphics.sh --check and fails when this file is stale.",
        "",
    ]
    return "\n".join(lines)


def terminus_source(package, file, font):
    return [
        f"Terminus Font, {file} from the Debian package {package},",
        f"{font.properties.get('COPYRIGHT', '')}, with Reserved Font Name \"Terminus Font\";",
        "licensed under the SIL Open Font License 1.1 (Tools/graphics/LICENSE-Terminus.txt).",
    ]


def outputs(fonts_dir, terminus, misc_fixed):
    """Every generated file: (path relative to the package root, text)."""
    files = []
    for name, file, enum, scalars, description in fonts.FONTS:
        font = pcf.Font(os.path.join(fonts_dir, file))
        glyphs = fonts.cut(name, font, scalars)
        text = fonts.swift(name, enum, description, font, glyphs, header(terminus_source(terminus, file, font)))
        files.append((f"{GRAPHICS}/Font+{name.capitalize()}.swift", text))
    art_source = header(["the hand-drawn ASCII art in Tools/graphics/icons/ (# lit, . unlit)."])
    files.append((f"{GRAPHICS}/ConditionGroup+Sheets.swift", art.icons_swift(TOOLS, art_source, fonts.pages)))
    cell_source = header(["the hand-drawn ASCII art in Tools/graphics/cells/ (# lit, . unlit)."])
    files.append((f"{GRAPHICS}/CellGlyph+Rows.swift", art.cells_swift(TOOLS, cell_source)))
    fixed = pcf.Font(os.path.join(fonts_dir, "5x7.pcf.gz"))
    rom_source = header([
        f"the misc-fixed 5x7 font (5x7.pcf.gz) of the Debian package {misc_fixed}:",
        f"\"{fixed.properties.get('COPYRIGHT', '')}\" (see Tools/graphics/hd44780.py).",
    ])
    files.append((ROM_PATH, hd44780.swift(fixed, rom_source)))
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fonts", required=True, help="directory with the PCF files")
    parser.add_argument("--terminus", required=True, help='"xfonts-terminus VERSION", for the headers')
    parser.add_argument("--misc-fixed", required=True, help='"xfonts-base VERSION", for the headers')
    parser.add_argument("--out", required=True, help="package root to write into")
    args = parser.parse_args()
    for path, text in outputs(args.fonts, args.terminus, args.misc_fixed):
        target = os.path.join(args.out, path)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        with open(target, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
