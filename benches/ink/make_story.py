#!/usr/bin/env python3
"""Write benches/ink/false-cry.ink: battle 1's choice shape as an ink story.

    python3 benches/ink/make_story.py [scenes/false-cry.ron] [benches/ink/false-cry.ink]

(and, beside it, false-cry-flat.ink: the same texts without the logic, on one line of
four turning points).

The peer of `xiaoling simulate --policy random` for issue 26 item 3 (see same_run.sh).
What it keeps of the scene, in English:
- the intro, then the turning points and events in the order the battle tells them
  (each placed at the earliest turn its `when` allows, events before turning points
  within a turn, and after anything it reads);
- each turning point's situation, its options as ink choices, each followed by its
  narration; each event's text; the endings (title, text, summary, history);
- of each text, the variant Zhang Chun is shown when its `when` reads only who plays,
  else the default (no `when`), else the first;
- what `when` conditions read of earlier choices: `Chosen` (a variable per turning
  point holding the option's id), `Reached`, `Happened` (the event's knot was visited),
  `Flag` (set by options' and events' `SetFlag`), `Chance` (ink's RANDOM). The world
  (men in zones, smoke, who has fallen) is not simulated: such a condition is left out
  of an `All`, and makes an `Any` hold. One number stands for the battle's course:
  `fortune`, Ming's morale minus Jin's as options' and events' `Morale` and
  `Casualties` effects move it, which `SideStrength` and `SideRouting` read; and
  `ming_over`, set by orders that send Ming over to the north bank (cleared by those
  that bring them back), which `SideMenIn` of the Ming on the north bank reads. The
  endings are judged on these (the first that holds, as the scene does); an ending's
  part the story cannot tell does not hold.
- `{men:...}`, `{turn}` and the like are ink variables: the scene's starting numbers
  (a zone nobody starts in: a quarter of the side; losses: a tenth of the side).
"""

import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import ron  # noqa: E402

PLAYER_SIDE, PLAYER_ROLE = "ming", "zhang-chun"
# `fortune` below LOW: Ming broken; at HIGH or more: Jin broken. Set so that the
# endings come in shares of the order of the engine's random games (see same_run.sh).
LOW, HIGH = -70, 80
# Turning points on the flat line (false-cry-flat.ink).
FLAT_POINTS = 4


def ident(prefix, name):
    return prefix + re.sub(r"[^A-Za-z0-9]", "_", name)


def paren(expr):
    """Bracket a compound expression (ink reads `(name)` alone as a list)."""
    return f"({expr})" if " " in expr else expr


def esc(text):
    """Ink content: escape what ink would read as syntax."""
    out = re.sub(r"([\\\[\]{}|#~])", r"\\\1", text)
    out = out.replace("//", "/\\/").replace("/*", "/\\*").replace("->", "-\\>")
    out = out.replace("<>", "<\\>").replace("<-", "<\\-")
    if out[:1] in "-*+=(<>":
        out = "\\" + out
    return out


