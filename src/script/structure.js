// The page's structure beyond its aria snapshot, for the built-in generator: the elements that
// carry a test id or semantic class or id words (lists, counters, fields, messages) or an inline
// context-menu handler (`oncontextmenu`), the items
// of each list, and the controls a list item or table row hides until it is hovered. Each
// element comes with the locator a Playwright engineer would keep for it: `getByTestId`, else a
// tag and one semantic class (never a hashed one), else nothing. At most MAX elements are
// listed: past it, the visible elements kept are those a sentence can name best (see `kept`),
// then the hidden ones, rows' hidden controls, current marks and loading indicators while room
// is left.
() => {
  const MAX = 400;
  const HASHED = /^(css|sc|jsx|svelte|emotion|styled|jss|tw|chakra|mui|ng|v|data|astro|s)[-_]/i;
  const words = (s) =>
    String(s || '')
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((w) => w.toLowerCase());
  // A class or id a person chose: words of letters, each with a vowel; no digits, no hash.
  // Classes that say what state an element is in, not what it is: a locator must not hang on them.
  const STATE = /^(is|has)[-_]|^(selected|active|completed|done|editing|hidden|visible|open|opened|closed|disabled|enabled|checked|current|focus|focused|hover|show|shown|collapsed|expanded|valid|invalid|dirty|pristine|touched|untouched|empty|filled|loading|loaded)$/i;
  const semantic = (name) => {
    if (!name || name.length > 40 || HASHED.test(name) || STATE.test(name)) return false;
    const parts = words(name);
    return parts.length > 0 && parts.every((w) => /^[a-z]{2,}$/.test(w) && /[aeiouy]/.test(w));
  };
  const visible = (el) => (el.checkVisibility ? el.checkVisibility() : el.getClientRects().length > 0);
  const text = (el) => (el.innerText || el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 200);
  const IMPLICIT = {
    UL: 'list', OL: 'list', LI: 'listitem', TABLE: 'table', TR: 'row', BUTTON: 'button',
    A: 'link', SELECT: 'combobox', TEXTAREA: 'textbox', H1: 'heading', H2: 'heading',
    H3: 'heading', H4: 'heading', H5: 'heading', H6: 'heading', FORM: 'form', OUTPUT: 'status',
    NAV: 'navigation', MAIN: 'main', IMG: 'img', P: 'paragraph', LABEL: 'label',
  };
  const INPUT = { checkbox: 'checkbox', radio: 'radio', button: 'button', submit: 'button',
    reset: 'button', search: 'searchbox', number: 'spinbutton', range: 'slider', hidden: '' };
  const role = (el) => {
    const own = el.getAttribute('role');
    if (own) return own.split(/\s+/)[0];
    if (el.tagName === 'INPUT') {
      const type = (el.getAttribute('type') || 'text').toLowerCase();
      return type in INPUT ? INPUT[type] : 'textbox';
    }
    return IMPLICIT[el.tagName] || 'generic';
  };
  const js = (s) => "'" + String(s).replace(/\\/g, '\\\\').replace(/'/g, "\\'").replace(/\n/g, '\\n') + "'";
  // `within.locator('tag.class')` when that finds this element alone in `within`, else null.
  const cssIn = (el, root) => {
    const tag = el.tagName.toLowerCase();
    const classes = Array.from(el.classList).filter(semantic);
    for (const c of classes) {
      const selector = tag + '.' + CSS.escape(c);
      if (root.querySelectorAll(selector).length === 1) return selector;
    }
    if (root === document && el.id && semantic(el.id)) {
      const selector = '#' + CSS.escape(el.id);
      if (document.querySelectorAll(selector).length === 1) return selector;
    }
    // A form control is also known by the name it is submitted under (`input[name="age"]`).
    const name = el.getAttribute('name');
    if (root === document && name && /^[A-Za-z_-]+$/.test(name) && semantic(name) && ['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) {
      const selector = tag + '[name="' + name + '"]';
      if (document.querySelectorAll(selector).length === 1) return selector;
    }
    return null;
  };
  // The CSS selector behind `locatorIn(el, document, 'page')`, to find the element again.
  const selectorOf = (el) => {
    const testid = el.getAttribute('data-testid');
    if (testid && document.querySelectorAll('[data-testid="' + CSS.escape(testid) + '"]').length === 1) {
      return '[data-testid="' + CSS.escape(testid) + '"]';
    }
    return cssIn(el, document);
  };
  const locatorIn = (el, root, base) => {
    const testid = el.getAttribute('data-testid');
    if (testid && root.querySelectorAll('[data-testid="' + CSS.escape(testid) + '"]').length === 1) {
      return base + '.getByTestId(' + js(testid) + ')';
    }
    const css = cssIn(el, root);
    return css ? base + '.locator(' + js(css) + ')' : null;
  };
  const named = (el) => [
    ...words(el.getAttribute('data-testid')),
    ...Array.from(el.classList).filter(semantic).flatMap(words),
    ...(semantic(el.id) ? words(el.id) : []),
    ...(el.getAttribute('name') && semantic(el.getAttribute('name')) ? words(el.getAttribute('name')) : []),
  ];
  // Elements that only mark up words of a text: a text split across them (`<span><strong>1
  // </strong><span> item</span><span> left</span></span>`, as some frameworks render one
  // sentence) is still the text of the element that holds them.
  const PHRASING = new Set(['SPAN', 'STRONG', 'EM', 'B', 'I', 'U', 'S', 'SMALL', 'MARK', 'CODE',
    'ABBR', 'SUB', 'SUP', 'TIME', 'DATA', 'Q', 'CITE', 'KBD', 'VAR', 'SAMP', 'DFN', 'BDI', 'BDO',
    'INS', 'DEL', 'BR', 'WBR']);
  const phrase = (el) => Array.from(el.children).every((c) => PHRASING.has(c.tagName) && phrase(c));
  // Whether a generic element shows a text of its own: a text node of its own, or a text made of
  // phrasing elements only. A container of blocks, lists or controls is not listed for its
  // children's texts.
  const textOfItsOwn = (el) =>
    /\S/.test(Array.from(el.childNodes).filter((n) => n.nodeType === 3).map((n) => n.textContent).join('')) ||
    (phrase(el) && /\S/.test(el.textContent || ''));
  // When the page shows more elements than MAX, the ones kept are those a sentence can name
  // best: first those with a locator of their own (a unique test id, semantic class, id or
  // name) that are controls or carry a test id, then the rest with a locator of their own, then
  // the other controls and lists, then the rest; within each, in document order. The kept ones
  // are listed in document order, as they are when all fit.
  const INTERACTIVE = new Set(['button', 'link', 'checkbox', 'radio', 'switch', 'tab', 'menuitem',
    'option', 'textbox', 'searchbox', 'combobox', 'spinbutton', 'slider', 'listbox']);
  const kept = (els) => {
    if (els.length <= MAX) return els;
    // How many elements each test id and each tag with a class, id or name has, counted once,
    // so that whether a locator is an element's own costs no query per element.
    const counts = new Map();
    const count = (key) => counts.set(key, (counts.get(key) || 0) + 1);
    const keysOf = (el) => {
      const tag = el.tagName.toLowerCase();
      const keys = Array.from(el.classList).filter(semantic).map((c) => 'class ' + tag + '.' + c);
      if (el.getAttribute('data-testid')) keys.push('testid ' + el.getAttribute('data-testid'));
      if (el.id && semantic(el.id)) keys.push('id ' + el.id);
      if (el.getAttribute('name')) keys.push('name ' + tag + ' ' + el.getAttribute('name'));
      return keys;
    };
    for (const el of all) keysOf(el).forEach(count);
    const rank = (el) => {
      const own = keysOf(el).some((key) => counts.get(key) === 1);
      const control = INTERACTIVE.has(role(el));
      if (own && (control || el.hasAttribute('data-testid'))) return 0;
      if (own) return 1;
      if (control || role(el) === 'list') return 2;
      return 3;
    };
    const order = els.map((el, at) => [rank(el), at]);
    order.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    return order.slice(0, MAX).map(([, at]) => at).sort((a, b) => a - b).map((at) => els[at]);
  };
  const out = [];
  const seen = new Set();
  // The page's own elements shown earlier in this document, by selector: an app that removes
  // an element instead of hiding it (a footer rendered only while there are todos) leaves
  // nothing else to check it is gone by. The memory lives as long as the document does, so a
  // reload or a new page starts with none.
  const MEMORY = Symbol.for('prettyplay.structure.shown');
  if (!window[MEMORY]) Object.defineProperty(window, MEMORY, { value: new Map() });
  const memory = window[MEMORY];
  const remember = (el, record) => {
    if (!record.locator || !record.visible || record.row || memory.size >= MAX) return;
    if (el.closest('li, tr, [role=listitem], [role=row]')) return;
    const selector = selectorOf(el);
    if (selector) memory.set(selector, { ...record, items: undefined });
  };
  const add = (el, extra) => {
    if (out.length >= MAX || seen.has(el)) return;
    seen.add(el);
    const locator = locatorIn(el, document, 'page');
    const r = role(el);
    const record = {
      role: r,
      tag: el.tagName.toLowerCase(),
      words: Array.from(new Set(named(el))),
      locator,
      text: text(el),
      visible: visible(el),
      placeholder: el.getAttribute('placeholder') || null,
      label: el.getAttribute('aria-label') || el.getAttribute('title') || null,
      ...(el.hasAttribute('oncontextmenu') ? { contextmenu: true } : {}),
      ...extra,
    };
    if (r === 'list') {
      const items = Array.from(el.children).filter((c) => c.tagName === 'LI' || c.getAttribute('role') === 'listitem');
      record.items = items.filter(visible).map((item) => text(item));
    }
    out.push(record);
    remember(el, record);
  };
  const all = document.body ? document.body.querySelectorAll('*') : [];
  // The elements the page hides now and that a later act may show (a footer shown once there
  // is a todo, a toggle-all control): listed after every visible one, so they never crowd one
  // out, and only when the page gives them a locator of their own.
  const hiddenOnes = [];
  const candidates = [];
  const SECTIONING = new Set(['HEADER', 'FOOTER', 'SECTION', 'ASIDE', 'NAV', 'MAIN', 'ARTICLE', 'DIALOG', 'FORM']);
  for (const el of all) {
    if (['SCRIPT', 'STYLE', 'TEMPLATE', 'NOSCRIPT', 'SVG', 'PATH'].includes(el.tagName.toUpperCase())) continue;
    const r = role(el);
    // An element with a context menu of its own is what a right-click is meant for.
    const interesting = el.hasAttribute('data-testid') || r === 'list' || el.hasAttribute('oncontextmenu') ||
      (named(el).length > 0 && (r !== 'generic' || el.children.length === 0 || textOfItsOwn(el)));
    const shown = visible(el);
    // A named section the page hides now (a footer shown once there is a todo) is what a check
    // that it is hidden means, whatever it holds.
    const hiddenSection = !shown && SECTIONING.has(el.tagName) && named(el).length > 0;
    if (shown && !interesting && SECTIONING.has(el.tagName) && named(el).length > 0) {
      // A shown section is not listed (its children are), but remembered for when it is gone.
      const locator = locatorIn(el, document, 'page');
      remember(el, { role: role(el), tag: el.tagName.toLowerCase(), words: Array.from(new Set(named(el))), locator, text: text(el), visible: true, placeholder: null, label: null });
      continue;
    }
    if (!interesting && !hiddenSection) continue;
    if (shown) candidates.push(el);
    else if (hiddenOnes.length < 100 && !(el.tagName === 'INPUT' && (el.getAttribute('type') || '').toLowerCase() === 'hidden')) hiddenOnes.push(el);
  }
  for (const el of kept(candidates)) add(el, {});
  for (const el of hiddenOnes) {
    if (out.length >= MAX) break;
    // A control in a row is listed below with its row; these are the page's own.
    if (el.closest('li, tr, [role=listitem], [role=row]')) continue;
    const locator = locatorIn(el, document, 'page');
    if (locator) add(el, { hidden: true });
  }
  // The elements shown earlier in this document that are no longer in it, listed as hidden
  // ones: a check that one is hidden reads the element the page showed.
  for (const [selector, record] of memory) {
    if (out.length >= MAX) break;
    if (document.querySelector(selector)) continue;
    out.push({ ...record, visible: false, hidden: true });
  }
  // The controls of each visible row that show only on hover (or focus).
  const rows = Array.from(document.querySelectorAll('li, tr, [role=listitem], [role=row]')).filter(visible);
  for (const row of rows.slice(0, 200)) {
    for (const control of row.querySelectorAll('button, a[href], input, [role=button]')) {
      if (out.length >= MAX) break;
      if (visible(control)) continue;
      const own = control.closest('li, tr, [role=listitem], [role=row]');
      if (own !== row) continue;
      const inRow = locatorIn(control, row, 'ROW');
      out.push({
        role: role(control),
        tag: control.tagName.toLowerCase(),
        words: Array.from(new Set(named(control))),
        locator: inRow,
        text: text(control),
        visible: false,
        placeholder: control.getAttribute('placeholder') || null,
        label: control.getAttribute('aria-label') || control.getAttribute('title') || null,
        row: text(row),
      });
    }
  }
  // The controls of a group (the links of a list or nav, the tabs of a tablist) that the page
  // marks as the current one: by aria-current, aria-selected or aria-pressed, or by a state
  // class. A mark counts only when a visible peer in the same group lacks it, because a mark
  // every control carries says nothing about which one is current.
  const CONTROLS = 'a[href], button, [role=tab], [role=link], [role=button]';
  const MARK = /^(selected|active|current)$/i;
  const marksOf = (el) => {
    const marks = [];
    const current = el.getAttribute('aria-current');
    if (current && current !== 'false') marks.push({ attribute: 'aria-current', value: current });
    for (const name of ['aria-selected', 'aria-pressed']) {
      if (el.getAttribute(name) === 'true') marks.push({ attribute: name, value: 'true' });
    }
    for (const c of el.classList) if (MARK.test(c)) marks.push({ class: c });
    return marks;
  };
  const same = (a, b) => (a.class || null) === (b.class || null) && (a.attribute || null) === (b.attribute || null) && (a.value || null) === (b.value || null);
  for (const el of document.querySelectorAll(CONTROLS)) {
    if (out.length >= MAX) break;
    if (!visible(el)) continue;
    const marks = marksOf(el);
    if (marks.length === 0) continue;
    const group = el.parentElement && el.parentElement.closest('ul, ol, nav, [role=tablist], [role=navigation], [role=list]');
    if (!group) continue;
    const peers = Array.from(group.querySelectorAll(CONTROLS)).filter((p) => p !== el && visible(p) && role(p) === role(el));
    const discriminating = marks.filter((m) => peers.some((p) => !marksOf(p).some((pm) => same(pm, m))));
    if (discriminating.length === 0) continue;
    out.push({
      role: role(el),
      tag: el.tagName.toLowerCase(),
      words: [],
      locator: null,
      text: text(el),
      visible: true,
      placeholder: null,
      label: el.getAttribute('aria-label') || el.getAttribute('title') || null,
      marks: discriminating,
      peers: peers.map((p) => ({ text: text(p), marks: marksOf(p) })),
    });
  }
  // The page's loading indicators: an element whose role is progressbar, one the page marks
  // busy, or one whose class or id is a whole word that says it shows loading. Hidden ones are
  // listed too, because a check that the indicator is gone reads the one the page has hidden.
  const INDICATOR = /^(loading|loader|spinner|progress)$/i;
  const indicators = document.body ? document.body.querySelectorAll('[id], [class], [role=progressbar], progress, [aria-busy=true]') : [];
  const bars = document.querySelectorAll('[role=progressbar], progress').length;
  for (const el of indicators) {
    if (out.length >= MAX) break;
    const token = [el.id, ...Array.from(el.classList)].find((t) => t && INDICATOR.test(t));
    const bar = el.getAttribute('role') === 'progressbar' || el.tagName === 'PROGRESS';
    const busy = el.getAttribute('aria-busy') === 'true';
    if (!token && !bar && !busy) continue;
    const tag = el.tagName.toLowerCase();
    let locator = null;
    if (el.getAttribute('data-testid') && document.querySelectorAll('[data-testid="' + CSS.escape(el.getAttribute('data-testid')) + '"]').length === 1) {
      locator = 'page.getByTestId(' + js(el.getAttribute('data-testid')) + ')';
    } else if (bar && bars === 1) {
      locator = "page.getByRole('progressbar')";
    } else if (token && el.id === token && document.querySelectorAll('#' + CSS.escape(token)).length === 1) {
      locator = 'page.locator(' + js('#' + token) + ')';
    } else if (token && document.querySelectorAll(tag + '.' + CSS.escape(token)).length === 1) {
      locator = 'page.locator(' + js(tag + '.' + token) + ')';
    } else if (busy && document.querySelectorAll('[aria-busy=true]').length === 1) {
      locator = "page.locator('[aria-busy=\"true\"]')";
    }
    out.push({
      role: role(el),
      tag,
      words: [],
      locator,
      text: text(el),
      visible: visible(el),
      placeholder: null,
      label: el.getAttribute('aria-label') || el.getAttribute('title') || null,
      indicator: bar ? 'progressbar' : busy ? 'busy' : token.toLowerCase(),
    });
  }
  return JSON.stringify(out);
}
