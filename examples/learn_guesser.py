"""Learn to guess: a tabular guesser learns, from rewards alone, which squares the naming giver's
words point at, in thousands of batched games, then is compared with the random guesser.

The learner sits in seat 0 of four-player games and plays only the guessing role (R10, R12); the
other seats and seat 0's own clue-giving turns are played by ``NamingGiver`` (as giver: the
word a colour-naming model finds best for the target; as guesser: a random empty square). The
learner never sees the target (R8): it sees the clue's id and the empty squares, and learns a
table of the mean round reward per (clue id, square), first and second guesses apart: a bandit
estimate of the points a pawn there earns after that clue, with epsilon-greedy exploration.

    python examples/learn_guesser.py                      # about two minutes on one core
    python examples/learn_guesser.py --plot docs/images/learn-guesser.png
    python examples/learn_guesser.py --iterations 3 --eval-games 50   # a smoke run
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from huescues import Rules
from huescues.batch import NamingGiver
from huescues.rl import BatchedEnv

PLAYERS = 4
LEARNER = 0


@dataclass
class Table:
    """Mean round reward by (guess 0/1, clue id or ``vocab`` for none, square)."""

    total: NDArray[np.float64]
    count: NDArray[np.float64]

    @classmethod
    def empty(cls, clues: int, squares: int) -> Table:
        shape = (2, clues + 1, squares)
        return cls(np.zeros(shape), np.zeros(shape))

    def values(self, guess: NDArray[np.int64], clue: NDArray[np.int64]) -> NDArray[np.float64]:
        n = self.count[guess, clue]
        return np.where(n > 0, self.total[guess, clue] / np.maximum(n, 1), 0.0)

    def add(
        self,
        guess: NDArray[np.int64],
        clue: NDArray[np.int64],
        square: NDArray[np.int64],
        reward: NDArray[np.float64],
    ) -> None:
        np.add.at(self.total, (guess, clue, square), reward)
        np.add.at(self.count, (guess, clue, square), 1.0)


def act(
    env: BatchedEnv,
    obs: dict[str, NDArray[np.generic]],
    table: Table | None,
    epsilon: float,
    rng: np.random.Generator,
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """The learner's squares (a random empty one with chance ``epsilon`` or without a table,
    else the best by the table, ties at random); with the (guess, clue) rows they index."""
    space = env.space
    empty = np.asarray(obs["action_mask"][:, space.first_pawn : space.first_clue], dtype=bool)
    guess = (np.asarray(obs["phase"]) == 4).astype(np.int64)
    clue_ids = np.asarray(obs["clue_ids"])
    clue = clue_ids[np.arange(env.size), guess]
    clue = np.where(clue < 0, len(space.vocabulary), clue)
    noise = rng.random(empty.shape)
    if table is None:
        score = noise
    else:
        score = table.values(guess, clue) + 1e-6 * noise
        explore = rng.random(env.size) < epsilon
        score[explore] = noise[explore]
    square = np.where(empty, score, -np.inf).argmax(axis=1)
    return space.first_pawn + square, guess, clue


def learn(
    iterations: int, steps: int, size: int, seed: int, *, learning: bool = True
) -> tuple[Table, list[float]]:
    """Train for ``iterations`` of ``steps`` batched steps; seat 0's mean reward per round it
    guessed in each iteration (the learning curve). With ``learning=False`` seat 0 guesses at
    random throughout: the random guesser's level."""
    env = BatchedEnv(Rules.standard(PLAYERS), size, learners=(LEARNER,), roles=("guesser",))
    env.bot = NamingGiver.for_batch(env.batch)
    space = env.space
    table = Table.empty(len(space.vocabulary), env.batch.board.size)
    rng = np.random.default_rng(seed)
    obs = env.reset(seed=seed)
    rows = np.arange(size)
    # The round's two decisions awaiting its reward: (guess, clue, square), -1 for none.
    pending = np.full((size, 2, 3), -1, dtype=np.int64)
    curve = []
    for it in range(iterations):
        epsilon = max(0.02, 0.3 * (1 - it / max(1, iterations - 1)))
        points, rounds = 0.0, 0
        for _ in range(steps):
            codes, guess, clue = act(env, obs, table if learning else None, epsilon, rng)
            live = obs["seat"] == LEARNER
            pending[rows[live], guess[live]] = np.stack(
                [guess, clue, codes - space.first_pawn], axis=1
            )[live]
            round_before = np.asarray(obs["round"]).copy()
            obs, rewards, ended, _ = env.step(codes)
            closed = ended | (np.asarray(obs["round"]) != round_before)
            reward = rewards[:, LEARNER]
            for g in (0, 1):
                done = closed & (pending[:, g, 0] >= 0)
                p = pending[done, g]
                table.add(p[:, 0], p[:, 1], p[:, 2], reward[done])
            points += float(reward[closed].sum())
            rounds += int(closed.sum())
            pending[closed] = -1
        curve.append(points / max(rounds, 1))
        if learning:
            print(f"iteration {it + 1:3d}: epsilon {epsilon:.2f}, {curve[-1]:.3f} per round")
    return table, curve


