package io.ringd.lookup;

import java.util.List;

/** The answer of a preference list: {@code {"key","nodes","version"}}, element 0 the key's route. */
record PreferenceAnswer(String key, List<String> nodes, long version) {
}
