"""The published Starmaps puzzle collection (JSON files), installed as package data."""
