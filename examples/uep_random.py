#!/usr/bin/env python3
"""A tiny Ur engine that speaks UEP (docs/engine_protocol.md), in Python 3 with only the
standard library: an example for authors of engines, and a player the tests seat against ours.

It knows Irving Finkel's rules ("finkel" and "finkel(pieces=N)", N = 1..7) by itself: a
14-square path (path indices 1..14, 0 = not entered, 15 = borne off), four binary dice (the
raw throw k moves k squares, 0 moves nothing), rosettes at indices 4, 8 and 14 give another
throw, the squares 5..12 are shared and a piece landing on an enemy there sends it home,
except on the central rosette 8, which is safe. Other rule sets are refused.

Options: Rules, Seed, and Policy: `random` (uniform among the legal moves) or `greedy`
(bear off, capture, land on a rosette, else move the piece that gains the most). `eval` is
answered with a rough estimate (progress difference), marked `estimate`.

Usage: examples/uep_random.py [--policy random|greedy] [--crash-after N] [--hang-after N]
  [--illegal-after N]; the last three make it misbehave after N moves, for the tests of
  controllers (crash: exit 3; hang: sleep forever; illegal: answer 0->0).
"""
import math
import random
import re
import sys
import time

PATH_LENGTH = 14
OFF = PATH_LENGTH + 1
ROSETTES = {4, 8, 14}
SHARED = range(5, 13)
SAFE = {8}


class Position:
    """A parsed position string: actor, state, and each side's path indices."""

    def __init__(self, text, pieces):
        m = re.fullmatch(r"([LD])(r|[0-9]|w)/([0-9a-z]+)/([0-9a-z]+)", text)
        if not m:
            raise ValueError(f"position '{text}': expected e.g. Lr/0000000/0000000")
        self.actor = 0 if m.group(1) == "L" else 1
        self.state = m.group(2)
        self.sides = [[int(c, 36) for c in m.group(i)] for i in (3, 4)]
        for side in self.sides:
            if len(side) != pieces or any(i > OFF for i in side):
                raise ValueError(f"position '{text}': {pieces} pieces of 0..{OFF} per side")

    def text(self):
        def side(s):
            return "".join("0123456789abcdefghijklmnopqrstuvwxyz"[i] for i in sorted(s))
        return f"{'LD'[self.actor]}{self.state}/{side(self.sides[0])}/{side(self.sides[1])}"


def legal_moves(pos):
    """The (from, to) moves of the actor for the throw in pos.state."""
    if not pos.state.isdigit():
        return []
    k = int(pos.state)
    mine, theirs = pos.sides[pos.actor], pos.sides[1 - pos.actor]
    moves = set()
    for f in set(mine):
        t = f + k
        if k == 0 or f == OFF or t > OFF:
            continue
        if t != OFF and t in mine:
            continue
        if t in SAFE and t in theirs:
            continue
        moves.add((f, t))
    return sorted(moves)


def apply_move(pos, move):
    f, t = move
    mine, theirs = pos.sides[pos.actor], pos.sides[1 - pos.actor]
    mine[mine.index(f)] = t
    if t in SHARED and t in theirs:
        theirs[theirs.index(t)] = 0
    if all(i == OFF for i in mine):
        pos.state = "w"
        return
    if t not in ROSETTES:
        pos.actor = 1 - pos.actor
    pos.state = "r"


def apply_throw(pos, k):
    pos.state = str(k)
    if not legal_moves(pos):  # nothing to decide: the turn passes at once
        pos.actor = 1 - pos.actor
        pos.state = "r"


def greedy(pos, moves):
    theirs = pos.sides[1 - pos.actor]

    def score(m):
        f, t = m
        return (t == OFF, t in SHARED and t in theirs, t in ROSETTES, t - f, f)
    return max(moves, key=score)


