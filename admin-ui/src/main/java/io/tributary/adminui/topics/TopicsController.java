package io.tributary.adminui.topics;

import io.tributary.adminui.proxy.ProxyResources.Topic;
import io.tributary.adminui.proxy.ProxyResources.TopicUsage;
import io.tributary.adminui.proxy.RestProxyClient;
import io.tributary.adminui.proxy.RestProxyException;
import io.tributary.adminui.proxy.TopicStates;
import io.tributary.adminui.security.Rights;
import io.tributary.adminui.topics.TopicViews.ConfigChanges;
import io.tributary.adminui.topics.TopicViews.ConfigRow;
import io.tributary.adminui.topics.TopicViews.CreateTopicRequest;
import io.tributary.adminui.topics.TopicViews.FailedDeletion;
import io.tributary.adminui.topics.TopicViews.PartitionRow;
import io.tributary.adminui.topics.TopicViews.TopicDeletionRequest;
import io.tributary.adminui.topics.TopicViews.TopicDeletions;
import io.tributary.adminui.topics.TopicViews.TopicDetail;
import io.tributary.adminui.topics.TopicViews.TopicPage;
import io.tributary.adminui.topics.TopicViews.TopicRights;
import io.tributary.adminui.topics.TopicViews.TopicRow;
import io.tributary.adminui.topics.TopicViews.TopicSort;
import io.tributary.adminui.topics.TopicViews.UpdateTopicRequest;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.springframework.http.HttpStatus;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.DeleteMapping;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PatchMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * {@code /api/topics}: the topic list (filtered, sorted and paged here, from one proxy list call and
 * one usage call), topic creation and deletion (one or several; never internal topics), a topic's partitions (with their size on disk) and configs, adding
 * partitions and changing configs.
 *
 * <p>The proxy's topic list has no ISR, so the under-replicated count of a row comes from one
 * partition-state call per topic <em>on the page shown</em> (at most {@value #MAX_PAGE_SIZE}); the
 * cost of a page does not grow with the number of topics.
 */
@RestController
@RequestMapping("/api/topics")
public class TopicsController {

    /** Largest page served. */
    static final int MAX_PAGE_SIZE = 100;

    /** Kafka's config source of a value set on the topic itself. */
    static final String OVERRIDE_SOURCE = "DYNAMIC_TOPIC_CONFIG";

    private final RestProxyClient proxy;
    private final TopicStates states;
    private final Rights rights;

    /**
     * @param states partition states of the topics on a page
     * @param rights refuses changes the signed-in user may not make
     */
    public TopicsController(RestProxyClient proxy, TopicStates states, Rights rights) {
        this.proxy = proxy;
        this.states = states;
        this.rights = rights;
    }

    /**
     * Topics whose name contains {@code filter} (case-insensitive), internal ones only with
     * {@code internal=true}, sorted by {@code sort} (name, partitions, size, messages; ties and
     * unknown sizes after the others, by name) in {@code order} (asc, desc), page {@code page} (from 0)
     * of {@code size}. Sizes and message counts come from the proxy's {@code /topic-usage}: for the
     * page shown, or for every topic when sorting by them. 400 for a negative page, a size outside
     * 1..100, or an unknown sort or order.
     */
    @GetMapping
    public TopicPage list(@RequestParam(defaultValue = "") String filter, @RequestParam(defaultValue = "0") int page,
            @RequestParam(defaultValue = "20") int size, @RequestParam(defaultValue = "name") String sort,
            @RequestParam(defaultValue = "asc") String order, @RequestParam(defaultValue = "false") boolean internal) {
        if (page < 0 || size < 1 || size > MAX_PAGE_SIZE) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST,
                "page must be 0 or more and size between 1 and " + MAX_PAGE_SIZE);
        }
        TopicSort by = TopicListOrder.sort(sort);
        boolean descending = TopicListOrder.descending(order);
        String clusterId = proxy.cluster().clusterId();
        String needle = filter.strip().toLowerCase(Locale.ROOT);
        List<Topic> named = proxy.topics(clusterId).stream()
            .filter(t -> t.topicName().toLowerCase(Locale.ROOT).contains(needle)).toList();
        int internalCount = (int) named.stream().filter(Topic::internal).count();
        boolean byUsage = by == TopicSort.SIZE || by == TopicSort.MESSAGES;
        Map<String, TopicUsage> usage = byUsage ? proxy.topicUsage(clusterId, null) : null;
        List<Topic> matching = named.stream().filter(t -> internal || !t.internal())
            .sorted(TopicListOrder.comparator(by, descending, usage)).toList();
        long from = Math.min((long) page * size, matching.size());
        List<Topic> shown = matching.subList((int) from, (int) Math.min(from + size, matching.size()));
        if (usage == null) {
            usage = proxy.topicUsage(clusterId, shown.stream().map(Topic::topicName).toList());
        }
        Map<String, TopicStates.HealthCounts> health = states.healthOf(shown);
        Map<String, TopicUsage> sizes = usage;
        List<TopicRow> rows = shown.stream().map(t -> {
            TopicUsage u = sizes.get(t.topicName());
            return new TopicRow(t.topicName(), t.internal(), t.partitionsCount(), t.replicationFactor(),
                health.get(t.topicName()).underReplicated(), t.authorizedOperations(),
                u == null ? null : u.sizeBytes(), u == null ? null : u.messageCount());
        }).toList();
        return new TopicPage(matching.size(), internalCount, page, size, rows);
    }

    /** Creates a topic: 201 with no body, or the proxy's error (409 exists, 400 bad name/count/config). */
    @PostMapping
    public ResponseEntity<Void> create(@RequestBody CreateTopicRequest request) {
        if (request.name() == null || request.name().isBlank()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "A topic name is required");
        }
        rights.requireCluster("CREATE", "create topics");
        proxy.createTopic(proxy.cluster().clusterId(), request.name().strip(), request.partitions(),
            request.replicationFactor(), request.configs());
        return ResponseEntity.status(HttpStatus.CREATED).build();
    }

    /**
     * Deletes a topic: 204, 403 without DELETE on it, 400 for an internal topic (the brokers need it),
     * or the proxy's 404 when there is no such topic.
     */
    @DeleteMapping("/{name}")
    public ResponseEntity<Void> delete(@PathVariable String name) {
        rights.requireTopic(name, "DELETE", "delete");
        String clusterId = proxy.cluster().clusterId();
        if (isInternal(clusterId, name)) {
            throw refusedInternal(List.of(name));
        }
        proxy.deleteTopic(clusterId, name);
        return ResponseEntity.noContent().build();
    }

    /**
     * Deletes several topics: {@code {"names": [...]}}. Nothing is deleted when a name is blank (400),
     * a topic is internal (400, naming them) or the user may not delete one (403); else each is deleted
     * in turn and the answer says which were and which the proxy refused, with its message.
     */
    @PostMapping("/deletions")
    public TopicDeletions deleteMany(@RequestBody TopicDeletionRequest request) {
        Set<String> names = new LinkedHashSet<>();
        for (String name : request.names() == null ? List.<String>of() : request.names()) {
            if (name == null || name.isBlank()) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Every topic to delete needs a name");
            }
            names.add(name.strip());
        }
        if (names.isEmpty()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "No topic to delete");
        }
        String clusterId = proxy.cluster().clusterId();
        List<String> internal = proxy.topics(clusterId).stream().filter(t -> t.internal() && names.contains(t.topicName()))
            .map(Topic::topicName).toList();
        if (!internal.isEmpty()) {
            throw refusedInternal(internal);
        }
        names.forEach(name -> rights.requireTopic(name, "DELETE", "delete"));
        List<String> deleted = new ArrayList<>();
        List<FailedDeletion> failed = new ArrayList<>();
        for (String name : names) {
            try {
                proxy.deleteTopic(clusterId, name);
                deleted.add(name);
            } catch (RestProxyException e) {
                failed.add(new FailedDeletion(name, e.getMessage()));
            }
        }
        return new TopicDeletions(deleted, failed);
    }

    /** Whether the proxy marks the topic internal; a topic it does not know is not (its DELETE then says 404). */
    private boolean isInternal(String clusterId, String name) {
        try {
            return proxy.topic(clusterId, name).internal();
        } catch (RestProxyException e) {
            if (e.status() == 404) {
                return false;
            }
            throw e;
        }
    }

    private static ResponseStatusException refusedInternal(List<String> topics) {
        return new ResponseStatusException(HttpStatus.BAD_REQUEST, (topics.size() == 1 ? "Topic " + topics.get(0)
            + " is internal" : "Topics " + String.join(", ", topics) + " are internal")
            + ": the brokers keep their state there, so the admin UI does not delete internal topics");
    }

    /** What the caller may do on a topic; the proxy's 404 when they may not see it. */
    @GetMapping("/{name}/rights")
    public TopicRights rights(@PathVariable String name) {
        return new TopicRights(name, proxy.topic(proxy.cluster().clusterId(), name).authorizedOperations());
    }

    /**
     * A topic's partitions (leader, replicas, ISR, out-of-sync replicas, offsets, bytes on disk), their
     * total size, and its configs with where each value comes from (null for a user who may read the
     * topic but not its configs).
     */
    @GetMapping("/{name}")
    public TopicDetail detail(@PathVariable String name) {
        String clusterId = proxy.cluster().clusterId();
        List<PartitionRow> partitions = proxy.partitions(clusterId, name).stream()
            .sorted(Comparator.comparingInt(p -> p.partitionId()))
            .map(p -> new PartitionRow(p.partitionId(), p.leaderId(), nullToEmpty(p.replicaIds()),
                nullToEmpty(p.isrIds()), p.outOfSyncReplicaIds() != null ? p.outOfSyncReplicaIds()
                    : nullToEmpty(p.replicaIds()).stream().filter(id -> !nullToEmpty(p.isrIds()).contains(id)).toList(),
                p.earliestOffset(), p.latestOffset(), p.sizeBytes()))
            .toList();
        Long total = partitions.stream().map(PartitionRow::sizeBytes).filter(Objects::nonNull)
            .reduce(Long::sum).orElse(null);
        return new TopicDetail(name, total, partitions, configs(clusterId, name));
    }

    /** The topic's configs by name; null when the caller may not see them (403: no DESCRIBE_CONFIGS). */
    private List<ConfigRow> configs(String clusterId, String name) {
        try {
            return proxy.configs(clusterId, name).stream()
                .sorted(Comparator.comparing(c -> c.name()))
                .map(c -> new ConfigRow(c.name(), c.sensitive() ? null : c.value(), c.isDefault(),
                    OVERRIDE_SOURCE.equals(c.source()), c.readOnly(), c.sensitive(), c.source()))
                .toList();
        } catch (RestProxyException e) {
            if (e.status() == 403) {
                return null;
            }
            throw e;
        }
    }

    /**
     * Adds partitions: {@code {"partitions": N}} with N above the topic's current count; 204, 400 when N
     * is missing or not above the current count (the proxy is then not asked to change anything), or
     * the proxy's error (404 no such topic, 400 from Kafka).
     */
    @PatchMapping("/{name}")
    public ResponseEntity<Void> addPartitions(@PathVariable String name, @RequestBody UpdateTopicRequest request) {
        if (request.partitions() == null) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "partitions (the new partition count) is required");
        }
        rights.requireTopic(name, "ALTER", "add partitions to");
        String clusterId = proxy.cluster().clusterId();
        int current = proxy.topic(clusterId, name).partitionsCount();
        if (request.partitions() <= current) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Topic " + name + " has " + current
                + (current == 1 ? " partition" : " partitions") + ": the new count must be more than " + current
                + " (partitions can only be added)");
        }
        proxy.addPartitions(clusterId, name, request.partitions());
        return ResponseEntity.noContent().build();
    }

    /**
     * Changes configs in one batch: {@code {"set": {name: value}, "reset": [name]}}, sent to the proxy
     * as one {@code configs:alter} (SET and DELETE operations). 204; 400 for an empty batch, a blank
     * name, a null value or a name both set and reset; else the proxy's error with Kafka's message
     * (e.g. an invalid value or an unknown config).
     */
    @PutMapping("/{name}/configs")
    public ResponseEntity<Void> changeConfigs(@PathVariable String name, @RequestBody ConfigChanges changes) {
        Map<String, String> set = new LinkedHashMap<>();
        if (changes.set() != null) {
            for (Map.Entry<String, String> entry : changes.set().entrySet()) {
                String config = requireName(entry.getKey());
                if (entry.getValue() == null) {
                    throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Config " + config + " has no value: "
                        + "put it in \"reset\" to bring back its default");
                }
                set.put(config, entry.getValue());
            }
        }
        Set<String> reset = new LinkedHashSet<>();
        for (String raw : changes.reset() == null ? List.<String>of() : changes.reset()) {
            String config = requireName(raw);
            if (set.containsKey(config)) {
                throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Config " + config
                    + " is both set and reset");
            }
            reset.add(config);
        }
        if (set.isEmpty() && reset.isEmpty()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "No config to set or reset");
        }
        rights.requireTopic(name, "ALTER_CONFIGS", "change the configs of");
        proxy.alterConfigs(proxy.cluster().clusterId(), name, set, List.copyOf(reset));
        return ResponseEntity.noContent().build();
    }

    private static String requireName(String config) {
        if (config == null || config.isBlank()) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "Every config needs a name");
        }
        return config.strip();
    }

    private static List<Integer> nullToEmpty(List<Integer> ids) {
        return ids == null ? List.of() : ids;
    }
}
