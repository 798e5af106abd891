"""Text and pictures: points and turns, position strings, diagrams, JSON, game
records and SVG."""
