package io.ringd.watch;

import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A test's client of {@code /ring/events}: reads server-sent events on a
 * thread of its own into a queue, comments included, until closed.
 */
public final class EventStream implements AutoCloseable {

    /** One event; a comment has a null name and its text as data. */
    public record Event(String name, String id, String data) {
        public boolean isComment() {
            return name == null && id == null;
        }
    }

    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public final int status;
    final Map<String, List<String>> headers;
    final String body; // for an answer that is not a stream
    private final BlockingQueue<Event> events = new LinkedBlockingQueue<>();
    private final Stream<String> lines;
    private final Thread reader;

    private EventStream(HttpResponse<Stream<String>> response) {
        this.status = response.statusCode();
        this.headers = response.headers().map();
        this.lines = response.body();
        if (status != 200) {
            this.body = String.join("\n", lines.toList());
            this.reader = null;
            return;
        }
        this.body = null;
        this.reader = new Thread(this::read, "test-sse-reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Opens {@code uri} with the given headers (name, value, name, value...). */
    public static EventStream open(URI uri, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri).GET().header("Accept", "text/event-stream");
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        try {
            return new EventStream(HTTP.sendAsync(b.build(), HttpResponse.BodyHandlers.ofLines())
                    .get(10, TimeUnit.SECONDS));
        } catch (Exception e) {
            throw new IllegalStateException("cannot open " + uri, e);
        }
    }

    private void read() {
        String name = null;
        String id = null;
        StringBuilder data = null;
        try {
            for (String line : (Iterable<String>) lines::iterator) {
                if (line.isEmpty()) {
                    if (data != null || name != null || id != null) {
                        events.add(new Event(name != null ? name : "message", id, data == null ? "" : data.toString()));
                    }
                    name = null;
                    id = null;
                    data = null;
                } else if (line.startsWith(":")) {
                    events.add(new Event(null, null, line.substring(1)));
                } else {
                    int colon = line.indexOf(':');
                    String field = colon < 0 ? line : line.substring(0, colon);
                    String value = colon < 0 ? "" : line.substring(colon + 1);
                    if (value.startsWith(" ")) {
                        value = value.substring(1);
                    }
                    switch (field) {
                        case "event" -> name = value;
                        case "id" -> id = value;
                        case "data" -> data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                        default -> { }
                    }
                }
            }
        } catch (UncheckedIOException | IllegalStateException e) {
            // closed
        }
    }

    /** The next event or comment, or null after {@code timeout}. */
    public Event next(Duration timeout) throws InterruptedException {
        return events.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The next event that is not a comment, or null after {@code timeout}. */
    public Event nextEvent(Duration timeout) throws InterruptedException {
        long end = System.nanoTime() + timeout.toNanos();
        while (true) {
            long left = end - System.nanoTime();
            if (left <= 0) {
                return null;
            }
            Event e = events.poll(left, TimeUnit.NANOSECONDS);
            if (e == null || !e.isComment()) {
                return e;
            }
        }
    }

    /** Whether the server ended the stream within {@code timeout}. */
    public boolean ended(Duration timeout) throws InterruptedException {
        if (reader == null) {
            return true;
        }
        reader.join(timeout.toMillis());
        return !reader.isAlive();
    }

    /** The events (not comments) received and not yet taken, taken now without waiting. */
    public List<Event> takeReceivedEvents() {
        List<Event> out = new ArrayList<>();
        Event e;
        while ((e = events.poll()) != null) {
            if (!e.isComment()) {
                out.add(e);
            }
        }
        return out;
    }

    /**
     * Waits {@code quiet} once for all of {@code streams} and answers, for
     * each, the events (not comments) it received meanwhile: a silence
     * checked on several streams at the cost of one.
     */
    public static List<List<Event>> eventsWithin(Duration quiet, List<EventStream> streams)
            throws InterruptedException {
        Thread.sleep(quiet.toMillis());
        List<List<Event>> out = new ArrayList<>();
        for (EventStream s : streams) {
            out.add(s.takeReceivedEvents());
        }
        return out;
    }

    /** The events (not comments) received within {@code quiet} of each other. */
    public List<Event> drainEvents(Duration quiet) throws InterruptedException {
        List<Event> out = new ArrayList<>();
        Event e;
        while ((e = nextEvent(quiet)) != null) {
            out.add(e);
        }
        return out;
    }

    public String header(String name) {
        return headers.entrySet().stream().filter(h -> h.getKey().equalsIgnoreCase(name))
                .flatMap(h -> h.getValue().stream()).findFirst().orElse(null);
    }

    @Override
    public void close() {
        lines.close();
        if (reader != null) {
            reader.interrupt();
        }
    }
}
