package io.ringd.admin;

import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.web.servlet.config.annotation.InterceptorRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** Puts the admin check in front of every handler (it acts on {@code AdminOnly} ones only). */
@Configuration(proxyBeanMethods = false)
class AdminConfiguration implements WebMvcConfigurer {

    private final AdminInterceptor admin;

    AdminConfiguration(AdminInterceptor admin) {
        this.admin = admin;
    }

    @Override
    public void addInterceptors(InterceptorRegistry registry) {
        registry.addInterceptor(admin).order(Ordered.HIGHEST_PRECEDENCE + 100); // after the ring headers
    }
}
