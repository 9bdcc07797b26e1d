package io.ringd.web.problem;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Deque;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.springframework.http.ProblemDetail;
import org.springframework.http.converter.HttpMessageNotReadableException;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.TokenStreamContext;
import tools.jackson.core.exc.InputCoercionException;
import tools.jackson.core.exc.StreamConstraintsException;
import tools.jackson.core.exc.StreamReadException;
import tools.jackson.databind.DatabindException;
import tools.jackson.databind.exc.MismatchedInputException;
import tools.jackson.databind.exc.UnrecognizedPropertyException;

/**
 * The problem for a request body that could not be read: past the limit
 * (413), not strict UTF-8, not JSON, or JSON of another shape than the
 * request's, naming the field at fault ({@code changes[2].weight}) where
 * there is one. The parser's own words are passed on only when they name
 * none of its classes or features.
 */
final class UnreadableBody {

    private static final Pattern DUPLICATE = Pattern.compile("^Duplicate Object property \"(.*)\"", Pattern.DOTALL);

    private UnreadableBody() {
    }

    static ProblemDetail problem(HttpMessageNotReadableException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof BodyTooLargeException tooLarge) {
                return Problems.PAYLOAD_TOO_LARGE.detail(tooLarge.getMessage(), "body");
            }
        }
        String why = "the body must be a JSON document";
        if ((e.getCause() instanceof DatabindException || e.getCause() instanceof InputCoercionException)
                && !((JacksonException) e.getCause()).getPath().isEmpty()) {
            return bodyField((JacksonException) e.getCause()); // valid JSON, not of the body's shape
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof InvalidBodyException invalid) {
                return Problems.BAD_REQUEST.detail(invalid.getMessage(), "body");
            }
        }
        if (e.getCause() instanceof StreamReadException sre) {
            String duplicate = duplicateField(sre);
            if (duplicate != null) {
                return Problems.BAD_REQUEST.detail("the field " + duplicate + " is given twice; give it once",
                        duplicate);
            }
        }
        if (e.getCause() instanceof MismatchedInputException) {
            why = "the body must be a JSON object";
        } else if (e.getCause() instanceof StreamConstraintsException) {
            why = "the body holds a number, string or nesting too large to read";
        } else if (e.getCause() instanceof JacksonException je) {
            String original = String.valueOf(je.getOriginalMessage())
                    .replaceAll("\\s*\\(start marker at \\[Source.*?\\]\\)", "");
            // Parser messages that name its classes or features say nothing to a client.
            boolean internal = original.contains("`") || original.contains("tools.jackson")
                    || original.contains("Feature");
            why = "the body is not valid JSON" + (internal ? "" : ": " + original);
            if (je.getLocation() != null && je.getLocation().getLineNr() > 0) {
                why += " (line " + je.getLocation().getLineNr() + ", column " + je.getLocation().getColumnNr() + ")";
            }
        } else if (e.getMessage() != null && e.getMessage().startsWith("Required request body is missing")) {
            why = "a JSON body is required";
        }
        return Problems.BAD_REQUEST.detail(why, "body");
    }

    /** The field a duplicate-property refusal is about ({@code changes[1].id}), or {@code null} if it is not one. */
    private static String duplicateField(StreamReadException e) {
        Matcher m = DUPLICATE.matcher(String.valueOf(e.getOriginalMessage()));
        if (!m.find()) {
            return null;
        }
        StringBuilder path = new StringBuilder();
        JsonParser parser = e.processor();
        if (parser != null) {
            Deque<TokenStreamContext> chain = new ArrayDeque<>();
            for (TokenStreamContext c = parser.streamReadContext(); c != null; c = c.getParent()) {
                chain.push(c);
            }
            chain.pollLast(); // the object that holds the duplicate
            for (TokenStreamContext c : chain) {
                if (c.inArray()) {
                    path.append('[').append(Math.max(0, c.getCurrentIndex())).append(']');
                } else if (c.inObject() && c.currentName() != null) {
                    path.append(path.isEmpty() ? "" : ".").append(c.currentName());
                }
            }
        }
        return ApiException.abbreviate(path + (path.isEmpty() ? "" : ".") + m.group(1));
    }

    /** A body that is JSON but not of the request's shape, naming the field at fault ({@code changes[2].weight}). */
    private static ProblemDetail bodyField(JacksonException e) {
        StringBuilder path = new StringBuilder();
        for (JacksonException.Reference r : e.getPath()) {
            if (r.getIndex() >= 0) {
                path.append('[').append(r.getIndex()).append(']');
            } else if (r.getPropertyName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(r.getPropertyName());
            }
        }
        String field = path.isEmpty() ? "body" : ApiException.abbreviate(path.toString());
        if (e instanceof UnrecognizedPropertyException u) {
            List<String> known = u.getKnownPropertyIds().stream().map(String::valueOf).sorted().toList();
            return Problems.BAD_REQUEST.detail("unknown field " + ApiException.abbreviate(u.getPropertyName())
                    + "; expected one of " + known, field);
        }
        Class<?> target = e instanceof MismatchedInputException m ? m.getTargetType()
                : e instanceof InputCoercionException c ? c.getTargetType() : null;
        return Problems.BAD_REQUEST.detail(field + " must be " + describe(target), field);
    }

    private static String describe(Class<?> type) {
        if (type == null) {
            return "of another type";
        }
        if (type == Double.class || type == double.class || type == Float.class || type == float.class) {
            return "a JSON number";
        }
        if (type == Integer.class || type == int.class || type == Long.class || type == long.class) {
            return "an integer in range";
        }
        if (type == String.class) {
            return "a string";
        }
        if (type == Boolean.class || type == boolean.class) {
            return "true or false";
        }
        if (Collection.class.isAssignableFrom(type) || type.isArray()) {
            return "an array";
        }
        return "a JSON object";
    }
}
