"""What is computed about a game: bet tables and their statistics, the designer, validation,
removal, simulation, assumptions."""
