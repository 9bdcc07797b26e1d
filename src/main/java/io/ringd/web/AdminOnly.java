package io.ringd.web;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a handler that only an admin may call: a feature declares it, the
 * admin package enforces it (the bearer token) and the API description shows
 * the security requirement. A ring token may make the admin calls of its
 * own ring, unless {@link #instance()}.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface AdminOnly {

    /**
     * An instance-wide call (making and deleting rings): the admin token only, never a ring token
     * (docs/ring.md section 22).
     */
    boolean instance() default false;
}
