#!/usr/bin/env python3
"""CPU a played turn, both threads and the system's part, against Amble.

Issue 26's measure: a 12-turn false-cry game (Zhang Chun, seed 1, every
choice answered `1`, Enter for each turn) piped to the release binary, less a
quit-only run of the same game, divided by 12; the same for Amble 0.67's demo
(`look` twelve times: each is a turn, and it autosaves every fifth). Each run
gets a fresh save folder on the disk the script runs from (not tmpfs), its
output goes to /dev/null, and its CPU is the process's (user + system, every
thread) from wait4. The binaries run in turn, round after round, so a busy
machine slows them alike; the figure is the median over the rounds.

    python3 benches/turn_cpu.py [--rounds 30] [--turns 12]
        [--amble BIN --amble-data DIR] BIN [BIN...]

`--amble-data` is the `data` folder of the amble_engine crate's source
(`cargo install amble_engine --version 0.67.0` puts the binary in
~/.cargo/bin and the source under ~/.cargo/registry/src). Each xiaoling BIN
is run from this checkout (its `scenes/`). Not run by CI: speed is measured
by hand, and the numbers go in the README.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile


def cpu_of(argv, stdin_text, cwd, env):
    """Runs argv with stdin_text piped in; returns its CPU seconds."""
    with tempfile.TemporaryFile() as stdin:
        stdin.write(stdin_text.encode())
        stdin.seek(0)
        with open(os.devnull, "wb") as null:
            proc = subprocess.Popen(argv, stdin=stdin, stdout=null, stderr=null, cwd=cwd, env=env)
            _, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{argv[0]} failed (status {status})")
    return usage.ru_utime + usage.ru_stime


def xiaoling_game(binary, turns, root, env):
    """The input that plays `turns` turns: Enter for a turn, `1` for a
    choice. Found by playing: each step is run to see what the game asks."""
    steps, passed = [], 0
    while passed < turns:
        with tempfile.TemporaryDirectory(dir=root) as saves:
            text = "".join(s + "\n" for s in steps) + "quit\n"
            out = subprocess.run(
                xiaoling_argv(binary, saves), input=text.encode(), capture_output=True,
                env=env, cwd=os.getcwd(),
            ).stdout.decode()
        before_quit = out[: out.rfind("quit")].rstrip().split("\n")[-1]
        if before_quit.startswith("Choose"):
            steps.append("1")
        elif "[" in before_quit and "]" in before_quit:
            steps.append("")
            passed += 1
        else:
            sys.exit(f"{binary}: the game ended or asked something unknown after {passed} turns")
    return "".join(s + "\n" for s in steps) + "quit\n"


def xiaoling_argv(binary, saves):
    return [binary, "play", "--scene", "false-cry", "--role", "zhang-chun", "--seed", "1",
            "--saves", saves]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=30)
    ap.add_argument("--turns", type=int, default=12)
    ap.add_argument("--amble")
    ap.add_argument("--amble-data")
    ap.add_argument("binaries", nargs="+")
    args = ap.parse_args()
    root = tempfile.mkdtemp(prefix="turn_cpu-", dir=os.getcwd())
    env = dict(os.environ, COLUMNS="80")
    try:
        contenders = []
        for binary in args.binaries:
            game = xiaoling_game(os.path.abspath(binary), args.turns, root, env)
            contenders.append((binary, os.path.abspath(binary), game, "quit\n"))
        if args.amble:
            if not args.amble_data:
                sys.exit("--amble needs --amble-data (the crate's data folder)")
            game = "\n" + "look\n" * args.turns + "quit\ny\n"
            contenders.append(("amble", os.path.abspath(args.amble), game, "\nquit\ny\n"))
        per_turn = {name: [] for name, *_ in contenders}
        for round_ in range(args.rounds):
            for name, binary, game, quit_only in contenders:
                spent = []
                for text in (game, quit_only):
                    run = tempfile.mkdtemp(dir=root)
                    if name == "amble":
                        shutil.copytree(args.amble_data, os.path.join(run, "amble_engine", "data"))
                        argv = [binary]
                    else:
                        argv = xiaoling_argv(binary, os.path.join(run, "saves"))
                    spent.append(cpu_of(argv, text, run if name == "amble" else os.getcwd(), env))
                    shutil.rmtree(run)
                per_turn[name].append((spent[0] - spent[1]) / args.turns)
            print(f"round {round_ + 1}/{args.rounds}", file=sys.stderr, end="\r")
        print(file=sys.stderr)
        amble = statistics.median(per_turn["amble"]) if "amble" in per_turn else None
        load = os.getloadavg()[0]
        print(f"CPU a turn, medians of {args.rounds} rounds (load {load:.1f}):")
        for name, values in per_turn.items():
            q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
            ratio = f"  {statistics.median(values) / amble:.2f}× Amble" if amble else ""
            print(f"  {name:<32} {statistics.median(values) * 1000:.3f} ms"
                  f" (quartiles {q[0] * 1000:.3f}–{q[2] * 1000:.3f}){ratio}")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
