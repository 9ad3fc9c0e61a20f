"""Warmaster commands: /wm (artillery and machines, wm.py) and /siege (siege.py), the channel's fortress
in the store (fortress_state.py), options read into engine values. May import cogs.common, engine, renders.warmaster, storage."""
