/**
 * The JSON forms that cross the wire and the disk, each defined once: a node,
 * a change, the settings, the ring document ({@code GET /ring}, a
 * {@code snapshot} event), a {@code change} event, and the pieces of a state
 * file. The server writes them, the state codec writes and reads them, and
 * the Java client reads them (they ship in its jar). Plain Java and Jackson.
 *
 * <p>Records hold what the JSON holds, nullable where the JSON may leave a
 * value out, so each reader decides what it requires and names the place of
 * a fault; {@code to...} methods turn them into the ring library's types with
 * its checks, throwing {@link io.ringd.wire.WireException}.
 */
package io.ringd.wire;
