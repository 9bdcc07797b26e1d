package io.ringd.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import io.ringd.client.EventStreamReader.Event;

class EventStreamReaderTest {

    private final List<Boolean> lines = new ArrayList<>();

    private List<Event> read(String text) throws IOException {
        return read(new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8)));
    }

    private List<Event> read(InputStream in) throws IOException {
        EventStreamReader r = new EventStreamReader(in, 1 << 20, lines::add);
        List<Event> out = new ArrayList<>();
        for (Event e; (e = r.next()) != null;) {
            out.add(e);
        }
        return out;
    }

    @Test
    void eventIdAndData_areRead_andABlankLineDispatches() throws IOException {
        assertThat(read("event: change\nid: 8\ndata: {\"version\":8}\n\n"))
                .containsExactly(new Event("change", "8", "{\"version\":8}"));
    }

    @Test
    void multiLineData_isJoinedWithNewlines() throws IOException {
        assertThat(read("data: a\ndata:b\ndata:  c\n\n")).containsExactly(new Event("message", null, "a\nb\n c"));
    }

    @Test
    void crlfAndCrLineEnds_workLikeLf() throws IOException {
        assertThat(read("event: x\r\ndata: 1\r\n\r\nevent: y\rdata: 2\r\rdata: 3\n\n")).containsExactly(
                new Event("x", null, "1"), new Event("y", null, "2"), new Event("message", null, "3"));
    }

    @Test
    void crAtTheEndOfOneReadAndLfAtTheStartOfTheNext_isOneLineEnd() throws IOException {
        byte[] a = "data: 1\r".getBytes(StandardCharsets.UTF_8);
        byte[] b = "\n\r\ndata: 2\n\n".getBytes(StandardCharsets.UTF_8);
        InputStream split = new InputStream() {
            int part;
            int pos;

            @Override
            public int read() {
                throw new UnsupportedOperationException();
            }

            @Override
            public int read(byte[] buf, int off, int len) {
                byte[] cur = part == 0 ? a : part == 1 ? b : null;
                if (cur == null) {
                    return -1;
                }
                int n = Math.min(len, cur.length - pos);
                System.arraycopy(cur, pos, buf, off, n);
                pos += n;
                if (pos == cur.length) {
                    part++;
                    pos = 0;
                }
                return n;
            }
        };
        assertThat(read(split)).containsExactly(new Event("message", null, "1"), new Event("message", null, "2"));
    }

    @Test
    void comments_areNotEvents_butAreReportedAsLines() throws IOException {
        assertThat(read(": keep-alive\n\n:another\n\n")).isEmpty();
        assertThat(lines).containsExactly(true, false, true, false);
    }

    @Test
    void anEventWithoutData_isNotDispatched_andDoesNotLeakItsType() throws IOException {
        assertThat(read("event: change\nid: 3\n\ndata: x\n\n")).containsExactly(new Event("message", "3", "x"));
    }

    @Test
    void theLastEventId_persistsAcrossEvents_andAnIdWithNulIsIgnored() throws IOException {
        assertThat(read("id: 1\ndata: a\n\ndata: b\n\nid: 2\u0000\ndata: c\n\nid\ndata: d\n\n")).containsExactly(
                new Event("message", "1", "a"), new Event("message", "1", "b"), new Event("message", "1", "c"),
                new Event("message", "", "d"));
    }

    @Test
    void aFieldWithoutColon_hasAnEmptyValue_andUnknownFieldsAreIgnored() throws IOException {
        assertThat(read("data\nretry: 10\nfoo: bar\n\n")).containsExactly(new Event("message", null, ""));
    }

    @Test
    void anUnfinishedEventAtTheEnd_isDropped() throws IOException {
        assertThat(read("data: complete\n\ndata: cut off")).containsExactly(new Event("message", null, "complete"));
    }

    @Test
    void aLeadingByteOrderMark_isSkipped_andUtf8IsDecoded() throws IOException {
        assertThat(read("\uFEFFdata: zone é 😀\n\n")).containsExactly(new Event("message", null, "zone é 😀"));
    }

    @Test
    void anEventOverTheLimit_isRefused() {
        String big = "data: " + "x".repeat(600) + "\n";
        EventStreamReader r = new EventStreamReader(
                new ByteArrayInputStream((big + big + "\n").getBytes(StandardCharsets.UTF_8)), 1000, c -> { });
        assertThatThrownBy(r::next).isInstanceOf(IOException.class).hasMessageContaining("1000");
        EventStreamReader longLine = new EventStreamReader(
                new ByteArrayInputStream(("data: " + "y".repeat(5000) + "\n\n").getBytes(StandardCharsets.UTF_8)), 1000,
                c -> { });
        assertThatThrownBy(longLine::next).isInstanceOf(IOException.class).hasMessageContaining("1000");
    }
}
