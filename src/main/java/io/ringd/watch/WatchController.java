package io.ringd.watch;

import java.io.IOException;

import org.springframework.http.CacheControl;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestMethod;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import io.ringd.state.Rings;
import io.ringd.web.ConnectionWrites;
import io.ringd.web.PeerClose;
import io.ringd.web.RingApi;
import io.ringd.web.RingPaths;
import io.swagger.v3.oas.annotations.Hidden;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.media.Content;
import io.swagger.v3.oas.annotations.media.ExampleObject;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.responses.ApiResponse;
import io.swagger.v3.oas.annotations.tags.Tag;

/** The change stream: {@code GET /ring/events}, server-sent events of every version. */
@RestController
@RingApi
@Tag(name = "watch", description = "Follow the ring: a snapshot or the changes since a version, then every change")
class WatchController {

    static final String EXAMPLE = "event: change\nid: 8\ndata: {\"version\":8,\"incarnation\":\"5f0c3a9e1b7d2468\","
            + "\"committedAt\":\"2026-11-30T10:11:29.606Z\","
            + "\"fingerprint\":\"9f86d0...\",\"changes\":[{\"op\":\"put\",\"id\":\"cache-d\",\"weight\":1.0,"
            + "\"zone\":\"eu-1a\"}]}\n\n: keep-alive\n\n";

    /** The header naming the incarnation a client follows. */
    static final String INCARNATION = "X-Ring-Incarnation";

    private final WatchHub hub;
    private final Rings rings;

    WatchController(WatchHub hub, Rings rings) {
        this.hub = hub;
        this.rings = rings;
    }

