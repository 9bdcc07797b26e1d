package io.ringd.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a controller whose answers are about the ring: they carry
 * {@code X-Ring-Version} (and {@code X-Ring-Stale} for clients that hold an
 * older version), and their handlers may take the {@link io.ringd.state.RingState}
 * the request is answered from as a parameter. {@link RingHeaders#carries} is
 * the one place that decides.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface RingApi {
}
