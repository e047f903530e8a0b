"""Players: the Agent protocol, the random agent and the game loop."""

from ._loop import PlayedGame, play_game
from ._protocol import Agent
from ._random import RandomAgent

__all__ = ["Agent", "PlayedGame", "RandomAgent", "play_game"]