    /**
     * {@code HEAD /ring/events}: the stream's headers and nothing else. Without this the implicit HEAD of
     * the GET opened a stream (counted against ringd.watch.max-streams) only to end it at once, racing the
     * stream's first write.
     */
    @RequestMapping(path = "/ring/events", method = RequestMethod.HEAD, produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Hidden
    ResponseEntity<Void> eventsHead(@RequestHeader(name = "Last-Event-ID", required = false) String lastEventId,
            @RequestParam(required = false) String after, @RequestParam(required = false) String incarnation) {
        return ResponseEntity.ok().contentType(MediaType.TEXT_EVENT_STREAM).cacheControl(CacheControl.noCache())
                .build();
    }

    @GetMapping(path = "/ring/events", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    @Operation(summary = "Follow the ring", description = "Server-sent events. With Last-Event-ID (or ?after=) "
            + "naming a kept version not newer than the current one, the stream starts with one 'change' event per "
            + "later version; otherwise with one 'snapshot' event (data: the GET /ring body). Then one 'change' "
            + "event per version as it is committed, in order, none skipped. A 'change' event's id is its version "
            + "and its data is {\"version\",\"incarnation\",\"committedAt\",\"fingerprint\",\"changes\":[/membership changes, "
            + "by id],"
            + "\"settings\" (only when they changed)}: applying it to the previous version gives a ring with that "
            + "fingerprint. A ': keep-alive' comment comes at least every 15 s. A stream that reads too slowly is "
            + "closed; reconnect with Last-Event-ID. With X-Ring-Incarnation (or ?incarnation=) naming another "
            + "incarnation than the ring's, the stream starts with a 'snapshot' whatever Last-Event-ID says.")
    @ApiResponse(responseCode = "200", description = "The stream", content = @Content(
            mediaType = MediaType.TEXT_EVENT_STREAM_VALUE, schema = @Schema(type = "string"),
            examples = @ExampleObject(value = EXAMPLE)))
    @ApiResponse(responseCode = "503", description = "Too many streams open")
    void events(@Parameter(description = "The version the client holds", example = "7")
            @RequestHeader(name = "Last-Event-ID", required = false) String lastEventId,
            @Parameter(description = "The version the client holds, when it cannot send Last-Event-ID "
                    + "(the header wins)", example = "7") @RequestParam(required = false) String after,
            @Parameter(description = "The incarnation of the ring the client holds: another than the ring's "
                    + "starts the stream with a snapshot", example = "5f0c3a9e1b7d2468")
            @RequestHeader(name = INCARNATION, required = false) String incarnationHeader,
            @Parameter(description = "The incarnation of the ring the client holds, when it cannot send "
                    + "X-Ring-Incarnation (the header wins)", example = "5f0c3a9e1b7d2468")
            @RequestParam(required = false) String incarnation,
            HttpServletRequest request, HttpServletResponse response) throws IOException {
        // so that proxies pass events on as they come instead of buffering the answer
        response.setHeader(HttpHeaders.CACHE_CONTROL, CacheControl.noCache().getHeaderValue());
        response.setContentType(MediaType.TEXT_EVENT_STREAM_VALUE);
        // A stream's connection serves no other request: the watch for the client closing it (PeerClose)
        // cannot be withdrawn when the stream ends, so the connection is closed with it.
        response.setHeader(HttpHeaders.CONNECTION, "close");
        AnswerSink sink = new AnswerSink();
        // Opened before the answer goes asynchronous, so that a refusal (503, 404) is an ordinary answer; the
        // stream is held (writes nothing) until the sink has the answer.
        WatchStream stream = hub.open(RingPaths.of(request, rings), sink,
                lastEventId != null ? lastEventId : after, incarnationHeader != null ? incarnationHeader : incarnation);
        try {
            AsyncContext async = request.startAsync(request, response);
            async.setTimeout(0); // no timeout: the stream stays open until either side ends it
            async.addListener(new AsyncListener() {
                @Override
                public void onComplete(AsyncEvent event) {
                    stream.close("the connection ended");
                }

                @Override
                public void onTimeout(AsyncEvent event) {
                    stream.close("the connection timed out");
                }

                @Override
                public void onError(AsyncEvent event) {
                    stream.close("the connection failed");
                }

                @Override
                public void onStartAsync(AsyncEvent event) {
                }
            });
            response.flushBuffer(); // the headers now: a client knows the stream is open before the first event
            sink.attach(async, response.getOutputStream(), ConnectionWrites.of(request, response));
            if (hub.noticeCloses() && PeerClose.watch(request, stream.closer("the client closed the connection"))) {
                hub.peerWatched(stream);
            }
        } catch (IOException | RuntimeException e) {
            stream.close("the answer could not start");
            throw e;
        } finally {
            stream.start();
        }
    }

    /**
     * The stream's HTTP answer: each item's bytes, encoded once for all streams, written and flushed as they
     * are (no per-stream formatting or message conversion): straight to the connection where the answer is
     * delimited by its close (ConnectionWrites), else through the servlet's output stream.
     */
    private static final class AnswerSink implements WatchStream.Sink {
        private AsyncContext async;
        private ServletOutputStream out;
        /** The connection's own writes, when the answer is delimited by its close; else {@code null}. */
        private ConnectionWrites direct;
        /** Its writes that do not wait, made for the stream's completion at its first write. */
        private ConnectionWrites.Async nonBlocking;
        private WatchStream.Completion nonBlockingFor;

        /** Called once, before the stream starts: the writers see these fields after it. */
        void attach(AsyncContext async, ServletOutputStream out, ConnectionWrites direct) {
            this.async = async;
            this.out = out;
            this.direct = direct;
        }

        /** A write through the servlet's output stream, blocking: for an answer not delimited by its close. */
        @Override
        public void write(WatchStream.Item item) throws IOException {
            out.write(item.wire());
            out.flush();
        }

        /** Writes without waiting where the answer is delimited by its close; else through the servlet, blocking. */
        @Override
        public void write(WatchStream.Item item, WatchStream.Completion done) {
            if (direct == null) {
                WatchStream.Sink.super.write(item, done);
                return;
            }
            if (nonBlockingFor != done) { // one completion per stream: made once
                nonBlocking = direct.async(done::written, done::failed);
                nonBlockingFor = done;
            }
            nonBlocking.write(item.wire());
        }

        @Override
        public void event(String name, long id, String data) throws IOException {
            write(WatchStream.Item.event(name, id, data, null));
        }

        @Override
        public void comment(String text) throws IOException {
            write(WatchStream.Item.comment(text));
        }

        @Override
        public void close() {
            if (async != null) {
                async.complete();
            }
        }
    }
}