def evaluate(table: Table | None, games: int, seed: int) -> NDArray[np.float64]:
    """Seat 0's final score in each of ``games`` games, guessing greedily by ``table`` (or at
    random without one), against the same bots and the same deals."""
    env = BatchedEnv(Rules.standard(PLAYERS), min(games, 512), roles=("guesser",))
    env.bot = NamingGiver.for_batch(env.batch)
    rng = np.random.default_rng(seed)
    obs = env.reset(seed=seed, game_seeds=range(10**6, 10**6 + games))
    while env.batch.playing:
        codes, _, _ = act(env, obs, table, 0.0, rng)
        obs, *_ = env.step(codes)
    done = sorted(env.batch.finished, key=lambda g: g.seed)
    return np.array([g.scores[LEARNER] for g in done], dtype=np.float64)


def interval(x: NDArray[np.float64]) -> str:
    half = 1.96 * x.std(ddof=1) / np.sqrt(x.size)
    return f"{x.mean():.2f} (95% CI {x.mean() - half:.2f} to {x.mean() + half:.2f})"


def plot(curve: list[float], random_level: float, path: str, steps: int, size: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    x = np.arange(1, len(curve) + 1)
    ax.plot(x, curve, marker="o", ms=3, label="learning guesser (epsilon-greedy)")
    ax.axhline(random_level, color="grey", ls="--", label="random guesser")
    ax.set_xlabel(f"iteration ({steps} steps of {size} games)")
    ax.set_ylabel("seat 0's points per round guessed")
    ax.set_title("A tabular guesser learns the naming giver's words")
    ax.legend(loc="lower right")
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--iterations", type=int, default=30)
    parser.add_argument("--steps", type=int, default=100, help="batched steps per iteration")
    parser.add_argument("--size", type=int, default=1024, help="games played at once")
    parser.add_argument("--eval-games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--plot", help="save the learning curve to this PNG")
    args = parser.parse_args()
    start = time.perf_counter()
    table, curve = learn(args.iterations, args.steps, args.size, args.seed)
    print(f"trained in {time.perf_counter() - start:.0f} s")
    learned = evaluate(table, args.eval_games, args.seed + 1)
    rand = evaluate(None, args.eval_games, args.seed + 1)
    diff = learned - rand  # the same deals and bots' seeds: paired
    print(f"seat 0's final score over {learned.size} games against the naming bots:")
    print(f"  learned guesser: {interval(learned)}")
    print(f"  random guesser:  {interval(rand)}")
    print(f"  difference:      {interval(diff)}")
    if args.plot:
        _, level = learn(3, args.steps, args.size, args.seed, learning=False)
        plot(curve, float(np.mean(level)), args.plot, args.steps, args.size)


if __name__ == "__main__":
    main()
