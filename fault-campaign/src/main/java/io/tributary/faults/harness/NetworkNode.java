package io.tributary.faults.harness;

import java.util.Objects;

/**
 * One node of a {@link Network}: its name in the harness ({@code n1}, {@code n2}, ...), the network namespace it lives
 * in, and its IPv4 address on the run's /24 (the name of its interface there is always {@code eth0}).
 */
public record NetworkNode(String name, String namespace, String address) {

    public NetworkNode {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(address, "address");
    }
}
