// What every panel writes with: elements by id, and answers as paragraphs.

/** The element of the page with this id. */
export const $ = (id) => document.getElementById(id);

/** Replaces a region's content with paragraphs (strings or nodes); kind "error" marks it as one. */
export function say(region, parts, kind = '') {
  region.replaceChildren();
  region.className = 'answer' + (kind ? ' ' + kind : '');
  for (const part of [].concat(parts)) {
    if (typeof part === 'string') {
      const p = document.createElement('p');
      p.textContent = part;
      region.appendChild(p);
    } else {
      region.appendChild(part);
    }
  }
}

/** A paragraph of these nodes and strings. */
export function para(...children) {
  const p = document.createElement('p');
  p.append(...children);
  return p;
}

/** Text in bold. */
export function strong(text) {
  const s = document.createElement('strong');
  s.textContent = text;
  return s;
}

/** A plain button (not a form's submit) that calls onClick. */
export function button(text, onClick) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.addEventListener('click', onClick);
  return b;
}
