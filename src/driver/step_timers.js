// The origin guard's record of the timers a page holds, run in every frame before the page's
// own scripts (see step_timers.rs). It takes the clock and `eval` before any script can
// replace them, and keeps everything in this closure: the page reaches only the read-only
// query named `name`.
(name) => {
  if (Object.prototype.hasOwnProperty.call(globalThis, name)) return;
  const now = Date.now;
  const evaluate = globalThis.eval;
  // The callbacks still to run, by kind and id, each with the registration time of its root:
  // a timer registered while a timer's callback ran inherits that callback's root.
  const pending = new Map();
  // The roots and times of the latest callbacks that ran.
  const fired = [];
  let running = null;
  const call = (root, handler, self, args) => {
    fired.push([root, now()]);
    if (fired.length > 64) fired.shift();
    const outer = running;
    running = root;
    try {
      return typeof handler === 'function' ? handler.apply(self, args) : evaluate(String(handler));
    } finally {
      running = outer;
    }
  };
  const schedule = (prefix, native, once) => {
    if (typeof native !== 'function') return;
    return function (handler, ...rest) {
      const root = running ?? now();
      let key = null;
      const callback = function (...given) {
        if (once) pending.delete(key);
        return call(root, handler, this, prefix === 't' ? rest.slice(1) : given);
      };
      const id = native.call(globalThis, callback, ...rest.slice(0, 1));
      key = prefix + id;
      pending.set(key, root);
      return id;
    };
  };
  const cancel = (prefix, native) => {
    if (typeof native !== 'function') return;
    return function (id) {
      pending.delete(prefix + id);
      return native.call(globalThis, id);
    };
  };
  const wrap = [
    ['setTimeout', schedule('t', globalThis.setTimeout, true)],
    ['setInterval', schedule('t', globalThis.setInterval, false)],
    ['clearTimeout', cancel('t', globalThis.clearTimeout)],
    ['clearInterval', cancel('t', globalThis.clearInterval)],
    ['requestAnimationFrame', schedule('r', globalThis.requestAnimationFrame, true)],
    ['cancelAnimationFrame', cancel('r', globalThis.cancelAnimationFrame)],
    ['requestIdleCallback', schedule('i', globalThis.requestIdleCallback, true)],
    ['cancelIdleCallback', cancel('i', globalThis.cancelIdleCallback)],
  ];
  for (const [key, fn] of wrap) {
    if (fn) {
      Object.defineProperty(fn, 'name', { value: key });
      globalThis[key] = fn;
    }
  }
  // `windows` is a list of [from, to] wall-clock times in ms. The answer is "<pending> <ago>":
  // how many callbacks whose root lies in a window are still to run, and how many ms ago the
  // latest such callback ran (-1 when none did).
  Object.defineProperty(globalThis, name, {
    value: (windows) => {
      const ours = (root) => windows.some(([from, to]) => root >= from && root <= to);
      let count = 0;
      for (const root of pending.values()) if (ours(root)) count += 1;
      let ago = -1;
      const at = now();
      for (const [root, time] of fired) {
        if (ours(root) && (ago < 0 || at - time < ago)) ago = at - time;
      }
      return count + ' ' + ago;
    },
    enumerable: false,
    writable: false,
    configurable: false,
  });
}
