// Mutations of the live page for the mutation proof (see src/script/mutation.rs). It runs in the
// browser page as a Playwright `evaluateExpression` / `evalOnSelectorAll` function: `elements` is
// what the mutation's selector matched (the whole document for a text mutation without one),
// `json` the mutation. Every change is recorded as an undo function under a symbol on the
// window, and `restore` (the same function with `{ "kind": "restore" }`) undoes them in reverse
// order, so the page's own nodes come back where they were: frameworks keep references to them.
// Each change also records whether it still holds; `{ "kind": "held" }` counts the changes the
// app has undone since (a live page that renders from state on a timer), so that a check which
// passed on them is not called vacuous. The proof leaves no trace: it never hides or removes the
// document's root, body or head, nor an element that holds the focus (taking it away fires
// `blur`, which apps answer by committing an edit); copies carry no id, checked or selected
// state; the title and the focus are set back on restore.
(elements, json) => {
  const spec = JSON.parse(json);
  const key = Symbol.for('prettyplay.proof');
  if (!window[key]) {
    Object.defineProperty(window, key, {
      value: { undo: [], held: [], title: null, focus: null },
      configurable: true,
    });
  }
  const proof = window[key];
  const undo = proof.undo;
  if (spec.kind === 'restore') {
    let undone = 0;
    while (undo.length) {
      undo.pop()();
      undone++;
    }
    proof.held.length = 0;
    if (proof.title !== null && document.title !== proof.title) document.title = proof.title;
    const focus = proof.focus;
    if (focus && focus.isConnected && document.activeElement !== focus) focus.focus({ preventScroll: true });
    proof.title = null;
    proof.focus = null;
    return undone;
  }
  if (spec.kind === 'held') {
    return proof.held.filter((holds) => !holds()).length;
  }
  if (!undo.length) {
    proof.title = document.title;
    proof.focus = document.activeElement;
  }
  const roots = elements && elements.length ? Array.from(elements) : [document];
  let changed = 0;
  const held = (holds) => proof.held.push(holds);

  // The element that has the focus, through open shadow roots; `null` when nothing does.
  function focused() {
    let active = document.activeElement;
    while (active && active.shadowRoot && active.shadowRoot.activeElement) active = active.shadowRoot.activeElement;
    return active && active !== document.body && active !== document.documentElement ? active : null;
  }
  // Whether `el` contains `node`, across open shadow roots.
  function holds(el, node) {
    for (let at = node; at; at = at.parentNode || at.host) if (at === el) return true;
    return false;
  }
  // Elements a mutation must not hide or take away.
  function untouchable(el) {
    if (el === document.documentElement || el === document.body || el === document.head) return true;
    const active = focused();
    return active !== null && holds(el, active);
  }
  // A parent's children as they are now, to tell later whether the app rendered them anew.
  const childrenOf = (parent) => Array.from(parent.childNodes);
  const same = (parent, children) =>
    parent.isConnected && parent.childNodes.length === children.length && children.every((c, i) => parent.childNodes[i] === c);
  // Takes `el` out of the page; it goes back on restore unless the app rendered its parent anew.
  function takeOut(el) {
    const parent = el.parentNode;
    const next = el.nextSibling;
    parent.removeChild(el);
    const after = childrenOf(parent);
    undo.push(() => {
      if (same(parent, after) && (next === null || next.parentNode === parent)) parent.insertBefore(el, next);
    });
    held(() => !el.isConnected && same(parent, after));
  }
  // A copy of `el` that changes no state of the page: no id, no checked radio that would uncheck
  // its group, no selected option, no autofocus.
  function copyOf(el) {
    const clone = el.cloneNode(true);
    for (const node of [clone, ...clone.querySelectorAll('*')]) {
      node.removeAttribute('id');
      node.removeAttribute('autofocus');
      if (node.tagName === 'INPUT') {
        node.removeAttribute('checked');
        node.checked = false;
      }
      if (node.tagName === 'OPTION') {
        node.removeAttribute('selected');
        node.selected = false;
      }
    }
    return clone;
  }

  const setStyle = (el, value) => (value === null ? el.removeAttribute('style') : el.setAttribute('style', value));
  const setAttr = (el, name, value) => (value === null ? el.removeAttribute(name) : el.setAttribute(name, value));
  const isFormControl = (el) => ['BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'OPTION', 'OPTGROUP', 'FIELDSET'].includes(el.tagName);

  // Text nodes and editable strings under the roots, open shadow roots included, in document order.
  const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);
  function textNodes(root) {
    const out = [];
    const walk = (node) => {
      if (node.nodeType === Node.TEXT_NODE) {
        out.push(node);
        return;
      }
      if (node.nodeType === Node.ELEMENT_NODE && SKIPPED.has(node.tagName)) return;
      if (node.shadowRoot) walk(node.shadowRoot);
      for (const child of node.childNodes) walk(child);
    };
    walk(root);
    return out;
  }
  function elementsUnder(root) {
    const out = [];
    const walk = (node) => {
      if (node.nodeType === Node.ELEMENT_NODE) out.push(node);
      if (node.shadowRoot) walk(node.shadowRoot);
      for (const child of node.children || []) walk(child);
    };
    walk(root.nodeType === Node.DOCUMENT_NODE ? root.documentElement : root);
    return out;
  }

  const WORD = /[\p{L}\p{N}_]/u;
  // The places in `text` (whitespace runs collapsed to one space) where the needle occurs; a
  // whole-word needle must not touch a letter or digit on either side.
  function occurrences(chars, needle, whole) {
    const found = [];
    const n = needle.length;
    for (let i = 0; i + n <= chars.length; i++) {
      let ok = true;
      for (let j = 0; j < n && ok; j++) ok = chars[i + j].c === needle[j];
      if (!ok) continue;
      if (whole && ((i > 0 && WORD.test(chars[i - 1].c)) || (i + n < chars.length && WORD.test(chars[i + n].c)))) continue;
      found.push(i);
      i += n - 1;
    }
    return found;
  }
  // The edits an occurrence at `start` gets, as [position in chars, inserted text, replaced?].
  function edits(start, chars) {
    const n = spec.needle.length;
    if (spec.edit === 'prefix') return [[start, spec.with, false]];
    if (spec.edit === 'suffix') return [[start + n - 1, spec.with, 'after']];
    if (spec.edit === 'swap') {
      if (spec.with.length !== n) return [];
      const out = [];
      for (let i = 0; i < n; i++) if (spec.with[i] !== spec.needle[i]) out.push([start + i, spec.with[i], true]);
      return out;
    }
    if (spec.edit === 'words') return [[start + n - 1, spec.with, 'after']];
    return [[start + spec.at, spec.with, true]];
  }
  // Collapses whitespace into single spaces, remembering where each kept character came from.
  function collapse(pieces) {
    const chars = [];
    let space = true;
    for (const [owner, text] of pieces) {
      for (let offset = 0; offset < text.length; offset++) {
        const c = text[offset];
        if (/\s/.test(c)) {
          if (!space) chars.push({ c: ' ', owner, offset });
          space = true;
        } else {
          chars.push({ c, owner, offset });
          space = false;
        }
      }
    }
    return chars;
  }
  function mutateStrings(pieces, write) {
    const chars = collapse(pieces);
    const perOwner = new Map();
    for (const start of occurrences(chars, spec.needle, spec.whole)) {
      const list = edits(start, chars);
      if (!list.length) continue;
      for (const [at, text, mode] of list) {
        const ch = chars[at];
        if (!perOwner.has(ch.owner)) perOwner.set(ch.owner, []);
        perOwner.get(ch.owner).push([mode === 'after' ? ch.offset + 1 : ch.offset, text, mode === true]);
      }
      changed++;
    }
    for (const [owner, list] of perOwner) {
      const before = pieces.find((p) => p[0] === owner)[1];
      let after = before;
      list.sort((a, b) => b[0] - a[0]);
      for (const [offset, text, replace] of list) after = after.slice(0, offset) + text + after.slice(offset + (replace ? 1 : 0));
      write(owner, after, before);
    }
  }

  switch (spec.kind) {
    case 'hide':
      for (const el of roots) {
        if (el === document || untouchable(el)) continue;
        const style = el.getAttribute('style');
        el.style.setProperty('display', 'none', 'important');
        undo.push(() => setStyle(el, style));
        held(() => el.isConnected && el.style.getPropertyValue('display') === 'none');
        changed++;
      }
      break;
    case 'remove':
      for (const el of roots) {
        if (!el.isConnected || !el.parentNode || untouchable(el)) continue;
        takeOut(el);
        changed++;
      }
      break;
    case 'add-one': {
      const last = roots[roots.length - 1];
      if (!last.parentNode || last === document || untouchable(last)) break;
      const clone = copyOf(last);
      last.parentNode.insertBefore(clone, last.nextSibling);
      undo.push(() => clone.remove());
      held(() => clone.isConnected);
      changed++;
      break;
    }
    case 'remove-one': {
      const last = roots[roots.length - 1];
      if (!last.parentNode || last === document || untouchable(last)) break;
      takeOut(last);
      changed++;
      break;
    }
    case 'add-sibling': {
      // Beside a list's items, or beside the element itself.
      const last = roots[roots.length - 1];
      if (last === document || untouchable(last)) break;
      const LISTS = ['UL', 'OL', 'TBODY', 'SELECT', 'DL'];
      const model = LISTS.includes(last.tagName) && last.lastElementChild ? last.lastElementChild : last;
      if (!model.parentNode || model === document.body || model === document.documentElement) break;
      const extra = copyOf(model);
      const texts = textNodes(extra).filter((node) => node.data.trim());
      texts.forEach((node, i) => { node.data = i === 0 ? spec.with : ''; });
      for (const el of [extra, ...extra.querySelectorAll('*')]) {
        for (const name of ['aria-label', 'title', 'alt', 'value']) if (el.hasAttribute(name)) el.setAttribute(name, spec.with);
      }
      if (!texts.length) extra.appendChild(document.createTextNode(spec.with));
      model.parentNode.insertBefore(extra, model.nextSibling);
      undo.push(() => extra.remove());
      held(() => extra.isConnected);
      changed++;
      break;
    }
    case 'reorder': {
      const el = roots[0];
      if (el === document || !el.parentNode || untouchable(el)) break;
      const parent = el.parentNode;
      const siblings = Array.from(parent.children).filter((c) => c.tagName === el.tagName);
      if (siblings.length < 2) break;
      const next = el.nextSibling;
      const to = siblings[0] === el ? siblings[siblings.length - 1].nextSibling : siblings[0];
      parent.insertBefore(el, to);
      const after = childrenOf(parent);
      undo.push(() => {
        if (same(parent, after) && (next === null || next.parentNode === parent)) parent.insertBefore(el, next);
      });
      held(() => same(parent, after));
      changed++;
      break;
    }
    case 'find': {
      // Whether the text is anywhere in the document: its markup (texts and attributes),
      // the values of its fields, the title or the URL.
      const needle = spec.needle.replace(/\s+/g, ' ');
      const flat = (text) => text.replace(/\s+/g, ' ');
      const escaped = needle.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      const html = flat(document.documentElement.outerHTML);
      const values = Array.from(document.querySelectorAll('input, textarea, select')).map((el) => flat(String(el.value)));
      let href = location.href;
      try { href = decodeURIComponent(href); } catch (_) { /* a malformed escape: the URL as it is */ }
      const found = [html.includes(needle), html.includes(escaped), html.includes(escaped.replace(/"/g, '&quot;')),
        flat(document.title).includes(needle), href.includes(needle),
        values.some((v) => v.includes(needle))].some(Boolean);
      return found ? 1 : 0;
    }
    case 'flip-checked':
      for (const el of roots) {
        if (el.tagName === 'INPUT' && (el.type === 'checkbox' || el.type === 'radio')) {
          // Checking a radio unchecks the rest of its group, so the whole group is restored.
          const group = el.type === 'radio' && el.name
            ? Array.from((el.form || el.getRootNode()).querySelectorAll('input[type=radio]')).filter((r) => r.name === el.name)
            : [el];
          const states = group.map((r) => [r, r.checked, r.indeterminate]);
          el.indeterminate = false;
          el.checked = !el.checked;
          const now = el.checked;
          undo.push(() => states.forEach(([r, checked, indeterminate]) => { r.checked = checked; r.indeterminate = indeterminate; }));
          held(() => el.isConnected && el.checked === now);
          changed++;
        } else if (el.hasAttribute('aria-checked')) {
          const was = el.getAttribute('aria-checked');
          const now = was === 'true' ? 'false' : 'true';
          el.setAttribute('aria-checked', now);
          undo.push(() => el.setAttribute('aria-checked', was));
          held(() => el.isConnected && el.getAttribute('aria-checked') === now);
          changed++;
        }
      }
      break;
    case 'flip-disabled':
      for (const el of roots) {
        const disabled = el.getAttribute('disabled');
        const aria = el.getAttribute('aria-disabled');
        const wasDisabled = (isFormControl(el) && disabled !== null) || aria === 'true';
        if (wasDisabled) {
          el.removeAttribute('disabled');
          if (aria !== null) el.setAttribute('aria-disabled', 'false');
        } else if (isFormControl(el)) {
          el.setAttribute('disabled', '');
        } else {
          el.setAttribute('aria-disabled', 'true');
        }
        const [nowDisabled, nowAria] = [el.getAttribute('disabled'), el.getAttribute('aria-disabled')];
        undo.push(() => { setAttr(el, 'disabled', disabled); setAttr(el, 'aria-disabled', aria); });
        held(() => el.isConnected && el.getAttribute('disabled') === nowDisabled && el.getAttribute('aria-disabled') === nowAria);
        changed++;
      }
      break;
    case 'text': {
      for (const root of roots) {
        // A word is added only where the quoted text is the whole text (or value) of an element
        // the check reads: a word added to a longer text changes nothing a check of the
        // sentence's words could notice.
        if (spec.edit === 'words') {
          const flat = (text) => text.replace(/\s+/g, ' ').trim();
          const isField = root.tagName === 'INPUT' || root.tagName === 'TEXTAREA';
          if (isField && flat(String(root.value)) === spec.needle) {
            const value = root.value;
            const after = value.replace(/\s+$/, '') + spec.with;
            root.value = after;
            undo.push(() => { root.value = value; });
            held(() => root.isConnected && root.value === after);
            changed++;
            continue;
          }
          if (root === document || flat(root.textContent) !== spec.needle) continue;
        }
        // Text of the page (the <title> included): text nodes run together, as an element's
        // text reads.
        mutateStrings(textNodes(root).map((node) => [node, node.data]), (node, after, before) => {
          node.data = after;
          undo.push(() => { node.data = before; });
          held(() => node.isConnected && node.data === after);
        });
        // Strings an element carries besides its text: what getByPlaceholder, getByAltText,
        // getByTitle, getByLabel (aria-label) and toHaveValue read. A word is only added to
        // an element's text or value (above).
        if (spec.edit === 'words') continue;
        for (const el of elementsUnder(root)) {
          for (const name of ['placeholder', 'aria-label', 'title', 'alt']) {
            const value = el.getAttribute(name);
            if (value === null) continue;
            mutateStrings([[name, value]], (_, after) => {
              el.setAttribute(name, after);
              undo.push(() => el.setAttribute(name, value));
              held(() => el.isConnected && el.getAttribute(name) === after);
            });
          }
          if ((el.tagName === 'INPUT' || el.tagName === 'TEXTAREA') && typeof el.value === 'string') {
            const value = el.value;
            mutateStrings([['value', value]], (_, after) => {
              el.value = after;
              undo.push(() => { el.value = value; });
              held(() => el.isConnected && el.value === after);
            });
          }
        }
      }
      break;
    }
    case 'title': {
      const title = document.title;
      document.title = spec.with;
      undo.push(() => { document.title = title; });
      held(() => document.title === spec.with);
      changed++;
      break;
    }
    case 'url': {
      const href = location.href;
      const state = history.state;
      history.replaceState(state, '', spec.with);
      const now = location.href;
      undo.push(() => history.replaceState(state, '', href));
      held(() => location.href === now);
      changed++;
      break;
    }
    default:
      throw new Error(`unknown mutation ${spec.kind}`);
  }
  return changed;
}
