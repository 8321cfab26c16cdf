// Written by `prettyplay export --playwright`: what prettyplay's step code finds around it in
// prettyplay, for the exported specs: `vars` (frozen; a name without a value is an error, not
// `undefined`), the dialogs prettyplay accepts when no step code handles them, and where saved
// states go.
import type { Page } from '@playwright/test';
import * as path from 'path';

// `[browser] accept_dialogs` of prettyplay.toml when this project was exported.
const ACCEPT_DIALOGS = __ACCEPT_DIALOGS__;

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
