package io.tributary.deploy.bin;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * A main class for {@code bin/kafka-run-class} to run in the tests: prints on stdout which JDK runs
 * it, the system properties the tests set through {@code KAFKA_OPTS}, whether its heap honours
 * {@code KAFKA_HEAP_OPTS}, and its arguments.
 */
public final class JvmProbe {

    private JvmProbe() {
    }

    public static void main(String[] args) throws Exception {
        System.out.println("java.home=" + Path.of(System.getProperty("java.home")).toRealPath());
        System.out.println("tributary.probe=" + System.getProperty("tributary.probe"));
        System.out.println("second.option=" + System.getProperty("second.option"));
        System.out.println("max heap at most 48 MiB=" + (Runtime.getRuntime().maxMemory() <= 48L * 1024 * 1024));
        System.out.println("args=" + Arrays.toString(args));
    }
}
