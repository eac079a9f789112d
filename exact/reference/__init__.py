"""The brute-force twins of the fast paths, used by the tests and the reports' verification.

Layer: reference, beside the analyses; it imports only the core, so it shares no code
with the fast paths it checks.
"""
