// Where things sit in the ring's drawing: the radii of its bands, the strip's shape, the angle of
// a hash value. The canvas, its SVG overlay and the pointer all place things by these.

import { SPACE } from './api.js';

export const TAU = Math.PI * 2;
// Radii as fractions of the drawing's side (canvas CSS pixels, or the overlay's 1000 units).
export const R_IN = 0.29;
export const R_OUT = 0.39;
export const R_TICK = 0.42;
export const R_MOVED_IN = 0.428;
export const R_MOVED_OUT = 0.452;
export const R_OWNER = 0.47;
/** A Maglev table is drawn as a strip this many times wider than high. */
export const STRIP_ASPECT = 4;

/** The angle of a hash value: 0 at the top, clockwise. */
export function angle(h) {
  return (h / SPACE) * TAU - Math.PI / 2;
}
