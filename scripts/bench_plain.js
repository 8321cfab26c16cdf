// The floor of scripts/bench-compare: no runner at all. One Chromium, and per test a fresh
// context and page that run the cached step code in order, through the same playwright-core as
// Playwright Test (its dependency), with Playwright Test's `expect`.
//
// Usage: node bench_plain.js SUITE_JSON BASE_URL  (BENCH_VARS: the vars, as JSON)
// Prints one line of JSON: passed, failed, and per-phase seconds (launch, context, steps, close).
// With BENCH_STEPS=FILE, also appends one JSON line per step run to FILE: its code and how long
// it took in milliseconds (scripts/bench_steps.py compares them with prettyplay's). With
// BENCH_PHASES=FILE, appends one JSON line per test: the milliseconds of its context and page
// (`context`), its first step (`first`, a navigation in the benchmark's suites), its other steps
// (`steps`) and closing its context (`end`), for scripts/bench_phases.py.
'use strict';
const fs = require('fs');
const { chromium } = require('playwright-core');
const { expect } = require('@playwright/test');

async function main() {
  const [suitePath, baseURL] = process.argv.slice(2);
  const suite = JSON.parse(fs.readFileSync(suitePath, 'utf8'));
  const vars = JSON.parse(process.env.BENCH_VARS || '{}');
  const now = () => Number(process.hrtime.bigint()) / 1e9;
  const phases = { launch: 0, context: 0, steps: 0, close: 0 };
  let passed = 0;
  let failed = 0;
  let t = now();
  const browser = await chromium.launch({
    executablePath: process.env.BENCH_CHROMIUM || '/usr/bin/chromium',
    args: JSON.parse(process.env.BENCH_CHROMIUM_ARGS || '[]'),
  });
  phases.launch += now() - t;
  for (const test of suite) {
    const own = { context: 0, first: 0, steps: 0, end: 0 };
    t = now();
    const context = await browser.newContext({ baseURL });
    context.setDefaultTimeout(5000);
    const page = await context.newPage();
    own.context = now() - t;
    phases.context += own.context;
    t = now();
    try {
      for (const [index, code] of test.steps.entries()) {
        const step = new Function('expect', 'vars', `return (${code.trim()});`)(expect, vars);
        const started = now();
        await step(page);
        const took = now() - started;
        own[index === 0 ? 'first' : 'steps'] += took;
        if (process.env.BENCH_STEPS) {
          const ms = took * 1000;
          fs.appendFileSync(process.env.BENCH_STEPS, `${JSON.stringify({ code, ms })}\n`);
        }
      }
      passed += 1;
    } catch (error) {
      failed += 1;
      console.error(`FAIL ${test.name}: ${error.message.split('\n')[0]}`);
    }
    phases.steps += now() - t;
    t = now();
    await context.close();
    own.end = now() - t;
    phases.close += own.end;
    if (process.env.BENCH_PHASES) {
      const ms = Object.fromEntries(Object.entries(own).map(([k, v]) => [k, v * 1000]));
      fs.appendFileSync(process.env.BENCH_PHASES, `${JSON.stringify(ms)}\n`);
    }
  }
  t = now();
  await browser.close();
  phases.close += now() - t;
  console.log(JSON.stringify({ passed, failed, phases }));
  process.exit(failed ? 1 : 0);
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
