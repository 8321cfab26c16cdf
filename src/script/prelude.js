// prettyplay's Playwright binding, the JavaScript half.
//
// Step code sees `page`, locators and `expect` shaped exactly like Playwright's JavaScript API.
// Locators are lazy selector strings built the way Playwright's own client builds them; every
// browser operation crosses into Rust through one host function, `host(pageId, method, json)`,
// which runs the Playwright protocol call and answers `{ value }` or `{ error }`. The Rust side
// holds the table of allowed methods; this file holds the API shape.
//
// The prelude runs once per step context as `(function (host, log, config) { ... })`, defines
// the globals and hides the host function from step code.
(function (host, hostLog, config) {
  'use strict';

  // ---- crossing into Rust -------------------------------------------------------------------

  const KIND = '__prettyplayKind';
  // The call a proof run refused (`{ page: 'click' }`, `{ request: 'POST' }`), as JSON.
  const REFUSED = '__prettyplayRefused';
  // What a failed value assertion expected and received (`{ expected, received }`), as JSON:
  // the evidence of a failure that made no browser call.
  const VALUES = '__prettyplayValues';

  function tag(error, kind, refused) {
    Object.defineProperty(error, KIND, { value: kind, enumerable: false });
    if (refused) Object.defineProperty(error, REFUSED, { value: JSON.stringify(refused), enumerable: false });
    return error;
  }

  class TimeoutError extends Error {
    constructor(message) {
      super(message);
      this.name = 'TimeoutError';
    }
  }

  // `api` (e.g. `locator.click`) and `waitingFor` (a locator description) shape the message the
  // way Playwright prints it: `locator.click: Timeout 5000ms exceeded.` plus a call log.
  function call(pageId, method, params, api, waitingFor) {
    const reply = exchange(pageId, method, params);
    if (reply.error) {
      const { kind } = reply.error;
      // A `bare` message (a navigation [browser] allowed_origins blocked, an app that cannot be
      // reached, a missing base URL) is shown as is.
      let message = api && !reply.error.bare ? `${api}: ${reply.error.message}` : reply.error.message;
      if (waitingFor && kind === 'timeout') message += `\nCall log:\n  - waiting for ${waitingFor}`;
      const error = kind === 'timeout' ? new TimeoutError(message) : new Error(message);
      throw tag(error, kind, reply.error.refused);
    }
    return reply.value;
  }

  // One host call and its reply, `{ value }` or `{ error }`, with the events it brought delivered.
  function exchange(pageId, method, params) {
    let reply = JSON.parse(host(pageId, method, JSON.stringify(params === undefined ? {} : params)));
    deliver(reply.events);
    // A parked call: a dialog it opened went to a listener, which just ran; carry on.
    while (reply.parked !== undefined) {
      reply = JSON.parse(host(pageId, 'call.resume', JSON.stringify({ id: reply.parked })));
      deliver(reply.events);
    }
    return reply;
  }

  // Events for `page.on` / `page.once` listeners arrive with replies; handlers run right after
  // the call that saw them, before its result is returned.
  const listeners = new Map();

  function deliver(events) {
    if (!events) return;
    for (const { listener, value } of events) {
      const entry = listeners.get(listener);
      if (!entry) continue;
      if (entry.once) listeners.delete(listener);
      try {
        const result = entry.handler(wrapEvent(entry.event, value));
        if (result && typeof result.catch === 'function') {
          result.catch((e) => hostLog('error', `a ${entry.event} listener failed: ${e}`));
        }
      } catch (e) {
        hostLog('error', `a ${entry.event} listener failed: ${e}`);
      }
    }
  }

  function wrapEvent(event, value) {
    if (event === 'dialog') return new Dialog(value);
    if (event === 'popup') return pageFor(value.page);
    return new Download(value);
  }

  const NO_IO = 'step code runs in a sandbox without filesystem, network, processes or modules';
  const NO_FS = 'step code runs in a sandbox without a filesystem';
  const NO_SLEEP = 'fixed waits make steps slow or flaky; wait for what the step needs with a web-first assertion (expect(locator).toBeVisible()) or locator.waitFor()';

  function fail(message, values) {
    const error = tag(new Error(message), 'check');
    if (values) Object.defineProperty(error, VALUES, { value: JSON.stringify(values), enumerable: false });
    throw error;
  }

  // A value as a failed assertion's evidence records it: a string as it is, anything else as
  // the message shows it.
  function evidenceOf(value) {
    return isString(value) ? value : describeValue(value);
  }

  function refuse(what, why) {
    const error = new Error(`${what} is not available in step code: ${why}`);
    throw tag(error, 'script');
  }

  // `aria-ref=e12` names an element of one aria snapshot only: code built on it would pass once
  // and fail on every replay, so selectors step code writes may not use it.
  function checkSelector(selector, api) {
    if (isString(selector) && selector.split('>>').some((part) => /^\s*aria-ref\s*=/i.test(part))) {
      const why = 'a ref names an element of one snapshot and changes with every page load; locate by role, text, label or test id';
      throw tag(new Error(`${api}: aria-ref= selectors are not available in step code: ${why}`), 'script');
    }
    return selector;
  }

  // ---- selector building (Playwright's locator utils) ---------------------------------------

  const isRegExp = (v) => v instanceof RegExp;
  const isString = (v) => typeof v === 'string';

  function escapeRegexForSelector(re) {
    if (re.unicode || re.unicodeSets) return String(re);
    return String(re).replace(/(^|[^\\])(\\\\)*(["'`])/g, '$1$2\\$3').replace(/>>/g, '\\>\\>');
  }

  function escapeForTextSelector(text, exact) {
    if (!isString(text)) return escapeRegexForSelector(text);
    return JSON.stringify(text) + (exact ? 's' : 'i');
  }

  function escapeForAttributeSelector(value, exact) {
    if (!isString(value)) return escapeRegexForSelector(value);
    return '"' + value.replace(/\\/g, '\\\\').replace(/["]/g, '\\"') + '"' + (exact ? 's' : 'i');
  }

  function checkText(api, text) {
    if (!isString(text) && !isRegExp(text)) {
      throw tag(new TypeError(`${api}: expected a string or a RegExp, got ${describeValue(text)}`), 'script');
    }
  }

  // Parameter names of the factories, for the generated API listing.
  const FACTORY_PARAMETERS = {
    getByText: 'text, options',
    getByLabel: 'text, options',
    getByPlaceholder: 'text, options',
    getByAltText: 'text, options',
    getByTitle: 'text, options',
    getByTestId: 'testId',
    getByRole: 'role, options',
  };

  function factoryMethod(fn, name) {
    Object.defineProperty(fn, 'parameters', { value: FACTORY_PARAMETERS[name] });
    return fn;
  }

  const factories = {
    getByText(text, options) {
      checkText('getByText', text);
      return 'internal:text=' + escapeForTextSelector(text, !!(options && options.exact));
    },
    getByLabel(text, options) {
      checkText('getByLabel', text);
      return 'internal:label=' + escapeForTextSelector(text, !!(options && options.exact));
    },
    getByPlaceholder(text, options) {
      checkText('getByPlaceholder', text);
      return `internal:attr=[placeholder=${escapeForAttributeSelector(text, !!(options && options.exact))}]`;
    },
    getByAltText(text, options) {
      checkText('getByAltText', text);
      return `internal:attr=[alt=${escapeForAttributeSelector(text, !!(options && options.exact))}]`;
    },
    getByTitle(text, options) {
      checkText('getByTitle', text);
      return `internal:attr=[title=${escapeForAttributeSelector(text, !!(options && options.exact))}]`;
    },
    getByTestId(testId) {
      checkText('getByTestId', testId);
      return `internal:testid=[data-testid=${escapeForAttributeSelector(testId, true)}]`;
    },
    getByRole(role, options) {
      if (!isString(role)) {
        throw tag(new TypeError(`getByRole: expected a role name string, got ${describeValue(role)}`), 'script');
      }
      const o = options || {};
      const props = [];
      if (o.checked !== undefined) props.push(['checked', String(o.checked)]);
      if (o.disabled !== undefined) props.push(['disabled', String(o.disabled)]);
      if (o.selected !== undefined) props.push(['selected', String(o.selected)]);
      if (o.expanded !== undefined) props.push(['expanded', String(o.expanded)]);
      if (o.includeHidden !== undefined) props.push(['include-hidden', String(o.includeHidden)]);
      if (o.level !== undefined) props.push(['level', String(o.level)]);
      if (o.name !== undefined) props.push(['name', escapeForAttributeSelector(o.name, !!o.exact)]);
      if (o.pressed !== undefined) props.push(['pressed', String(o.pressed)]);
      return `internal:role=${role}` + props.map(([n, v]) => `[${n}=${v}]`).join('');
    },
  };

  // ---- describing values and locators the way Playwright prints them ------------------------

  // Values in messages read like Playwright Test's (Jest's pretty-format, one line):
  // `"text"`, `/re/i`, `[1, "a"]`, `{"a": 1}`, locators by their JavaScript description.
  function describeValue(v, seen) {
    if (isString(v)) return JSON.stringify(v);
    if (isRegExp(v)) return String(v);
    if (v === undefined) return 'undefined';
    if (v === null) return 'null';
    if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'boolean' || typeof v === 'symbol') return String(v);
    if (typeof v === 'function') return v.name ? `[Function ${v.name}]` : '[Function anonymous]';
    if (v instanceof Locator || v instanceof FrameLocator) return v._desc;
    if (v instanceof Page) return `Page(${v._id})`;
    if (v instanceof AsymmetricMatcher) return v.toString();
    if (v instanceof Error) return `[${v.name}: ${v.message}]`;
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'Date { NaN }' : v.toISOString();
    const stack = seen || [];
    if (stack.includes(v)) return '[Circular]';
    stack.push(v);
    let out;
    if (Array.isArray(v)) {
      out = `[${v.map((item) => describeValue(item, stack)).join(', ')}]`;
    } else if (v instanceof Set) {
      out = `Set {${[...v].map((item) => describeValue(item, stack)).join(', ')}}`;
    } else if (v instanceof Map) {
      out = `Map {${[...v].map(([k, item]) => `${describeValue(k, stack)} => ${describeValue(item, stack)}`).join(', ')}}`;
    } else {
      const keys = Object.keys(v);
      out = keys.length ? `{${keys.map((k) => `${JSON.stringify(k)}: ${describeValue(v[k], stack)}`).join(', ')}}` : '{}';
    }
    stack.pop();
    return out;
  }

  function quote(v) {
    if (isRegExp(v)) return String(v);
    return "'" + String(v).replace(/\\/g, '\\\\').replace(/'/g, "\\'") + "'";
  }

  function describeOptions(options) {
    if (!options) return '';
    const parts = Object.keys(options)
      .filter((k) => options[k] !== undefined)
      .map((k) => {
        const v = options[k];
        if (v instanceof Locator) return `${k}: ${v._desc}`;
        return `${k}: ${isString(v) || isRegExp(v) ? quote(v) : String(v)}`;
      });
    return parts.length ? `, { ${parts.join(', ')} }` : '';
  }

  // ---- values crossing into the browser (Playwright's SerializedValue) ----------------------

  function serializeValue(v, visited) {
    if (v === undefined) return { v: 'undefined' };
    if (v === null) return { v: 'null' };
    if (typeof v === 'number') {
      if (Number.isNaN(v)) return { v: 'NaN' };
      if (v === Infinity) return { v: 'Infinity' };
      if (v === -Infinity) return { v: '-Infinity' };
      if (Object.is(v, -0)) return { v: '-0' };
      return { n: v };
    }
    if (typeof v === 'boolean') return { b: v };
    if (isString(v)) return { s: v };
    if (typeof v === 'bigint') return { bi: v.toString() };
    if (typeof v === 'function' || typeof v === 'symbol') return { v: 'undefined' };
    if (v instanceof Locator || v instanceof Page) {
      throw tag(new TypeError('locators and pages cannot be passed into the browser; pass plain values'), 'script');
    }
    if (v instanceof Error) return { e: { n: v.name, m: v.message, s: v.stack || '' } };
    if (v instanceof Date) return { d: v.toJSON() };
    if (isRegExp(v)) return { r: { p: v.source, f: v.flags } };
    const ids = visited || new Map();
    if (ids.has(v)) return { ref: ids.get(v) };
    const id = ids.size + 1;
    ids.set(v, id);
    if (Array.isArray(v)) return { a: v.map((item) => serializeValue(item, ids)), id };
    return { o: Object.keys(v).map((k) => ({ k, v: serializeValue(v[k], ids) })), id };
  }

  function serializeArgument(v) {
    return { value: serializeValue(v), handles: [] };
  }

  // What the browser answered, as plain values (results are JSON-like; handles are not kept).
  function parseValue(v, refs) {
    if (v === undefined || v === null || typeof v !== 'object') return undefined;
    const seen = refs || new Map();
    if ('n' in v) return v.n;
    if ('b' in v) return v.b;
    if ('s' in v) return v.s;
    if ('v' in v) {
      return { undefined: undefined, null: null, NaN: NaN, Infinity: Infinity, '-Infinity': -Infinity, '-0': -0 }[v.v];
    }
    if ('d' in v) return new Date(v.d);
    if ('u' in v) return v.u;
    if ('bi' in v) return BigInt(v.bi);
    if ('e' in v) {
      const error = new Error(v.e.m);
      error.name = v.e.n;
      return error;
    }
    if ('r' in v) return new RegExp(v.r.p, v.r.f);
    if ('ref' in v) return seen.get(v.ref);
    if ('a' in v) {
      const out = [];
      seen.set(v.id, out);
      for (const item of v.a) out.push(parseValue(item, seen));
      return out;
    }
    if ('o' in v) {
      const out = {};
      seen.set(v.id, out);
      for (const entry of v.o) out[entry.k] = parseValue(entry.v, seen);
      return out;
    }
    return undefined;
  }

  // A function runs in the browser page, never here: its source text crosses, as in Playwright.
  function evaluation(pageFunction, arg) {
    return {
      expression: String(pageFunction),
      isFunction: typeof pageFunction === 'function',
      arg: serializeArgument(arg),
    };
  }

  // ---- Locator ------------------------------------------------------------------------------

  function filterSelector(options) {
    let s = '';
    const o = options || {};
    if (o.hasText !== undefined) s += ' >> internal:has-text=' + escapeForTextSelector(o.hasText, false);
    if (o.hasNotText !== undefined) s += ' >> internal:has-not-text=' + escapeForTextSelector(o.hasNotText, false);
    if (o.has !== undefined) s += ' >> internal:has=' + JSON.stringify(asLocator(o.has, 'has')._selector);
    if (o.hasNot !== undefined) s += ' >> internal:has-not=' + JSON.stringify(asLocator(o.hasNot, 'hasNot')._selector);
    if (o.visible !== undefined) s += ` >> visible=${o.visible ? 'true' : 'false'}`;
    return s;
  }

  function asLocator(v, what) {
    if (!(v instanceof Locator)) {
      throw tag(new TypeError(`${what} must be a Locator, got ${describeValue(v)}`), 'script');
    }
    return v;
  }

  function sameFrame(locator, other) {
    if (other._page !== locator._page) throw tag(new Error('Locators must belong to the same frame.'), 'script');
  }

  const ALL_TEXT_CONTENTS = "ee => ee.map(e => e.textContent || '')";
  const ALL_INNER_TEXTS = 'ee => ee.map(e => e.innerText)';

  class Locator {
    constructor(page, selector, desc) {
      this._page = page;
      this._selector = selector;
      this._desc = desc;
    }

    _derive(selector, desc) {
      return new Locator(this._page, this._selector + ' >> ' + selector, this._desc + desc);
    }

    _narrow(suffix, desc) {
      return new Locator(this._page, this._selector + suffix, this._desc + desc);
    }

    toString() {
      return this._desc;
    }

    page() {
      return this._page;
    }

    locator(selectorOrLocator, options) {
      if (selectorOrLocator instanceof Locator) {
        sameFrame(this, selectorOrLocator);
        const inner = this._selector + ' >> internal:chain=' + JSON.stringify(selectorOrLocator._selector);
        return new Locator(this._page, inner, `${this._desc}.locator(${selectorOrLocator._desc}${describeOptions(options)})`)._narrow(
          filterSelector(options),
          '',
        );
      }
      return this._derive(checkSelector(selectorOrLocator, 'locator.locator'), `.locator(${quote(selectorOrLocator)}${describeOptions(options)})`)._narrow(
        filterSelector(options),
        '',
      );
    }

    first() {
      return this._narrow(' >> nth=0', '.first()');
    }

    last() {
      return this._narrow(' >> nth=-1', '.last()');
    }

    nth(index) {
      return this._narrow(` >> nth=${index}`, `.nth(${index})`);
    }

    filter(options) {
      return this._narrow(filterSelector(options), `.filter(${describeOptions(options).slice(2)})`);
    }

    and(locator) {
      const other = asLocator(locator, 'locator.and');
      sameFrame(this, other);
      return this._narrow(' >> internal:and=' + JSON.stringify(other._selector), `.and(${other._desc})`);
    }

    or(locator) {
      const other = asLocator(locator, 'locator.or');
      sameFrame(this, other);
      return this._narrow(' >> internal:or=' + JSON.stringify(other._selector), `.or(${other._desc})`);
    }

    describe(description) {
      return this._narrow(' >> internal:describe=' + JSON.stringify(description), `.describe(${quote(description)})`);
    }

    async all() {
      const count = await this.count();
      return Array.from({ length: count }, (_, i) => this.nth(i));
    }

    // One protocol call on the page's main frame, strict like Playwright's; `api` names the
    // method in messages (`locator.click: Timeout 5000ms exceeded.`).
    _act(method, params, options, api) {
      const merged = Object.assign({ selector: this._selector, strict: true }, options || {}, params || {});
      merged.timeout = this._page._timeoutOf(options);
      return call(this._page._id, 'frame.' + method, merged, 'locator.' + (api || method), this._desc);
    }

    // A call on the element the locator resolves to (Playwright's `_withElement`): the host
    // waits for it to be attached, runs `method` on its handle and disposes of the handle.
    _element(method, params, options, api) {
      const merged = Object.assign({}, params || {}, { selector: this._selector, timeout: this._page._timeoutOf(options) });
      return call(this._page._id, 'element.' + method, merged, 'locator.' + api, this._desc);
    }

    // A query that does not wait (`isVisible`, `isHidden`).
    _query(method) {
      return call(this._page._id, 'frame.' + method, { selector: this._selector, strict: true }, 'locator.' + method, this._desc);
    }

    async click(options) {
      this._act('click', {}, options);
    }

    async dblclick(options) {
      this._act('dblclick', {}, options);
    }

    async tap(options) {
      this._act('tap', {}, options);
    }

    async fill(value, options) {
      if (!isString(value)) {
        throw tag(new TypeError(`locator.fill: value must be a string, got ${describeValue(value)}`), 'script');
      }
      this._act('fill', { value }, options);
    }

    async clear(options) {
      this._act('fill', { value: '' }, options, 'clear');
    }

    async press(key, options) {
      this._act('press', { key }, options);
    }

    async pressSequentially(text, options) {
      this._act('type', { text }, options, 'pressSequentially');
    }

    async type(text, options) {
      this._act('type', { text }, options, 'type');
    }

    async check(options) {
      this._act('check', {}, options);
    }

    async uncheck(options) {
      this._act('uncheck', {}, options);
    }

    async setChecked(checked, options) {
      this._act(checked ? 'check' : 'uncheck', {}, options, 'setChecked');
    }

    async hover(options) {
      this._act('hover', {}, options);
    }

    async focus(options) {
      this._act('focus', {}, options);
    }

    async blur(options) {
      this._act('blur', {}, options);
    }

    async selectOption(values, options) {
      const list = values === null || values === undefined ? [] : Array.isArray(values) ? values : [values];
      const converted = list.map((v) => {
        if (isString(v)) return { valueOrLabel: v };
        if (v && typeof v === 'object') {
          const o = {};
          if (v.value !== undefined) o.value = v.value;
          if (v.label !== undefined) o.label = v.label;
          if (v.index !== undefined) o.index = v.index;
          return o;
        }
        throw tag(new TypeError(`locator.selectOption: unsupported value ${describeValue(v)}`), 'script');
      });
      return this._act('selectOption', { options: converted }, options).values;
    }

    async dragTo(target, options) {
      const other = asLocator(target, 'locator.dragTo: target');
      sameFrame(this, other);
      const params = Object.assign({}, options || {}, {
        source: this._selector,
        target: other._selector,
        strict: true,
        timeout: this._page._timeoutOf(options),
      });
      call(this._page._id, 'frame.dragAndDrop', params, 'locator.dragTo', this._desc);
    }

    async dispatchEvent(type, eventInit, options) {
      this._act('dispatchEvent', { type, eventInit: serializeArgument(eventInit === undefined ? {} : eventInit) }, options);
    }

    async scrollIntoViewIfNeeded(options) {
      this._element('scrollIntoViewIfNeeded', {}, options, 'scrollIntoViewIfNeeded');
    }

    // Paths resolve inside the project directory (the host refuses anything outside it).
    async setInputFiles(files, options) {
      const list = Array.isArray(files) ? files : [files];
      for (const file of list) {
        if (!isString(file)) {
          throw tag(
            new TypeError(
              `locator.setInputFiles: expected file paths (strings), got ${describeValue(file)}; step code has no Buffer, so put the file in the project directory and pass its path`,
            ),
            'script',
          );
        }
      }
      this._act('setInputFiles', { files: list }, options);
    }

    async waitFor(options) {
      const o = options || {};
      const params = { selector: this._selector, strict: true, omitReturnValue: true, state: o.state, timeout: this._page._timeoutOf(o) };
      const waitingFor = `${this._desc} to be ${o.state || 'visible'}`;
      call(this._page._id, 'frame.waitForSelector', params, 'locator.waitFor', waitingFor);
    }

    async count() {
      return call(this._page._id, 'frame.queryCount', { selector: this._selector }, 'locator.count').value;
    }

    async textContent(options) {
      const v = this._act('textContent', {}, options).value;
      return v === undefined ? null : v;
    }

    async innerText(options) {
      return this._act('innerText', {}, options).value;
    }

    async innerHTML(options) {
      return this._act('innerHTML', {}, options).value;
    }

    async inputValue(options) {
      return this._act('inputValue', {}, options).value;
    }

    async getAttribute(name, options) {
      const v = this._act('getAttribute', { name }, options).value;
      return v === undefined ? null : v;
    }

    async allTextContents() {
      const params = Object.assign({ selector: this._selector }, evaluation(ALL_TEXT_CONTENTS));
      params.isFunction = true;
      return parseValue(call(this._page._id, 'frame.evalOnSelectorAll', params, 'locator.allTextContents').value);
    }

    async allInnerTexts() {
      const params = Object.assign({ selector: this._selector }, evaluation(ALL_INNER_TEXTS));
      params.isFunction = true;
      return parseValue(call(this._page._id, 'frame.evalOnSelectorAll', params, 'locator.allInnerTexts').value);
    }

    async isVisible() {
      return this._query('isVisible').value;
    }

    async isHidden() {
      return this._query('isHidden').value;
    }

    async isEnabled(options) {
      return this._act('isEnabled', {}, options).value;
    }

    async isDisabled(options) {
      return this._act('isDisabled', {}, options).value;
    }

    async isChecked(options) {
      return this._act('isChecked', {}, options).value;
    }

    async isEditable(options) {
      return this._act('isEditable', {}, options).value;
    }

    async boundingBox(options) {
      const box = this._element('boundingBox', {}, options, 'boundingBox').value;
      return box === undefined ? null : box;
    }

    async ariaSnapshot(options) {
      const o = options || {};
      const params = { selector: this._selector, mode: o.mode, depth: o.depth, timeout: this._page._timeoutOf(o) };
      return call(this._page._id, 'frame.ariaSnapshot', params, 'locator.ariaSnapshot', this._desc).snapshot;
    }

    // Runs `pageFunction(element, arg)` in the browser page.
    async evaluate(pageFunction, arg, options) {
      return parseValue(this._element('evaluateExpression', evaluation(pageFunction, arg), options, 'evaluate').value);
    }

    // Runs `pageFunction(elements, arg)` in the browser page, over every match.
    async evaluateAll(pageFunction, arg) {
      const params = Object.assign({ selector: this._selector }, evaluation(pageFunction, arg));
      return parseValue(call(this._page._id, 'frame.evalOnSelectorAll', params, 'locator.evaluateAll').value);
    }
  }

  // Frames: a frame locator is the selector of an <iframe>; locators inside it enter the frame.
  class FrameLocator {
    constructor(page, frameSelector, desc) {
      this._page = page;
      this._frameSelector = frameSelector;
      this._desc = desc;
    }

    _inner(selector, desc) {
      return new Locator(this._page, `${this._frameSelector} >> internal:control=enter-frame >> ${selector}`, this._desc + desc);
    }

    locator(selectorOrLocator, options) {
      const inner = selectorOrLocator instanceof Locator ? selectorOrLocator._selector : checkSelector(selectorOrLocator, 'frameLocator.locator');
      const shown = selectorOrLocator instanceof Locator ? selectorOrLocator._desc : quote(inner);
      return this._inner(inner, `.locator(${shown}${describeOptions(options)})`)._narrow(filterSelector(options), '');
    }

    frameLocator(selector) {
      return new FrameLocator(
        this._page,
        `${this._frameSelector} >> internal:control=enter-frame >> ${checkSelector(selector, 'frameLocator.frameLocator')}`,
        `${this._desc}.frameLocator(${quote(selector)})`,
      );
    }

    first() {
      return new FrameLocator(this._page, this._frameSelector + ' >> nth=0', this._desc + '.first()');
    }

    last() {
      return new FrameLocator(this._page, this._frameSelector + ' >> nth=-1', this._desc + '.last()');
    }

    nth(index) {
      return new FrameLocator(this._page, `${this._frameSelector} >> nth=${index}`, `${this._desc}.nth(${index})`);
    }

    owner() {
      return new Locator(this._page, this._frameSelector, this._desc + '.owner()');
    }

    toString() {
      return this._desc;
    }
  }

  for (const name of Object.keys(factories)) {
    FrameLocator.prototype[name] = factoryMethod(function (arg, options) {
      return this._inner(factories[name](arg, options), `.${name}(${quote(arg)}${describeOptions(options)})`);
    }, name);
  }

  Locator.prototype.frameLocator = function (selector) {
    return new FrameLocator(this._page, this._selector + ' >> ' + checkSelector(selector, 'locator.frameLocator'), `${this._desc}.frameLocator(${quote(selector)})`);
  };

  Locator.prototype.contentFrame = function () {
    return new FrameLocator(this._page, this._selector, this._desc + '.contentFrame()');
  };

  for (const name of Object.keys(factories)) {
    Locator.prototype[name] = factoryMethod(function (arg, options) {
      return this._derive(factories[name](arg, options), `.${name}(${quote(arg)}${describeOptions(options)})`);
    }, name);
  }

  // ---- Page ---------------------------------------------------------------------------------

  class Keyboard {
    constructor(page) {
      this._page = page;
    }

    async down(key) {
      call(this._page._id, 'page.keyboardDown', { key }, 'keyboard.down');
    }

    async up(key) {
      call(this._page._id, 'page.keyboardUp', { key }, 'keyboard.up');
    }

    async insertText(text) {
      call(this._page._id, 'page.keyboardInsertText', { text }, 'keyboard.insertText');
    }

    async press(key, options) {
      call(this._page._id, 'page.keyboardPress', { key, delay: options && options.delay }, 'keyboard.press');
    }

    async type(text, options) {
      call(this._page._id, 'page.keyboardType', { text, delay: options && options.delay }, 'keyboard.type');
    }
  }

  class Mouse {
    constructor(page) {
      this._page = page;
    }

    async move(x, y, options) {
      call(this._page._id, 'page.mouseMove', { x, y, steps: options && options.steps }, 'mouse.move');
    }

    async down(options) {
      call(this._page._id, 'page.mouseDown', Object.assign({}, options || {}), 'mouse.down');
    }

    async up(options) {
      call(this._page._id, 'page.mouseUp', Object.assign({}, options || {}), 'mouse.up');
    }

    async click(x, y, options) {
      call(this._page._id, 'page.mouseClick', Object.assign({ x, y }, options || {}), 'mouse.click');
    }

    async dblclick(x, y, options) {
      call(this._page._id, 'page.mouseClick', Object.assign({ x, y }, options || {}, { clickCount: 2 }), 'mouse.dblclick');
    }

    async wheel(deltaX, deltaY) {
      call(this._page._id, 'page.mouseWheel', { deltaX, deltaY }, 'mouse.wheel');
    }
  }

  // What `page.waitForFunction` resolves to; its value was read when the function returned.
  class JSHandle {
    constructor(value) {
      this._value = value;
    }

    async jsonValue() {
      return this._value;
    }

    async dispose() {}
  }

  class Response {
    constructor(data) {
      this._data = data;
    }

    status() {
      return this._data.status;
    }

    ok() {
      return this._data.status === 0 || (this._data.status >= 200 && this._data.status <= 299);
    }

    url() {
      return this._data.url;
    }
  }

  // ---- HTTP requests (`request`, `page.request`) ------------------------------------------

  // Playwright's `APIRequestContext` of the test's browser context: requests share the pages'
  // cookies and go only where `[browser] allowed_origins` lets the pages go. The host resolves
  // relative URLs against the base URL and follows redirects itself, checking each one.
  const NAME_VALUE = (object, what, api) => {
    if (object === undefined || object === null) return undefined;
    if (typeof object !== 'object' || Array.isArray(object)) {
      throw tag(new TypeError(`${api}: ${what} must be an object of strings`), 'script');
    }
    return Object.keys(object).map((name) => ({ name, value: String(object[name]) }));
  };

  class APIRequestContext {
    async fetch(urlOrRequest, options) {
      const o = options || {};
      return this._fetch(urlOrRequest, o.method || 'GET', o, 'apiRequestContext.fetch');
    }

    async get(url, options) {
      return this._fetch(url, 'GET', options || {}, 'apiRequestContext.get');
    }

    async head(url, options) {
      return this._fetch(url, 'HEAD', options || {}, 'apiRequestContext.head');
    }

    async post(url, options) {
      return this._fetch(url, 'POST', options || {}, 'apiRequestContext.post');
    }

    async put(url, options) {
      return this._fetch(url, 'PUT', options || {}, 'apiRequestContext.put');
    }

    async patch(url, options) {
      return this._fetch(url, 'PATCH', options || {}, 'apiRequestContext.patch');
    }

    async delete(url, options) {
      return this._fetch(url, 'DELETE', options || {}, 'apiRequestContext.delete');
    }

    async dispose() {}

    async storageState() {
      refuse('apiRequestContext.storageState()', NO_FS);
    }

    _fetch(url, method, o, api) {
      if (!isString(url)) throw tag(new TypeError(`${api}: url must be a string`), 'script');
      if (o.multipart !== undefined) refuse(`${api}({ multipart })`, NO_FS);
      const headers = NAME_VALUE(o.headers, 'headers', api) || [];
      const params = { url, method, headers, timeout: o.timeout !== undefined ? o.timeout : config.timeout };
      if (o.params !== undefined) params.params = isString(o.params) ? o.params : NAME_VALUE(o.params, 'params', api);
      if (o.data !== undefined && o.form !== undefined) {
        throw tag(new Error(`${api}: only one of 'data' and 'form' may be given`), 'script');
      }
      if (o.data !== undefined) {
        const json = headers.some((h) => h.name.toLowerCase() === 'content-type' && /json/i.test(h.value));
        if (isString(o.data)) {
          if (json) {
            let parsable = true;
            try {
              JSON.parse(o.data);
            } catch (e) {
              parsable = false;
            }
            params.jsonData = parsable ? o.data : JSON.stringify(o.data);
          } else {
            params.postData = o.data;
          }
        } else if (['object', 'number', 'boolean'].includes(typeof o.data)) {
          params.jsonData = JSON.stringify(o.data);
        } else {
          throw tag(new TypeError(`${api}: unexpected 'data' type`), 'script');
        }
      }
      if (o.form !== undefined) params.formData = NAME_VALUE(o.form, 'form', api);
      if (o.maxRedirects !== undefined) params.maxRedirects = o.maxRedirects;
      if (o.failOnStatusCode) params.failOnStatusCode = true;
      return new APIResponse(call(0, 'request.fetch', params, api));
    }
  }

  const theRequest = new APIRequestContext();

  // The bytes of a response body; `toString()` decodes UTF-8, as a Node Buffer's does.
  class ResponseBody extends Uint8Array {
    toString() {
      return this._text;
    }
  }

  class APIResponse {
    constructor(data) {
      this._data = data;
    }

    status() {
      return this._data.status;
    }

    statusText() {
      return this._data.statusText;
    }

    ok() {
      return this._data.status >= 200 && this._data.status <= 299;
    }

    url() {
      return this._data.url;
    }

    headers() {
      const out = {};
      for (const { name, value } of this._data.headers) {
        const key = name.toLowerCase();
        out[key] = key in out ? `${out[key]}${key === 'set-cookie' ? '\n' : ', '}${value}` : value;
      }
      return out;
    }

    headersArray() {
      return this._data.headers.map(({ name, value }) => ({ name, value }));
    }

    async text() {
      return this._text('apiResponse.text');
    }

    async json() {
      const text = this._text('apiResponse.json');
      try {
        return JSON.parse(text);
      } catch (e) {
        throw tag(new SyntaxError(`apiResponse.json: the body of ${this._data.url} is not JSON (${e.message})`), 'script');
      }
    }

    async body() {
      const text = this._text('apiResponse.body');
      const binary = this._data.binary;
      let bytes;
      if (binary !== undefined && binary !== null) {
        const raw = atobBytes(binary);
        bytes = new ResponseBody(raw.length);
        bytes.set(raw);
      } else {
        const utf8 = unescape(encodeURIComponent(text));
        bytes = new ResponseBody(utf8.length);
        for (let i = 0; i < utf8.length; i++) bytes[i] = utf8.charCodeAt(i);
      }
      Object.defineProperty(bytes, '_text', { value: text });
      return bytes;
    }

    async dispose() {}

    _text(api) {
      if (this._data.text === null || this._data.text === undefined) {
        throw tag(
          new Error(`${api}: the body of ${this._data.url} is more than 1048576 bytes; step code may read at most 1048576`),
          'script',
        );
      }
      return this._data.text;
    }
  }

  const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

  function atobBytes(encoded) {
    const clean = encoded.replace(/=+$/, '');
    const out = [];
    let bits = 0;
    let value = 0;
    for (const c of clean) {
      value = (value << 6) | BASE64.indexOf(c);
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out.push((value >> bits) & 0xff);
      }
    }
    return out;
  }

  class Dialog {
    constructor(data) {
      this._data = data;
    }

    type() {
      return this._data.type;
    }

    message() {
      return this._data.message;
    }

    defaultValue() {
      return this._data.defaultValue;
    }

    page() {
      return pageFor(this._data.page);
    }

    async accept(promptText) {
      call(this._data.page, 'dialog.accept', { dialog: this._data.id, promptText }, 'dialog.accept');
    }

    async dismiss() {
      call(this._data.page, 'dialog.dismiss', { dialog: this._data.id }, 'dialog.dismiss');
    }
  }

  class Download {
    constructor(data) {
      this._data = data;
    }

    url() {
      return this._data.url;
    }

    suggestedFilename() {
      return this._data.suggestedFilename;
    }

    async path() {
      refuse('download.path()', NO_FS);
    }

    async saveAs() {
      refuse('download.saveAs()', NO_FS);
    }
  }

  const pages = new Map();

  function pageFor(id) {
    if (!pages.has(id)) pages.set(id, new Page(id));
    return pages.get(id);
  }

  // Stateful author tools: they would outlive the step that set them up and make every later
  // step depend on state no scenario sentence shows.
  const STATEFUL = 'it would outlive the step: routes, clocks, init scripts, bindings and tracing change the browser for every later step';
  const NO_PAUSE = 'steps run unattended; use `--headed` and `-v` to watch a run';
  const NO_CDP = 'raw browser protocol sessions are outside the step API';

  class BrowserContext {
    get request() {
      return theRequest;
    }

    pages() {
      return call(0, 'context.pages', {}).map(pageFor);
    }

    async close() {
      refuse('context.close()', 'the runtime owns the context lifecycle');
    }

    route() {
      refuse('context.route()', STATEFUL);
    }

    unroute() {
      refuse('context.unroute()', STATEFUL);
    }

    routeFromHAR() {
      refuse('context.routeFromHAR()', STATEFUL);
    }

    addInitScript() {
      refuse('context.addInitScript()', STATEFUL);
    }

    exposeBinding() {
      refuse('context.exposeBinding()', STATEFUL);
    }

    exposeFunction() {
      refuse('context.exposeFunction()', STATEFUL);
    }

    newCDPSession() {
      refuse('context.newCDPSession()', NO_CDP);
    }

    get tracing() {
      return refuse('context.tracing', STATEFUL);
    }

    get clock() {
      return refuse('context.clock', STATEFUL);
    }
  }

  const theContext = new BrowserContext();

  const EVENTS = ['dialog', 'popup', 'download'];

  function checkEvent(api, event) {
    if (!EVENTS.includes(event)) {
      throw tag(
        new Error(`${api}: event ${JSON.stringify(event)} is not available in step code (supported: ${EVENTS.map((e) => JSON.stringify(e)).join(', ')})`),
        'script',
      );
    }
  }

  // Load states as the page's document shows them. `networkidle` is approximated: the load
  // event, then 500 ms without a resource finishing.
  const LOAD_STATES = {
    load: "document.readyState === 'complete'",
    domcontentloaded: "document.readyState !== 'loading'",
    networkidle: `new Promise((resolve) => {
      const idle = () => {
        let seen = performance.getEntriesByType('resource').length;
        let quiet = 0;
        const tick = () => {
          const now = performance.getEntriesByType('resource').length;
          if (now !== seen) { seen = now; quiet = 0; } else if ((quiet += 100) >= 500) { resolve(true); return; }
          setTimeout(tick, 100);
        };
        setTimeout(tick, 100);
      };
      if (document.readyState === 'complete') idle(); else addEventListener('load', idle, { once: true });
    })`,
  };

  // Playwright's glob syntax for URLs: `*` within a path segment, `**` across segments,
  // `{a,b}` alternatives, `\` escapes.
  function globToRegexPattern(glob) {
    const special = new Set(['$', '^', '+', '.', '*', '(', ')', '|', '\\', '?', '{', '}', '[', ']']);
    const tokens = ['^'];
    let inGroup = false;
    for (let i = 0; i < glob.length; ++i) {
      const c = glob[i];
      if (c === '\\' && i + 1 < glob.length) {
        const next = glob[++i];
        tokens.push(special.has(next) ? '\\' + next : next);
        continue;
      }
      if (c === '*') {
        const before = glob[i - 1];
        let stars = 1;
        while (glob[i + 1] === '*') {
          stars++;
          i++;
        }
        if (stars > 1) {
          if (glob[i + 1] === '/') {
            tokens.push(before === '/' ? '((.+/)|)' : '(.*/)');
            ++i;
          } else {
            tokens.push('(.*)');
          }
        } else {
          tokens.push('([^/]*)');
        }
        continue;
      }
      if (c === '{') {
        inGroup = true;
        tokens.push('(');
      } else if (c === '}') {
        inGroup = false;
        tokens.push(')');
      } else if (c === ',') {
        tokens.push(inGroup ? '|' : '\\,');
      } else {
        tokens.push(special.has(c) ? '\\' + c : c);
      }
    }
    tokens.push('$');
    return tokens.join('');
  }

  // Playwright's `urlMatches`: a string is a glob resolved against the base URL, a RegExp is
  // tested against the whole URL.
  function urlMatcher(page, url, api) {
    if (url === undefined || url === '') return () => true;
    if (isRegExp(url)) {
      return (current) => {
        url.lastIndex = 0;
        return url.test(current);
      };
    }
    if (!isString(url)) {
      throw tag(
        new TypeError(`${api}: expected a glob string or a RegExp, got ${describeValue(url)} (predicate functions are not supported: the sandbox has no URL class)`),
        'script',
      );
    }
    let glob = url;
    if (!glob.startsWith('*')) {
      // Resolve relative globs against the base URL with the wildcards kept out of the way.
      const stars = [];
      const placeholder = glob.replace(/\*+/g, (m) => {
        stars.push(m);
        return `$_${stars.length - 1}_$`;
      });
      glob = call(page._id, 'page.resolveUrl', { url: placeholder }).replace(/\$_(\d+)_\$/g, (_, i) => stars[Number(i)]);
    }
    const re = new RegExp(globToRegexPattern(glob));
    return (current) => re.test(current);
  }

  class Page {
    constructor(id) {
      this._id = id;
      this.keyboard = new Keyboard(this);
      this.mouse = new Mouse(this);
    }

    context() {
      return theContext;
    }

    get request() {
      return theRequest;
    }

    // `page.waitForEvent(event)` starts waiting at once and returns a thenable: awaiting it
    // blocks until the event happened (or the timeout passes).
    waitForEvent(event, optionsOrPredicate) {
      return this._waitForEvent(event, optionsOrPredicate, 'page.waitForEvent');
    }

    _waitForEvent(event, optionsOrPredicate, api) {
      checkEvent(api, event);
      const options = typeof optionsOrPredicate === 'function' ? { predicate: optionsOrPredicate } : optionsOrPredicate || {};
      const timeout = this._timeoutOf(options);
      const started = Date.now();
      const { waiter } = call(this._id, 'page.waitForEvent', { event });
      const page = this;
      let settled;
      // Each event is offered to the predicate in the order it happened, under one timeout.
      const finish = () => {
        if (!settled) {
          try {
            for (;;) {
              const remaining = timeout > 0 ? Math.max(1, timeout - (Date.now() - started)) : 0;
              const value = wrapEvent(event, call(page._id, 'waiter.finish', { waiter, timeout: remaining, total: timeout }, api));
              if (!options.predicate || options.predicate(value)) {
                settled = { value };
                break;
              }
            }
          } catch (error) {
            settled = { error };
          } finally {
            call(page._id, 'waiter.done', { waiter });
          }
        }
        if (settled.error) throw settled.error;
        return settled.value;
      };
      return {
        _finish: finish,
        then(resolve, reject) {
          let value;
          try {
            value = finish();
          } catch (error) {
            return Promise.reject(error).then(resolve, reject);
          }
          return Promise.resolve(value).then(resolve, reject);
        },
        catch(reject) {
          return this.then(undefined, reject);
        },
      };
    }

    waitForPopup(options) {
      return this._waitForEvent('popup', options, 'page.waitForPopup');
    }

    on(event, handler) {
      checkEvent('page.on', event);
      const { listener } = call(this._id, 'page.listen', { event, once: false });
      listeners.set(listener, { event, handler, once: false });
      return this;
    }

    once(event, handler) {
      checkEvent('page.once', event);
      const { listener } = call(this._id, 'page.listen', { event, once: true });
      listeners.set(listener, { event, handler, once: true });
      return this;
    }

    off(event, handler) {
      for (const [id, entry] of listeners) {
        if (entry.event === event && entry.handler === handler) {
          listeners.delete(id);
          call(this._id, 'page.unlisten', { listener: id });
        }
      }
      return this;
    }

    removeListener(event, handler) {
      return this.off(event, handler);
    }

    async bringToFront() {
      call(this._id, 'page.bringToFront', {}, 'page.bringToFront');
    }

    _timeoutOf(options) {
      return options && options.timeout !== undefined ? options.timeout : config.timeout;
    }

    _navigationTimeoutOf(options) {
      return options && options.timeout !== undefined ? options.timeout : config.navigationTimeout;
    }

    _navigate(method, params, options) {
      const merged = Object.assign({}, params || {}, {
        waitUntil: (options && options.waitUntil) || 'load',
        timeout: this._navigationTimeoutOf(options),
      });
      const data = call(this._id, method, merged, 'page.' + method.slice('page.'.length));
      return data ? new Response(data) : null;
    }

    async goto(url, options) {
      if (!isString(url)) {
        throw tag(new TypeError(`page.goto: url must be a string, got ${describeValue(url)}`), 'script');
      }
      return this._navigate('page.goto', { url }, options);
    }

    async reload(options) {
      return this._navigate('page.reload', {}, options);
    }

    async goBack(options) {
      return this._navigate('page.goBack', {}, options);
    }

    async goForward(options) {
      return this._navigate('page.goForward', {}, options);
    }

    url() {
      return call(this._id, 'page.url', {});
    }

    async title() {
      return call(this._id, 'frame.title', {}).value;
    }

    async content() {
      return call(this._id, 'frame.content', {}, 'page.content').value;
    }

    async setViewportSize(viewportSize) {
      const size = viewportSize || {};
      call(this._id, 'page.setViewportSize', { viewportSize: { width: size.width, height: size.height } }, 'page.setViewportSize');
    }

    // Runs `pageFunction(arg)` in the browser page and answers its (JSON-like) result.
    async evaluate(pageFunction, arg) {
      return parseValue(call(this._id, 'frame.evaluateExpression', evaluation(pageFunction, arg), 'page.evaluate').value);
    }

    // Waits until `pageFunction(arg)`, run in the browser page, returns a truthy value.
    async waitForFunction(pageFunction, arg, options) {
      const o = options || {};
      const params = Object.assign(evaluation(pageFunction, arg), {
        pollingInterval: o.polling === 'raf' ? undefined : o.polling,
        timeout: this._timeoutOf(o),
      });
      return new JSHandle(parseValue(call(this._id, 'frame.waitForFunction', params, 'page.waitForFunction').value));
    }

    // Refused: a fixed wait is what the generation prompt forbids (Playwright discourages it
    // too); it makes steps slow when the page is quick and flaky when it is slow.
    async waitForTimeout(timeout) {
      refuse('page.waitForTimeout()', NO_SLEEP);
    }

    async waitForLoadState(state, options) {
      const wanted = state === undefined ? 'load' : state;
      if (!Object.prototype.hasOwnProperty.call(LOAD_STATES, wanted)) {
        throw tag(new Error('page.waitForLoadState: state: expected one of (load|domcontentloaded|networkidle)'), 'script');
      }
      const params = { expression: LOAD_STATES[wanted], isFunction: false, arg: serializeArgument(undefined), timeout: this._navigationTimeoutOf(options) };
      call(this._id, 'frame.waitForFunction', params, 'page.waitForLoadState');
    }

    async waitForURL(url, options) {
      const o = options || {};
      const timeout = this._navigationTimeoutOf(o);
      const waitUntil = o.waitUntil || 'load';
      const matches = urlMatcher(this, url, 'page.waitForURL');
      const started = Date.now();
      const deadline = timeout > 0 ? started + timeout : Infinity;
      while (!matches(this.url())) {
        const left = deadline - Date.now();
        if (left <= 0) {
          const message = [
            `page.waitForURL: Timeout ${timeout}ms exceeded.`,
            '=========================== logs ===========================',
            `waiting for navigation to ${describeValue(url)} until "${waitUntil}"`,
            `  navigated to "${this.url()}"`,
            '============================================================',
          ].join('\n');
          throw tag(new TimeoutError(message), 'timeout');
        }
        const pause = { waitTimeout: Math.min(50, left) };
        if (timeout > 0) Object.assign(pause, { total: timeout, since: Date.now() - started, waiting: 'page.waitForURL' });
        call(this._id, 'frame.waitForTimeout', pause);
      }
      if (waitUntil !== 'commit') {
        const left = deadline === Infinity ? 0 : Math.max(1, deadline - Date.now());
        await this.waitForLoadState(waitUntil, { timeout: left });
      }
    }

    locator(selector, options) {
      return new Locator(this, checkSelector(selector, 'page.locator'), `locator(${quote(selector)}${describeOptions(options)})`)._narrow(
        filterSelector(options),
        '',
      );
    }

    frameLocator(selector) {
      return new FrameLocator(this, checkSelector(selector, 'page.frameLocator'), `frameLocator(${quote(selector)})`);
    }

    close() {
      refuse('page.close()', 'the runtime owns the page lifecycle');
    }

    route() {
      refuse('page.route()', STATEFUL);
    }

    unroute() {
      refuse('page.unroute()', STATEFUL);
    }

    unrouteAll() {
      refuse('page.unrouteAll()', STATEFUL);
    }

    routeFromHAR() {
      refuse('page.routeFromHAR()', STATEFUL);
    }

    routeWebSocket() {
      refuse('page.routeWebSocket()', STATEFUL);
    }

    addInitScript() {
      refuse('page.addInitScript()', STATEFUL);
    }

    exposeBinding() {
      refuse('page.exposeBinding()', STATEFUL);
    }

    exposeFunction() {
      refuse('page.exposeFunction()', STATEFUL);
    }

    pause() {
      refuse('page.pause()', NO_PAUSE);
    }

    get clock() {
      return refuse('page.clock', STATEFUL);
    }
  }

  for (const name of Object.keys(factories)) {
    Page.prototype[name] = factoryMethod(function (arg, options) {
      return new Locator(this, factories[name](arg, options), `${name}(${quote(arg)}${describeOptions(options)})`);
    }, name);
  }

  // ---- expect -------------------------------------------------------------------------------

  function expectedTexts(items, flags) {
    return items.map((item) => {
      checkText('expect', item);
      return Object.assign(
        isRegExp(item) ? { regexSource: item.source, regexFlags: item.flags } : { string: item },
        flags,
      );
    });
  }

  const ANSI = /\u001b\[[0-9;]*m/g;
  const NOT_FOUND = '<element(s) not found>';

  // `Label: value`, or the value on lines of its own when it has several (aria snapshots).
  function labelled(label, value) {
    if (!value.includes('\n')) return `${label} ${value}`;
    return `${label}\n${value
      .split('\n')
      .map((l) => '  ' + l)
      .join('\n')}`;
  }

  // Playwright's `unshift` for aria snapshot templates: drops blank lines and the common indent.
  function unshiftSnapshot(snapshot) {
    const lines = snapshot.split('\n');
    let indent = 100;
    for (const line of lines) {
      if (!line.trim()) continue;
      indent = Math.min(indent, line.match(/^(\s*)/)[1].length);
    }
    return lines
      .filter((l) => l.trim())
      .map((l) => l.substring(indent))
      .join('\n');
  }

  // Asymmetric matchers (`expect.any(Number)`, `expect.stringContaining('x')`, ...).
  class AsymmetricMatcher {
    constructor(name, sample, test) {
      this._name = name;
      this._sample = sample;
      this._test = test;
    }

    asymmetricMatch(other) {
      return this._test(other);
    }

    toString() {
      if (this._name === 'Anything') return 'Anything';
      if (this._name === 'Any') return `Any<${this._sample && this._sample.name}>`;
      return `${this._name} ${describeValue(this._sample)}`;
    }
  }

  const isAsymmetric = (v) => v instanceof AsymmetricMatcher;

  function typeOf(v) {
    return Object.prototype.toString.call(v);
  }

  // Jest's `equals`: recursive equality; `strict` (toStrictEqual) also compares undefined
  // properties, sparseness and classes.
  function equals(a, b, strict, stack) {
    if (isAsymmetric(b)) return b.asymmetricMatch(a);
    if (isAsymmetric(a)) return a.asymmetricMatch(b);
    if (Object.is(a, b)) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (typeOf(a) !== typeOf(b)) return false;
    if (a instanceof Date) return Object.is(a.getTime(), b.getTime());
    if (isRegExp(a)) return String(a) === String(b);
    if (a instanceof Error) return a.message === b.message && (!strict || a.name === b.name);
    if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
    const seen = stack || [];
    for (const [x, y] of seen) if (x === a) return y === b;
    seen.push([a, b]);
    try {
      if (a instanceof Set) {
        if (a.size !== b.size) return false;
        return [...a].every((x) => b.has(x) || [...b].some((y) => equals(x, y, strict, seen)));
      }
      if (a instanceof Map) {
        if (a.size !== b.size) return false;
        return [...a].every(([k, v]) => b.has(k) && equals(v, b.get(k), strict, seen));
      }
      if (Array.isArray(a)) {
        if (a.length !== b.length) return false;
        for (let i = 0; i < a.length; i++) {
          if (strict && i in a !== i in b) return false;
          if (!equals(a[i], b[i], strict, seen)) return false;
        }
        return true;
      }
      const keys = (o) => Object.keys(o).filter((k) => strict || o[k] !== undefined);
      const ka = keys(a);
      const kb = keys(b);
      if (ka.length !== kb.length) return false;
      return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && equals(a[k], b[k], strict, seen));
    } finally {
      seen.pop();
    }
  }

  // `toMatchObject`: every property of `subset` is in `object`, recursively.
  function matchesSubset(object, subset) {
    if (isAsymmetric(subset)) return subset.asymmetricMatch(object);
    if (typeof subset !== 'object' || subset === null || subset instanceof Date || isRegExp(subset)) {
      return equals(object, subset);
    }
    if (typeof object !== 'object' || object === null) return false;
    if (Array.isArray(subset)) {
      return Array.isArray(object) && object.length === subset.length && subset.every((s, i) => matchesSubset(object[i], s));
    }
    return Object.keys(subset).every((k) => k in object && matchesSubset(object[k], subset[k]));
  }

  function propertyPath(path) {
    if (Array.isArray(path)) return path.map(String);
    return String(path)
      .split(/\.|\[(\d+)\]/)
      .filter((p) => p !== undefined && p !== '');
  }

  function numeric(matcher, v, what) {
    if (typeof v !== 'number' && typeof v !== 'bigint') {
      throw tag(
        new TypeError(`expect(received).${matcher}(expected)\n\nMatcher error: ${what} value must be a number or bigint\n\n${what[0].toUpperCase() + what.slice(1)} has value: ${describeValue(v)}`),
        'script',
      );
    }
  }

  class Expect {
    constructor(actual, isNot, message, modifier) {
      this._actual = actual;
      this._isNot = isNot;
      this._message = message;
      // '', '.resolves' or '.rejects': the actual value came out of a promise.
      this._modifier = modifier || '';
    }

    get not() {
      return new Expect(this._actual, !this._isNot, this._message, this._modifier);
    }

    // `await expect(promise).resolves.toBe(1)`: matchers run on what the promise resolves to.
    get resolves() {
      return new SettledExpect(this._actual, this._isNot, this._message, 'resolves');
    }

    // `await expect(promise).rejects.toThrow('boom')`: matchers run on the rejection.
    get rejects() {
      return new SettledExpect(this._actual, this._isNot, this._message, 'rejects');
    }

    // A web-first assertion: one server-side `expect` call that retries until the timeout.
    // `shown` is the Expected text, or for state matchers `[expected, unexpected]` (`visible`,
    // `hidden`), printed as Playwright Test prints them.
    _web(matcher, expression, params, shown, options) {
      const actual = this._actual;
      const isPage = actual instanceof Page;
      if (!isPage && !(actual instanceof Locator)) {
        throw tag(
          new TypeError(`${matcher} can be only used with ${expression === 'to.have.url' || expression === 'to.have.title' ? 'Page' : 'Locator'} object`),
          'script',
        );
      }
      const page = isPage ? actual : actual._page;
      const timeout = page._timeoutOf(options);
      const body = Object.assign({ expression, isNot: this._isNot, timeout }, params);
      if (!isPage) body.selector = actual._selector;
      const reply = exchange(page._id, 'frame.expect', body);
      if (!reply.error) return;
      if (reply.error.kind !== 'check') {
        const error = reply.error.kind === 'timeout' ? new TimeoutError(reply.error.message) : new Error(reply.error.message);
        throw tag(error, reply.error.kind, reply.error.refused);
      }
      const not = this._isNot ? '.not' : '';
      const state = Array.isArray(shown);
      const lines = [`expect(${isPage ? 'page' : 'locator'})${not}.${matcher}(${state || shown === undefined ? '' : 'expected'}) failed`, ''];
      if (this._message) lines.unshift(this._message, '');
      if (!isPage) lines.push(`Locator:  ${actual._desc}`);
      const received = reply.error.received;
      if (state) {
        const [expected, unexpected] = shown;
        const notFound = received === NOT_FOUND;
        lines.push(this._isNot ? `Expected: not ${expected}` : `Expected: ${expected}`);
        lines.push(`Received: ${notFound ? NOT_FOUND : this._isNot ? expected : unexpected}`);
      } else {
        if (shown !== undefined) lines.push(labelled(`Expected${this._isNot ? ' not' : ''}:`, shown));
        if (received !== undefined && received !== null) lines.push(labelled('Received:', received));
      }
      lines.push(`Timeout:  ${timeout}ms`);
      const log = (reply.error.log || []).map((l) => l.replace(ANSI, ''));
      if (log.length) lines.push('', 'Call log:', ...log.map((l) => (l.startsWith('  ') ? l : '  ' + l)));
      fail(lines.join('\n'));
    }

    // A plain value assertion, evaluated at once: `details` gives the lines under the header;
    // `values` (`{ expected, received }`), when the assertion compares a value with an expected
    // one and is not negated, is the failure's evidence.
    _check(matcher, pass, args, details, comment, values) {
      if (pass !== this._isNot) return;
      const header = `expect(received)${this._modifier}${this._isNot ? '.not' : ''}.${matcher}(${args})${comment || ''}`;
      const lines = [header, '', ...details()];
      if (this._message) lines.unshift(this._message, '');
      fail(lines.join('\n'), this._isNot ? undefined : values);
    }

    // `Expected: x` / `Expected: not x` and `Received: y`.
    _plain(matcher, pass, expected, comment) {
      this._check(
        matcher,
        pass,
        'expected',
        () => [`Expected: ${this._isNot ? 'not ' : ''}${describeValue(expected)}`, `Received: ${describeValue(this._actual)}`],
        comment,
        { expected: evidenceOf(expected), received: evidenceOf(this._actual) },
      );
    }

    // `Received: y` alone, for matchers without an argument.
    _received(matcher, pass) {
      this._check(matcher, pass, '', () => [`Received: ${describeValue(this._actual)}`]);
    }

    // ---- API response assertions ----

    // `expect(response).toBeOK()`: the status is 2xx. A server error the step did not expect
    // is the app's failure, not the step code's: it is tagged so, and never healed.
    async toBeOK() {
      const response = this._actual;
      if (!(response instanceof APIResponse)) {
        throw tag(new TypeError(`toBeOK can be only used with APIResponse object (received ${describeValue(response)})`), 'script');
      }
      const pass = response.ok();
      if (pass !== this._isNot) return;
      const lines = [`expect(response)${this._isNot ? '.not' : ''}.toBeOK() failed`, ''];
      if (this._message) lines.unshift(this._message, '');
      lines.push(`Expected: ${this._isNot ? 'a status outside' : 'a status in'} 200..299`);
      lines.push(`Received: ${response.status()} ${response.statusText()}`.trimEnd());
      lines.push('', 'Call log:', `  - → ${response.url()}`, `  - ← ${response.status()} ${response.statusText()}`.trimEnd());
      const data = response._data;
      const type = response.headers()['content-type'] || '';
      if (!pass && isString(data.text) && /^text\/|json|xml|javascript|x-www-form-urlencoded/i.test(type)) {
        lines.push('', 'Response text:', data.text.length > 1000 ? `${data.text.slice(0, 1000)}…` : data.text);
      }
      const serverError = !this._isNot && response.status() >= 500 && response.status() <= 599;
      throw tag(new Error(lines.join('\n')), serverError ? 'app_error' : 'check');
    }

    // ---- locator and page assertions (web-first, retried until the timeout) ----

    async toBeAttached(options) {
      const attached = !options || options.attached === undefined || !!options.attached;
      this._web('toBeAttached', attached ? 'to.be.attached' : 'to.be.detached', {}, attached ? ['attached', 'detached'] : ['detached', 'attached'], options);
    }

    async toBeChecked(options) {
      const o = options || {};
      const expectedValue = serializeArgument({ checked: o.checked, indeterminate: o.indeterminate });
      const words = o.indeterminate ? ['indeterminate', 'determinate'] : o.checked === false ? ['unchecked', 'checked'] : ['checked', 'unchecked'];
      this._web('toBeChecked', 'to.be.checked', { expectedValue }, words, o);
    }

    async toBeDisabled(options) {
      this._web('toBeDisabled', 'to.be.disabled', {}, ['disabled', 'enabled'], options);
    }

    async toBeEditable(options) {
      const editable = !options || options.editable === undefined || !!options.editable;
      this._web('toBeEditable', editable ? 'to.be.editable' : 'to.be.readonly', {}, editable ? ['editable', 'readOnly'] : ['readOnly', 'editable'], options);
    }

    async toBeEmpty(options) {
      this._web('toBeEmpty', 'to.be.empty', {}, ['empty', 'notEmpty'], options);
    }

    async toBeEnabled(options) {
      const enabled = !options || options.enabled === undefined || !!options.enabled;
      this._web('toBeEnabled', enabled ? 'to.be.enabled' : 'to.be.disabled', {}, enabled ? ['enabled', 'disabled'] : ['disabled', 'enabled'], options);
    }

    async toBeFocused(options) {
      this._web('toBeFocused', 'to.be.focused', {}, ['focused', 'inactive'], options);
    }

    async toBeHidden(options) {
      this._web('toBeHidden', 'to.be.hidden', {}, ['hidden', 'visible'], options);
    }

    async toBeInViewport(options) {
      const o = options || {};
      this._web('toBeInViewport', 'to.be.in.viewport', { expectedNumber: o.ratio }, ['in viewport', 'outside viewport'], o);
    }

    async toBeVisible(options) {
      const visible = !options || options.visible === undefined || !!options.visible;
      this._web('toBeVisible', visible ? 'to.be.visible' : 'to.be.hidden', {}, visible ? ['visible', 'hidden'] : ['hidden', 'visible'], options);
    }

    async toContainClass(expected, options) {
      if (Array.isArray(expected)) {
        this._web('toContainClass', 'to.contain.class.array', { expectedText: expectedTexts(expected, {}) }, describeValue(expected), options);
      } else {
        if (!isString(expected)) throw tag(new TypeError('"expected" argument in toContainClass cannot be a RegExp value'), 'script');
        this._web('toContainClass', 'to.contain.class', { expectedText: expectedTexts([expected], {}) }, describeValue(expected), options);
      }
    }

    async toContainText(expected, options) {
      const o = options || {};
      const flags = { matchSubstring: true, normalizeWhiteSpace: true, ignoreCase: o.ignoreCase };
      if (Array.isArray(expected)) {
        this._web('toContainText', 'to.contain.text.array', { expectedText: expectedTexts(expected, flags), useInnerText: o.useInnerText }, describeValue(expected), o);
      } else {
        this._web('toContainText', 'to.have.text', { expectedText: expectedTexts([expected], flags), useInnerText: o.useInnerText }, describeValue(expected), o);
      }
    }

    async toHaveAccessibleDescription(expected, options) {
      const o = options || {};
      const expectedText = expectedTexts([expected], { ignoreCase: o.ignoreCase, normalizeWhiteSpace: true });
      this._web('toHaveAccessibleDescription', 'to.have.accessible.description', { expectedText }, describeValue(expected), o);
    }

    async toHaveAccessibleErrorMessage(expected, options) {
      const o = options || {};
      const expectedText = expectedTexts([expected], { ignoreCase: o.ignoreCase, normalizeWhiteSpace: true });
      this._web('toHaveAccessibleErrorMessage', 'to.have.accessible.error.message', { expectedText }, describeValue(expected), o);
    }

    async toHaveAccessibleName(expected, options) {
      const o = options || {};
      const expectedText = expectedTexts([expected], { ignoreCase: o.ignoreCase, normalizeWhiteSpace: true });
      this._web('toHaveAccessibleName', 'to.have.accessible.name', { expectedText }, describeValue(expected), o);
    }

    async toHaveAttribute(name, expected, options) {
      if (expected === undefined || (expected !== null && typeof expected === 'object' && !isRegExp(expected))) {
        this._web('toHaveAttribute', 'to.have.attribute', { expressionArg: name }, undefined, expected);
        return;
      }
      const o = options || {};
      this._web(
        'toHaveAttribute',
        'to.have.attribute.value',
        { expressionArg: name, expectedText: expectedTexts([expected], { ignoreCase: o.ignoreCase }) },
        describeValue(expected),
        o,
      );
    }

    async toHaveClass(expected, options) {
      if (Array.isArray(expected)) {
        this._web('toHaveClass', 'to.have.class.array', { expectedText: expectedTexts(expected, {}) }, describeValue(expected), options);
      } else {
        this._web('toHaveClass', 'to.have.class', { expectedText: expectedTexts([expected], {}) }, describeValue(expected), options);
      }
    }

    async toHaveCount(count, options) {
      this._web('toHaveCount', 'to.have.count', { expectedNumber: count }, String(count), options);
    }

    async toHaveCSS(name, expected, options) {
      const o = options || {};
      this._web('toHaveCSS', 'to.have.css', { expressionArg: name, expectedText: expectedTexts([expected], {}), pseudo: o.pseudo }, describeValue(expected), o);
    }

    async toHaveId(id, options) {
      this._web('toHaveId', 'to.have.id', { expectedText: expectedTexts([id], {}) }, describeValue(id), options);
    }

    async toHaveJSProperty(name, value, options) {
      this._web('toHaveJSProperty', 'to.have.property', { expressionArg: name, expectedValue: serializeArgument(value) }, describeValue(value), options);
    }

    async toHaveRole(role, options) {
      if (!isString(role)) throw tag(new TypeError('"role" argument in toHaveRole must be a string'), 'script');
      this._web('toHaveRole', 'to.have.role', { expectedText: expectedTexts([role], {}) }, describeValue(role), options);
    }

    async toHaveText(expected, options) {
      const o = options || {};
      const flags = { normalizeWhiteSpace: true, ignoreCase: o.ignoreCase };
      if (Array.isArray(expected)) {
        this._web('toHaveText', 'to.have.text.array', { expectedText: expectedTexts(expected, flags), useInnerText: o.useInnerText }, describeValue(expected), o);
      } else {
        this._web('toHaveText', 'to.have.text', { expectedText: expectedTexts([expected], flags), useInnerText: o.useInnerText }, describeValue(expected), o);
      }
    }

    async toHaveValue(expected, options) {
      this._web('toHaveValue', 'to.have.value', { expectedText: expectedTexts([expected], {}) }, describeValue(expected), options);
    }

    async toHaveValues(expected, options) {
      if (!Array.isArray(expected)) throw tag(new TypeError('toHaveValues: expected an array of strings or RegExps'), 'script');
      this._web('toHaveValues', 'to.have.values', { expectedText: expectedTexts(expected, {}) }, describeValue(expected), options);
    }

    async toMatchAriaSnapshot(expected, options) {
      if (!isString(expected)) throw tag(new TypeError('toMatchAriaSnapshot: expected an aria snapshot (a YAML string)'), 'script');
      const template = unshiftSnapshot(expected);
      this._web('toMatchAriaSnapshot', 'to.match.aria', { expectedValue: serializeArgument(template) }, template, options);
    }

    async toHaveURL(expected, options) {
      const o = options || {};
      const target = isString(expected) ? call(this._actual instanceof Page ? this._actual._id : 0, 'page.resolveUrl', { url: expected }) : expected;
      this._web('toHaveURL', 'to.have.url', { expectedText: expectedTexts([target], { ignoreCase: o.ignoreCase }) }, describeValue(target), o);
    }

    async toHaveTitle(expected, options) {
      this._web('toHaveTitle', 'to.have.title', { expectedText: expectedTexts([expected], { normalizeWhiteSpace: true }) }, describeValue(expected), options);
    }

    // `expect(page | locator).toHaveScreenshot([name], options)`: the driver compares the page
    // with the test's baseline for this step (see screenshots.rs), with Playwright Test's
    // defaults: animations stopped, the caret hidden, CSS pixels.
    async toHaveScreenshot(name, options) {
      const actual = this._actual;
      const isPage = actual instanceof Page;
      if (!isPage && !(actual instanceof Locator)) {
        throw tag(new TypeError('toHaveScreenshot can be only used with Page or Locator objects'), 'script');
      }
      const named = isString(name) || Array.isArray(name);
      const o = (named ? options : name) || {};
      const page = isPage ? actual : actual._page;
      const params = {
        isNot: this._isNot,
        timeout: page._timeoutOf(o),
        animations: o.animations === undefined ? 'disabled' : o.animations,
        caret: o.caret === undefined ? 'hide' : o.caret,
        scale: o.scale === undefined ? 'css' : o.scale,
      };
      if (named) params.name = Array.isArray(name) ? name.join('-') : name;
      for (const key of ['maxDiffPixels', 'maxDiffPixelRatio', 'threshold', 'omitBackground', 'maskColor', 'style']) {
        if (o[key] !== undefined) params[key] = o[key];
      }
      if (isPage) {
        if (o.fullPage !== undefined) params.fullPage = o.fullPage;
        if (o.clip !== undefined) params.clip = o.clip;
      } else {
        if (o.fullPage !== undefined || o.clip !== undefined) {
          throw tag(new TypeError('toHaveScreenshot: fullPage and clip apply to a page, not a locator'), 'script');
        }
        params.selector = actual._selector;
      }
      if (o.mask !== undefined) {
        if (!Array.isArray(o.mask) || o.mask.some((m) => !(m instanceof Locator))) {
          throw tag(new TypeError('toHaveScreenshot: mask must be an array of locators'), 'script');
        }
        params.mask = o.mask.map((m) => m._selector);
      }
      const reply = exchange(page._id, 'page.expectScreenshot', params);
      if (reply.error) this._hostFailure(reply.error, `${this._isNot ? '.not' : ''}.toHaveScreenshot(${named ? 'expected' : ''})`);
    }

    // `expect(page | locator).toHaveNoAccessibilityViolations(options)`: axe-core runs on the
    // page (or the locator's elements) and every violation fails the check, except those below
    // the `impact` floor and the rules prettyplay.toml accepts (see accessibility.rs). A check
    // that passes when violations exist would hide defects, so `.not` is refused.
    async toHaveNoAccessibilityViolations(options) {
      const actual = this._actual;
      const isPage = actual instanceof Page;
      if (!isPage && !(actual instanceof Locator)) {
        throw tag(new TypeError('toHaveNoAccessibilityViolations can be only used with Page or Locator objects'), 'script');
      }
      if (this._isNot) {
        throw tag(new TypeError('toHaveNoAccessibilityViolations cannot be negated: a check that passes when violations exist would hide them'), 'script');
      }
      const o = options || {};
      const selectors = (key) => {
        const value = o[key] === undefined ? [] : o[key];
        const list = Array.isArray(value) ? value : [value];
        if (list.some((s) => !isString(s))) {
          throw tag(new TypeError(`toHaveNoAccessibilityViolations: ${key} must be a CSS selector or an array of them`), 'script');
        }
        return list;
      };
      const known = ['include', 'exclude', 'rules', 'impact', 'timeout'];
      for (const key of Object.keys(o)) {
        if (!known.includes(key)) throw tag(new TypeError(`toHaveNoAccessibilityViolations: unknown option ${key} (options: ${known.join(', ')})`), 'script');
      }
      const page = isPage ? actual : actual._page;
      const params = { include: selectors('include'), exclude: selectors('exclude'), rules: selectors('rules'), timeout: page._timeoutOf(o) };
      if (o.impact !== undefined) params.impact = o.impact;
      if (!isPage) {
        if (params.include.length) throw tag(new TypeError('toHaveNoAccessibilityViolations: include applies to a page; a locator is its own scope'), 'script');
        params.selector = actual._selector;
      }
      const reply = exchange(page._id, 'page.checkAccessibility', params);
      if (reply.error) this._hostFailure(reply.error, '.toHaveNoAccessibilityViolations()');
    }

    // Throws the failure of a matcher the host decided (`error` is its reply's): the matcher's
    // call (`call` is what follows `expect(page)`), the custom message, the locator, the host's
    // message and the driver's call log. A bare error is thrown as the host wrote it, because
    // its message starts with its own label (CONFIGURATION ERROR for a missing baseline).
    _hostFailure(error, call) {
      if (error.bare) throw tag(new Error(error.message), error.kind);
      const isPage = this._actual instanceof Page;
      const lines = [`expect(${isPage ? 'page' : 'locator'})${call} failed`, ''];
      if (this._message) lines.unshift(this._message, '');
      if (!isPage) lines.push(`Locator:  ${this._actual._desc}`);
      lines.push(error.message);
      const log = (error.log || []).map((l) => l.replace(ANSI, ''));
      if (log.length) lines.push('', 'Call log:', ...log.map((l) => (l.startsWith('  ') ? l : '  ' + l)));
      throw tag(new Error(lines.join('\n')), error.kind);
    }

    // Retries the block (which may call the page) until it stops throwing.
    async toPass(options) {
      const o = options || {};
      if (typeof this._actual !== 'function') throw tag(new TypeError('toPass: expect(received) must be a function'), 'script');
      const timeout = o.timeout !== undefined ? o.timeout : config.timeout;
      const failure = await retry(this._actual, timeout, o.intervals, () => {}, false, 'expect.toPass');
      if (!failure === !this._isNot) return;
      if (this._isNot) fail('expect(received).not.toPass() failed\n\nReceived: the block passed');
      fail(`${failure.message}\n\nCall Log:\n- Timeout ${timeout}ms exceeded while waiting on the predicate`);
    }

    // ---- value assertions (evaluated at once) ----

    toBe(expected) {
      const a = this._actual;
      this._check(
        'toBe',
        Object.is(a, expected),
        'expected',
        () => (this._isNot ? [`Expected: not ${describeValue(expected)}`] : [`Expected: ${describeValue(expected)}`, `Received: ${describeValue(a)}`]),
        ' // Object.is equality',
        { expected: evidenceOf(expected), received: evidenceOf(a) },
      );
    }

    toEqual(expected) {
      this._plain('toEqual', equals(this._actual, expected, false), expected, ' // deep equality');
    }

    toStrictEqual(expected) {
      this._plain('toStrictEqual', equals(this._actual, expected, true), expected, ' // deep equality');
    }

    toContain(expected) {
      const a = this._actual;
      if (isString(a)) {
        this._check('toContain', a.includes(String(expected)), 'expected', () => [
          `Expected substring: ${this._isNot ? 'not ' : ''}${describeValue(expected)}`,
          `Received string:    ${describeValue(a)}`,
        ]);
        return;
      }
      if (a === null || a === undefined || typeof a[Symbol.iterator] !== 'function') {
        throw tag(new TypeError(`expect(received).toContain(expected)\n\nMatcher error: received value must not be null nor undefined, and must be a string or an iterable\n\nReceived has value: ${describeValue(a)}`), 'script');
      }
      const items = Array.from(a);
      this._check('toContain', items.some((item) => item === expected), 'expected', () => [
        `Expected value: ${this._isNot ? 'not ' : ''}${describeValue(expected)}`,
        `Received array: ${describeValue(items)}`,
      ], ' // indexOf');
    }

    toContainEqual(expected) {
      const a = this._actual;
      if (a === null || a === undefined || typeof a[Symbol.iterator] !== 'function') {
        throw tag(new TypeError(`expect(received).toContainEqual(expected)\n\nMatcher error: received value must be an iterable\n\nReceived has value: ${describeValue(a)}`), 'script');
      }
      const items = Array.from(a);
      this._check('toContainEqual', items.some((item) => equals(item, expected)), 'expected', () => [
        `Expected value: ${this._isNot ? 'not ' : ''}${describeValue(expected)}`,
        `Received array: ${describeValue(items)}`,
      ], ' // deep equality');
    }

    toHaveLength(expected) {
      const a = this._actual;
      if (a === null || a === undefined || typeof a.length !== 'number') {
        throw tag(new TypeError(`expect(received).toHaveLength(expected)\n\nMatcher error: received value must have a length property whose value must be a number\n\nReceived has value: ${describeValue(a)}`), 'script');
      }
      this._check('toHaveLength', a.length === expected, 'expected', () => [
        `Expected length: ${this._isNot ? 'not ' : ''}${expected}`,
        `Received length: ${a.length}`,
        `Received ${isString(a) ? 'string' : 'array'}:  ${describeValue(a)}`,
      ]);
    }

    _compare(matcher, op, pass, expected) {
      numeric(matcher, this._actual, 'received');
      numeric(matcher, expected, 'expected');
      const pad = ' '.repeat(op.length + 1);
      this._check(
        matcher,
        pass,
        'expected',
        () => [
          `Expected:${this._isNot ? ' not' : ''} ${op} ${describeValue(expected)}`,
          `Received:${this._isNot ? '    ' : ''} ${pad}${describeValue(this._actual)}`,
        ],
        '',
        { expected: `${op} ${describeValue(expected)}`, received: describeValue(this._actual) },
      );
    }

    toBeGreaterThan(expected) {
      this._compare('toBeGreaterThan', '>', this._actual > expected, expected);
    }

    toBeGreaterThanOrEqual(expected) {
      this._compare('toBeGreaterThanOrEqual', '>=', this._actual >= expected, expected);
    }

    toBeLessThan(expected) {
      this._compare('toBeLessThan', '<', this._actual < expected, expected);
    }

    toBeLessThanOrEqual(expected) {
      this._compare('toBeLessThanOrEqual', '<=', this._actual <= expected, expected);
    }

    toBeCloseTo(expected, precision) {
      const digits = precision === undefined ? 2 : precision;
      const a = this._actual;
      numeric('toBeCloseTo', a, 'received');
      numeric('toBeCloseTo', expected, 'expected');
      const limit = Math.pow(10, -digits) / 2;
      const difference = Math.abs(expected - a);
      const pass = (a === Infinity && expected === Infinity) || (a === -Infinity && expected === -Infinity) || difference < limit;
      this._check(
        'toBeCloseTo',
        pass,
        precision === undefined ? 'expected' : 'expected, precision',
        () => [
          `Expected: ${this._isNot ? 'not ' : ''}${describeValue(expected)}`,
          `Received: ${this._isNot ? '    ' : ''}${describeValue(a)}`,
          '',
          `Expected precision:    ${digits}`,
          `Expected difference: ${this._isNot ? '>=' : '<'} ${limit}`,
          `Received difference:   ${difference}`,
        ],
        '',
        { expected: describeValue(expected), received: describeValue(a) },
      );
    }

    toBeDefined() {
      this._received('toBeDefined', this._actual !== undefined);
    }

    toBeUndefined() {
      this._received('toBeUndefined', this._actual === undefined);
    }

    toBeNull() {
      this._received('toBeNull', this._actual === null);
    }

    toBeNaN() {
      this._received('toBeNaN', Number.isNaN(this._actual));
    }

    toBeTruthy() {
      this._received('toBeTruthy', !!this._actual);
    }

    toBeFalsy() {
      this._received('toBeFalsy', !this._actual);
    }

    toBeInstanceOf(expected) {
      if (typeof expected !== 'function') {
        throw tag(new TypeError(`expect(received).toBeInstanceOf(expected)\n\nMatcher error: expected value must be a function\n\nExpected has value: ${describeValue(expected)}`), 'script');
      }
      const a = this._actual;
      const constructorName = a === null || a === undefined ? describeValue(a) : Object.getPrototypeOf(Object(a)).constructor.name;
      this._check('toBeInstanceOf', a instanceof expected, 'expected', () => [
        `Expected constructor: ${this._isNot ? 'not ' : ''}${expected.name}`,
        `Received constructor: ${constructorName}`,
      ]);
    }

    toMatch(expected) {
      const a = this._actual;
      if (!isString(a)) {
        throw tag(new TypeError(`expect(received).toMatch(expected)\n\nMatcher error: received value must be a string\n\nReceived has value: ${describeValue(a)}`), 'script');
      }
      const regex = isRegExp(expected);
      const pass = regex ? new RegExp(expected.source, expected.flags).test(a) : a.includes(expected);
      this._check('toMatch', pass, 'expected', () => [
        `Expected ${regex ? 'pattern' : 'substring'}: ${this._isNot ? 'not ' : ''}${describeValue(expected)}`,
        `Received string:${regex ? '  ' : '    '}${this._isNot ? '    ' : ''}${describeValue(a)}`,
      ]);
    }

    toMatchObject(expected) {
      const a = this._actual;
      if (typeof a !== 'object' || a === null || typeof expected !== 'object' || expected === null) {
        throw tag(new TypeError(`expect(received).toMatchObject(expected)\n\nMatcher error: received and expected values must be non-null objects`), 'script');
      }
      this._plain('toMatchObject', matchesSubset(a, expected), expected);
    }

    toHaveProperty(path, value) {
      const a = this._actual;
      if (a === null || a === undefined) {
        throw tag(new TypeError(`expect(received).toHaveProperty(path)\n\nMatcher error: received value must not be null nor undefined\n\nReceived has value: ${describeValue(a)}`), 'script');
      }
      const parts = propertyPath(path);
      let target = a;
      let depth = 0;
      for (; depth < parts.length; depth++) {
        if (target === null || target === undefined || !(parts[depth] in Object(target))) break;
        target = target[parts[depth]];
      }
      const found = depth === parts.length;
      const withValue = arguments.length > 1;
      const pass = found && (!withValue || equals(target, value));
      this._check('toHaveProperty', pass, withValue ? 'path, value' : 'path', () => {
        const lines = [`Expected path: ${this._isNot ? 'not ' : ''}${describeValue(path)}`];
        if (!found) lines.push(`Received path: ${describeValue(Array.isArray(path) ? parts.slice(0, depth) : parts.slice(0, depth).join('.'))}`);
        if (withValue) lines.push('', `Expected value: ${this._isNot ? 'not ' : ''}${describeValue(value)}`);
        if (found) lines.push(`Received value: ${describeValue(target)}`);
        return lines;
      });
    }

    toThrow(expected) {
      let thrown = null;
      if (this._modifier === '.rejects') {
        thrown = { value: this._actual };
      } else {
        if (typeof this._actual !== 'function') {
          throw tag(new TypeError(`expect(received).toThrow(expected)\n\nMatcher error: received value must be a function\n\nReceived has value: ${describeValue(this._actual)}`), 'script');
        }
        try {
          this._actual();
        } catch (e) {
          thrown = { value: e };
        }
      }
      const error = thrown && thrown.value;
      const message = error && typeof error === 'object' && 'message' in error ? String(error.message) : String(error);
      const args = expected === undefined ? '' : 'expected';
      let pass;
      let detail;
      if (!thrown) {
        pass = false;
      } else if (expected === undefined) {
        pass = true;
      } else if (isString(expected)) {
        pass = message.includes(expected);
        detail = [`Expected substring: ${this._isNot ? 'not ' : ''}${describeValue(expected)}`];
      } else if (isRegExp(expected)) {
        pass = new RegExp(expected.source, expected.flags).test(message);
        detail = [`Expected pattern: ${this._isNot ? 'not ' : ''}${describeValue(expected)}`];
      } else if (typeof expected === 'function') {
        pass = error instanceof expected;
        detail = [`Expected constructor: ${this._isNot ? 'not ' : ''}${expected.name}`, `Received constructor: ${error && error.constructor ? error.constructor.name : describeValue(error)}`];
      } else if (isAsymmetric(expected)) {
        pass = expected.asymmetricMatch(error);
        detail = [`Expected asymmetric matcher: ${this._isNot ? 'not ' : ''}${expected}`];
      } else {
        pass = message === String(expected && expected.message);
        detail = [`Expected message: ${this._isNot ? 'not ' : ''}${describeValue(String(expected && expected.message))}`];
      }
      this._check('toThrow', pass, args, () => {
        if (!thrown) return [this._modifier === '.rejects' ? 'Received promise resolved instead of rejected' : 'Received function did not throw'];
        const lines = detail ? detail.slice() : [`Error name:    ${describeValue(error && error.name)}`];
        lines.push(`${detail ? 'Received message:' : 'Error message:'} ${describeValue(message)}`);
        return lines;
      });
    }

    toThrowError(expected) {
      this.toThrow(expected);
    }
  }

  // Matchers that compare a plain value (everything but the web-first ones); `expect.poll` and
  // `.resolves` / `.rejects` offer these.
  const VALUE_MATCHERS = Object.getOwnPropertyNames(Expect.prototype).filter((name) => {
    if (name === 'constructor' || name.startsWith('_') || name === 'toPass') return false;
    const d = Object.getOwnPropertyDescriptor(Expect.prototype, name);
    return typeof d.value === 'function' && !String(d.value).startsWith('async ');
  });

  function parametersOf(fn) {
    const match = String(fn).match(/^[^(]*\(([^)]*)\)/);
    return match ? match[1].replace(/\s+/g, ' ').trim() : '';
  }

  // `expect(promise).resolves` / `.rejects`: the matcher runs on the settled value.
  class SettledExpect {
    constructor(promise, isNot, message, mode) {
      this._promise = promise;
      this._isNot = isNot;
      this._message = message;
      this._mode = mode;
    }

    get not() {
      return new SettledExpect(this._promise, !this._isNot, this._message, this._mode);
    }
  }

  for (const name of VALUE_MATCHERS) {
    const method = async function (...args) {
      const modifier = `.${this._mode}`;
      let settled;
      try {
        settled = { value: await this._promise };
      } catch (error) {
        settled = { error };
      }
      const header = `expect(received)${modifier}${this._isNot ? '.not' : ''}.${name}()`;
      if (this._mode === 'resolves' && settled.error !== undefined) {
        fail(`${header}\n\nReceived promise rejected instead of resolved\nRejected to value: ${describeValue(settled.error)}`);
      }
      if (this._mode === 'rejects' && !('error' in settled)) {
        fail(`${header}\n\nReceived promise resolved instead of rejected\nResolved to value: ${describeValue(settled.value)}`);
      }
      const actual = this._mode === 'rejects' ? settled.error : settled.value;
      return new Expect(actual, this._isNot, this._message, modifier)[name](...args);
    };
    Object.defineProperty(method, 'parameters', { value: parametersOf(Expect.prototype[name]) });
    SettledExpect.prototype[name] = method;
  }

  // Calls `block` until it stops throwing (or only matcher failures, with `onlyChecks`), waiting
  // `intervals` between tries; answers the last error when `timeout` passed, else null. Each
  // pause tells the host how long the wait `api` has lasted so far (`since`) of its whole
  // `timeout` (`total`), so that a wait which needed most of its timeout is told like a call's.
  async function retry(block, timeout, intervals, onValue, onlyChecks, api) {
    const waits = intervals && intervals.length ? intervals : [100, 250, 500, 1000];
    const started = Date.now();
    const deadline = timeout > 0 ? started + timeout : Infinity;
    for (let attempt = 0; ; attempt++) {
      try {
        onValue(await block());
        return null;
      } catch (error) {
        if (onlyChecks && !(error && error[KIND] === 'check')) throw error;
        const left = deadline - Date.now();
        if (left <= 0) return error;
        const pause = { waitTimeout: Math.min(waits[Math.min(attempt, waits.length - 1)], left) };
        if (timeout > 0) Object.assign(pause, { total: timeout, since: Date.now() - started, waiting: api });
        call(0, 'frame.waitForTimeout', pause);
      }
    }
  }

  // `expect.poll(fn, { timeout, intervals })`: `fn` (which may call the page) is re-evaluated
  // until the matcher passes or the timeout passes.
  class PollExpect {
    constructor(fn, options, isNot, message) {
      this._fn = fn;
      this._options = options || {};
      this._isNot = isNot;
      this._message = message;
    }

    get not() {
      return new PollExpect(this._fn, this._options, !this._isNot, this._message);
    }
  }

  for (const name of VALUE_MATCHERS) {
    const method = async function (...args) {
      const timeout = this._options.timeout !== undefined ? this._options.timeout : config.timeout;
      const check = (value) => new Expect(value, this._isNot, this._message)[name](...args);
      const failure = await retry(() => this._fn(), timeout, this._options.intervals, check, true, 'expect.poll');
      if (failure) fail(`${failure.message}\n\nCall Log:\n- Timeout ${timeout}ms exceeded while waiting on the predicate`);
    };
    Object.defineProperty(method, 'parameters', { value: parametersOf(Expect.prototype[name]) });
    PollExpect.prototype[name] = method;
  }

  function expect(actual, messageOrOptions) {
    const message = isString(messageOrOptions) ? messageOrOptions : messageOrOptions && messageOrOptions.message;
    return new Expect(actual, false, message);
  }

  expect.poll = (fn, options) => {
    if (typeof fn !== 'function') throw tag(new TypeError('expect.poll: expected a function'), 'script');
    const o = options || {};
    return new PollExpect(fn, o, false, o.message);
  };
  expect.any = (constructor) =>
    new AsymmetricMatcher('Any', constructor, (other) => {
      if (constructor === String) return typeof other === 'string' || other instanceof String;
      if (constructor === Number) return typeof other === 'number' || other instanceof Number;
      if (constructor === Boolean) return typeof other === 'boolean' || other instanceof Boolean;
      if (constructor === Function) return typeof other === 'function';
      if (constructor === Object) return typeof other === 'object' && other !== null;
      if (constructor === BigInt) return typeof other === 'bigint';
      return other instanceof constructor;
    });
  expect.anything = () => new AsymmetricMatcher('Anything', undefined, (other) => other !== null && other !== undefined);
  expect.arrayContaining = (sample) =>
    new AsymmetricMatcher('ArrayContaining', sample, (other) => Array.isArray(other) && sample.every((s) => other.some((o) => equals(o, s))));
  expect.objectContaining = (sample) =>
    new AsymmetricMatcher(
      'ObjectContaining',
      sample,
      (other) => typeof other === 'object' && other !== null && Object.keys(sample).every((k) => k in other && equals(other[k], sample[k])),
    );
  expect.stringContaining = (sample) => new AsymmetricMatcher('StringContaining', sample, (other) => isString(other) && other.includes(sample));
  expect.stringMatching = (sample) =>
    new AsymmetricMatcher('StringMatching', sample, (other) => isString(other) && (isRegExp(sample) ? new RegExp(sample.source, sample.flags) : new RegExp(sample)).test(other));
  expect.closeTo = (sample, precision) =>
    new AsymmetricMatcher('NumberCloseTo', sample, (other) => typeof other === 'number' && Math.abs(sample - other) < Math.pow(10, -(precision === undefined ? 2 : precision)) / 2);

  // ---- globals ------------------------------------------------------------------------------

  const sandboxed = (name, why) =>
    function () {
      refuse(name, why);
    };

  const console = {};
  for (const level of ['log', 'info', 'warn', 'error', 'debug']) {
    console[level] = (...args) => hostLog(level, args.map((a) => (isString(a) ? a : describeValue(a))).join(' '));
  }

  const globals = {
    expect,
    request: theRequest,
    console,
    TimeoutError,
    require: sandboxed('require()', NO_IO),
    fetch: sandboxed('fetch()', `${NO_IO}; send HTTP requests with request.get(url) or page.request.post(url, { data })`),
    XMLHttpRequest: sandboxed('XMLHttpRequest', NO_IO),
    WebSocket: sandboxed('WebSocket', NO_IO),
    setTimeout: sandboxed('setTimeout()', 'no timers; web-first assertions and locators wait by themselves'),
    setInterval: sandboxed('setInterval()', 'no timers; web-first assertions and locators wait by themselves'),
  };
  for (const name of Object.keys(globals)) {
    Object.defineProperty(globalThis, name, { value: globals[name], writable: false, configurable: false });
  }
  // `vars`: the scenario's variables (`${NAME}`, `<column>`), frozen. Reading a name that has
  // no value is a script error naming it, not a silent `undefined` typed into the page.
  const varValues = Object.freeze(Object.assign(Object.create(null), config.vars || {}));
  // A Gherkin data table (`vars.dataTable`) is an array of rows: frozen all the way down.
  for (const value of Object.values(varValues)) {
    if (Array.isArray(value)) {
      value.forEach(Object.freeze);
      Object.freeze(value);
    }
  }
  const QUIET_KEYS = ['then', 'toJSON', 'toString', 'valueOf', 'constructor', 'inspect'];
  // Every way to a value of the proxy passes `get` or `getOwnPropertyDescriptor`: a read of
  // a var that holds a secret of the run tells the host that step code was given it.
  const secretVars = new Set(config.secretVars || []);
  const secretRead = config.secretRead;
  const noteRead = (key) => {
    if (typeof key === 'string' && secretVars.has(key)) secretRead();
  };
  const vars = new Proxy(varValues, {
    getOwnPropertyDescriptor(target, key) {
      noteRead(key);
      return Reflect.getOwnPropertyDescriptor(target, key);
    },
    get(target, key) {
      noteRead(key);
      if (typeof key !== 'string' || key in target || QUIET_KEYS.includes(key)) {
        return target[key];
      }
      const known = Object.keys(target);
      throw new TypeError(
        `vars.${key} has no value: the step names no \${${key}} or <${key}>` +
          (known.length ? ` (vars has: ${known.join(', ')})` : ' (vars is empty)'),
      );
    },
    set(target, key) {
      throw new TypeError(`vars is frozen: step code cannot set vars.${String(key)}`);
    },
    deleteProperty(target, key) {
      throw new TypeError(`vars is frozen: step code cannot delete vars.${String(key)}`);
    },
  });
  Object.defineProperty(globalThis, 'vars', { value: vars, writable: false, configurable: false });
  Object.defineProperty(globalThis, 'process', {
    get() {
      refuse('process', NO_IO);
    },
    configurable: false,
  });

  // The step's page, and every class step code can reach: the API listing (`prettyplay api`,
  // docs/step-api.md, the LLM's cheat sheet) is generated from these, so it cannot drift.
  return {
    page: pageFor(0),
    api: {
      page: Page,
      locator: Locator,
      frameLocator: FrameLocator,
      keyboard: Keyboard,
      mouse: Mouse,
      expect: Expect,
      dialog: Dialog,
      download: Download,
      browserContext: BrowserContext,
      response: Response,
      apiRequestContext: APIRequestContext,
      apiResponse: APIResponse,
      jsHandle: JSHandle,
    },
  };
});
