package io.tributary.adminui.messages;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Open tails are closed when the app stops, and none is accepted after. */
class OpenTailsTest {

    private static InputStream counting(AtomicInteger closed) {
        return new ByteArrayInputStream(new byte[0]) {
            @Override
            public void close() {
                closed.incrementAndGet();
            }
        };
    }

    @Test
    void stopClosesEveryOpenTailAndRefusesNewOnes() {
        OpenTails tails = new OpenTails();
        tails.start();
        AtomicInteger closed = new AtomicInteger();
        InputStream ended = counting(closed);
        assertThat(tails.add(counting(closed))).isTrue();
        assertThat(tails.add(ended)).isTrue();
        tails.remove(ended);
        assertThat(tails.size()).isEqualTo(1);

        tails.stop();
        assertThat(closed).as("only the tail still open").hasValue(1);
        assertThat(tails.size()).isZero();
        assertThat(tails.add(counting(closed))).as("refused while stopped").isFalse();
        assertThat(closed).as("and closed at once").hasValue(2);
    }
}
