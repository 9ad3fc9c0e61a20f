"""Pictures of Warhammer 40,000 ordnance: blast markers over squads and vehicles.
May import engine records, renders.canvas and drawing libraries only."""
