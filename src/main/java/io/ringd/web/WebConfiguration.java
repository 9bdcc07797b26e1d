package io.ringd.web;

import java.util.List;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.converter.HttpMessageConverters;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.CorsRegistry;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The container and MVC settings that let any key through the path: encoded
 * slashes pass to the application undecoded (the path variable decodes
 * them), and the container's own error pages answer with problem details.
 * The request-line limit is {@code server.max-http-request-header-size} in
 * {@code application.yml}. A slow client holds no worker thread: its
 * headers are bounded by {@code ringd.http.header-timeout}
 * ({@link HeaderDeadline}), its body by {@code ringd.http.body-timeout}
 * ({@link BodyArrival}); the connection limits are {@code server.jetty.*}
 * in {@code application.yml} and {@code ringd.http.accept-queue}
 * (docs/settings.md), set up in {@link JettyConfiguration}.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties({ CorsProperties.class, HttpProperties.class })
class WebConfiguration implements WebMvcConfigurer {

    /** Runs first, so that even a refused admin call carries the ring headers. */
    static final int RING_HEADERS_ORDER = Ordered.HIGHEST_PRECEDENCE;

    private final RingHeadersInterceptor ringHeaders;
    private final QueryParameters queryParameters;
    private final AcceptableAnswers acceptableAnswers;
    private final CorsProperties cors;

    WebConfiguration(RingHeadersInterceptor ringHeaders, QueryParameters queryParameters,
            AcceptableAnswers acceptableAnswers, CorsProperties cors) {
        this.ringHeaders = ringHeaders;
        this.queryParameters = queryParameters;
        this.acceptableAnswers = acceptableAnswers;
        this.cors = cors;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(ringHeaders).order(RING_HEADERS_ORDER); // it acts on RingApi handlers only
        registry.addInterceptor(queryParameters).order(RING_HEADERS_ORDER + 50); // before the admin check
        registry.addInterceptor(acceptableAnswers).order(RING_HEADERS_ORDER + 60); // before any handler runs
    }

    /** Answers are JSON (errors problem+json) only: no YAML or other representation a library brings along. */
    @Override
    public void configureMessageConverters(HttpMessageConverters.ServerBuilder builder) {
        builder.configureMessageConvertersList(list -> list.removeIf(c -> c.getSupportedMediaTypes().stream()
                .anyMatch(t -> t.getSubtype().contains("yaml") || t.getSubtype().contains("xml")
                        || t.getSubtype().contains("cbor") || t.getSubtype().contains("smile"))));
    }

    /** No cross-origin access unless {@code ringd.cors.allowed-origins} names origins. */
    @Override
    public void addCorsMappings(CorsRegistry registry) {
        if (!cors.allowedOrigins().isEmpty()) {
            registry.addMapping("/**").allowedOrigins(cors.allowedOrigins().toArray(String[]::new))
                    .allowedMethods("GET", "HEAD", "POST", "PUT", "DELETE")
                    .allowedHeaders("Authorization", "Content-Type", "If-Match", "If-None-Match", "Last-Event-ID",
                            RingHeaders.VERSION)
                    .exposedHeaders("ETag", RingHeaders.VERSION, RingHeaders.NAME, RingHeaders.STALE, "WWW-Authenticate")
                    .allowCredentials(false).maxAge(600);
        }
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(ringHeaders);
    }

    /** Cross-origin refusals as problem details. */
    @Bean
    static BeanPostProcessor corsRefusals() {
        return CorsRefusals.onEveryHandlerMapping();
    }
}
