"""The analyses as text, JSON, CSV and spreadsheets.

Layer: render, above the analyses; the reports and the command line print with it.
"""
