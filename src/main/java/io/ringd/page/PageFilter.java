package io.ringd.page;

import java.io.IOException;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The ring's web page: {@code /} ({@link PageController}) and its files under
 * {@code /app/} ({@link PageConfiguration}).
 * Their answers carry a Content-Security-Policy that allows nothing but this
 * origin: no inline script or style, no other site, no plugin, no framing;
 * and they are revalidated on every use, so the files of a new version are
 * never mixed with cached ones.
 * The page is static; it reads and changes the ring through the API alone.
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE + 5)
class PageFilter extends OncePerRequestFilter {

    /** Same origin only; what {@code default-src} does not cover is closed too. */
    static final String POLICY = "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    /** Whether {@code path} is the page or one of its files. */
    static boolean isPage(String path) {
        return path.equals("/") || path.startsWith("/app/");
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        String path = request.getRequestURI().substring(request.getContextPath().length());
        if (isPage(path)) {
            response.setHeader("Content-Security-Policy", POLICY);
            response.setHeader("Cache-Control", "no-cache"); // revalidated (Last-Modified): a new jar's files are seen at once
        }
        chain.doFilter(request, response);
    }
}
