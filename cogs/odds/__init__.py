"""/odds: the chances of any shot before it is taken, priced by driving the command's own engine
call with every way the dice can fall (engine/odds), with how the answer reads in words/. May
import cogs.common, engine, renders."""
