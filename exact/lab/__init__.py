"""Helpers and widgets of the notebooks in analyses/.

Layer: lab, the top (beside the command line); the notebooks of ``analyses/`` import it.
"""
