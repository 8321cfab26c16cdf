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

  function tag(error, kind) {
    Object.defineProperty(error, KIND, { value: kind, enumerable: false });
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
    let reply = JSON.parse(host(pageId, method, JSON.stringify(params === undefined ? {} : params)));
    deliver(reply.events);
    // A parked call: a dialog it opened went to a listener, which just ran; carry on.
    while (reply.parked !== undefined) {
      reply = JSON.parse(host(pageId, 'call.resume', JSON.stringify({ id: reply.parked })));
      deliver(reply.events);
    }
    if (reply.error) {
      const { kind } = reply.error;
      let message = api ? `${api}: ${reply.error.message}` : reply.error.message;
      if (waitingFor && kind === 'timeout') message += `\nCall log:\n  - waiting for ${waitingFor}`;
      const error = kind === 'timeout' ? new TimeoutError(message) : new Error(message);
      throw tag(error, kind);
    }
    return reply.value;
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

  function fail(message) {
    throw tag(new Error(message), 'check');
  }

  function refuse(what, why) {
    const error = new Error(`${what} is not available in step code: ${why}`);
    throw tag(error, 'script');
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

  function describeValue(v) {
    if (isString(v)) return JSON.stringify(v);
    if (isRegExp(v)) return String(v);
    if (v === undefined) return 'undefined';
    if (typeof v === 'function') return '[Function]';
    try {
      const json = JSON.stringify(v);
      return json === undefined ? String(v) : json;
    } catch (_) {
      return String(v);
    }
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
        const inner = this._selector + ' >> internal:chain=' + JSON.stringify(selectorOrLocator._selector);
        return new Locator(this._page, inner, `${this._desc}.locator(${selectorOrLocator._desc})`)._narrow(
          filterSelector(options),
          '',
        );
      }
      return this._derive(selectorOrLocator, `.locator(${quote(selectorOrLocator)}${describeOptions(options)})`)._narrow(
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

    // Actions: each is one protocol call on the page's main frame, strict like Playwright's.
    _act(method, params, options) {
      const merged = Object.assign({ selector: this._selector, strict: true }, options || {}, params || {});
      merged.timeout = this._page._timeoutOf(options);
      const api = 'locator.' + (params && params.value === '' && method === 'fill' ? 'clear' : method);
      return call(this._page._id, 'frame.' + method, merged, api, this._desc);
    }

    async click(options) {
      this._act('click', {}, options);
    }

    async dblclick(options) {
      this._act('dblclick', {}, options);
    }

    async fill(value, options) {
      if (!isString(value)) {
        throw tag(new TypeError(`locator.fill: value must be a string, got ${describeValue(value)}`), 'script');
      }
      this._act('fill', { value }, options);
    }

    async clear(options) {
      this._act('fill', { value: '' }, options);
    }

    async press(key, options) {
      this._act('press', { key }, options);
    }

    async check(options) {
      this._act('check', {}, options);
    }

    async uncheck(options) {
      this._act('uncheck', {}, options);
    }

    async hover(options) {
      this._act('hover', {}, options);
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

    async count() {
      return call(this._page._id, 'frame.queryCount', { selector: this._selector }).value;
    }

    async textContent(options) {
      const v = this._act('textContent', {}, options).value;
      return v === undefined ? null : v;
    }

    async innerText(options) {
      return this._act('innerText', {}, options).value;
    }

    async inputValue(options) {
      return this._act('inputValue', {}, options).value;
    }

    async isVisible() {
      return call(this._page._id, 'frame.isVisible', { selector: this._selector, strict: true }).value;
    }

    async isChecked(options) {
      return this._act('isChecked', {}, options).value;
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
      const inner = selectorOrLocator instanceof Locator ? selectorOrLocator._selector : selectorOrLocator;
      return this._inner(inner, `.locator(${quote(inner)}${describeOptions(options)})`)._narrow(filterSelector(options), '');
    }

    frameLocator(selector) {
      return new FrameLocator(
        this._page,
        `${this._frameSelector} >> internal:control=enter-frame >> ${selector}`,
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
    return new FrameLocator(this._page, this._selector + ' >> ' + selector, `${this._desc}.frameLocator(${quote(selector)})`);
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

    async press(key, options) {
      call(this._page._id, 'page.keyboardPress', { key, delay: options && options.delay });
    }

    async type(text, options) {
      call(this._page._id, 'page.keyboardType', { text, delay: options && options.delay });
    }
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

  class BrowserContext {
    pages() {
      return call(0, 'context.pages', {}).map(pageFor);
    }

    async close() {
      refuse('context.close()', 'the runtime owns the context lifecycle');
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

  class Page {
    constructor(id) {
      this._id = id;
      this.keyboard = new Keyboard(this);
    }

    context() {
      return theContext;
    }

    // `page.waitForEvent(event)` starts waiting at once and returns a thenable: awaiting it
    // blocks until the event happened (or the timeout passes).
    waitForEvent(event, optionsOrPredicate) {
      checkEvent('page.waitForEvent', event);
      const options = typeof optionsOrPredicate === 'function' ? { predicate: optionsOrPredicate } : optionsOrPredicate || {};
      const timeout = this._timeoutOf(options);
      const { waiter } = call(this._id, 'page.waitForEvent', { event });
      const page = this;
      let settled;
      const finish = () => {
        if (!settled) {
          try {
            let value = wrapEvent(event, call(page._id, 'waiter.finish', { waiter, timeout }, 'page.waitForEvent'));
            if (options.predicate && !options.predicate(value)) {
              value = page.waitForEvent(event, { timeout, predicate: options.predicate })._finish();
            }
            settled = { value };
          } catch (error) {
            settled = { error };
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
      return this.waitForEvent('popup', options);
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

    _navigate(method, params, options) {
      const merged = Object.assign({}, params || {}, {
        waitUntil: (options && options.waitUntil) || 'load',
        timeout: options && options.timeout !== undefined ? options.timeout : config.navigationTimeout,
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

    locator(selector, options) {
      return new Locator(this, selector, `locator(${quote(selector)}${describeOptions(options)})`)._narrow(
        filterSelector(options),
        '',
      );
    }

    frameLocator(selector) {
      return new FrameLocator(this, selector, `frameLocator(${quote(selector)})`);
    }

    close() {
      refuse('page.close()', 'the runtime owns the page lifecycle');
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

  function serializeValue(v) {
    if (v === null) return { v: 'null' };
    if (v === undefined) return { v: 'undefined' };
    if (typeof v === 'boolean') return { b: v };
    if (typeof v === 'number') return Number.isFinite(v) ? { n: v } : { v: String(v) };
    if (isString(v)) return { s: v };
    if (Array.isArray(v)) return { a: v.map(serializeValue) };
    return { o: Object.keys(v).map((k) => ({ k, v: serializeValue(v[k]) })) };
  }

  const ANSI = /\u001b\[[0-9;]*m/g;

  class Expect {
    constructor(actual, isNot, message) {
      this._actual = actual;
      this._isNot = isNot;
      this._message = message;
    }

    get not() {
      return new Expect(this._actual, !this._isNot, this._message);
    }

    // A web-first assertion: one server-side `expect` call that retries until the timeout.
    _web(matcher, expression, params, expectedText, options) {
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
      const reply = JSON.parse(host(page._id, 'frame.expect', JSON.stringify(body)));
      if (!reply.error) return;
      if (reply.error.kind !== 'check') {
        const error = reply.error.kind === 'timeout' ? new TimeoutError(reply.error.message) : new Error(reply.error.message);
        throw tag(error, reply.error.kind);
      }
      const subject = isPage ? 'page' : 'locator';
      const lines = [
        `expect(${subject})${this._isNot ? '.not' : ''}.${matcher}(${expectedText === undefined ? '' : 'expected'}) failed`,
        '',
      ];
      if (this._message) lines.splice(0, 0, this._message, '');
      if (!isPage) lines.push(`Locator:  ${actual._desc}`);
      if (expectedText !== undefined) lines.push(`Expected${this._isNot ? ' not' : ''}: ${expectedText}`);
      const received = reply.error.received;
      if (received !== undefined && received !== null) lines.push(`Received: ${received}`);
      lines.push(`Timeout:  ${timeout}ms`);
      const log = (reply.error.log || []).map((l) => l.replace(ANSI, ''));
      if (log.length) lines.push('', 'Call log:', ...log.map((l) => (l.startsWith('  ') ? l : '  ' + l)));
      fail(lines.join('\n'));
    }

    // A plain value assertion, evaluated at once.
    _value(matcher, pass, expected, extra) {
      if (pass === !this._isNot) return;
      const lines = [`expect(received)${this._isNot ? '.not' : ''}.${matcher}(${expected === undefined ? '' : 'expected'})`, ''];
      if (this._message) lines.splice(0, 0, this._message, '');
      if (expected !== undefined) lines.push(`Expected${this._isNot ? ' not' : ''}: ${describeValue(expected)}`);
      lines.push(`Received: ${describeValue(this._actual)}`);
      if (extra) lines.push(extra);
      fail(lines.join('\n'));
    }

    async toBeVisible(options) {
      const visible = !options || options.visible === undefined || !!options.visible;
      this._web('toBeVisible', visible ? 'to.be.visible' : 'to.be.hidden', {}, undefined, options);
    }

    async toBeHidden(options) {
      this._web('toBeHidden', 'to.be.hidden', {}, undefined, options);
    }

    async toBeChecked(options) {
      const checked = options ? options.checked : undefined;
      const expectedValue = { value: serializeValue({ checked, indeterminate: options ? options.indeterminate : undefined }), handles: [] };
      this._web('toBeChecked', 'to.be.checked', { expectedValue }, undefined, options);
    }

    async toBeEnabled(options) {
      const enabled = !options || options.enabled === undefined || !!options.enabled;
      this._web('toBeEnabled', enabled ? 'to.be.enabled' : 'to.be.disabled', {}, undefined, options);
    }

    async toBeDisabled(options) {
      this._web('toBeDisabled', 'to.be.disabled', {}, undefined, options);
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

    async toContainText(expected, options) {
      const o = options || {};
      const flags = { matchSubstring: true, normalizeWhiteSpace: true, ignoreCase: o.ignoreCase };
      if (Array.isArray(expected)) {
        this._web('toContainText', 'to.contain.text.array', { expectedText: expectedTexts(expected, flags), useInnerText: o.useInnerText }, describeValue(expected), o);
      } else {
        this._web('toContainText', 'to.have.text', { expectedText: expectedTexts([expected], flags), useInnerText: o.useInnerText }, describeValue(expected), o);
      }
    }

    async toHaveValue(expected, options) {
      this._web('toHaveValue', 'to.have.value', { expectedText: expectedTexts([expected], {}) }, describeValue(expected), options);
    }

    async toHaveCount(count, options) {
      this._web('toHaveCount', 'to.have.count', { expectedNumber: count }, String(count), options);
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

    async toHaveURL(expected, options) {
      const o = options || {};
      const target = isString(expected) ? call(this._actual instanceof Page ? this._actual._id : 0, 'page.resolveUrl', { url: expected }) : expected;
      this._web('toHaveURL', 'to.have.url', { expectedText: expectedTexts([target], { ignoreCase: o.ignoreCase }) }, describeValue(target), o);
    }

    async toHaveTitle(expected, options) {
      this._web('toHaveTitle', 'to.have.title', { expectedText: expectedTexts([expected], { normalizeWhiteSpace: true }) }, describeValue(expected), options);
    }

    toBe(expected) {
      this._value('toBe', Object.is(this._actual, expected), expected);
    }

    toEqual(expected) {
      this._value('toEqual', deepEqual(this._actual, expected), expected);
    }

    toContain(expected) {
      const a = this._actual;
      if (!isString(a) && !Array.isArray(a)) {
        throw tag(new TypeError(`toContain: received value must be a string or an array, got ${describeValue(a)}`), 'script');
      }
      this._value('toContain', a.includes(expected), expected);
    }

    toBeGreaterThan(expected) {
      this._value('toBeGreaterThan', this._actual > expected, expected);
    }

    toBeLessThan(expected) {
      this._value('toBeLessThan', this._actual < expected, expected);
    }

    toBeTruthy() {
      this._value('toBeTruthy', !!this._actual);
    }

    toBeFalsy() {
      this._value('toBeFalsy', !this._actual);
    }

    toMatch(expected) {
      if (!isString(this._actual)) {
        throw tag(new TypeError(`toMatch: received value must be a string, got ${describeValue(this._actual)}`), 'script');
      }
      const pass = isRegExp(expected) ? new RegExp(expected.source, expected.flags).test(this._actual) : this._actual.includes(expected);
      this._value('toMatch', pass, expected);
    }
  }

  function deepEqual(a, b) {
    if (Object.is(a, b)) return true;
    if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
    if (Array.isArray(a) !== Array.isArray(b)) return false;
    if (isRegExp(a) || isRegExp(b)) return isRegExp(a) && isRegExp(b) && String(a) === String(b);
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    if (ka.length !== kb.length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }

  function expect(actual, messageOrOptions) {
    const message = isString(messageOrOptions) ? messageOrOptions : messageOrOptions && messageOrOptions.message;
    return new Expect(actual, false, message);
  }

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
    console,
    TimeoutError,
    require: sandboxed('require()', NO_IO),
    fetch: sandboxed('fetch()', NO_IO),
    XMLHttpRequest: sandboxed('XMLHttpRequest', NO_IO),
    WebSocket: sandboxed('WebSocket', NO_IO),
    setTimeout: sandboxed('setTimeout()', 'no timers; web-first assertions and locators wait by themselves'),
    setInterval: sandboxed('setInterval()', 'no timers; web-first assertions and locators wait by themselves'),
  };
  for (const name of Object.keys(globals)) {
    Object.defineProperty(globalThis, name, { value: globals[name], writable: false, configurable: false });
  }
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
      expect: Expect,
      dialog: Dialog,
      download: Download,
      browserContext: BrowserContext,
      response: Response,
    },
  };
});
