#!/usr/bin/env node
// A Knockout Whist arena bot (protocol v1) that plays a uniformly random legal
// move. Node 20, no packages. Run it alone with: node sample_bots/javascript/random_bot.js
//
// The referee writes one JSON object per line to stdin; the bot answers only
// `hello` (with `ready`) and `request` (with `move`), ignores every other
// message, and exits with status 0 on `bye` or at the end of input. stdout is
// for protocol lines only: log with console.error (stderr).
//
// Reproducible: at each `game_start` the generator is seeded from the game id
// and the seat (FNV-1a of the UTF-8 bytes of "<game>/<seat>", then mulberry32),
// so the same game gets the same moves. The C sample bot uses the same hash
// and generator, so the two make identical choices in identical positions.
'use strict';

const readline = require('node:readline');

const NAME = 'random-js';
const VERSION = '1.0';

// FNV-1a, 32 bits, over the UTF-8 bytes of a string.
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash;
}

// mulberry32: a small, fast 32-bit generator; returns floats in [0, 1).
function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

let random = mulberry32(fnv1a(''));

function send(message) {
  // Writes to a pipe are synchronous on Linux; one line per message.
  process.stdout.write(JSON.stringify(message) + '\n');
}

function choose(state, legal) {
  return legal[Math.floor(random() * legal.length)];
}

function handle(message) {
  switch (message.type) {
    case 'hello':
      if (message.protocol !== 1) console.error(`random_bot.js: protocol ${message.protocol}?`);
      send({ type: 'ready', name: NAME, version: VERSION });
      break;
    case 'request':
      if (!('id' in message) || !Array.isArray(message.legal) || message.legal.length === 0) {
        console.error('random_bot.js: cannot answer a request without an id or a legal move');
        break;
      }
      send({ type: 'move', id: message.id, move: choose(message.state, message.legal) });
      break;
    case 'game_start':
      random = mulberry32(fnv1a(`${message.game}/${message.seat}`));
      break;
    case 'bye':
      process.exit(0);
      break;
    default:
      // hand_start, event, hand_end, game_end, error, anything new: never answered.
      break;
  }
}

const input = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
input.on('line', (line) => {
  if (line.trim() === '') return;
  let message;
  try {
    message = JSON.parse(line);
  } catch (error) {
    console.error(`random_bot.js: ignoring a line that is not JSON: ${line.slice(0, 200)}`);
    return;
  }
  if (message === null || typeof message !== 'object' || Array.isArray(message)) {
    console.error(`random_bot.js: ignoring a message that is not an object: ${line.slice(0, 200)}`);
    return;
  }
  handle(message);
});
input.on('close', () => process.exit(0)); // end of input: the referee is gone
process.stdout.on('error', () => process.exit(0)); // EPIPE: nobody is listening any more
