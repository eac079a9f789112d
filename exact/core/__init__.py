"""The core: cards and shoes, the direct enumeration of rounds, the parsing of numbers and
files, progress display.

Layer: core, the lowest; it imports nothing of the package but :mod:`exact.errors`.
"""
