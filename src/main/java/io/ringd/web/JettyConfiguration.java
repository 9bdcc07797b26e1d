package io.ringd.web;

import java.util.EnumSet;
import java.util.Set;

import org.eclipse.jetty.compression.gzip.GzipCompression;
import org.eclipse.jetty.compression.server.CompressionConfig;
import org.eclipse.jetty.compression.server.CompressionHandler;
import org.eclipse.jetty.ee11.servlet.ServletContextHandler;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.http.UriCompliance.Violation;
import org.eclipse.jetty.server.Connector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jetty.servlet.JettyServletWebServerFactory;
import org.springframework.boot.web.server.Compression;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The web server: Jetty, set up so that any key gets through the path, slow
 * clients hold no thread for long, and the container's own refusals are
 * problem details. Jetty rather than Tomcat because an open
 * {@code /ring/events} stream holds about a seventh of the heap on Jetty
 * (Tomcat keeps a whole request processor and its buffers for as long as an
 * asynchronous answer is open: docs/benchmarks.md, "Fan-out").
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(HttpProperties.class)
class JettyConfiguration {

    /**
     * Any key goes in the path: encoded slashes, backslashes, semicolons, percent signs and dot segments, and
     * empty segments, reach the application undecoded (the path variable decodes them). What is not a key is
     * still refused with 400: a percent sign not followed by two hex digits, bytes that are not UTF-8 (in the
     * path and in the query), %u escapes, raw characters a URI may not hold, user info and fragments.
     */
    static final UriCompliance KEYS_IN_THE_PATH = new UriCompliance("RINGD_KEYS", EnumSet.of(
            Violation.AMBIGUOUS_PATH_SEGMENT, Violation.AMBIGUOUS_EMPTY_SEGMENT, Violation.AMBIGUOUS_PATH_SEPARATOR,
            Violation.AMBIGUOUS_PATH_PARAMETER, Violation.AMBIGUOUS_PATH_ENCODING,
            Violation.SUSPICIOUS_PATH_CHARACTERS));

    /** Runs after Spring Boot's own customizer, which applies {@code server.*}: this one reads its compression. */
    @Bean
    WebServerFactoryCustomizer<JettyServletWebServerFactory> ringdJetty(HttpProperties http) {
        return factory -> {
            Compression compression = factory.getCompression();
            boolean compress = compression != null && compression.getEnabled();
            if (compress) {
                factory.setCompression(null); // Spring Boot's handler would rewrite ETags and inflate bodies
            }
            factory.addServerCustomizers(server -> customize(server, http, compress ? compression : null));
        };
    }

    private static void customize(Server server, HttpProperties http, Compression compression) {
        server.setErrorHandler(new ProblemErrorHandler());
        server.addBean(new HeaderDeadline(server, http.headerTimeout().toMillis()));
        for (Connector connector : server.getConnectors()) {
            if (connector instanceof ServerConnector network) {
                network.setAcceptQueueSize(http.acceptQueue());
            }
            HttpConnectionFactory h1 = connector.getConnectionFactory(HttpConnectionFactory.class);
            if (h1 != null) {
                HttpConfiguration config = h1.getHttpConfiguration();
                config.setUriCompliance(KEYS_IN_THE_PATH);
                // ringd takes JSON bodies only: the container never reads a form body into parameters, which it
                // would do at the client's pace before BodyArrival, and a parameter lookup (the query check, a
                // handler mapping's) must not read, or fail on, one.
                config.setFormEncodedMethods(Set.of());
                config.setSendServerVersion(false);
                config.setSendXPoweredBy(false);
            }
        }
        ServletContextHandler context = server.getDescendant(ServletContextHandler.class);
        if (context != null) {
            context.getServletHandler().setDecodeAmbiguousURIs(true);
        }
        if (compression != null) {
            server.setHandler(compressing(server, compression));
        }
    }

    /**
     * Answers of {@code server.compression.min-response-size} or more, of its mime types, gzipped for a client
     * that accepts it. The ETag stays the one ringd made (docs/ring.md names its form); a request body is never
     * inflated (a Content-Encoding on a body is refused with 415, as before the container saw it).
     */
    private static CompressionHandler compressing(Server server, Compression compression) {
        GzipCompression gzip = new GzipCompression() {
            @Override
            public String etag(String etag) {
                return etag;
            }
        };
        gzip.setMinCompressSize((int) compression.getMinResponseSize().toBytes());
        CompressionConfig.Builder config = CompressionConfig.builder();
        for (String type : compression.getMimeTypes()) {
            config.compressIncludeMimeType(type);
        }
        for (HttpMethod method : HttpMethod.values()) {
            config.decompressExcludeMethod(method.name());
        }
        CompressionHandler handler = new CompressionHandler(server.getHandler());
        handler.putCompression(gzip);
        handler.putConfiguration("/", config.build());
        return handler;
    }
}
