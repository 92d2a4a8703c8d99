#!/usr/bin/env node
// The inkjs peer of `xiaoling simulate --policy random` (issue 26 item 3).
//
//   cd benches/ink && npm install      # inkjs 2.4.x into benches/ink/node_modules
//   node run.js [--games N] [--seed S] [--warmup W] [--story FILE] [--play] [--endings]
//
// Compiles false-cry.ink (made by make_story.py; --story another, relative to this
// folder) once with inkjs's compiler, then plays N games: from the start,
// ContinueMaximally() (the text, as a player is shown it, and the choices' texts are
// read), a choice picked at random (a seeded PRNG), to the end, ResetState(). Prints
// games a CPU-second of the games' loop (process.cpuUsage()), like `xiaoling simulate`
// prints games a second. --warmup plays W games first, untimed (from another seed), so
// that the count is of the JIT-compiled engine; --play prints each game's text and
// picks; --endings counts the endings reached.
"use strict";

const fs = require("fs");
const path = require("path");
const { Compiler, CompilerOptions } = require("inkjs/full");
const INKJS_VERSION = JSON.parse(
  fs.readFileSync(path.join(path.dirname(require.resolve("inkjs/full")), "..", "package.json"), "utf8")
).version;

function args() {
  const a = { games: 10000, seed: 7, warmup: 0, story: "false-cry.ink", play: false, endings: false };
  const v = process.argv.slice(2);
  for (let i = 0; i < v.length; i++) {
    const k = v[i];
    if (k === "--games") a.games = Number(v[++i]);
    else if (k === "--seed") a.seed = Number(v[++i]);
    else if (k === "--warmup") a.warmup = Number(v[++i]);
    else if (k === "--story") a.story = v[++i];
    else if (k === "--play") a.play = true;
    else if (k === "--endings") a.endings = true;
    else {
      console.error(`unknown argument ${k}`);
      process.exit(2);
    }
  }
  if (!Number.isInteger(a.games) || a.games < 1 || !Number.isInteger(a.seed) ||
      !Number.isInteger(a.warmup) || a.warmup < 0 || typeof a.story !== "string") {
    console.error("--games wants a positive whole number, --seed and --warmup whole numbers, --story a file");
    process.exit(2);
  }
  return a;
}

// mulberry32: a small seeded PRNG, the same picks for the same seed.
function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function cpuSeconds(u) {
  return (u.user + u.system) / 1e6;
}

// Plays `games` games from the start; `counts` adds up the text read and the picks.
function play(story, games, rand, show, tally, counts) {
  for (let g = 0; g < games; g++) {
    // ink's RANDOM() is seeded per game from ours, so a seed gives the same games.
    story.state.storySeed = Math.floor(rand() * 100000);
    story.state.previousRandom = 0;
    if (show) console.log(`--- game ${g + 1}`);
    for (;;) {
      const text = story.ContinueMaximally();
      counts.chars += text.length;
      if (show) process.stdout.write(text);
      const choices = story.currentChoices;
      if (choices.length === 0) break;
      for (const c of choices) counts.chars += c.text.length;
      const i = Math.floor(rand() * choices.length);
      if (show) {
        choices.forEach((c, j) => console.log(`  ${j + 1}. ${c.text}`));
        console.log(`> ${i + 1}`);
      }
      story.ChooseChoiceIndex(i);
      counts.picks++;
    }
    if (tally) {
      const e = story.variablesState["ending_id"];
      tally.set(e, (tally.get(e) || 0) + 1);
    }
    story.ResetState();
  }
}

function main() {
  const a = args();
  let source;
  try {
    source = fs.readFileSync(path.resolve(__dirname, a.story), "utf8");
  } catch (err) {
    console.error(`cannot read the story ${a.story}: ${err.message}`);
    process.exit(1);
  }
  const t0 = process.cpuUsage();
  const compiler = new Compiler(source, new CompilerOptions(null, [], false, () => {}));
  let story = null;
  try {
    story = compiler.Compile();
  } catch (_) {
    // the errors are in compiler.errors
  }
  if (!story || compiler.errors.length) {
    console.error(compiler.errors.join("\n") || "the story did not compile");
    process.exit(1);
  }
  const compileCpu = cpuSeconds(process.cpuUsage(t0));
  const tally = new Map();
  const counts = { chars: 0, picks: 0 };
  play(story, a.warmup, prng(a.seed + 1), false, null, { chars: 0, picks: 0 });
  const t1 = process.cpuUsage();
  play(story, a.games, prng(a.seed), a.play, a.endings ? tally : null, counts);
  const cpu = cpuSeconds(process.cpuUsage(t1));
  const all = cpuSeconds(process.cpuUsage());

  if (a.endings) {
    for (const e of [...tally.keys()].sort()) {
      const n = tally.get(e);
      console.log(`  ${e.padEnd(24)} ${String(n).padStart(7)}  ${((100 * n) / a.games).toFixed(1)}%`);
    }
  }
  console.log(
    `inkjs ${INKJS_VERSION}, ${path.basename(a.story)}: ${a.games} games from seed ${a.seed}` +
      (a.warmup ? ` after ${a.warmup} untimed` : "") +
      ", " +
      `${(counts.picks / a.games).toFixed(2)} choices and ${Math.round(counts.chars / a.games)} characters a game`
  );
  console.log(
    `games: ${cpu.toFixed(3)} s of CPU, ${Math.round(a.games / cpu)} games a CPU-second ` +
      `(compile ${compileCpu.toFixed(3)} s; whole process ${all.toFixed(3)} s)`
  );
}

main();
