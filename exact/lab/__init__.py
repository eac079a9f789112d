"""Helpers and widgets of the notebooks in analyses/."""
