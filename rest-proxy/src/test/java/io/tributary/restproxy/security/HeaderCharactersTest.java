package io.tributary.restproxy.security;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * {@link HeaderCharacters} allows exactly what Spring Security's default header patterns allow, over
 * every code point alone and over random strings mixing controls, tabs, unassigned code points and
 * lone surrogates.
 */
class HeaderCharactersTest {

    private static final Pattern NAMES = Pattern.compile("[\\p{IsAssigned}&&[^\\p{IsControl}]]*");
    private static final Pattern VALUES = Pattern.compile("[\\p{IsAssigned}&&[[^\\p{IsControl}]||\\t]]*");

    @Test
    void everyCodePointAloneIsJudgedAsByTheFirewallsPatterns() {
        for (int cp = 0; cp <= Character.MAX_CODE_POINT; cp++) {
            String s = new String(Character.toChars(cp));
            assertThat(HeaderCharacters.allowedInName(s)).as("U+%04X in a name", cp).isEqualTo(NAMES.matcher(s).matches());
            assertThat(HeaderCharacters.allowedInValue(s)).as("U+%04X in a value", cp)
                .isEqualTo(VALUES.matcher(s).matches());
        }
    }

    @Test
    void randomStringsAreJudgedAsByTheFirewallsPatterns() {
        SplittableRandom random = new SplittableRandom(20261207);
        int[] interesting = {'\t', '\n', '\r', 0, 0x7f, 0x85, 0x9f, 0xa0, 0x378, 0xd800, 0xdc00, 0xfffe, 0x1f600,
            0xe0001, 0x10ffff, 'a', ' ', ':'};
        int allowedNames = 0;
        for (int i = 0; i < 20_000; i++) {
            StringBuilder s = new StringBuilder();
            int length = random.nextInt(6);
            for (int j = 0; j < length; j++) {
                int cp = random.nextBoolean() ? interesting[random.nextInt(interesting.length)]
                    : random.nextInt(Character.MAX_CODE_POINT + 1);
                if (cp >= 0xd800 && cp <= 0xdfff) {
                    s.append((char) cp); // a lone surrogate, as a malformed header can carry
                } else {
                    s.appendCodePoint(cp);
                }
            }
            String text = s.toString();
            boolean name = NAMES.matcher(text).matches();
            allowedNames += name ? 1 : 0;
            assertThat(HeaderCharacters.allowedInName(text)).as("name %s", text.codePoints().boxed().toList()).isEqualTo(name);
            assertThat(HeaderCharacters.allowedInValue(text)).as("value %s", text.codePoints().boxed().toList())
                .isEqualTo(VALUES.matcher(text).matches());
        }
        assertThat(allowedNames).as("both outcomes are exercised").isBetween(1_000, 19_000);
    }
}
