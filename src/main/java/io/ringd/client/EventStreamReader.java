package io.ringd.client;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Reads server-sent events ({@code text/event-stream}) from a byte stream:
 * the parsing rules of the HTML standard's "event stream interpretation",
 * for the fields ringd sends.
 */
final class EventStreamReader {

    /*
     * Design note.
     *
     * Lines end with CRLF, LF or CR. A CR ends its line at once (waiting for
     * a possible LF would stall on a CR-terminated stream); the LF of a CRLF
     * is then skipped when it arrives. A line starting with ':' is a comment;
     * "field:value" drops one space after the colon; a line without a colon
     * is a field with an empty value. "data" lines are joined with '\n',
     * "event" sets the type (default "message"), "id" sets the last event id
     * unless it holds a NUL, which persists across events as the standard
     * says; "retry" and unknown fields are ignored. A blank line dispatches
     * the event, unless no data line came (then nothing is dispatched). A
     * leading UTF-8 byte order mark is skipped. Invariant: data never holds
     * more than maxEventBytes, so a runaway stream cannot exhaust memory.
     */

    /** One dispatched event; {@code id} is the last event id at dispatch, or null if none was ever set. */
    record Event(String type, String id, String data) {
    }

    /** Told of every line read, comments and blank lines included: the server is alive. */
    interface LineListener {
        void line(boolean comment);
    }

    private final InputStream in;
    private final int maxEventBytes;
    private final LineListener listener;
    private final byte[] buf = new byte[8192];
    private int pos;
    private int limit;
    private byte[] line = new byte[256];
    private int lineLength;
    private boolean skipLf;
    private boolean started;

    private String lastEventId;
    private String type;
    private final StringBuilder data = new StringBuilder();
    private boolean hasData;

    EventStreamReader(InputStream in, int maxEventBytes, LineListener listener) {
        this.in = in;
        this.maxEventBytes = maxEventBytes;
        this.listener = listener;
    }

    /**
     * The next event, or {@code null} when the stream ends (an event not yet
     * ended by a blank line is dropped, as the standard says).
     *
     * @throws IOException from the stream, or for an event over the size limit
     */
    Event next() throws IOException {
        for (String l; (l = readLine()) != null;) {
            if (l.isEmpty()) {
                listener.line(false);
                Event e = dispatch();
                if (e != null) {
                    return e;
                }
                continue;
            }
            boolean comment = l.charAt(0) == ':';
            listener.line(comment);
            if (!comment) {
                field(l);
            }
        }
        return null;
    }

    private void field(String l) throws IOException {
        int colon = l.indexOf(':');
        String name = colon < 0 ? l : l.substring(0, colon);
        String value = "";
        if (colon >= 0) {
            int start = colon + 1;
            if (start < l.length() && l.charAt(start) == ' ') {
                start++;
            }
            value = l.substring(start);
        }
        switch (name) {
            case "event":
                type = value;
                break;
            case "data":
                if (data.length() + value.length() + 1 > maxEventBytes) {
                    throw new IOException("event data larger than " + maxEventBytes + " bytes");
                }
                data.append(value).append('\n');
                hasData = true;
                break;
            case "id":
                if (value.indexOf('\0') < 0) {
                    lastEventId = value;
                }
                break;
            default:
                break; // retry and unknown fields
        }
    }

    private Event dispatch() {
        if (!hasData) {
            type = null;
            return null;
        }
        String d = data.substring(0, data.length() - 1);
        String t = type == null || type.isEmpty() ? "message" : type;
        data.setLength(0);
        hasData = false;
        type = null;
        return new Event(t, lastEventId, d);
    }

    /** The next line without its terminator, or null at the end of the stream. */
    private String readLine() throws IOException {
        lineLength = 0;
        while (true) {
            if (pos == limit) {
                int n = in.read(buf, 0, buf.length);
                if (n < 0) {
                    return null;
                }
                pos = 0;
                limit = n;
                if (!started) {
                    started = true;
                    if (limit >= 3 && buf[0] == (byte) 0xEF && buf[1] == (byte) 0xBB && buf[2] == (byte) 0xBF) {
                        pos = 3;
                    }
                }
                continue;
            }
            byte b = buf[pos++];
            if (skipLf) {
                skipLf = false;
                if (b == '\n') {
                    continue;
                }
            }
            if (b == '\n' || b == '\r') {
                skipLf = b == '\r';
                return new String(line, 0, lineLength, StandardCharsets.UTF_8);
            }
            if (lineLength == line.length) {
                if (lineLength >= maxEventBytes) {
                    throw new IOException("line longer than " + maxEventBytes + " bytes");
                }
                line = Arrays.copyOf(line, Math.min(maxEventBytes, lineLength * 2));
            }
            line[lineLength++] = b;
        }
    }
}