class Scene:
    def __init__(self, scene):
        self.s = scene
        self.tps = scene.get("turning_points")
        self.events = scene.get("events")
        self.tp_ids = {t.get("id") for t in self.tps}
        self.ev_ids = {e.get("id") for e in self.events}
        self.unit_side = {u.get("id"): u.get("side") for u in scene.get("units")}
        self.vars = {}  # ink name -> initial value (placeholders)
        self.flags = set()
        self.turn_of = {}

    # ---- texts --------------------------------------------------------------
    def placeholder(self, m):
        kind, rest = m.group(1), m.group(2) or ""
        name = ident("", kind + ("_" + rest if rest else ""))
        if name not in self.vars:
            units = self.s.get("units")
            parts = rest.split(":") if rest else []
            if kind == "men" and parts and parts[0] in self.unit_side:
                value = next(u.get("men") for u in units if u.get("id") == parts[0])
            elif kind == "men":
                side = [u.get("men") for u in units if u.get("side") == parts[0]]
                value = sum(
                    u.get("men")
                    for u in units
                    if u.get("side") == parts[0] and (len(parts) < 2 or u.get("zone") == parts[1])
                )
                if not value:  # nobody there at the start: a quarter of the side
                    value = sum(side) // 4
            elif kind == "losses":  # a tenth of the side
                value = sum(u.get("men") for u in units if u.get("side") == parts[0]) // 10
            elif kind == "at":
                zone = next(c.get("zone") for c in self.s.get("commanders") if c.get("id") == rest)
                value = next(z.get("name")["en"] for z in self.s.get("zones") if z.get("id") == zone)
                value = value[0].lower() + value[1:]
            elif kind == "time":
                value = "16:00"
            else:
                value = 0
            self.vars[name] = value
        return "{" + name + "}"

    def text(self, localized):
        out = []
        for para in localized["en"].split("\n"):
            para = para.strip()
            if not para:
                continue
            pieces = re.split(r"(\{[a-z]+(?::[a-z0-9:-]+)?\})", para)
            line = ""
            for p in pieces:
                m = re.fullmatch(r"\{([a-z]+)(?::([a-z0-9:-]+))?\}", p)
                line += self.placeholder(m) if m else esc(p)
            out.append(line)
        return out

    def player_only(self, cond):
        """True/False if `cond` reads only who plays, else None."""
        n = cond.name
        if n == "PlayerSide":
            return cond.args[0] == PLAYER_SIDE
        if n == "Playing":
            return cond.args[0] == PLAYER_ROLE
        if n == "Not":
            v = self.player_only(cond.args[0])
            return None if v is None else not v
        if n in ("All", "Any"):
            vs = [self.player_only(c) for c in cond.args[0]]
            if None in vs:
                return None
            return all(vs) if n == "All" else any(vs)
        return None

    def variant(self, variants):
        for v in variants:
            w = v.get("when")
            if w is not None and self.player_only(w):
                return v
        for v in variants:
            if v.get("when") is None:
                return v
        return variants[0]

    # ---- conditions ---------------------------------------------------------
    def fortune_cond(self, cond):
        side = cond.get("side")
        cmp = cond.get("cmp")
        bad = (cond.name == "SideStrength") == (cmp.name in ("Below", "AtMost"))
        if side == "ming":
            return f"fortune < {LOW}" if bad else f"fortune >= {LOW}"
        return f"fortune >= {HIGH}" if bad else f"fortune < {HIGH}"

    def cond(self, c, ending=False):
        """Ink expression for what `c` reads of the story, or None (the world)."""
        n = c.name
        if n == "Chosen":
            return f'{ident("tp_", c.get("tp"))}_chosen == "{c.get("option")}"'
        if n == "Reached":
            return f'{ident("tp_", c.args[0])}_chosen != ""'
        if n in ("Happened", "TurnsSince"):
            x = c.args[0]
            if n == "TurnsSince" and c.args[1].name == "AtMost":
                return None
            if x in self.tp_ids:
                return f'{ident("tp_", x)}_chosen != ""'
            if x in self.ev_ids:
                return ident("ev_", x)
            self.flags.add(x)
            return ident("flag_", x)
        if n == "Flag":
            self.flags.add(c.args[0])
            return ident("flag_", c.args[0])
        if n == "Turn":
            return None  # the order of the knots stands for the clock
        if n == "Chance":
            return f"RANDOM(1, 1000) <= {round(c.args[0] * 1000)}"
        if n in ("SideStrength", "SideRouting"):
            return self.fortune_cond(c)
        if n == "SideMenIn" and c.get("side") == PLAYER_SIDE and c.get("zone") == "north-bank":
            more = c.get("cmp").name in ("AtLeast", "Above")
            return "ming_over" if more else "not ming_over"
        if n == "Not":
            inner = self.cond(c.args[0], ending)
            return None if inner is None else f"not {paren(inner)}"
        if n == "All":
            parts = [p for p in (self.cond(x, ending) for x in c.args[0]) if p is not None]
            if not parts:
                return None
            return " and ".join(paren(p) for p in parts)
        if n == "Any":
            parts = [self.cond(x, ending) for x in c.args[0]]
            if ending:
                # An ending the story cannot tell from the world does not come.
                parts = ["false" if p is None else p for p in parts]
            elif None in parts:
                return None
            return parts[0] if len(parts) == 1 else " or ".join(paren(p) for p in parts)
        return "false" if ending else None

    # ---- order --------------------------------------------------------------
    def earliest(self, c):
        """The earliest turn `c` can hold (None: it does not say)."""
        if c is None:
            return None
        n = c.name
        if n == "Turn":
            cmp = c.args[0]
            return int(cmp.args[0]) if cmp.name in ("AtLeast", "Above") else None
        if n in ("Happened", "Reached"):
            return self.turn_of.get(c.args[0])
        if n == "TurnsSince":
            base = self.turn_of.get(c.args[0])
            cmp = c.args[1]
            if base is None or cmp.name != "AtLeast":
                return None
            return base + int(cmp.args[0])
        if n == "All":
            ts = [t for t in (self.earliest(x) for x in c.args[0]) if t is not None]
            return max(ts) if ts else None
        if n == "Any":
            ts = [self.earliest(x) for x in c.args[0]]
            return None if None in ts or not ts else min(ts)
        return None

    def reads(self, c, out):
        if c is None or c.name == "Not":
            return out  # read as "not yet": no need to come after it
        if c.name in ("Happened", "Reached", "TurnsSince"):
            out.add(c.args[0])
        if c.name == "Chosen":
            out.add(c.get("tp"))
        for a in c.args:
            if isinstance(a, ron.Node):
                self.reads(a, out)
            elif isinstance(a, list):
                for x in a:
                    if isinstance(x, ron.Node):
                        self.reads(x, out)
        return out

    def order(self):
        items = [("ev", e) for e in self.events] + [("tp", t) for t in self.tps]
        # Turns: resolve in passes (an item may read a later one in the file).
        for _ in range(len(items)):
            for _kind, it in items:
                t = self.earliest(it.get("when"))
                self.turn_of[it.get("id")] = 0 if t is None else t
        # Flags set by options and events: placed with their setter.
        for kind, it in items:
            setters = [it] if kind == "ev" else it.get("options")
            for s in setters:
                for ef in s.get("effects", []):
                    if ef.name == "SetFlag":
                        self.turn_of.setdefault(ef.args[0], self.turn_of[it.get("id")])
        for _ in range(len(items)):
            for _kind, it in items:
                t = self.earliest(it.get("when"))
                self.turn_of[it.get("id")] = 0 if t is None else t
        seq = sorted(
            enumerate(items),
            key=lambda p: (self.turn_of[p[1][1].get("id")], p[1][0] == "tp", p[0]),
        )
        seq = [it for _, it in seq]
        # After anything it reads.
        moved, passes = True, 0
        while moved and passes < len(seq) ** 2:
            moved, passes = False, passes + 1
            for i, (_kind, it) in enumerate(seq):
                needs = self.reads(it.get("when"), set())
                last = max(
                    (j for j, (_k, o) in enumerate(seq) if o.get("id") in needs), default=-1
                )
                if last > i:
                    seq.insert(last, seq.pop(i))
                    moved = True
                    break
        return seq

    # ---- effects --------------------------------------------------------------
    def target_side(self, target):
        if target.name in ("Side",):
            return target.args[0]
        if target.name == "SideIn":
            return target.get("side")
        if target.name == "Unit":
            return self.unit_side.get(target.args[0])
        if target.name == "Units":
            return self.unit_side.get(target.args[0][0])
        return None

    def effects(self, effects):
        lines, fortune = [], 0.0
        for ef in effects:
            if ef.name == "SetFlag":
                self.flags.add(ef.args[0])
                lines.append(f"~ {ident('flag_', ef.args[0])} = true")
            elif ef.name == "Order" and self.target_side(ef.get("target")) == PLAYER_SIDE:
                order, target = ef.get("order"), ef.get("target")
                if order.name == "MoveTo" and order.args[0] == "north-bank":
                    lines.append("~ ming_over = true")
                elif order.name == "MoveTo" and target.name == "SideIn" and target.get("zone") == "north-bank":
                    lines.append("~ ming_over = false")
            elif ef.name in ("Morale", "Casualties"):
                side = self.target_side(ef.get("target"))
                amount = ef.get("delta") if ef.name == "Morale" else -100 * ef.get("share")
                if side == "ming":
                    fortune += amount
                elif side == "jin":
                    fortune -= amount
        if round(fortune):
            lines.append(f"~ fortune += {round(fortune)}")
        return lines

    def ending_texts(self, e):
        """An ending's title, text, summary and history."""
        out = self.text(e.get("title")) + self.text(self.variant(e.get("text")).get("text"))
        for part in ("summary", "history"):
            localized = e.get(part)
            if isinstance(localized, list):
                localized = self.variant(localized).get("text")
            if localized:
                out += self.text(localized)
        return out

    # ---- one line, flat -----------------------------------------------------------
    def flat(self, seed):
        """The same texts without logic: one line through the story (options taken at
        random from `seed`, `Chance` never holding), every option still a choice
        followed by its own narration; the events and the ending that line reaches."""
        import random

        rng = random.Random(seed)
        self.taken = []
        env = {"fortune": 0, "ming_over": False}
        for tp in self.tps:
            env[ident("tp_", tp.get("id")) + "_chosen"] = ""
        for e in self.events:
            env[ident("ev_", e.get("id"))] = 0

        class Vars(dict):
            def __missing__(self, key):
                return False  # flags not yet set

        def holds(expr):
            if expr is None:
                return True
            expr = re.sub(r"RANDOM\(1, 1000\) <= \d+", "False", expr)
            expr = re.sub(r"\btrue\b", "True", re.sub(r"\bfalse\b", "False", expr))
            return bool(eval(expr, {"__builtins__": {}}, Vars(env)))

        def apply(lines):
            for line in lines:
                m = re.fullmatch(r"~ (\w+) (\+?=) (.+)", line.strip())
                value = {"true": True, "false": False}.get(m.group(3))
                if value is None:
                    value = int(m.group(3))
                env[m.group(1)] = env.get(m.group(1), 0) + value if m.group(2) == "+=" else value

        def shown(lines, turn):
            minutes = 16 * 60 + 15 * turn
            values = dict(self.vars, turn=turn, time=f"{minutes // 60}:{minutes % 60:02}")
            return [re.sub(r"\{(\w+)\}", lambda m: str(values[m.group(1)]), x) for x in lines]

        out = ["=== battle ==="]
        out += shown(self.text(self.variant(self.s.get("meta").get("intro")).get("text")), 0)
        turn = 0
        for kind, it in self.order():
            if not holds(None if it.get("when") is None else self.cond(it.get("when"))):
                continue
            name = ident(kind + "_", it.get("id"))
            turn = self.turn_of[it.get("id")]
            if kind == "ev":
                env[name] = 1
                out += shown(self.text(self.variant(it.get("text")).get("text")), turn)
                apply(self.effects(it.get("effects", [])))
                continue
            out += shown(self.text(self.variant(it.get("situation")).get("text")), turn)
            options = it.get("options")
            taken = options[rng.randrange(len(options))]
            for o in options:
                out.append(f"* [{' '.join(self.text(o.get('text')))}]")
                narration = self.text(self.variant(o.get("narration")).get("text"))
                out += ["    " + x for x in shown(narration, turn)]
            out.append("-")
            env[name + "_chosen"] = taken.get("id")
            self.taken.append(name)
            apply(self.effects(taken.get("effects", [])))
        endings = self.s.get("endings")
        end = next(
            (e for e in endings[:-1] if holds(self.cond(e.get("when"), ending=True) or "true")),
            endings[-1],
        )
        out += shown(self.ending_texts(end), turn)
        out.append("-> END")
        head = [
            "// Generated by benches/ink/make_story.py from scenes/false-cry.ron: do not edit.",
            "// false-cry.ink without its logic: one line through it (options picked at random,",
            f"// Python's seed {seed}), every option a choice followed by its narration (a bound",
            f"// for benches/ink/same_run.sh). {len(self.taken)} turning points; ending {end.get('id')}.",
            "",
            "-> battle",
            "",
        ]
        return "\n".join(head + out) + "\n"

    # ---- the story ------------------------------------------------------------
    def clock(self, turn):
        minutes = 16 * 60 + 15 * turn
        return [f"~ turn = {turn}", f'~ time = "{minutes // 60}:{minutes % 60:02}"']

    def write(self):
        seq = self.order()
        body = []
        spine = ["=== battle ==="]
        spine += self.text(self.variant(self.s.get("meta").get("intro")).get("text"))
        for kind, it in seq:
            name = ident(kind + "_", it.get("id"))
            w = it.get("when")
            cond = None if w is None else self.cond(w)
            if cond is None:
                spine.append(f"-> {name} ->")
            else:
                spine += [f"{{ {cond}:", f"    -> {name} ->", "}"]
            body.append("")
            body.append(f"=== {name} ===")
            body += self.clock(self.turn_of[it.get("id")])
            if kind == "ev":
                body += self.text(self.variant(it.get("text")).get("text"))
                body += self.effects(it.get("effects", []))
            else:
                body += self.text(self.variant(it.get("situation")).get("text"))
                for o in it.get("options"):
                    choice = self.text(o.get("text"))
                    body.append(f"* [{' '.join(choice)}]")
                    body.append(f'    ~ {name}_chosen = "{o.get("id")}"')
                    body += ["    " + x for x in self.effects(o.get("effects", []))]
                    body += ["    " + x for x in self.text(self.variant(o.get("narration")).get("text"))]
                body.append("-")
            body.append("->->")
        spine.append("-> ending")

        endings = self.s.get("endings")
        ending = ["", "=== ending ===", "{"]
        for i, e in enumerate(endings):
            name = ident("end_", e.get("id"))
            cond = self.cond(e.get("when"), ending=True)
            if i == len(endings) - 1:
                ending.append(f"- else: -> {name}")
            else:
                ending.append(f"- {cond or 'true'}: -> {name}")
        ending.append("}")
        for e in endings:
            ending += ["", f"=== {ident('end_', e.get('id'))} ===", f'~ ending_id = "{e.get("id")}"']
            ending += self.ending_texts(e)
            ending.append("-> END")

        head = [
            "// Generated by benches/ink/make_story.py from scenes/false-cry.ron: do not edit.",
            "// Battle 1's choice shape for the inkjs peer of issue 26 (benches/ink/same_run.sh).",
            "",
            "VAR fortune = 0",
            "VAR ming_over = false",
            'VAR ending_id = ""',
            "VAR turn = 0",
            'VAR time = "16:00"',
        ]
        for tp in self.tps:
            head.append(f'VAR {ident("tp_", tp.get("id"))}_chosen = ""')
        for f in sorted(self.flags):
            head.append(f"VAR {ident('flag_', f)} = false")
        for name, value in sorted(self.vars.items()):
            if name in ("turn", "time"):
                continue
            shown = f'"{value}"' if isinstance(value, str) else value
            head.append(f"VAR {name} = {shown}")
        head += ["", "-> battle", ""]
        return "\n".join(head + spine + body + ending) + "\n"


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(os.path.dirname(here))
    src = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "scenes", "false-cry.ron")
    dst = sys.argv[2] if len(sys.argv) > 2 else os.path.join(here, "false-cry.ink")
    scene = Scene(ron.load(src))
    story = scene.write()
    with open(dst, "w", encoding="utf-8") as f:
        f.write(story)
    print(f"{dst}: {len(scene.tps)} turning points, {len(scene.events)} events, "
          f"{len(scene.s.get('endings'))} endings")
    # The flat line: the first seed whose line meets as many turning points as a random
    # game of the engine does on the mean (3.9: `simulate --policy random`).
    for seed in range(1, 100):
        flat_scene = Scene(ron.load(src))
        flat = flat_scene.flat(seed)
        if len(flat_scene.taken) == FLAT_POINTS:
            break
    flat_dst = re.sub(r"(\.ink)?$", "-flat.ink", dst, count=1)
    with open(flat_dst, "w", encoding="utf-8") as f:
        f.write(flat)
    print(f"{flat_dst}: one line without logic (seed {seed}, {len(flat_scene.taken)} turning points)")


if __name__ == "__main__":
    main()
