// Written by `prettyplay export --playwright`: what prettyplay's step code finds around it in
// prettyplay, for the exported specs: `vars` (frozen; a name without a value is an error, not
// `undefined`), the dialogs prettyplay accepts when no step code handles them, where saved
// states go, and an `expect` whose `toHaveScreenshot` finds prettyplay's baselines and which
// has prettyplay's `toHaveNoAccessibilityViolations` (by @axe-core/playwright).
import { expect as baseExpect } from '@playwright/test';
import type { Locator, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import * as path from 'path';

// `[browser] accept_dialogs` of prettyplay.toml when this project was exported.
const ACCEPT_DIALOGS = __ACCEPT_DIALOGS__;

// `[accessibility] accept` of prettyplay.toml when this project was exported: each accepted
// axe-core rule with its reason.
const ACCEPTED_RULES: Record<string, string> = __ACCEPTED_RULES__;

// axe-core's impact levels, least first: the check's `impact` option is a floor.
const IMPACTS = ['minor', 'moderate', 'serious', 'critical'];

// How many elements of one violation the failure names; the rest are counted.
const MAX_ELEMENTS = 10;

// The options prettyplay's `toHaveNoAccessibilityViolations` takes.
type AccessibilityOptions = {
  include?: string | string[];
  exclude?: string | string[];
  rules?: string | string[];
  impact?: string;
  timeout?: number;
};

function selectorList(options: AccessibilityOptions, key: 'include' | 'exclude' | 'rules'): string[] {
  const value = options[key] === undefined ? [] : options[key];
  const list = Array.isArray(value) ? value : [value];
  if (list.some((s) => typeof s !== 'string')) {
    throw new TypeError(`toHaveNoAccessibilityViolations: ${key} must be a CSS selector or an array of them`);
  }
  return list as string[];
}

// Runs axe-core on the page (or the locator's elements) as prettyplay does: in the main frame
// only, the violations below the impact floor and those of accepted rules left out.
async function accessibilityViolations(actual: Page | Locator, options: AccessibilityOptions) {
  const known = ['include', 'exclude', 'rules', 'impact', 'timeout'];
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new TypeError(`toHaveNoAccessibilityViolations: unknown option ${key} (options: ${known.join(', ')})`);
    }
  }
  const include = selectorList(options, 'include');
  const exclude = selectorList(options, 'exclude');
  const rules = selectorList(options, 'rules');
  const floor = options.impact === undefined ? 0 : IMPACTS.indexOf(options.impact);
  if (floor < 0) {
    throw new TypeError(`toHaveNoAccessibilityViolations: impact must be one of ${IMPACTS.join(', ')}, got ${JSON.stringify(options.impact)}`);
  }
  const isPage = typeof (actual as Page).mainFrame === 'function';
  const page = isPage ? (actual as Page) : (actual as Locator).page();
  // The main frame only, as prettyplay scans it (`iframes: false` before any rule option).
  const builder = new AxeBuilder({ page }).options({ iframes: false }).setLegacyMode();
  const mark = isPage ? undefined : `${Date.now()}-${Math.random()}`;
  const locator = actual as Locator;
  if (mark !== undefined) {
    if (include.length) {
      throw new TypeError('toHaveNoAccessibilityViolations: include applies to a page; a locator is its own scope');
    }
    // axe-core takes CSS selectors, so the locator's elements are marked for the scan.
    await locator.first().waitFor({ state: 'attached', timeout: options.timeout });
    await locator.evaluateAll((elements, m) => elements.forEach((e) => e.setAttribute('data-prettyplay-axe', m)), mark);
    builder.include(`[data-prettyplay-axe="${mark}"]`);
  }
  for (const selector of include) builder.include(selector);
  for (const selector of exclude) builder.exclude(selector);
  if (rules.length) builder.withRules(rules);
  let results;
  try {
    results = await builder.analyze();
  } finally {
    if (mark !== undefined) {
      await locator.evaluateAll((elements) => elements.forEach((e) => e.removeAttribute('data-prettyplay-axe'))).catch(() => {});
    }
  }
  const failing = results.violations.filter((v) => {
    const rank = IMPACTS.indexOf(v.impact ?? '');
    return (rank < 0 ? IMPACTS.length - 1 : rank) >= floor && !(v.id in ACCEPTED_RULES);
  });
  return { failing, version: results.testEngine.version };
}

// The failure prettyplay shows: each violation's rule id, impact, help and help URL, then its
// elements by selector.
function violationsMessage(failing: Awaited<ReturnType<typeof accessibilityViolations>>['failing'], version: string): string {
  const lines = [`${failing.length} accessibility violation${failing.length === 1 ? '' : 's'} (axe-core ${version}):`];
  for (const v of failing) {
    lines.push(`- ${v.id} (${v.impact ?? 'unknown impact'}): ${v.help}`, `  ${v.helpUrl}`);
    const nodes = v.nodes.map((n) => n.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : t)).join(' | '));
    for (const node of nodes.slice(0, MAX_ELEMENTS)) lines.push(`    ${node}`);
    if (nodes.length > MAX_ELEMENTS) lines.push(`    and ${nodes.length - MAX_ELEMENTS} more`);
  }
  return lines.join('\n');
}

const prettyplayExpect = baseExpect.extend({
  async toHaveNoAccessibilityViolations(actual: Page | Locator, options: AccessibilityOptions = {}) {
    if (this.isNot) {
      throw new TypeError('toHaveNoAccessibilityViolations cannot be negated: a check that passes when violations exist would hide them');
    }
    const { failing, version } = await accessibilityViolations(actual, options);
    const head = `expect(${typeof (actual as Page).mainFrame === 'function' ? 'page' : 'locator'}).toHaveNoAccessibilityViolations() failed`;
    return {
      pass: failing.length === 0,
      name: 'toHaveNoAccessibilityViolations',
      message: () => `${head}\n\n${violationsMessage(failing, version)}`,
    };
  },
});

