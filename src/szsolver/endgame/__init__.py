"""The exact endgame solver: a C search (MTD(f) over alpha-beta with a transposition
table) driven from Python."""
