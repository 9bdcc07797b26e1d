package io.ringd.page;

import org.springframework.context.annotation.Configuration;
import org.springframework.web.servlet.config.annotation.ResourceHandlerRegistry;
import org.springframework.web.servlet.config.annotation.WebMvcConfigurer;

/** The page's files, {@code /app/*}: the {@code page/app/} folder of the jar (JavaScript modules, styles, icon). */
@Configuration(proxyBeanMethods = false)
class PageConfiguration implements WebMvcConfigurer {

    @Override
    public void addResourceHandlers(ResourceHandlerRegistry registry) {
        registry.addResourceHandler("/app/**").addResourceLocations("classpath:/page/app/");
    }
}