// prettyplay's slug of a name: lowercase letters and digits, every other run of characters one
// `-`, none at either end (`Add a todo!` → `add-a-todo`), `_` when nothing is left.
function slug(text: string): string {
  let out = '';
  for (const c of Array.from(text).flatMap((c) => Array.from(c.toLowerCase()))) {
    if (/[\p{Alphabetic}\p{N}]/u.test(c)) {
      out += c;
    } else if (out && !out.endsWith('-')) {
      out += '-';
    }
  }
  while (out.endsWith('-')) out = out.slice(0, -1);
  return out || '_';
}

// The `expect` of the step at 1-based `step` of the test named `test`: each `toHaveScreenshot`
// is given the name of prettyplay's baseline (`<test>-<step>[-<name>].png`, an unnamed one the
// step's first, second ... with `-2` from the second on), which the export copied into this
// spec's snapshot directory with the browser project and the platform Playwright adds.
export function stepExpect(test: string, step: number): typeof prettyplayExpect {
  let unnamed = 0;
  const baseline = (name: unknown): string => {
    let part: string | undefined;
    if (typeof name === 'string' || Array.isArray(name)) {
      const text = Array.isArray(name) ? name.join('-') : name;
      part = slug(text.endsWith('.png') ? text.slice(0, -4) : text);
    } else {
      unnamed += 1;
      part = unnamed > 1 ? String(unnamed) : undefined;
    }
    return [slug(test), String(step), ...(part === undefined ? [] : [part])].join('-') + '.png';
  };
  const named = (matchers: any): any =>
    new Proxy(matchers, {
      get(target, key) {
        if (key === 'not') return named(target.not);
        if (key === 'toHaveScreenshot') {
          return (nameOrOptions?: unknown, options?: unknown) => {
            const given = typeof nameOrOptions === 'string' || Array.isArray(nameOrOptions);
            return target.toHaveScreenshot(baseline(given ? nameOrOptions : undefined), given ? options : nameOrOptions);
          };
        }
        const value = target[key];
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  const wrap = (base: any): any =>
    new Proxy((actual: unknown, messageOrOptions?: unknown) => named(base(actual, messageOrOptions)), {
      get(_target, key) {
        if (key === 'soft') return wrap(base.soft);
        if (key === 'configure') return (options: unknown) => wrap(base.configure(options));
        return base[key];
      },
    });
  return wrap(prettyplayExpect);
}

const QUIET_KEYS = ['then', 'toJSON', 'toString', 'valueOf', 'constructor', 'inspect'];

function deepFreeze<T>(value: T): T {
  if (Array.isArray(value)) {
    value.forEach(deepFreeze);
  }
  return Object.freeze(value);
}

function frozenVars(values: Record<string, unknown>): Readonly<Record<string, any>> {
  const target = Object.freeze(Object.assign(Object.create(null), values));
  return new Proxy(target, {
    get(t, key) {
      if (typeof key !== 'string' || key in t || QUIET_KEYS.includes(key)) {
        return t[key as any];
      }
      const known = Object.keys(t);
      throw new TypeError(
        `vars.${key} has no value: set ${key} in the environment` +
          (known.length ? ` (vars has: ${known.join(', ')})` : ' (vars is empty)'),
      );
    },
    set(_t, key) {
      throw new TypeError(`vars is frozen: step code cannot set vars.${String(key)}`);
    },
    deleteProperty(_t, key) {
      throw new TypeError(`vars is frozen: step code cannot delete vars.${String(key)}`);
    },
  });
}

function fromEnv(name: string): string | undefined {
  const value = process.env[name];
  return value === undefined || value === '' ? undefined : value;
}

// A test's `vars`: each named variable from the environment, else its public value from
// prettyplay.toml's [vars] (null: none); then the examples row, whose cells may name a variable.
export function prettyplayVars(
  names: Record<string, string | null>,
  row: Record<string, string>,
): Readonly<Record<string, any>> {
  const values: Record<string, unknown> = {};
  for (const [name, fallback] of Object.entries(names)) {
    const value = fromEnv(name) ?? fallback;
    if (value !== null) {
      values[name] = value;
    }
  }
  for (const [column, cell] of Object.entries(row)) {
    values[column] = cell.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (whole, name) => {
      const fallback = names[name];
      return fromEnv(name) ?? (typeof fallback === 'string' ? fallback : whole);
    });
  }
  return frozenVars(values);
}

// A step's `vars`: the test's, and its Gherkin doc string (`docString`) or data table
// (`dataTable`, rows of cells).
prettyplayVars.with = function (
  vars: Readonly<Record<string, any>>,
  name: string,
  value: unknown,
): Readonly<Record<string, any>> {
  return frozenVars({ ...vars, [name]: deepFreeze(value) });
};

// Accepts a dialog that no step code handled, as prettyplay does with `accept_dialogs = true`.
export function acceptUnhandledDialogs(page: Page): void {
  if (!ACCEPT_DIALOGS) {
    return;
  }
  page.context().on('dialog', (dialog) => {
    // After the step code's own listeners: one of them may have handled it.
    setTimeout(() => dialog.accept().catch(() => {}), 0);
  });
}

// Where a saved state (`[saves=NAME]`) is written and read (`[state=NAME]`).
export function statePath(name: string): string {
  return path.resolve(__dirname, '.auth', `${name}.json`);
}
