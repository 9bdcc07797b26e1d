package io.ringd.state;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;

/**
 * Turns the reasons ringd cannot start that an operator can fix into a short
 * failure report (what is wrong, what to do) instead of a stack trace: a
 * {@link CannotStartException} (a data folder another process holds, or one
 * that cannot be used), and a {@code ringd.*} setting its properties refuse
 * (a value out of range), before Spring Boot's own report, which would name
 * the exception's class.
 */
@Order(Ordered.HIGHEST_PRECEDENCE)
public class StartFailureAnalyzer implements FailureAnalyzer {

    @Override
    public FailureAnalysis analyze(Throwable failure) {
        CannotStartException cannot = find(failure, CannotStartException.class);
        if (cannot != null) {
            return new FailureAnalysis(cannot.getMessage(), cannot.action(), cannot);
        }
        BindException bind = find(failure, BindException.class);
        if (bind != null && bind.getName() != null && bind.getName().toString().startsWith("ringd.")) {
            IllegalArgumentException refused = find(bind, IllegalArgumentException.class);
            if (refused != null && refused.getMessage() != null) {
                return new FailureAnalysis("Invalid setting: " + refused.getMessage(),
                        "Correct it where it is given (an application properties file, a --" + bind.getName()
                                + "... argument, or a RINGD_... environment variable); docs/settings.md lists every "
                                + "setting with its default and range.",
                        bind);
            }
        }
        return null;
    }

    private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
