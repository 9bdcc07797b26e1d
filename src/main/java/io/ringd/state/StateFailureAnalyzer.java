package io.ringd.state;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;


/** Turns unreadable stored state into a start-up report that names the file and what to do. */
public class StateFailureAnalyzer extends AbstractFailureAnalyzer<StateUnreadableException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, StateUnreadableException cause) {
        return new FailureAnalysis(cause.getMessage(),
                "ringd did not start, so that it never serves an empty or older ring in place of the stored one. "
                        + "Restore " + cause.where() + " from a backup, or move it away to start a new, empty ring.",
                cause);
    }
}
