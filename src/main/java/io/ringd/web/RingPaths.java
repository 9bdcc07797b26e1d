package io.ringd.web;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.context.request.RequestAttributes;
import org.springframework.web.context.request.RequestContextHolder;
import org.springframework.web.context.request.ServletRequestAttributes;
import org.springframework.web.filter.OncePerRequestFilter;
import org.springframework.web.util.ServletRequestPathUtils;
import org.springframework.web.util.UrlPathHelper;

import io.ringd.state.InvalidInputException;
import io.ringd.state.RingNames;
import io.ringd.state.Rings;
import io.ringd.state.ServedRing;
import io.ringd.web.problem.ProblemWriter;
import io.ringd.web.problem.Problems;

/**
 * The paths of named rings (docs/ring.md section 22): a request to
 * {@code /rings/{name}/<path>} is served as {@code /<path>} for the ring
 * {@code name}, by the very handlers, filters and checks that serve the ring
 * {@code default} without the prefix, so the answers are the same. The ring a
 * request is for is {@link #of(HttpServletRequest)}; a ring that does not
 * exist is 404 naming {@code ring} before anything else runs.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 1)
public class RingPaths extends OncePerRequestFilter {

    /** The prefix of a named ring's paths. */
    public static final String PREFIX = "/rings/";
    /** The request attribute that holds the {@link ServedRing} a request is for. */
    public static final String ATTRIBUTE = RingPaths.class.getName() + ".ring";
    /** The request attribute that holds the path the client sent, before the prefix was taken off. */
    public static final String ORIGINAL_PATH = RingPaths.class.getName() + ".original";
    /** The request attribute that holds the name of a ring that does not exist, whose page is asked for. */
    public static final String MISSING = RingPaths.class.getName() + ".missing";

    private final Rings rings;
    private final ProblemWriter problems;

    RingPaths(Rings rings, ProblemWriter problems) {
        this.rings = rings;
        this.problems = problems;
    }

    /** The ring {@code request} is for: the one its path names, else {@code default}. */
    public static ServedRing of(HttpServletRequest request, Rings rings) {
        Object r = request.getAttribute(ATTRIBUTE);
        return r instanceof ServedRing s ? s : rings.defaultRing();
    }

    /** The ring the request being handled on this thread is for, else {@code default}. */
    public static ServedRing here(Rings rings) {
        RequestAttributes attributes = RequestContextHolder.getRequestAttributes();
        if (attributes instanceof ServletRequestAttributes s) {
            return of(s.getRequest(), rings);
        }
        return rings.defaultRing();
    }

    /**
     * The path prefix of {@code ring}'s paths: empty for {@code default}, {@code /rings/<name>} for another, so
     * that links and {@code Location} headers name the path the client used.
     */
    public static String prefix(HttpServletRequest request) {
        Object r = request.getAttribute(ATTRIBUTE);
        return r instanceof ServedRing s ? PREFIX + s.name() : "";
    }

    @Override
    protected boolean shouldNotFilterErrorDispatch() {
        return true; // the attribute set on the request dispatch stays
    }

    /** A request resumed after its body arrived (BodyArrival) comes back on its original path: served again. */
    @Override
    protected boolean shouldNotFilterAsyncDispatch() {
        return false;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String context = request.getContextPath();
        String uri = request.getRequestURI();
        String path = uri.substring(context.length());
        if (!path.startsWith(PREFIX)) {
            chain.doFilter(request, response);
            return;
        }
        String rest = path.substring(PREFIX.length());
        int slash = rest.indexOf('/');
        if (slash < 0) {
            chain.doFilter(request, response); // /rings/{name} itself: the rings' own calls
            return;
        }
        String name = rest.substring(0, slash);
        String remainder = rest.substring(slash);
        try {
            RingNames.check(name, "ring");
        } catch (InvalidInputException e) {
            problems.write(response, Problems.BAD_REQUEST, e.getMessage(), e.field());
            return;
        }
        ServedRing ring = rings.find(name);
        if (ring == null && pageOfMissing(request, remainder)) {
            // the page says that the ring does not exist (its page is 404, its files are the page's own)
            request.setAttribute(MISSING, name);
            chain.doFilter(withoutPrefix(request, name, remainder), response);
            return;
        }
        if (ring == null) {
            problems.write(response, Problems.RING_NOT_FOUND, Rings.notFound(name), "ring");
            return;
        }
        if (!servedPerRing(remainder)) {
            problems.write(response, Problems.NOT_FOUND, remainder + " is not served per ring: only the ring's "
                    + "own paths are (docs/ring.md section 22)", null);
            return;
        }
        request.setAttribute(ATTRIBUTE, ring);
        request.setAttribute(ORIGINAL_PATH, path);
        chain.doFilter(withoutPrefix(request, name, remainder), response);
    }

    /** {@code request} as {@code remainder}, the path under {@code /rings/<name>}, with no path parsed before. */
    private static HttpServletRequest withoutPrefix(HttpServletRequest request, String name, String remainder) {
        request.removeAttribute(ServletRequestPathUtils.PATH_ATTRIBUTE);
        request.removeAttribute(UrlPathHelper.PATH_ATTRIBUTE);
        return new Prefixless(request, request.getContextPath() + remainder, PREFIX.length() + name.length());
    }

    /**
     * Whether a request for a ring that does not exist is for its page, answered with the page (404)
     * so that a link to a deleted ring says so in a browser: a GET of {@code /} that accepts HTML, or of
     * one of the page's files. Any other is the 404 problem naming {@code ring}.
     */
    static boolean pageOfMissing(HttpServletRequest request, String remainder) {
        if (!"GET".equals(request.getMethod()) && !"HEAD".equals(request.getMethod())) {
            return false;
        }
        if (remainder.startsWith("/app/")) {
            return true;
        }
        String accept = request.getHeader("Accept");
        return remainder.equals("/") && accept != null && accept.contains("text/html");
    }

    /** What a ring's prefix may lead to: its API paths and its page, not the instance's own paths. */
    static boolean servedPerRing(String remainder) {
        for (String own : INSTANCE_PATHS) {
            if (remainder.startsWith(own) && (remainder.length() == own.length()
                    || remainder.charAt(own.length()) == '/' || remainder.charAt(own.length()) == '.')) {
                return false;
            }
        }
        return true;
    }

    /** The instance's own paths, never served under a ring's prefix. */
    private static final String[] INSTANCE_PATHS = {"/rings", "/actuator", "/v3/api-docs", "/swagger-ui", "/error"};

    /** The request with the ring's prefix taken off its path. */
    private static final class Prefixless extends HttpServletRequestWrapper {

        private final String uri;
        private final String servletPath;

        Prefixless(HttpServletRequest request, String uri, int cut) {
            super(request);
            this.uri = uri;
            String decoded = request.getServletPath();
            this.servletPath = decoded.length() >= cut ? decoded.substring(cut) : decoded;
        }

        @Override
        public String getRequestURI() {
            return uri;
        }

        @Override
        public StringBuffer getRequestURL() {
            StringBuffer url = new StringBuffer();
            url.append(getScheme()).append("://").append(getServerName());
            int port = getServerPort();
            if (port > 0 && !(port == 80 && "http".equals(getScheme())) && !(port == 443 && "https".equals(getScheme()))) {
                url.append(':').append(port);
            }
            return url.append(uri);
        }

        @Override
        public String getServletPath() {
            return servletPath;
        }

        @Override
        public String getPathInfo() {
            return null;
        }
    }
}
