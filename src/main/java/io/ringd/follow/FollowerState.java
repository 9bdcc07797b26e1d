package io.ringd.follow;

import java.util.Locale;

/** The states of docs/ring.md section 23, in the order their counts are shown. */
enum FollowerState {
    CURRENT, BEHIND, DIVERGED, SILENT;

    String wire() {
        return name().toLowerCase(Locale.ROOT);
    }

    static FollowerState parse(String s) {
        for (FollowerState st : values()) {
            if (st.wire().equals(s)) {
                return st;
            }
        }
        return null;
    }
}
