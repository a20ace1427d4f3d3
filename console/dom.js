// @ts-check
/**
 * The one way the console builds DOM: elements with attributes and children, where every string becomes a text
 * node. Nothing is ever parsed as HTML (no innerHTML anywhere), so a name like `<img src=x onerror=...>` shows
 * as those characters.
 */

/**
 * @typedef {Node | string | number | null | undefined | false | any[]} Child (arrays of children are flattened)
 */

/**
 * An element. `props`: `class`, `on<event>` handlers, booleans (true sets the attribute, false leaves it out),
 * anything else as an attribute.
 * @param {string} tag
 * @param {Record<string, unknown>} [props]
 * @param {...Child} children
 * @returns {HTMLElement}
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      element.addEventListener(name.slice(2), /** @type {EventListener} */ (value));
    } else if (value === true) {
      element.setAttribute(name, '');
    } else {
      element.setAttribute(name, String(value));
    }
  }
  append(element, children);
  return element;
}

/**
 * Appends children (text for strings and numbers, nested arrays flattened, empty values skipped).
 * @param {Node} parent
 * @param {Child[]} children
 */
export function append(parent, children) {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(parent, child);
    else parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/**
 * Replaces an element's children.
 * @param {Element} element
 * @param {...Child} children
 */
export function replace(element, ...children) {
  element.replaceChildren();
  append(element, children);
}

/**
 * A link handled by the console's router (no page reload).
 * @param {string} href
 * @param {...Child} children
 */
export function link(href, ...children) {
  return h('a', { href, 'data-link': true }, ...children);
}

/**
 * A state badge: the word itself is the information (colour only repeats it).
 * @param {string} state
 */
export function badge(state) {
  return h('span', { class: `badge badge-${state.replace(/[^a-z_]/g, '')}` }, state.replaceAll('_', ' '));
}
