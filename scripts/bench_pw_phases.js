// A Playwright Test reporter for scripts/bench-compare: appends one JSON line per test to the
// file BENCH_PW_PHASES names, with the milliseconds of its phases as Playwright Test reports
// them: `context` (its "Before Hooks": the context and page fixtures, less the browser's launch
// of a worker's first test), `first` (its first navigation, the first `page.goto`), `steps`
// (from the end of that navigation to the start of its "After Hooks") and `end` (its "After
// Hooks": closing the page and context). scripts/bench_phases.py reads the file.
'use strict';
const fs = require('fs');

class PhasesReporter {
  onTestEnd(test, result) {
    const file = process.env.BENCH_PW_PHASES;
    if (!file) return;
    const steps = result.steps;
    const before = steps.find((s) => s.category === 'hook' && s.title === 'Before Hooks');
    const after = steps.find((s) => s.category === 'hook' && s.title === 'After Hooks');
    const first = steps.find((s) => s.category === 'pw:api' && /^Navigate/.test(s.title));
    if (!before || !after || !first) return;
    const launch = before.steps.find((s) => s.category === 'fixture' && s.title === 'Fixture "browser"');
    const at = (step) => step.startTime.getTime();
    const ms = {
      context: before.duration - (launch ? launch.duration : 0),
      first: first.duration,
      steps: at(after) - (at(first) + first.duration),
      end: after.duration,
    };
    fs.appendFileSync(file, `${JSON.stringify(ms)}\n`);
  }
}

module.exports = PhasesReporter;