class Engine:
    def __init__(self, policy):
        self.pieces = 7
        self.policy = policy
        self.rng = random.Random(1)
        self.pos = self.start()
        self.moves_made = 0

    def start(self):
        return Position(f"Lr/{'0' * self.pieces}/{'0' * self.pieces}", self.pieces)

    def say(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def setoption(self, words):
        if len(words) < 4 or words[0] != "name" or words[2] != "value":
            raise ValueError("expected setoption name <Name> value <v>")
        name, value = words[1].lower(), " ".join(words[3:])
        if name == "rules":
            m = re.fullmatch(r"finkel(?:\(pieces=([1-7])\))?", value)
            if not m:
                raise ValueError(f"Rules: only finkel and finkel(pieces=1..7), not '{value}'")
            self.pieces = int(m.group(1) or 7)
            self.pos = self.start()
        elif name == "seed" and value.isdigit():
            self.rng = random.Random(int(value))
        elif name == "policy" and value in ("random", "greedy"):
            self.policy = value
        else:
            raise ValueError(f"bad option or value: {name} {value}")

    def go(self, misbehave):
        moves = legal_moves(self.pos)
        if not moves:
            self.say("info string awaiting a throw" if self.pos.state == "r" else
                     "info string the game is over")
            self.say("bestmove (none)")
            return
        self.moves_made += 1
        kind, after = misbehave
        if kind and self.moves_made > after:
            if kind == "crash":
                sys.exit(3)
            if kind == "hang":
                time.sleep(10**6)
            self.say("bestmove 0->0")
            return
        f, t = greedy(self.pos, moves) if self.policy == "greedy" else self.rng.choice(moves)
        self.say(f"bestmove {f}->{t}")

    def eval(self):
        def progress(side):
            return sum(i for i in side) / (OFF * self.pieces)
        me = self.pos.actor
        diff = progress(self.pos.sides[me]) - progress(self.pos.sides[1 - me])
        self.say(f"eval win {1 / (1 + math.exp(-4 * diff)):.6f} estimate")
        self.say("evalok")

    def handle(self, words, misbehave):
        cmd, args = words[0], words[1:]
        if cmd == "uep":
            self.say("id name uep_random.py")
            self.say("id version 1")
            self.say("option name Rules type string default finkel")
            self.say("option name Seed type spin default 1 min 0 max 2147483647")
            self.say(f"option name Policy type combo default {self.policy} var random var greedy")
            self.say("uepok")
        elif cmd == "isready":
            self.say("readyok")
        elif cmd == "setoption":
            self.setoption(args)
        elif cmd == "newgame":
            self.pos = self.start()
        elif cmd == "position" and len(args) == 1:
            self.pos = self.start() if args[0] == "start" else Position(args[0], self.pieces)
        elif cmd == "go":
            self.go(misbehave)
        elif cmd == "eval":
            self.eval()
        elif cmd == "throw" and len(args) == 1 and args[0] in ("0", "1", "2", "3", "4") and self.pos.state == "r":
            apply_throw(self.pos, int(args[0]))
        elif cmd == "move" and len(args) == 1 and "->" in args[0]:
            move = tuple(int(x) for x in args[0].split("->"))
            if move not in legal_moves(self.pos):
                raise ValueError(f"move {args[0]}: not legal in {self.pos.text()}")
            apply_move(self.pos, move)
        elif cmd == "stop":
            pass  # every answer is instant
        else:
            raise ValueError(f"cannot obey '{' '.join(words)}'")


def main(argv):
    policy, misbehave = "random", (None, 0)
    i = 1
    while i + 1 < len(argv):
        if argv[i] == "--policy":
            policy = argv[i + 1]
        elif argv[i] in ("--crash-after", "--hang-after", "--illegal-after"):
            misbehave = (argv[i][2:].split("-")[0], int(argv[i + 1]))
        i += 2
    engine = Engine(policy)
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "quit":
            return 0
        try:
            engine.handle(words, misbehave)
        except (ValueError, IndexError) as e:
            engine.say(f"info string error: {e}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
