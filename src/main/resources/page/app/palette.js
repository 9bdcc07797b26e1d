// Node colours.
//
// Ten hues that stay apart for readers with protanopia, deuteranopia and tritanopia: the seven
// non-black colours of Okabe and Ito's palette ("Color Universal Design", 2002: orange, sky blue,
// bluish green, yellow, blue, vermillion, reddish purple) and three dark colours of Paul Tol's
// "muted" scheme (indigo, wine, olive; personal.sron.nl/~pault), which differ from those seven in
// lightness as well as hue. Nodes 0-9 (in ascending id order) take them plain; nodes 10-19 take
// them again with white diagonal hatching, so 20 nodes are told apart by hue, lightness and
// texture, never by hue alone. Past 20 the colours repeat: the hover text, the legend and the
// ownership table name every node.

const HUES = [
  '#E69F00', // orange (Okabe-Ito)
  '#56B4E9', // sky blue (Okabe-Ito)
  '#009E73', // bluish green (Okabe-Ito)
  '#F0E442', // yellow (Okabe-Ito)
  '#0072B2', // blue (Okabe-Ito)
  '#D55E00', // vermillion (Okabe-Ito)
  '#CC79A7', // reddish purple (Okabe-Ito)
  '#332288', // indigo (Tol muted)
  '#882255', // wine (Tol muted)
  '#999933', // olive (Tol muted)
];

/** What the others of a summarised slice hold: a neutral grey, not a node's colour. */
export const OTHERS = '#BBBBBB';

/** The style of the node at index i of the members (ascending id): {color, hatched}. */
export function styleOf(index) {
  return { color: HUES[index % HUES.length], hatched: Math.floor(index / HUES.length) % 2 === 1 };
}

const patterns = new Map();

/** A canvas fill for a style: the colour, or a hatched pattern of it. */
export function canvasFill(ctx, style) {
  if (!style.hatched) {
    return style.color;
  }
  const key = style.color;
  let p = patterns.get(key);
  if (!p) {
    const tile = document.createElement('canvas');
    tile.width = 8;
    tile.height = 8;
    const t = tile.getContext('2d');
    t.fillStyle = style.color;
    t.fillRect(0, 0, 8, 8);
    t.strokeStyle = 'rgba(255,255,255,0.85)';
    t.lineWidth = 2;
    t.beginPath();
    t.moveTo(-2, 10);
    t.lineTo(10, -2);
    t.moveTo(-2, 2);
    t.lineTo(2, -2);
    t.moveTo(6, 10);
    t.lineTo(10, 6);
    t.stroke();
    p = ctx.createPattern(tile, 'repeat');
    patterns.set(key, p);
  }
  return p;
}

/** Gives an HTML swatch the style (colour through the CSSOM, hatching through a class). */
export function paintSwatch(el, style) {
  el.style.backgroundColor = style.color;
  el.classList.toggle('hatched', style.hatched);
}
