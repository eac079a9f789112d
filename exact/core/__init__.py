"""The core: cards and shoes, the direct enumeration of rounds, the parsing of numbers and
files, progress display.

Layer: core, the lowest; it imports only the core and :mod:`exact.errors`.
"""
