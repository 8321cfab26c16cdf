// Installed by the origin guard in every frame of a guarded context, before the page's own
// scripts. It wraps the page's timer functions so that the guard can wait for the timers step
// code left behind instead of waiting a fixed time: a timer is *tracked* when it is set while a
// script of step code runs (its synchronous part) or while a tracked timer's callback runs (a
// chain). The app's own timers, set at any other time, are never tracked.
//
// The wrappers keep each function's name, length, property flags and `toString()`, so neither
// the page nor step code can tell them from the browser's. The only trace is one
// non-enumerable, read-only property of the window under a random name (`KEY`), through which
// the binding runs step code's scripts and the guard reads the tracked count.
//
// Everything the wrappers call is taken from the realm before any page script runs, so a page
// that replaces a builtin later cannot change the bookkeeping.
(KEY) => {
  'use strict';
  const g = globalThis;
  if (Object.prototype.hasOwnProperty.call(g, KEY)) {
    return;
  }
  const apply = Reflect.apply;
  const defineProperty = Object.defineProperty;
  const getOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const freeze = Object.freeze;
  const create = Object.create;
  const indirectEval = g.eval;
  const NativeSyntaxError = g.SyntaxError;
  const NativePromise = g.Promise;
  const NativeWeakMap = g.WeakMap;
  const weakGet = NativeWeakMap.prototype.get;
  const weakSet = NativeWeakMap.prototype.set;
  const startsWith = String.prototype.startsWith;
  const slice = String.prototype.slice;
  const trim = String.prototype.trim;
  const nativeSetTimeout = g.setTimeout;

  // How many scripts of step code are running now (their synchronous part).
  let depth = 0;
  // How many tracked callbacks are running now.
  let inTracked = 0;
  // The tracked timers not yet fired or cleared, by pool: timeouts and intervals share ids.
  const pools = { timer: create(null), frame: create(null), idle: create(null) };
  let pending = 0;
  // Callbacks waiting for `pending` to reach zero.
  let waiters = [];

  const tracking = () => depth > 0 || inTracked > 0;
  const track = (pool, id) => {
    if (!(id in pool)) {
      pool[id] = true;
      pending += 1;
    }
  };
  const untrack = (pool, id) => {
    if (id in pool) {
      delete pool[id];
      pending -= 1;
    }
  };
  const wakeIfDone = () => {
    if (pending === 0 && waiters.length > 0) {
      const woken = waiters;
      waiters = [];
      for (let i = 0; i < woken.length; i += 1) woken[i]();
    }
  };

  // The wrappers, each mapped to the function it stands for, for `toString()`.
  const originals = new NativeWeakMap();
  const replace = (name, make) => {
    const original = g[name];
    if (typeof original !== 'function') return;
    const wrapper = make(original);
    defineProperty(wrapper, 'name', { value: original.name, configurable: true });
    defineProperty(wrapper, 'length', { value: original.length, configurable: true });
    apply(weakSet, originals, [wrapper, original]);
    const descriptor = getOwnPropertyDescriptor(g, name);
    if (descriptor && 'value' in descriptor) {
      descriptor.value = wrapper;
      defineProperty(g, name, descriptor);
    } else {
      g[name] = wrapper;
    }
  };

  // A tracked callback: `handler` (a function, or code as a string) run as part of the chain.
  const trackedCallback = (handler, onCall) => {
    const run = typeof handler === 'function'
      ? function () { return apply(handler, this, arguments); }
      : () => indirectEval('' + handler);
    return function () {
      onCall();
      inTracked += 1;
      try {
        return apply(run, this, arguments);
      } finally {
        inTracked -= 1;
        wakeIfDone();
      }
    };
  };

  // `setTimeout`, `requestAnimationFrame`, `requestIdleCallback`: pending until fired or
  // cleared. `setInterval`: pending until cleared.
  const setter = (pool, repeats) => (original) => ({
    wrapper(handler) {
      if (!tracking()) return apply(original, this, arguments);
      let id;
      // Copied by hand: a spread would call the page's array iterator.
      const args = [trackedCallback(handler, () => {
        if (!repeats) untrack(pool, id);
      })];
      for (let i = 1; i < arguments.length; i += 1) args[i] = arguments[i];
      id = apply(original, this, args);
      track(pool, id);
      return id;
    },
  }).wrapper;
  const clearer = (pool) => (original) => ({
    wrapper(id) {
      untrack(pool, id);
      const result = apply(original, this, arguments);
      wakeIfDone();
      return result;
    },
  }).wrapper;

  replace('setTimeout', setter(pools.timer, false));
  replace('setInterval', setter(pools.timer, true));
  replace('clearTimeout', clearer(pools.timer));
  replace('clearInterval', clearer(pools.timer));
  replace('requestAnimationFrame', setter(pools.frame, false));
  replace('cancelAnimationFrame', clearer(pools.frame));
  replace('requestIdleCallback', setter(pools.idle, false));
  replace('cancelIdleCallback', clearer(pools.idle));

  // `toString()` of a wrapper reads as the browser's own function's, and so does its own.
  const nativeToString = Function.prototype.toString;
  const toString = {
    toString() {
      const original = apply(weakGet, originals, [this]);
      return apply(nativeToString, original === undefined ? this : original, []);
    },
  }.toString;
  apply(weakSet, originals, [toString, nativeToString]);
  defineProperty(toString, 'length', { value: nativeToString.length, configurable: true });
  const toStringDescriptor = getOwnPropertyDescriptor(Function.prototype, 'toString');
  toStringDescriptor.value = toString;
  defineProperty(Function.prototype, 'toString', toStringDescriptor);

  // The function whose source is `source`, normalised as Playwright's driver does: a method
  // shorthand (`f() {}`, `async f() {}`) becomes a function expression.
  const compile = (source) => {
    const text = apply(trim, source, []);
    try {
      return indirectEval('(' + text + ')');
    } catch (error) {
      if (!(error instanceof NativeSyntaxError)) throw error;
      const shorthand = apply(startsWith, text, ['async '])
        ? 'async function ' + apply(slice, text, [6])
        : 'function ' + text;
      return indirectEval('(' + shorthand + ')');
    }
  };

  const control = freeze({
    __proto__: null,
    // Runs a script of step code inside the tracking scope: `source` is an expression, or a
    // function's source when `args` is given, which it is called with.
    run(source, args) {
      depth += 1;
      try {
        if (args === undefined) return indirectEval(source);
        return apply(compile(source), undefined, args);
      } finally {
        depth -= 1;
      }
    },
    // How many tracked timers are pending now.
    pending() {
      return pending;
    },
    // Resolves with the tracked count once it is zero, or after `ms` with what it is then.
    settled(ms) {
      return new NativePromise((resolve) => {
        if (pending === 0) {
          resolve(0);
          return;
        }
        const done = () => resolve(pending);
        waiters[waiters.length] = done;
        apply(nativeSetTimeout, g, [done, ms]);
      });
    },
  });
  defineProperty(g, KEY, { value: control, enumerable: false, writable: false, configurable: false });
}
