"""Pictures of Warmaster results: artillery on stands (artillery.py) and the siege's fortress
(fortress.py). May import engine records, renders.canvas and drawing libraries only."""
