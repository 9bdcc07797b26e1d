package io.ringd.web;

import java.beans.PropertyEditorSupport;
import java.util.regex.Pattern;

import org.springframework.web.bind.WebDataBinder;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.InitBinder;

/**
 * Query values read exactly as the API describes them (docs/ring.md
 * section 18): an integer is decimal digits with an optional leading
 * {@code -}, and a boolean is {@code true} or {@code false} (in any case).
 * Spring's own reading is wider: {@code 0x1F}, {@code #1F} and {@code +7}
 * read as numbers, {@code yes}, {@code on} and {@code 1} as true. A value it
 * takes and this refuses is a 400 naming the parameter, as any other value
 * that is not of the parameter's type.
 */
@ControllerAdvice
class StrictQueryValues {

    /*
     * Why editors and not a Converter: when the conversion service refuses a
     * value, the binder falls back to its default property editor, which reads
     * hex and "yes" as before. A custom editor is asked first and alone.
     */

    /** At most 19 digits: the value then fits a long or is refused by the parse, never wrapped. */
    private static final Pattern DECIMAL = Pattern.compile("-?[0-9]{1,19}");

    @InitBinder
    void strictValues(WebDataBinder binder) {
        binder.registerCustomEditor(Long.class, new Decimal(true, true));
        binder.registerCustomEditor(long.class, new Decimal(true, false));
        binder.registerCustomEditor(Integer.class, new Decimal(false, true));
        binder.registerCustomEditor(int.class, new Decimal(false, false));
        binder.registerCustomEditor(Boolean.class, new TrueOrFalse(true));
        binder.registerCustomEditor(boolean.class, new TrueOrFalse(false));
    }

    /** A long, or an int when {@code wide} is false; an empty value is absent where {@code nullable}. */
    static Number decimal(String text, boolean wide) {
        String s = text.strip();
        if (!DECIMAL.matcher(s).matches()) {
            throw new IllegalArgumentException("not a decimal integer: " + text);
        }
        long value = Long.parseLong(s); // NumberFormatException (an IllegalArgumentException) past a long
        return wide ? (Number) value : (Number) Math.toIntExact(value);
    }

    static boolean trueOrFalse(String text) {
        String s = text.strip();
        if (s.equalsIgnoreCase("true")) {
            return true;
        }
        if (s.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("not true or false: " + text);
    }

    private static final class Decimal extends PropertyEditorSupport {
        private final boolean wide;
        private final boolean nullable;

        Decimal(boolean wide, boolean nullable) {
            this.wide = wide;
            this.nullable = nullable;
        }

        @Override
        public void setAsText(String text) {
            if (nullable && (text == null || text.isBlank())) {
                setValue(null); // an empty value is an absent one, as Spring reads it
                return;
            }
            try {
                setValue(decimal(text == null ? "" : text, wide));
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException("out of range: " + text, e);
            }
        }
    }

    private static final class TrueOrFalse extends PropertyEditorSupport {
        private final boolean nullable;

        TrueOrFalse(boolean nullable) {
            this.nullable = nullable;
        }

        @Override
        public void setAsText(String text) {
            if (nullable && (text == null || text.isBlank())) {
                setValue(null);
                return;
            }
            setValue(trueOrFalse(text == null ? "" : text));
        }
    }
}
