"""The analyses as text, JSON, CSV and spreadsheets."""
