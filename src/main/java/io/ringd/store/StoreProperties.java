package io.ringd.store;

import java.nio.file.Path;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Where the ring's state lives.
 *
 * @param store   {@code file} (default), {@code memory} or {@code zookeeper}
 * @param dataDir the data folder: the state file of the {@code file} store and the generated admin token
 */
@ConfigurationProperties("ringd")
public record StoreProperties(@DefaultValue("file") Kind store, @DefaultValue("./data") Path dataDir) {

    /** The kinds of store. */
    public enum Kind {
        FILE, MEMORY, ZOOKEEPER
    }
}
