package io.ringd.web;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

import io.ringd.web.problem.BodyTooLargeException;
import io.ringd.web.problem.InvalidBodyException;

/**
 * A request whose body fails, as it is read, past {@code limit} bytes
 * (whatever its announced length) and unless it is strict UTF-8
 * ({@link StrictUtf8}): an invalid byte, an overlong form, a surrogate or a
 * body that ends inside a character is refused as the path's bytes are.
 */
final class CheckedBody extends HttpServletRequestWrapper {

    private final long limit;
    private ServletInputStream stream;

    CheckedBody(HttpServletRequest request, long limit) {
        super(request);
        this.limit = limit;
    }

    @Override
    public BufferedReader getReader() throws IOException {
        return new BufferedReader(new InputStreamReader(getInputStream(), StandardCharsets.UTF_8));
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
        if (stream == null) {
            stream = new Checked(super.getInputStream(), limit);
        }
        return stream;
    }

    private static final class Checked extends ServletInputStream {
        private final ServletInputStream in;
        private final long limit;
        private final StrictUtf8 utf8 = new StrictUtf8();
        private long read;

        Checked(ServletInputStream in, long limit) {
            this.in = in;
            this.limit = limit;
        }

        @Override
        public int read() throws IOException {
            int b = in.read();
            if (b >= 0) {
                count(1);
                if (!utf8.check(b)) {
                    throw invalid();
                }
            } else {
                end();
            }
            return b;
        }

        @Override
        public int read(byte[] buf, int off, int len) throws IOException {
            int n = in.read(buf, off, len);
            if (n > 0) {
                count(n);
                if (utf8.check(buf, off, n) >= 0) {
                    throw invalid();
                }
            } else if (n < 0) {
                end();
            }
            return n;
        }

        private void count(int n) throws IOException {
            read += n;
            if (read > limit) {
                throw new BodyTooLargeException(limit);
            }
        }

        private void end() throws InvalidBodyException {
            if (!utf8.atBoundary()) {
                utf8.reset();
                throw new InvalidBodyException("the body is not valid UTF-8: it ends inside a character");
            }
        }

        /** The refusal of an invalid sequence, placed by the bytes read so far. */
        private InvalidBodyException invalid() {
            return new InvalidBodyException("the body is not valid UTF-8 (an invalid, overlong or surrogate "
                    + "sequence near byte " + read + ")");
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
