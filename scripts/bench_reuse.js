// Per-test context cost, measured before building context reuse (issue 15 §2): in one Chromium,
// N tests of the same small body (open the app, add a todo, check it is listed) run with
//
//   fresh   browser.newContext() + context.newPage() per test, context.close() after it
//   reuse   browser._newContextForReuse() (the private client API Playwright Test's reuse mode
//           uses), its kept page (a new one the first time), browser._disconnectFromReusedContext()
//           after it
//   reuse-close   the same, but the test's page is closed before disconnecting (the next test
//           gets a new page in the reused context)
//
// alternating the two modes ROUNDS times. Prints per mode the median over rounds of the whole
// loop and of its parts: open (context and page ready), body, close.
//
// Usage: node bench_reuse.js BASE_URL [TESTS=20] [ROUNDS=5]
// Needs playwright-core on NODE_PATH (the driver's: ~/.cache/prettyplay/driver/1.64.0/node_modules).
'use strict';
const { chromium } = require('playwright-core');

const now = () => Number(process.hrtime.bigint()) / 1e9;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

async function body(page, n) {
  await page.goto('/');
  await page.getByPlaceholder('What needs to be done?').fill(`item ${n}`);
  await page.getByPlaceholder('What needs to be done?').press('Enter');
  await page.getByText(`item ${n}`).waitFor();
  // Isolation spot check: every test must start with an empty list (localStorage reset).
  const count = await page.locator('.todo-list li').count();
  if (count !== 1) throw new Error(`test ${n} saw ${count} todos: storage leaked`);
}

async function run(browser, mode, tests) {
  const parts = { open: 0, body: 0, close: 0 };
  const start = now();
  for (let n = 0; n < tests; n++) {
    let t = now();
    let context;
    let page;
    if (mode === 'fresh') {
      context = await browser.newContext({ baseURL: browser._benchBase });
      page = await context.newPage();
    } else {
      context = await browser._newContextForReuse({ baseURL: browser._benchBase });
      page = context.pages()[0] || (await context.newPage());
    }
    parts.open += now() - t;
    t = now();
    await body(page, n);
    parts.body += now() - t;
    t = now();
    if (mode === 'fresh') await context.close();
    else {
      if (mode === 'reuse-close') await page.close();
      await browser._disconnectFromReusedContext('Test ended.');
    }
    parts.close += now() - t;
  }
  return { total: now() - start, ...parts };
}

async function main() {
  const [baseURL, testsArg, roundsArg] = process.argv.slice(2);
  const tests = Number(testsArg || 20);
  const rounds = Number(roundsArg || 5);
  const browser = await chromium.launch({
    executablePath: process.env.BENCH_CHROMIUM || '/usr/bin/chromium',
    args: JSON.parse(process.env.BENCH_CHROMIUM_ARGS || '[]'),
  });
  browser._benchBase = baseURL;
  const modes = ['fresh', 'reuse', 'reuse-close'];
  const results = Object.fromEntries(modes.map((m) => [m, []]));
  // One warm-up of each, not counted.
  for (const mode of modes) await run(browser, mode, 2);
  for (let r = 0; r < rounds; r++) {
    for (const mode of modes) results[mode].push(await run(browser, mode, tests));
  }
  await browser.close();
  for (const mode of modes) {
    const rs = results[mode];
    const med = (k) => median(rs.map((x) => x[k]));
    const perTest = (k) => ((med(k) / tests) * 1000).toFixed(1);
    console.log(
      `${mode}: ${tests} tests x ${rounds} rounds; totals ${rs.map((x) => x.total.toFixed(2)).join(' ')} s; ` +
        `median ${med('total').toFixed(2)} s; per test (ms, medians): open ${perTest('open')}, ` +
        `body ${perTest('body')}, close ${perTest('close')}, all ${perTest('total')}`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(2);
});
