# tests/lab/checks/NAME.py run inside notebook NAME's kernel, on its names: not test modules.
collect_ignore_glob = ["checks/*.py"]
