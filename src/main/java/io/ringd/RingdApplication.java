package io.ringd;

import java.util.Arrays;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

import io.ringd.store.ImportCommand;

/**
 * Entry point of the ringd service; {@code import ...} as the first argument
 * runs {@link ImportCommand} instead (no server starts).
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class RingdApplication {

    public static void main(String[] args) {
        if (args.length > 0 && args[0].equals("import")) {
            System.exit(ImportCommand.run(Arrays.copyOfRange(args, 1, args.length), System.out, System.err));
        }
        SpringApplication.run(RingdApplication.class, args);
    }
}
