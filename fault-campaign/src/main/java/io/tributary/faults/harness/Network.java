package io.tributary.faults.harness;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The network of one campaign run, built with iproute2 only: a bridge namespace {@code <prefix>-br} holding the
 * bridge {@code br0}, and one namespace {@code <prefix>-n<i>} per node whose {@code eth0} is a veth into the bridge,
 * addressed {@code 10.<a>.<b>.<10+i>/24}. The host (the root namespace, where the test's clients run) reaches the
 * nodes through one more veth, {@code <hostInterface>} at {@code 10.<a>.<b>.1/24}. Nothing leaves the machine: the
 * bridge has no other port.
 *
 * <p>A partition adds {@code prohibit} routes for each peer's /32 inside every namespace on both sides (packets to a
 * prohibited address fail at once with "no route"); {@link #heal()} removes them. {@link #close()} deletes the
 * namespaces and the host veth (which takes every veth and route with it), also from a JVM shutdown hook;
 * {@link #cleanupStale(CommandRunner, String)} removes what a killed run left behind.
 *
 * <p>Namespace and interface names must stay short: a Linux interface name has at most 15 characters.
 * Thread-safe: the mutating methods are synchronized.
 */
public final class Network implements AutoCloseable {

    /** The prefix of every namespace and host interface a harness creates; {@link #cleanupStale} removes them. */
    public static final String PREFIX = "trib";

    private final CommandRunner runner;
    private final String run;
    private final String prefix;
    private final String subnet;
    private final String hostInterface;
    private final Map<String, NetworkNode> nodes = new LinkedHashMap<>();
    private final Set<List<String>> partitionRoutes = new LinkedHashSet<>();
    private final Thread shutdownHook;
    private boolean created;
    private boolean closed;

    /**
     * @param run    a short identifier of this run ({@code [a-z0-9]{1,6}}), part of every name
     * @param subnet the first three octets of the run's /24, such as {@code 10.213.7}
     */
    Network(CommandRunner runner, String run, String subnet, int nodeCount) {
        if (!run.matches("[a-z0-9]{1,6}")) {
            throw new IllegalArgumentException("run id '" + run + "' is not 1 to 6 lower-case letters or digits");
        }
        if (nodeCount < 1 || nodeCount > 200) {
            throw new IllegalArgumentException("node count " + nodeCount + " is not within 1..200");
        }
        this.runner = runner;
        this.run = run;
        this.prefix = PREFIX + "-" + run;
        this.subnet = subnet;
        this.hostInterface = PREFIX + run;
        for (int i = 1; i <= nodeCount; i++) {
            String name = "n" + i;
            nodes.put(name, new NetworkNode(name, prefix + "-" + name, subnet + "." + (10 + i)));
        }
        this.shutdownHook = new Thread(this::close, "network-cleanup-" + run);
    }

    /** Creates the network of {@code nodeCount} nodes for run {@code run}; removes it again if any step fails. */
    public static Network create(CommandRunner runner, String run, String subnet, int nodeCount) {
        Network network = new Network(runner, run, subnet, nodeCount);
        Runtime.getRuntime().addShutdownHook(network.shutdownHook);
        try {
            network.created = true;
            RunOwners.system().claim(run);
            network.setUpCommands().forEach(runner::run);
        } catch (RuntimeException e) {
            network.close();
            throw e;
        }
        return network;
    }

    /** The commands that build the network, in order. */
    List<List<String>> setUpCommands() {
        String bridgeNs = bridgeNamespace();
        List<List<String>> commands = new ArrayList<>();
        commands.add(List.of("ip", "netns", "add", bridgeNs));
        commands.add(List.of("ip", "-n", bridgeNs, "link", "set", "lo", "up"));
        commands.add(List.of("ip", "-n", bridgeNs, "link", "add", "br0", "type", "bridge"));
        commands.add(List.of("ip", "-n", bridgeNs, "link", "set", "br0", "up"));
        for (NetworkNode node : nodes.values()) {
            String port = "v" + node.name();
            commands.add(List.of("ip", "netns", "add", node.namespace()));
            commands.add(List.of("ip", "-n", node.namespace(), "link", "set", "lo", "up"));
            commands.add(List.of("ip", "-n", bridgeNs, "link", "add", port, "type", "veth",
                    "peer", "name", "eth0", "netns", node.namespace()));
            commands.add(List.of("ip", "-n", bridgeNs, "link", "set", port, "master", "br0", "up"));
            commands.add(List.of("ip", "-n", node.namespace(), "addr", "add", node.address() + "/24", "dev", "eth0"));
            commands.add(List.of("ip", "-n", node.namespace(), "link", "set", "eth0", "up"));
        }
        commands.add(List.of("ip", "link", "add", hostInterface, "type", "veth", "peer", "name", "host",
                "netns", bridgeNs));
        commands.add(List.of("ip", "-n", bridgeNs, "link", "set", "host", "master", "br0", "up"));
        commands.add(List.of("ip", "addr", "add", hostAddress() + "/24", "dev", hostInterface));
        commands.add(List.of("ip", "link", "set", hostInterface, "up"));
        return commands;
    }

    /** The commands that remove everything this network created (deleting a namespace deletes its veths). */
    List<List<String>> tearDownCommands() {
        List<List<String>> commands = new ArrayList<>();
        commands.add(List.of("ip", "link", "del", hostInterface));
        for (NetworkNode node : nodes.values()) {
            commands.add(List.of("ip", "netns", "del", node.namespace()));
        }
        commands.add(List.of("ip", "netns", "del", bridgeNamespace()));
        return commands;
    }

    /** The routes that cut {@code a} from {@code b} in both directions. */
    List<List<String>> partitionCommands(Collection<NetworkNode> a, Collection<NetworkNode> b) {
        List<List<String>> commands = new ArrayList<>();
        for (NetworkNode from : a) {
            for (NetworkNode to : b) {
                commands.add(prohibitRoute(from, to));
                commands.add(prohibitRoute(to, from));
            }
        }
        return commands;
    }

    private static List<String> prohibitRoute(NetworkNode from, NetworkNode to) {
        return List.of("ip", "-n", from.namespace(), "route", "add", "prohibit", to.address() + "/32");
    }

    private static List<String> deleteRoute(List<String> add) {
        List<String> delete = new ArrayList<>(add);
        delete.set(delete.indexOf("add"), "del");
        return delete;
    }

    /**
     * Drops all traffic between the nodes of {@code a} and those of {@code b}, both ways; traffic within each group
     * and to nodes in neither is untouched. Partitions add up until {@link #heal()}.
     */
    public synchronized void partition(Set<NetworkNode> a, Set<NetworkNode> b) {
        Set<NetworkNode> overlap = new LinkedHashSet<>(a);
        overlap.retainAll(b);
        if (!overlap.isEmpty()) {
            throw new IllegalArgumentException("nodes " + overlap + " are on both sides of a partition");
        }
        for (List<String> command : partitionCommands(a, b)) {
            if (partitionRoutes.add(command)) {
                runner.run(command);
            }
        }
    }

    /** Removes every partition. */
    public synchronized void heal() {
        for (List<String> add : partitionRoutes) {
            runner.run(deleteRoute(add));
        }
        partitionRoutes.clear();
    }

    /** {@code command} run inside {@code node}'s namespace. */
    public List<String> inNamespace(NetworkNode node, List<String> command) {
        List<String> full = new ArrayList<>(List.of("ip", "netns", "exec", node.namespace()));
        full.addAll(command);
        return full;
    }

    public NetworkNode node(String name) {
        NetworkNode node = nodes.get(name);
        if (node == null) {
            throw new IllegalArgumentException("no node " + name + " in " + nodes.keySet());
        }
        return node;
    }

    public List<NetworkNode> nodes() {
        return List.copyOf(nodes.values());
    }

    public String bridgeNamespace() {
        return prefix + "-br";
    }

    /** The address of the host (root namespace) on this network. */
    public String hostAddress() {
        return subnet + ".1";
    }

    /** The host's end of its veth into the bridge, in the root namespace. */
    public String hostInterface() {
        return hostInterface;
    }

    public String prefix() {
        return prefix;
    }

    /** Removes everything this network created; idempotent, and every step is tried even if one fails. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (created) {
            for (List<String> command : tearDownCommands()) {
                try {
                    runner.run(command);
                } catch (RuntimeException e) {
                    // already gone (a failed set-up, or a namespace deleted with its peer): keep removing the rest
                }
            }
            RunOwners.system().release(run);
        }
        if (Thread.currentThread() != shutdownHook) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (IllegalStateException e) {
                // the JVM is shutting down; the hook runs anyway
            }
        }
    }

    /**
     * Removes the namespaces and host interfaces whose names start with {@code prefix}, left by runs that were killed
     * before they could clean up, after SIGKILL of the processes still running in those namespaces; the names it
     * removed. Runs whose owner (see {@link RunOwners}) is a live process are left alone.
     */
    public static List<String> cleanupStale(CommandRunner runner, String prefix) {
        RunOwners owners = RunOwners.system();
        return cleanupStale(runner, prefix, run -> owners.isLive(run));
    }

    /** As {@link #cleanupStale(CommandRunner, String)}, with {@code liveRun} telling which run ids are still owned. */
    static List<String> cleanupStale(CommandRunner runner, String prefix, java.util.function.Predicate<String> liveRun) {
        List<String> removed = new ArrayList<>();
        for (String name : staleInterfaces(runner.run(List.of("ip", "-o", "link", "show")), prefix)) {
            if (liveRun.test(runOf(name, prefix))) {
                continue;
            }
            tryRun(runner, List.of("ip", "link", "del", name), removed, name);
        }
        for (String name : staleNamespaces(runner.run(List.of("ip", "netns", "list")), prefix)) {
            if (liveRun.test(runOf(name, prefix))) {
                continue;
            }
            for (String pid : runner.run(List.of("ip", "netns", "pids", name)).split("\\s+")) {
                if (!pid.isEmpty()) {
                    tryRun(runner, List.of("kill", "-s", "KILL", pid), new ArrayList<>(), pid);
                }
            }
            tryRun(runner, List.of("ip", "netns", "del", name), removed, name);
        }
        return removed;
    }

    /** The run id in a host interface ({@code trib<run>}) or namespace ({@code trib-<run>-n1}) name. */
    static String runOf(String name, String prefix) {
        String rest = name.substring(prefix.length());
        if (rest.startsWith("-")) {
            rest = rest.substring(1);
        }
        int dash = rest.indexOf('-');
        return dash < 0 ? rest : rest.substring(0, dash);
    }

    private static void tryRun(CommandRunner runner, List<String> command, List<String> removed, String name) {
        try {
            runner.run(command);
            removed.add(name);
        } catch (RuntimeException e) {
            // gone meanwhile
        }
    }

    /** Namespace names in {@code ip netns list} output ("name" or "name (id: 3)") that start with {@code prefix}. */
    static List<String> staleNamespaces(String netnsList, String prefix) {
        List<String> names = new ArrayList<>();
        for (String line : netnsList.split("\n")) {
            String name = line.strip().split("\\s+")[0];
            if (!name.isEmpty() && name.startsWith(prefix)) {
                names.add(name);
            }
        }
        return names;
    }

    /** Interface names in {@code ip -o link show} output ("3: name@if2: <...") that start with {@code prefix}. */
    static List<String> staleInterfaces(String linkList, String prefix) {
        List<String> names = new ArrayList<>();
        for (String line : linkList.split("\n")) {
            String[] fields = line.strip().split(":\\s+", 3);
            if (fields.length < 2) {
                continue;
            }
            String name = fields[1].split("@")[0];
            if (name.startsWith(prefix)) {
                names.add(name);
            }
        }
        return names;
    }
}
