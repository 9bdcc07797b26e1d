package io.ringd.web;

import java.util.List;

import org.apache.catalina.core.StandardHost;
import org.apache.tomcat.util.buf.EncodedSolidusHandling;
import org.springframework.boot.tomcat.servlet.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.method.support.HandlerMethodArgumentResolver;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/**
 * The container and MVC settings that let any key through the path: encoded
 * slashes pass to the application undecoded (the path variable decodes
 * them), and the container's own error pages answer with problem details.
 * The request-line limit is {@code server.max-http-request-header-size} in
 * {@code application.yml}.
 */
@Configuration(proxyBeanMethods = false)
class WebConfiguration implements WebMvcConfigurer {

    /** Runs first, so that even a refused admin call carries the ring headers. */
    static final int RING_HEADERS_ORDER = Ordered.HIGHEST_PRECEDENCE;

    private final RingHeadersInterceptor ringHeaders;

    WebConfiguration(RingHeadersInterceptor ringHeaders) {
        this.ringHeaders = ringHeaders;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(ringHeaders).order(RING_HEADERS_ORDER); // it acts on RingApi handlers only
    }

    @Override
    public void addArgumentResolvers(List<HandlerMethodArgumentResolver> resolvers) {
        resolvers.add(ringHeaders);
    }

    @Bean
    WebServerFactoryCustomizer<TomcatServletWebServerFactory> ringdTomcat() {
        return factory -> {
            factory.addConnectorCustomizers(connector -> {
                connector.setEncodedSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
                connector.setEncodedReverseSolidusHandling(EncodedSolidusHandling.PASS_THROUGH.getValue());
            });
            factory.addContextCustomizers(context -> {
                if (context.getParent() instanceof StandardHost host) {
                    host.setErrorReportValveClass(ProblemErrorReportValve.class.getName());
                }
            });
        };
    }
}
