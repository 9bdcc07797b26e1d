package io.ringd;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** Entry point of the ringd service. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class RingdApplication {

    public static void main(String[] args) {
        SpringApplication.run(RingdApplication.class, args);
    }
}
