"""Reads an ELF file's section names, to tell a stripped binary from one with symbols (pure, unit-tested)."""

import struct


def section_names(path):
    """The names of the sections of a 64-bit little-endian ELF file, in file order."""
    with open(path, "rb") as file:
        header = file.read(64)
        if header[:4] != b"\x7fELF" or header[4] != 2 or header[5] != 1:
            raise ValueError(f"{path} is not a 64-bit little-endian ELF file")
        shoff, = struct.unpack_from("<Q", header, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", header, 0x3A)
        file.seek(shoff)
        table = file.read(shentsize * shnum)
        headers = [struct.unpack_from("<IIQQQQ", table, index * shentsize) for index in range(shnum)]
        _, _, _, _, names_offset, names_size = headers[shstrndx]
        file.seek(names_offset)
        names = file.read(names_size)
    return [names[name:names.index(b"\0", name)].decode() for name, *_ in headers]


def is_stripped(path):
    """Stripped: no symbol table and no debug information left."""
    return not any(name == ".symtab" or name.startswith(".debug_") for name in section_names(path))
