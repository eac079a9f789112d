"""The command line: one parser, the counting commands, the settle command, the commands a game
runs its own way."""
