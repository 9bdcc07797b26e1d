package io.ringd.state;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** A start-up refused because the shared store lost the ring other instances still serve. */
public class StoreLostFailureAnalyzer extends AbstractFailureAnalyzer<StoreLostException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, StoreLostException cause) {
        return new FailureAnalysis(cause.getMessage(),
                "ringd did not start, so that it never makes a new, empty ring beside the one other instances "
                        + "serve. Restore the store from one of them: POST /store/reseed on an instance that still "
                        + "holds the ring (docs/settings.md, \"A lost store\"), then start this one again.",
                cause);
    }
}
